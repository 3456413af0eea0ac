// stripe-mock, Stripe's own API emulator, as the payment provider for tests and the demo
// (DESIGN.md, "Real parts"). Installed once with `go install github.com/stripe/stripe-mock@<STRIPE_MOCK_VERSION>`
// into <data>/bin (GOBIN), started detached on 127.0.0.1:<stripePort> over plain HTTP.
// DRIFT_STRIPE_MOCK_URL, when set, names an external one and nothing is installed or started.
// stripe-mock answers from fixtures and keeps no state (a retrieved object is its fixture with
// the requested id), which is why the billing tests add a loopback front (test/stripe-front.ts).
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { findExe, livePid, run, spawnDetached, stopByPidFile, tcpOpen, waitUntil, type Config } from './util.ts';

export interface StripeMockState { url: string; started: boolean; external: boolean }

export const stripeMockPidFile = (cfg: Config) => path.join(cfg.data, 'stripe-mock.pid');
export const localStripeMockUrl = (cfg: Config) => `http://127.0.0.1:${cfg.stripePort}`;
/** Pinned, so every machine tests against the same emulator (the issue named @latest; this was latest then). */
export const STRIPE_MOCK_VERSION = 'v0.203.0';
const MODULE = `github.com/stripe/stripe-mock@${STRIPE_MOCK_VERSION}`;
const binary = (cfg: Config) => path.join(cfg.data, 'bin', 'stripe-mock');

/** True when a Stripe API answers on `url` as stripe-mock does (a list of prices with any test key). */
export async function stripeMockPing(url: string, timeoutMs = 2000): Promise<boolean> {
  try {
    const res = await request(`${url.replace(/\/$/, '')}/v1/prices?limit=1`, {
      signal: AbortSignal.timeout(timeoutMs), headers: { authorization: 'Bearer sk_test_ping' },
    });
    const body = (await res.body.json()) as { object?: string };
    return res.statusCode === 200 && body.object === 'list';
  } catch {
    return false;
  }
}

/** The stripe-mock executable, installed with `go install` when missing (seconds when the module cache has it). */
export async function stripeMockBinary(cfg: Config): Promise<string> {
  const exe = binary(cfg);
  if (existsSync(exe)) return exe;
  const go = findExe('go', ['/usr/local/go/bin', '/usr/lib/go/bin']);
  if (!go) throw new Error(`Go is needed to install stripe-mock (go install ${MODULE}) but \`go\` is not installed`);
  mkdirSync(path.dirname(exe), { recursive: true });
  const log = path.join(cfg.logs, 'stripe-mock-install.log');
  cfg.log(`stripe-mock installing with go install into ${path.dirname(exe)} (log ${log})`);
  try {
    writeFileSync(log, await run(go, ['install', MODULE], {
      cwd: cfg.data, env: { ...process.env, GOBIN: path.dirname(exe), GOFLAGS: `${process.env.GOFLAGS ?? ''} -buildvcs=false`.trim() },
    }));
  } catch (e) {
    writeFileSync(log, `${(e as Error).message}\n`);
    throw new Error(`installing stripe-mock failed; see ${log}`);
  }
  if (!existsSync(exe)) throw new Error(`stripe-mock is still missing after go install (expected ${exe})`);
  return exe;
}

/** Starts stripe-mock unless it already answers (or DRIFT_STRIPE_MOCK_URL names one); waits for it. */
export async function ensureStripeMock(cfg: Config, env: NodeJS.ProcessEnv = process.env): Promise<StripeMockState> {
  if (env.DRIFT_STRIPE_MOCK_URL) return { url: env.DRIFT_STRIPE_MOCK_URL, started: false, external: true };
  const url = localStripeMockUrl(cfg);
  if (await stripeMockPing(url)) return { url, started: false, external: false };
  if (await tcpOpen(cfg.stripePort)) {
    throw new Error(`port ${cfg.stripePort} is taken by something that does not answer as stripe-mock; free it or set DRIFT_STRIPE_PORT`);
  }
  const exe = await stripeMockBinary(cfg);
  const log = path.join(cfg.logs, 'stripe-mock.log');
  // HTTPS on a port the system picks: its default, 12112, may be another checkout's.
  const child = spawnDetached(exe, ['-http-addr', `127.0.0.1:${cfg.stripePort}`, '-https-addr', '127.0.0.1:'], log, stripeMockPidFile(cfg), cfg.data);
  await waitUntil('stripe-mock', () => stripeMockPing(url), cfg, log, child);
  return { url, started: true, external: false };
}

export const stopStripeMock = (cfg: Config): Promise<boolean> => stopByPidFile(stripeMockPidFile(cfg), 'stripe-mock');
export const stripeMockPid = (cfg: Config): number | undefined => livePid(stripeMockPidFile(cfg), 'stripe-mock');
