// `npm run bench [-- <name>...]` (names in BENCHES): every benchmark, or the ones named. Starts each target as
// its own process, drives it from this process, prints tables on stdout (progress on stderr)
// and writes the same data to .data/bench/<name>-<timestamp>.json. No timed assertion:
// figures are ratios against a baseline of the same run. BENCH_SECONDS (default 8) and BENCH_WARMUP
// (default 2) set each load run's length; BENCH_PIPELINING (default 10) the requests in flight
// per connection for /me, so the one-core load generator can keep a fast server busy.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fmt, REPO, startServer, table, type Target } from './lib.ts';
import { runEngine, type EngineResult, type Settings } from './engine.ts';
import { runOrgs, type OrgsResult, type OrgsSettings } from './orgs.ts';
import { runDrifts } from './drifts.ts';
import { billingReport, runBilling } from './billing.ts';
import { runScim } from './scim.ts';
import { driftWatchReport, runDriftWatch } from './drift-watch.ts';
import { runWebhooks, webhooksReport } from './webhooks.ts';

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

function orgsReport(r: OrgsResult, set: OrgsSettings, loadAvg: number[]): string {
  const [small, large] = r.exports;
  const commands = r.commands.map((c) => c.commands);
  return [
    `Organizations benchmark: ${set.entries} audit entries in one organization (seeded in ${fmt(r.seedSeconds)}s), node ${process.version}, ${os.cpus().length} CPUs`,
    `load average before the run: ${loadAvg.map((l) => l.toFixed(2)).join(' ')}`,
    '',
    'a. GET /api/orgs/:orgId/audit-logs through the app vs the same find + count through the raw driver',
    table(['query', 'entries in org', 'matching', 'app ms', 'driver ms', 'app/driver'], r.queries.map((q) => [q.query, q.entries, q.total, q.appMs, q.rawMs, q.ratio])),
    `(median of ${set.samples} each; the embedded database scans and sorts per query, so both columns are mostly its time)`,
    '',
    'b. Database commands per audit-log request (warm)',
    table(['limit', 'commands'], r.commands.map((c) => [c.limit, c.commands])),
    `constant in the page size: ${commands.every((c) => c === commands[0]) ? 'met' : 'NOT met'}`,
    '',
    `c. CSV export (GET /api/orgs/:orgId/audit-logs/export), server process memory while streaming (old space capped at ${r.heapCapMb} MB)`,
    table(['entries', 'rows', 'MB sent', 'seconds', 'RSS before MB', 'RSS peak MB', 'growth MB', 'VmHWM MB'],
      r.exports.map((e) => [e.entries, e.rows, e.bytes / 1e6, e.seconds, e.baselineRssMb, e.peakRssMb, e.growthMb, e.hwmMb ?? 'n/a'])),
    `peak RSS growth while streaming ${large.entries} vs ${small.entries} entries (${large.entries / small.entries}x the data): `
      + `${fmt(large.growthMb)} MB vs ${fmt(small.growthMb)} MB; flat (less than twice, or under 16 MB more): `
      + `${large.growthMb < Math.max(2 * small.growthMb, small.growthMb + 16) ? 'met' : 'NOT met'}`,
  ].join('\n');
}

const verdict = (ratio: number) => `${fmt(ratio)} ${ratio >= 0.5 ? 'met' : 'NOT met'}`;

/** Benchmarks that are scripts of their own (each starts what it measures), run as child processes. */
const SCRIPTS = ['scan', 'runners', 'guardrails', 'guardrail-redos', 'gin', 'predictions', 'discovery', 'events', 'events-path', 'runtime', 'clouds', 'hybrid'] as const;
const BENCHES = ['engine', 'orgs', 'drifts', 'billing', 'scim', 'drift-watch', 'webhooks', ...SCRIPTS] as const;

function runScript(name: (typeof SCRIPTS)[number], args: string[] = []): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(REPO, 'scripts', 'bench', `${name}.ts`), ...args], { stdio: 'inherit', cwd: REPO });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`bench ${name} exited ${code}`))));
  });
}
type BenchName = (typeof BENCHES)[number];

