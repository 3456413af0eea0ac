// The PostgreSQL cluster under FerretDB: loopback port, trust auth, socket dir of its own so it
// never clashes with a system PostgreSQL. PostgreSQL refuses to run as root, so as root every
// server-side command runs as the `postgres` user (DESIGN.md, "The embedded database").
import { createHash } from 'node:crypto';
import { chownSync, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { aptInstall, isRoot, run, succeeds, waitUntil, type Config } from './util.ts';

export interface PgPaths { bin: string; cluster: string; socketDir: string; logFile: string }

function pgBinDir(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'pg_ctl')));
  versions.sort((a, b) => Number(b) - Number(a)); // newest first; 15 on Debian 12
  return versions[0] ? path.join(root, versions[0], 'bin') : undefined;
}

/** As root, wraps a command so it runs as the postgres user. */
function asPg(cmd: string, args: string[]): [string, string[]] {
  return isRoot() ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
}

async function postgresCanReach(dir: string): Promise<boolean> {
  return !isRoot() || succeeds('runuser', ['-u', 'postgres', '--', 'test', '-x', dir, '-a', '-r', dir]);
}

/**
 * Where the cluster lives. Normally <data>/pg; as root with the data dir somewhere the postgres user
 * cannot traverse (e.g. a clone under /root), a fixed per-data-dir folder under /var/lib instead.
 */
export async function pgPaths(cfg: Config, install = false): Promise<PgPaths | undefined> {
  let bin = pgBinDir();
  if (!bin && install) {
    await aptInstall('postgresql', cfg.log);
    bin = pgBinDir();
  }
  if (!bin) return undefined;
  const tag = createHash('sha256').update(cfg.data).digest('hex').slice(0, 10);
  const home = (await postgresCanReach(cfg.data)) ? cfg.data : `/var/lib/drift-services/${tag}`;
  let socketDir = path.join(home, 'run');
  // Unix socket paths are limited to ~107 bytes.
  if (Buffer.byteLength(path.join(socketDir, `.s.PGSQL.${cfg.pgPort}`)) > 100) socketDir = path.join(tmpdir(), `drift-pg-${tag}`);
  const logFile = home === cfg.data ? path.join(cfg.logs, 'postgres.log') : path.join(home, 'postgres.log');
  return { bin, cluster: path.join(home, 'pg'), socketDir, logFile };
}

export const pgReady = (p: PgPaths, cfg: Config): Promise<boolean> =>
  succeeds(path.join(p.bin, 'pg_isready'), ['-q', '-h', '127.0.0.1', '-p', String(cfg.pgPort)]);

/** As root, the uid/gid that must own what the server writes; undefined when we are not root. */
async function pgOwner(): Promise<[number, number] | undefined> {
  if (!isRoot()) return undefined;
  const out = await run('id', ['postgres']).catch(() => {
    throw new Error('running as root but there is no "postgres" user; install the postgresql package');
  });
  return [Number(/uid=(\d+)/.exec(out)?.[1]), Number(/gid=(\d+)/.exec(out)?.[1])];
}

function ownDir(dir: string, mode: number, owner: [number, number] | undefined): void {
  mkdirSync(dir, { recursive: true, mode });
  if (owner) chownSync(dir, ...owner);
}

export async function startPg(p: PgPaths, cfg: Config): Promise<void> {
  const owner = await pgOwner();
  mkdirSync(path.dirname(p.cluster), { recursive: true });
  if (!existsSync(path.join(p.cluster, 'PG_VERSION'))) {
    ownDir(p.cluster, 0o700, owner);
    cfg.log(`postgres: initialising cluster in ${p.cluster}`);
    await run(...asPg(path.join(p.bin, 'initdb'), ['-D', p.cluster, '-U', 'postgres', '--auth=trust', '--encoding=UTF8', '--locale=C']));
  }
  ownDir(p.socketDir, 0o755, owner);
  mkdirSync(path.dirname(p.logFile), { recursive: true });
  if (!existsSync(p.logFile)) writeFileSync(p.logFile, '');
  if (owner) chownSync(p.logFile, ...owner);
  // Options on the command line rather than in postgresql.conf so port overrides take effect.
  let opts = `-c listen_addresses=127.0.0.1 -p ${cfg.pgPort} -k '${p.socketDir}'`;
  // A cluster whose data is thrown away after the run (CI) need not survive a power cut: without
  // fsync, creating a test database's tables and indexes takes a quarter of the time.
  if (!cfg.pgDurable) opts += ' -c fsync=off -c synchronous_commit=off -c full_page_writes=off';
  const timeout = String(Math.ceil(cfg.timeoutMs / 1000));
  try {
    // pg_ctl detaches the postmaster itself and, with -w, waits until it accepts connections.
    await run(...asPg(path.join(p.bin, 'pg_ctl'), ['start', '-w', '-t', timeout, '-D', p.cluster, '-l', p.logFile, '-o', opts]));
  } catch (e) {
    throw new Error(`postgres failed to start; see ${p.logFile}\n${(e as Error).message}`);
  }
  await waitUntil('postgres', () => pgReady(p, cfg), cfg, p.logFile);
}

export async function ensureFerretDatabase(p: PgPaths, cfg: Config): Promise<void> {
  // Over TCP, like pgReady and FerretDB: a server another checkout started has its socket in
  // that checkout's data folder, not in this one's.
  const conn = ['-h', '127.0.0.1', '-p', String(cfg.pgPort), '-U', 'postgres'];
  const found = await run(...asPg(path.join(p.bin, 'psql'), [...conn, '-d', 'postgres', '-tAc', "SELECT 1 FROM pg_database WHERE datname = 'ferretdb'"]));
  if (found.trim() !== '1') await run(...asPg(path.join(p.bin, 'createdb'), [...conn, 'ferretdb']));
}

/** Fast shutdown; a no-op when the cluster is absent or already stopped. */
export async function stopPg(p: PgPaths): Promise<boolean> {
  if (!existsSync(path.join(p.cluster, 'postmaster.pid'))) return false;
  const [cmd, args] = asPg(path.join(p.bin, 'pg_ctl'), ['status', '-D', p.cluster]);
  if (!(await succeeds(cmd, args))) return false;
  await run(...asPg(path.join(p.bin, 'pg_ctl'), ['stop', '-m', 'fast', '-w', '-D', p.cluster]));
  return true;
}
