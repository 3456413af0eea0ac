// moto, the AWS API emulator from PyPI, as the cloud_a endpoint for tests and the demo
// (DESIGN.md, "Real parts"). Installed once into <data>/venv (python3 -m venv; pip install
// 'moto[server]', about a minute the first time), started detached on 127.0.0.1:<motoPort>.
// DRIFT_MOTO_URL, when set, names an external moto and nothing is installed or started.
import { request } from 'undici';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { aptInstall, findExe, livePid, run, spawnDetached, stopByPidFile, tcpOpen, waitUntil, type Config } from './util.ts';

export interface MotoState { url: string; started: boolean; external: boolean }

export const motoPidFile = (cfg: Config) => path.join(cfg.data, 'moto.pid');
export const localMotoUrl = (cfg: Config) => `http://127.0.0.1:${cfg.motoPort}`;
const venvDir = (cfg: Config) => path.join(cfg.data, 'venv');
const motoExe = (cfg: Config) => path.join(venvDir(cfg), 'bin', 'moto_server');

/**
 * True when an AWS API answers on `url` as moto does (STS GetCallerIdentity, moto's default account).
 * Cheap whatever moto holds; /moto-api/data.json dumps every resource and gets slow as tests add them.
 */
export async function motoPing(url: string, timeoutMs = 3000): Promise<boolean> {
  try {
    const res = await request(`${url.replace(/\/$/, '')}/`, {
      method: 'POST', signal: AbortSignal.timeout(timeoutMs),
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: 'AWS4-HMAC-SHA256 Credential=ping/20240101/us-east-1/sts/aws4_request, SignedHeaders=host, Signature=0' },
      body: 'Action=GetCallerIdentity&Version=2011-06-15',
    });
    const text = await res.body.text();
    return res.statusCode === 200 && text.includes('<GetCallerIdentityResponse');
  } catch {
    return false;
  }
}

/** The moto_server executable, creating the venv and installing moto[server] when missing. */
export async function motoBinary(cfg: Config): Promise<string> {
  const exe = motoExe(cfg);
  if (existsSync(exe)) return exe;
  const python = findExe('python3', ['/usr/bin', '/usr/local/bin']);
  if (!python) throw new Error('python3 is needed to install moto (cloud_a emulator) but is not installed');
  const venv = venvDir(cfg);
  const log = path.join(cfg.logs, 'moto-install.log');
  cfg.log(`moto     installing moto[server] into ${venv} (about a minute the first time; log ${log})`);
  try {
    await run(python, ['-m', 'venv', venv]);
  } catch {
    // Debian's python3 ships venv (and ensurepip) separately.
    rmSync(venv, { recursive: true, force: true });
    await aptInstall('python3-venv', cfg.log);
    await run(python, ['-m', 'venv', venv]);
  }
  try {
    writeFileSync(log, await run(path.join(venv, 'bin', 'pip'), ['install', '--disable-pip-version-check', 'moto[server]']));
  } catch (e) {
    // A half-installed venv would be taken as done by the existsSync check next time.
    rmSync(venv, { recursive: true, force: true });
    writeFileSync(log, `${(e as Error).message}\n`);
    throw new Error(`installing moto[server] failed; see ${log}`);
  }
  if (!existsSync(exe)) throw new Error(`moto_server is still missing after installing moto[server] into ${venv}`);
  return exe;
}

/**
 * The SCIM validator's CLI (`scim2 test`, PyPI scim2-cli + scim2-tester, pinned) in the same
 * venv, so `npm test` runs the third-party validator on any machine the README's commands set up.
 * A failed install is logged and left to the test, which then skips naming the reason.
 */
export const SCIM_TOOLS = ['scim2-cli==0.6.0', 'scim2-tester==0.5.2'];
export const scimCliPath = (cfg: Config) => path.join(venvDir(cfg), 'bin', 'scim2');
export async function ensureScimCli(cfg: Config): Promise<string | null> {
  const exe = scimCliPath(cfg);
  if (existsSync(exe)) return exe;
  if (!existsSync(path.join(venvDir(cfg), 'bin', 'pip'))) return null;
  const log = path.join(cfg.logs, 'scim2-install.log');
  cfg.log(`scim2    installing ${SCIM_TOOLS.join(' ')} into ${venvDir(cfg)} (log ${log})`);
  try {
    writeFileSync(log, await run(path.join(venvDir(cfg), 'bin', 'pip'), ['install', '--disable-pip-version-check', ...SCIM_TOOLS]));
  } catch (e) {
    writeFileSync(log, `${(e as Error).message}\n`);
    cfg.log(`scim2    install failed; see ${log}`);
  }
  return existsSync(exe) ? exe : null;
}

/** Starts moto unless it already answers (or DRIFT_MOTO_URL names an external one); waits for it. */
export async function ensureMoto(cfg: Config, env: NodeJS.ProcessEnv = process.env): Promise<MotoState> {
  if (env.DRIFT_MOTO_URL) return { url: env.DRIFT_MOTO_URL, started: false, external: true };
  const url = localMotoUrl(cfg);
  if (await motoPing(url)) return { url, started: false, external: false };
  if (await tcpOpen(cfg.motoPort)) {
    throw new Error(`port ${cfg.motoPort} is taken by something that does not answer as moto; free it or set DRIFT_MOTO_PORT`);
  }
  const exe = await motoBinary(cfg);
  const log = path.join(cfg.logs, 'moto.log');
  const child = spawnDetached(exe, ['-H', '127.0.0.1', '-p', String(cfg.motoPort)], log, motoPidFile(cfg), cfg.data);
  await waitUntil('moto', () => motoPing(url), cfg, log, child);
  return { url, started: true, external: false };
}

export const stopMoto = (cfg: Config): Promise<boolean> => stopByPidFile(motoPidFile(cfg), 'moto_server');
export const motoPid = (cfg: Config): number | undefined => livePid(motoPidFile(cfg), 'moto_server');
