// Runtime benchmark (issue #20): the service on the old runtime path (Node 20 + tsx's loader)
// against the new one (the project's Node 26, its own type stripping), in the same run:
// start-up time from spawn to the first 200 on GET /health (the real app, scripts/bench/server.ts
// app), and GET /api/auth/me throughput and server CPU per request, every round (medians). `npm run bench -- runtime`.
// BENCH_OLD_NODE (default /usr/bin/node) is the old runtime; BENCH_ROUNDS (default 3) the
// start-ups per runtime, alternated; BENCH_SECONDS / BENCH_WARMUP as for the engine bench.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { request } from 'undici';
import { call, fmt, load, startServer, table, type LoadFigures } from './lib.ts';

const OLD = process.env.BENCH_OLD_NODE ?? '/usr/bin/node';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP = Number(process.env.BENCH_WARMUP ?? 2);

interface Runtime { name: string; node: string; args: string[] }
const runtimes: Runtime[] = [
  { name: 'before: Node 20 + tsx', node: OLD, args: ['--import', 'tsx'] },
  { name: `after: Node ${process.versions.node} type stripping`, node: process.execPath, args: [] },
];

async function version(node: string): Promise<string> {
  return new Promise((resolve) => {
    const c = spawn(node, ['--version']);
    let out = '';
    c.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    c.on('close', () => resolve(out.trim()));
  });
}

/** Starts the app on RUNTIME; resolves once /health answered 200, with the time it took. */
async function start(rt: Runtime): Promise<{ ms: number; url: string; pid: number; stop(): Promise<void> }> {
  const t0 = performance.now();
  const server = await startServer(rt.name, 'app', { BENCH_LOG: 'off' }, { node: rt.node, args: rt.args, portTimeoutMs: 90_000 });
  for (;;) {
    const res = await request(`${server.url}/health`).catch(() => undefined);
    if (res) { await res.body.dump(); if (res.statusCode === 200) break; }
    await new Promise((r) => setTimeout(r, 10));
  }
  return { ms: performance.now() - t0, url: server.url, pid: server.pid, stop: server.stop };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  if (!existsSync(OLD)) throw new Error(`BENCH_OLD_NODE ${OLD} does not exist`);
  const loadAvg = os.loadavg();
  const starts = new Map<string, number[]>(runtimes.map((r) => [r.name, []]));
  const me = new Map<string, LoadFigures[]>(runtimes.map((r) => [r.name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const rt of round % 2 ? [...runtimes].reverse() : runtimes) {
      const s = await start(rt);
      starts.get(rt.name)!.push(s.ms);
      process.stderr.write(`${rt.name}: /health after ${s.ms.toFixed(0)} ms\n`);
      try {
        const email = `bench-${Date.now()}@example.com`;
        const { token } = await call<{ token: string }>(s.url, 'POST', '/api/auth/register', { body: { email, password: 'correct horse battery' }, expect: 201 });
        me.get(rt.name)!.push(await load({ url: `${s.url}/api/auth/me`, connections: 10, pipelining: 10, headers: { authorization: `Bearer ${token}` } }, s.pid, { duration: WARMUP }, { duration: SECONDS }));
      } finally {
        await s.stop();
      }
    }
  }
  const [before, after] = runtimes.map((r) => r.name);
  const st = (n: string) => median(starts.get(n)!);
  const rps = (n: string) => median(me.get(n)!.map((f) => f.reqPerSec));
  const cpu = (n: string) => median(me.get(n)!.map((f) => f.cpuUsPerReq));
  console.log([
    `Runtime benchmark: ${ROUNDS} start-ups per runtime (alternated), /me ${WARMUP}s warm-up + ${SECONDS}s, 10 connections x pipelining 10, ${os.cpus().length} CPUs`,
    `old runtime ${OLD} ${await version(OLD)}; new ${process.execPath} ${process.version}; load average before: ${loadAvg.map((l) => l.toFixed(2)).join(' ')}`,
    '',
    table(['runtime', 'start to /health ms (median)', 'all starts ms', '/me req/s (median)', 'all /me req/s', '/me CPU us/req (median)', 'non-2xx'],
      runtimes.map((r) => [r.name, st(r.name), starts.get(r.name)!.map((x) => x.toFixed(0)).join(' '), rps(r.name), me.get(r.name)!.map((f) => f.reqPerSec.toFixed(0)).join(' '), cpu(r.name), me.get(r.name)!.reduce((n, f) => n + f.non2xx, 0)])),
    '',
    `start-up ratio after/before: ${fmt(st(after) / st(before))} (below 1: faster)`,
    `/me req/s ratio after/before: ${fmt(rps(after) / rps(before))}; server CPU per request ratio after/before: ${fmt(cpu(after) / cpu(before))} (the CPU figure holds up better on a busy machine)`,
  ].join('\n'));
}

await main();
process.exit(0);
