// `npm run bench`: the engine benchmark. Starts each target as its own process, drives it
// with autocannon from this process, prints tables on stdout (progress on stderr) and writes
// the same data to .data/bench/engine-<timestamp>.json. No timed assertion: figures are
// ratios against a baseline of the same run. BENCH_SECONDS (default 8) and BENCH_WARMUP
// (default 2) set each load run's length; BENCH_PIPELINING (default 10) the requests in flight
// per connection for /me, so the one-core load generator can keep a fast server busy.
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fmt, REPO, startServer, table, type Target } from './lib.ts';
import { runEngine, type EngineResult, type Settings } from './engine.ts';

const envNumber = (name: string, dflt: number) => {
  const n = Number(process.env[name] ?? dflt);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got ${process.env[name]}`);
  return n;
};

function report(r: EngineResult, set: Settings, loadAvg: number[]): string {
  const jwt = r.throughput[1];
  const out = [
    `Engine benchmark: ${set.connections} connections (pipelining ${set.pipelining} for /me), ${set.warmup}s warm-up + ${set.seconds}s per run, node ${process.version}, ${os.cpus().length} CPUs`,
    // Other work on the machine shifts absolute figures; the ratios are meant to survive it.
    `load average before the run: ${loadAvg.map((l) => l.toFixed(2)).join(' ')}`,
    '',
    'a/b. GET /api/auth/me against bare Fastify in the same run',
    '     req/s ratio = app req/s / bare req/s; CPU ratio = bare server CPU per request / app server CPU per request',
    table(['scenario', 'req/s', 'mean ms', 'p99 ms', 'requests', 'server CPU %', 'CPU us/req', 'req/s ratio', 'CPU ratio'],
      r.throughput.map((t) => [t.scenario, t.reqPerSec, t.meanMs, t.p99Ms, t.total, t.serverCpuPct, t.cpuUsPerReq, t.ratio, t.cpuRatio])),
    `target (JWT /me at 0.5 of bare or better): req/s ${verdict(jwt.ratio)}, CPU ${verdict(jwt.cpuRatio)}`,
    ...(r.throughput[0].serverCpuPct < 90
      ? [`caution: the bare server was busy ${fmt(r.throughput[0].serverCpuPct)}% of a core, so the load generator was the limit; the req/s ratio flatters the app, the CPU ratio does not`]
      : []),
    '',
    'c. Login (POST /api/auth/login, correct password, no pipelining)',
    table(['req/s', 'mean ms', 'p99 ms', 'requests', 'server CPU %', 'CPU us/req', 'req/s vs bare /me', 'CPU ratio vs bare /me', 'latency vs JWT /me'],
      [[r.login.reqPerSec, r.login.meanMs, r.login.p99Ms, r.login.total, r.login.serverCpuPct, r.login.cpuUsPerReq,
        r.login.ratioToBare, r.login.cpuRatio, r.login.latencyVsMe]]),
    `note: ${r.login.note}`,
    '',
    `d. Database commands per request (cold = first request in a fresh process; warm = mean of ${set.warmRequests})`,
    table(['route', 'cold', 'warm/request'], r.commands.map((c) => [c.route, c.cold, c.warm])),
  ];
  const me = r.commands.find((c) => c.route.startsWith('GET /api/auth/me (JWT)'));
  if (me) out.push(`expected for /me (JWT): warm 0, cold at most 1: ${me.warm === 0 && me.cold <= 1 ? 'met' : 'NOT met'}`);
  return out.join('\n');
}

const verdict = (ratio: number) => `${fmt(ratio)} ${ratio >= 0.5 ? 'met' : 'NOT met'}`;

async function main(): Promise<number> {
  const set: Settings = { seconds: envNumber('BENCH_SECONDS', 8), warmup: envNumber('BENCH_WARMUP', 2), connections: 10,
    pipelining: Math.max(1, Math.round(envNumber('BENCH_PIPELINING', 10))), warmRequests: 50 };
  const targets = new Set<Target>();
  const start = async (name: string, mode: 'bare' | 'app', env?: Record<string, string>) => {
    const t = await startServer(name, mode, env);
    targets.add(t);
    return t;
  };
  const stopAll = () => Promise.all([...targets].map((t) => t.stop()));
  // Ctrl-C: stop the servers properly so they drop their databases.
  process.once('SIGINT', () => { void stopAll().finally(() => process.exit(130)); });
  try {
    const loadAvg = os.loadavg();
    const result = await runEngine(start, set, (line) => console.error(`bench: ${line}`));
    console.log(report(result, set, loadAvg));
    const dir = path.join(REPO, '.data', 'bench');
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `engine-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, loadAvg, settings: set, ...result }, null, 2)}\n`);
    console.log(`\ndata: ${path.relative(REPO, file)}`);
    return 0;
  } finally {
    await stopAll();
  }
}

main().then((code) => process.exit(code), (err: unknown) => {
  console.error(`bench: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