async function main(): Promise<number> {
  // A list of sizes (`npm run bench -- hybrid 500,1000,5000`) goes to the hybrid benchmark.
  const sizes = process.argv.slice(2).filter((a) => /^\d+(,\d+)*$/.test(a));
  const wanted = process.argv.slice(2).filter((a) => !sizes.includes(a));
  const unknown = wanted.filter((w) => !(BENCHES as readonly string[]).includes(w));
  if (unknown.length) {
    console.error(`usage: npm run bench [-- ${BENCHES.join('|')}] (unknown: ${unknown.join(', ')})`);
    return 2;
  }
  const run = (name: BenchName) => wanted.length === 0 || wanted.includes(name);
  const targets = new Set<Target>();
  const start = async (name: string, mode: 'bare' | 'app', env?: Record<string, string>) => {
    const t = await startServer(name, mode, env);
    targets.add(t);
    return t;
  };
  const stopAll = () => Promise.all([...targets].map((t) => t.stop()));
  // Ctrl-C: stop the servers properly so they drop their databases.
  process.once('SIGINT', () => { void stopAll().finally(() => process.exit(130)); });
  const dir = path.join(REPO, '.data', 'bench');
  const save = (name: string, data: object) => {
    mkdirSync(dir, { recursive: true });
    const file = path.join(dir, `${name}-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
    writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, cpus: os.cpus().length, ...data }, null, 2)}\n`);
    console.log(`\ndata: ${path.relative(REPO, file)}`);
  };
  try {
    if (run('engine')) {
      const set: Settings = { seconds: envNumber('BENCH_SECONDS', 8), warmup: envNumber('BENCH_WARMUP', 2), connections: 10,
        pipelining: Math.max(1, Math.round(envNumber('BENCH_PIPELINING', 10))), warmRequests: 50 };
      const loadAvg = os.loadavg();
      const result = await runEngine(start, set, (line) => console.error(`bench: ${line}`));
      console.log(report(result, set, loadAvg));
      save('engine', { loadAvg, settings: set, ...result });
    }
    if (run('orgs')) {
      // BENCH_AUDIT_ENTRIES (default 100000) sizes the organization; the first export is a tenth of it.
      const entries = Math.max(1000, Math.round(envNumber('BENCH_AUDIT_ENTRIES', 100_000)));
      const set: OrgsSettings = { entries, firstExport: Math.round(entries / 10), samples: 3, batch: 1000 };
      const loadAvg = os.loadavg();
      if (run('engine')) console.log('');
      const result = await runOrgs(start, set, (line) => console.error(`bench orgs: ${line}`));
      console.log(orgsReport(result, set, loadAvg));
      save('orgs', { loadAvg, settings: set, ...result });
    }
    if (run('drifts')) {
      // BENCH_DRIFTS (default 100000) sizes the organization; runDrifts saves its own data file.
      if (wanted.length !== 1) console.log('');
      console.log(await runDrifts((line) => console.error(`bench drifts: ${line}`)));
    }
    if (run('billing')) {
      // BENCH_BILLING_EVENTS (default 500) distinct events, each posted twice, 20 at a time (issue 13).
      if (wanted.length !== 1) console.log('');
      const result = await runBilling(start, { events: Math.max(1, Math.round(envNumber('BENCH_BILLING_EVENTS', 500))), concurrency: 20, copies: 2 },
        (line) => console.error(`bench billing: ${line}`));
      console.log(billingReport(result));
      save('billing', result);
    }
    if (run('scim')) {
      // BENCH_SCIM_USERS (default 10000) SCIM users in one organization (issue 14); runScim saves its own data file.
      if (wanted.length !== 1) console.log('');
      console.log(await runScim((line) => console.error(`bench scim: ${line}`)));
    }
    if (run('drift-watch')) {
      // BENCH_WATCHES (default 1000) watches due in the same minute, two service processes (issue 16).
      if (wanted.length !== 1) console.log('');
      const result = await runDriftWatch((line) => console.error(`bench drift-watch: ${line}`), Math.max(1, Math.round(envNumber('BENCH_WATCHES', 1000))));
      console.log(driftWatchReport(result));
      save('drift-watch', result);
    }
    if (run('webhooks')) {
      // BENCH_WEBHOOK_EVENTS (default 10000) events to 20 receivers, then a worker killed midway (issue 15).
      if (wanted.length !== 1) console.log('');
      const result = await runWebhooks({ events: Math.max(1, Math.round(envNumber('BENCH_WEBHOOK_EVENTS', 10_000))), receivers: 20 },
        (line) => console.error(`bench webhooks: ${line}`));
      console.log(webhooksReport(result));
      save('webhooks', result);
    }
    for (const name of SCRIPTS) {
      if (!run(name)) continue;
      if (wanted.length !== 1) console.log('');
      await runScript(name, name === 'hybrid' ? sizes : []);
    }
    return 0;
  } finally {
    await stopAll();
  }
}

main().then((code) => process.exit(code), (err: unknown) => {
  console.error(`bench: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
