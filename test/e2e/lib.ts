// Real processes for the end-to-end tests: the service (app-process.ts) and the runner agent
// (runner-agent/bin/drift-runner.js), plus a control app in the test process on the same
// database for what no route offers (plan changes, fields the API does not take yet).
import { spawn, type ChildProcess } from 'node:child_process';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Test } from 'tap';
import { buildApp, type App } from '../../core/app.ts';
import { loadConfig } from '../../core/config.ts';
import { ROOT } from '../../core/loader.ts';
import { serviceUrls, TEST_SECRETS } from '../helper.ts';

export interface Proc { child: ChildProcess; output: () => string; exited: Promise<number | null> }

const LOGS = join(ROOT, '.data', 'logs');
const started = new Set<string>();

/** Keeps the last output in memory and the whole run's in .data/logs/<name>.log (a failure's post-mortem). */
function track(child: ChildProcess, name: string): Proc {
  let out = '';
  mkdirSync(LOGS, { recursive: true });
  if (!started.has(name)) writeFileSync(join(LOGS, `${name}.log`), ''); // one file per kind, from this run only
  started.add(name);
  const keep = (d: Buffer) => { out = (out + d.toString()).slice(-20_000); appendFileSync(join(LOGS, `${name}.log`), d); };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => out, exited };
}

/** The control app: same database and Redis prefix as the service processes, no listener, no jobs. */
export async function controlApp(t: Test): Promise<App & { db: string; prefix: string }> {
  const { mongoUri, redisUrl } = serviceUrls();
  const db = `e2e_${randomBytes(4).toString('hex')}`;
  const prefix = `${db}:`;
  const config = loadConfig({}, {
    MONGODB_URI: mongoUri, REDIS_URL: redisUrl, MONGODB_DB: db, REDIS_KEY_PREFIX: prefix, NODE_ENV: 'test', LOG_LEVEL: 'silent',
    MAIL_OUTBOX_DIR: join(ROOT, '.data', 'test-outbox', db), ...TEST_SECRETS,
  });
  config.operator = { plugins: {} };
  const built = await buildApp({ config, logger: false });
  t.teardown(async () => {
    await built.ctx.db.db.dropDatabase().catch(() => undefined);
    const keys = await built.ctx.redis.main.keys('*').catch(() => [] as string[]);
    if (keys.length) await built.ctx.redis.main.del(...keys.map((k) => k.slice(prefix.length))).catch(() => undefined);
    await built.app.close();
  });
  return { ...built, db, prefix };
}

/** Starts the service; resolves with its base URL once it printed its port. */
export async function startService(t: Test, env: Record<string, string>): Promise<Proc & { url: string; port: number }> {
  const child = spawn(process.execPath, [join(ROOT, 'test/e2e/app-process.ts')], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const proc = track(child, 'e2e-service');
  t.teardown(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start in 90s\n${proc.output()}`)), 90_000);
    void proc.exited.then((code) => { clearTimeout(timer); reject(new Error(`service exited with ${code}\n${proc.output()}`)); });
    createInterface({ input: child.stdout! }).once('line', (line) => { clearTimeout(timer); resolve(Number(line.trim())); });
  });
  return { ...proc, port, url: `http://127.0.0.1:${port}` };
}

/** Starts `drift-runner start` as its own process. */
export function startAgent(t: Test, args: string[], env: Record<string, string> = {}): Proc {
  const child = spawn(process.execPath, [join(ROOT, 'runner-agent/bin/drift-runner.js'), 'start', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  t.teardown(() => { if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL'); });
  return track(child, 'e2e-agent');
}

export async function until<T>(what: string, fn: () => Promise<T | undefined | null | false>, timeoutMs = 120_000, everyMs = 200): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** JSON over real HTTP with a bearer token. */
export async function http(base: string, method: string, path: string, token?: string, body?: unknown) {
  const res = await fetch(base + path, {
    method, headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : null };
}
