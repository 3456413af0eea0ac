// Helpers of the benchmark: child server processes, HTTP calls, autocannon runs, tables.
// Servers are separate processes so the load generator (this process) and the server
// under test never share an event loop.
import { request, type Dispatcher } from 'undici';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface Target { name: string; url: string; pid: number; stop(): Promise<void> }

// Every child ever started, so a failure anywhere (or Ctrl-C) still ends them.
const children = new Set<ChildProcess>();
process.on('exit', () => { for (const c of children) c.kill('SIGKILL'); });

/** Which Node runs a server, with its arguments before the script (the runtime bench compares two), and how long it may take to print its port. */
export interface ServerRuntime { node: string; args: string[]; portTimeoutMs: number }
const THIS_RUNTIME: ServerRuntime = { node: process.execPath, args: [], portTimeoutMs: 60_000 };

/** Starts `node scripts/bench/server.ts <mode>`; resolves with the port it prints. */
export function startServer(name: string, mode: 'bare' | 'app', env: Record<string, string> = {}, runtime: ServerRuntime = THIS_RUNTIME): Promise<Target> {
  const child = spawn(runtime.node, [...runtime.args, path.join(REPO, 'scripts/bench/server.ts'), mode], {
    cwd: REPO, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => { stderr = (stderr + d.toString()).slice(-4000); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => { children.delete(child); resolve(code); }));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM'); // the app server drops its database on SIGTERM
    const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise((resolve, reject) => {
    let settled = false;
    const fail = (why: string) => {
      if (settled) return;
      settled = true;
      void stop().then(() => reject(new Error(`server ${name} (${mode}) ${why}\n${stderr.trim()}`)));
    };
    const timer = setTimeout(() => fail(`did not print its port within ${runtime.portTimeoutMs / 1000}s`), runtime.portTimeoutMs);
    void exited.then((code) => { clearTimeout(timer); fail(`exited with ${code} before ready`); });
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      const port = Number(line.trim());
      if (!Number.isInteger(port) || port <= 0) return fail(`printed "${line}" instead of a port`);
      settled = true;
      resolve({ name, url: `http://127.0.0.1:${port}`, pid: child.pid!, stop });
    });
  });
}

/** One JSON request; throws unless the status is the expected one. */
export async function call<T = Record<string, unknown>>(
  url: string, method: string, pathname: string, opts: { token?: string; body?: unknown; expect?: number } = {},
): Promise<T> {
  const headers: Record<string, string> = {};
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await request(url + pathname, { method: method as Dispatcher.HttpMethod, headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  const text = await res.body.text();
  if (res.statusCode !== (opts.expect ?? 200)) throw new Error(`${method} ${pathname} -> ${res.statusCode}: ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : {}) as T;
}

export interface LoadFigures {
  reqPerSec: number; meanMs: number; p99Ms: number; total: number; non2xx: number; errors: number;
  /** Server process CPU time per request (µs) and its busy share of one core during the run. */
  cpuUsPerReq: number; serverCpuPct: number;
}

export type CannonOptions = Omit<autocannon.Options, 'url'> & { url: string };

const TICKS = (() => { try { return Number(execFileSync('getconf', ['CLK_TCK']).toString()) || 100; } catch { return 100; } })();

/** CPU seconds (user + system) a process has used so far, from /proc (Linux); NaN elsewhere. */
function cpuSeconds(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state)
    return (Number(fields[11]) + Number(fields[12])) / TICKS;
  } catch {
    return Number.NaN;
  }
}

/** A run's length: seconds, or a number of requests (autocannon then waits for every answer). */
export type RunLength = { duration: number } | { amount: number };

/**
 * Runs a warm-up (discarded: JIT, caches, pools), then the measured run.
 * With 2 cores the load generator can saturate before the server does, which would squash
 * every req/s ratio towards 1; the server's own CPU time per request does not depend on that,
 * and its busy share shows whether the server was the bottleneck.
 */
export async function load(opts: CannonOptions, pid: number, warm: RunLength, run: RunLength): Promise<LoadFigures> {
  if ('amount' in warm ? warm.amount > 0 : warm.duration > 0) await autocannon({ ...opts, ...warm });
  const cpu0 = cpuSeconds(pid);
  const t0 = performance.now();
  const r = await autocannon({ ...opts, ...run });
  const cpu = cpuSeconds(pid) - cpu0;
  const wall = (performance.now() - t0) / 1000;
  return {
    // Total over wall time: autocannon's per-second average is coarse for short counted runs.
    reqPerSec: r.requests.total / wall, meanMs: r.latency.mean, p99Ms: r.latency.p99,
    total: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts,
    cpuUsPerReq: (cpu * 1e6) / r.requests.total, serverCpuPct: (100 * cpu) / wall,
  };
}

/** A fixed-width text table; numbers right-aligned. */
export function table(head: string[], rows: (string | number)[][]): string {
  const cells = [head, ...rows.map((r) => r.map((c) => (typeof c === 'number' ? fmt(c) : c)))];
  const widths = head.map((_, i) => Math.max(...cells.map((r) => String(r[i] ?? '').length)));
  const line = (r: (string | number)[]) => r.map((c, i) => (typeof rows[0]?.[i] === 'number'
    ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]))).join('  ');
  return [line(cells[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export const fmt = (n: number) => (Number.isInteger(n) ? String(n)
  : Math.abs(n) >= 100 ? n.toFixed(0) : Math.abs(n) >= 0.01 ? n.toFixed(2) : n.toPrecision(2));
