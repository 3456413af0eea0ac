// Small process helpers shared by the local-service starters (see scripts/services.ts).
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, existsSync, openSync, closeSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { createConnection } from 'node:net';
import path from 'node:path';

export interface Config {
  repo: string;
  data: string; // DRIFT_DATA_DIR or <repo>/.data
  logs: string;
  pgPort: number;
  mongoPort: number;
  redisPort: number;
  motoPort: number; // cloud_a emulator (moto), DRIFT_MOTO_PORT
  stripePort: number; // payment provider emulator (stripe-mock), DRIFT_STRIPE_PORT
  timeoutMs: number; // how long one part may take to answer after start
  /** DRIFT_PG_DURABILITY=off: PostgreSQL without fsync, for data thrown away after the run (CI). */
  pgDurable: boolean;
  log: (line: string) => void;
}

export const isRoot = (): boolean => process.getuid?.() === 0;
export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Runs a command to completion; the error carries its output so failures explain themselves. */
export function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(cmd, args, { ...opts, maxBuffer: 64 << 20 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${cmd} ${args.join(' ')} failed: ${err.message}\n${stdout}${stderr}`.trim()));
      else resolve(stdout);
    });
  });
}

/** Resolves to whether the command exited 0 (for probes such as pg_isready). */
export function succeeds(cmd: string, args: string[]): Promise<boolean> {
  return new Promise((resolve) => execFile(cmd, args, (err) => resolve(!err)));
}

export function findExe(name: string, extraDirs: string[] = []): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(path.delimiter), ...extraDirs].filter(Boolean);
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch { /* not here */ }
  }
  return undefined;
}

/** Installs a Debian package; only root can, so anyone else gets told what is missing. */
export async function aptInstall(pkg: string, log: (l: string) => void): Promise<void> {
  if (!isRoot()) throw new Error(`${pkg} is not installed; install it (apt-get install ${pkg}) and retry`);
  log(`installing ${pkg} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  try {
    await run('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env });
  } catch {
    // A fresh machine often has no package lists yet.
    await run('apt-get', ['update'], { env });
    await run('apt-get', ['install', '-y', '--no-install-recommends', pkg], { env });
  }
}

/** Whether something accepts TCP connections on 127.0.0.1:port (fast pre-check before a protocol ping). */
export function tcpOpen(port: number, timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const sock = createConnection({ host: '127.0.0.1', port });
    const done = (ok: boolean) => { sock.destroy(); resolve(ok); };
    sock.setTimeout(timeoutMs, () => done(false));
    sock.once('connect', () => done(true));
    sock.once('error', () => done(false));
  });
}

/** Starts a long-lived process that outlives this script: own session, output to a log file. */
export function spawnDetached(cmd: string, args: string[], logFile: string, pidFile: string, cwd: string): ChildProcess {
  const fd = openSync(logFile, 'a');
  const child = spawn(cmd, args, { cwd, detached: true, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  child.on('error', () => { /* reported through the exit check in waitUntil */ });
  child.unref();
  if (child.pid) writeFileSync(pidFile, `${child.pid}\n`);
  return child;
}

/** Polls `check` until true; fails early if `child` dies, or after timeoutMs, naming the part and its log. */
export async function waitUntil(
  part: string, check: () => Promise<boolean>, cfg: Config, logFile: string, child?: ChildProcess,
): Promise<void> {
  const deadline = Date.now() + cfg.timeoutMs;
  let exited: string | undefined;
  child?.once('exit', (code, sig) => { exited = `exited with ${sig ?? code}`; });
  child?.once('error', (e) => { exited = `failed to start: ${e.message}`; });
  while (Date.now() < deadline) {
    if (await check()) return;
    if (exited) throw new Error(`${part} ${exited} before answering; see ${logFile}`);
    await sleep(250);
  }
  throw new Error(`${part} did not answer within ${cfg.timeoutMs / 1000}s; see ${logFile}`);
}

/** The pid in pidFile, if that process is alive and is still the program we started (pids get reused). */
export function livePid(pidFile: string, program: string): number | undefined {
  if (!existsSync(pidFile)) return undefined;
  const pid = Number(readFileSync(pidFile, 'utf8').trim());
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  try {
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes(program) ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** SIGTERM the pid-file process and wait for it to go (Redis saves its dump on the way out). */
export async function stopByPidFile(pidFile: string, program: string, waitMs = 30_000): Promise<boolean> {
  const pid = livePid(pidFile, program);
  if (pid === undefined) {
    rmSync(pidFile, { force: true });
    return false;
  }
  process.kill(pid, 'SIGTERM');
  const deadline = Date.now() + waitMs;
  while (livePid(pidFile, program) !== undefined && Date.now() < deadline) await sleep(100);
  if (livePid(pidFile, program) !== undefined) {
    process.kill(pid, 'SIGKILL');
    // Until the kernel has reaped it, its listening port is still taken.
    for (let i = 0; i < 50 && livePid(pidFile, program) !== undefined; i++) await sleep(100);
  }
  rmSync(pidFile, { force: true });
  return true;
}
