// `npm run bench -- guardrail-redos` (issue 32, point 5): does a guardrail pattern delay other
// requests? The real app runs as its own process; a Pro organization deploys a `matches` rule
// with the pattern `^a*a*a*a*a*a*b$` (catastrophic on a backtracking engine: about n^6 steps on
// a string of n `a`s) to a repository config. Then, while GET /health is polled every 10 ms
// from this process, each scenario fires BENCH_REDOS_REQUESTS (default 4) evaluations at once:
//   baseline   no evaluation at all (BENCH_REDOS_BASELINE_SECONDS, default 5)
//   control    the same bursts with a harmless plan (Name `aaa`): what ordinary evaluation load
//              costs /health on this machine, the fair comparison for the attacks
//   attack-<n> plans whose tags.Name is n `a`s, for each n of BENCH_REDOS_LENGTHS (default 120,100000)
//   big-<k>    a plan of k resource changes (BENCH_REDOS_BIG, default 5000; 0 skips it), each
//              with a 120-character Name: the body parsing and the hand-over to the evaluator
// Each attack scenario repeats its burst for at least BENCH_REDOS_SECONDS (default 5).
// Reported per scenario: the worst, p99 and median /health latency, the ratio of the worst to
// the baseline's and the control's worst, the server's own longest event-loop delay (its
// /__bench/loop), and the evaluations' statuses and times. Target: no input delays
// another request by more than 100 ms. No timed assertion (a benchmark reports).
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { MongoClient } from 'mongodb';
import { serviceUrls } from '../../test/helper.ts';
import { call, fmt, REPO, startServer, table } from './lib.ts';

const PATTERN = '^a*a*a*a*a*a*b$';
const POLL_MS = 10;
const TARGET_MS = 100;
const num = (name: string, dflt: string) => process.env[name] ?? dflt;
const REQUESTS = Number(num('BENCH_REDOS_REQUESTS', '4'));
const BASELINE_S = Number(num('BENCH_REDOS_BASELINE_SECONDS', '5'));
const LENGTHS = num('BENCH_REDOS_LENGTHS', '120,100000').split(',').map(Number).filter((n) => n > 0);
const BIG = Number(num('BENCH_REDOS_BIG', '5000'));
/** Each attack scenario repeats its burst until this long has passed (one burst at least). */
const MIN_S = Number(num('BENCH_REDOS_SECONDS', '5'));

const log = (line: string) => console.error(`bench guardrail-redos: ${line}`);

function attackPlan(changes: number, length: number) {
  const name = 'a'.repeat(length);
  return {
    format_version: '1.2',
    resource_changes: Array.from({ length: changes }, (_, i) => ({
      address: `aws_instance.r[${i}]`, mode: 'managed', type: 'aws_instance', name: 'r', index: i,
      change: { actions: ['create'], before: null, after: { ami: 'ami-0123', instance_type: 't3.micro', tags: { Name: name } }, after_unknown: { id: true }, after_sensitive: {} },
    })),
  };
}

interface Figures { scenario: string; polls: number; worstMs: number; p99Ms: number; p50Ms: number; loopMaxMs: number | null; evaluations: string; evaluationMs: number }

/** The server's own event-loop delay since the last call (GET /__bench/loop of scripts/bench/server.ts; null where the server has none). */
async function loopDelay(url: string): Promise<number | null> {
  const res = await request(`${url}/__bench/loop`);
  const text = await res.body.text();
  return res.statusCode === 200 ? (JSON.parse(text) as { maxMs: number }).maxMs : null;
}

const quantile = (xs: number[], q: number) => { const s = [...xs].sort((a, b) => a - b); return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0; };

/** Polls /health every POLL_MS (one at a time: a blocked server shows as one long answer) until `until` settles. */
async function poll(url: string, until: Promise<unknown>): Promise<number[]> {
  let done = false;
  void until.finally(() => { done = true; });
  const latencies: number[] = [];
  while (!done) {
    const t0 = performance.now();
    const res = await request(`${url}/health`);
    await res.body.text();
    latencies.push(performance.now() - t0);
    const rest = POLL_MS - (performance.now() - t0);
    if (rest > 0) await new Promise((r) => setTimeout(r, rest));
  }
  return latencies;
}

async function scenario(url: string, label: string, fire: () => Promise<{ status: number; ms: number }[]>): Promise<Figures> {
  log(`${label}...`);
  await loopDelay(url);
  const work = fire();
  const latencies = await poll(url, work);
  const results = await work;
  const loopMaxMs = await loopDelay(url);
  const statuses = new Map<number, number>();
  for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
  const f = {
    scenario: label, polls: latencies.length, worstMs: Math.max(...latencies), p99Ms: quantile(latencies, 0.99), p50Ms: quantile(latencies, 0.5), loopMaxMs,
    evaluations: results.length ? [...statuses].map(([s, n]) => `${n}x${s}`).join(' ') : '-',
    evaluationMs: results.length ? Math.max(...results.map((r) => r.ms)) : 0,
  };
  log(`${label}: worst ${fmt(f.worstMs)} ms over ${f.polls} polls; evaluations ${f.evaluations}`);
  return f;
}

async function main() {
  const loadAvg = os.loadavg();
  const db = `bench_redos_${Date.now()}`;
  const target = await startServer('guardrail-redos', 'app', { BENCH_DB: db, BENCH_LOG: 'off' });
  const mongo = new MongoClient(serviceUrls().mongoUri);
  await mongo.connect();
  const rows: Figures[] = [];
  try {
    const session = await call<{ token: string }>(target.url, 'POST', '/api/auth/register', { body: { email: `redos-${Date.now()}@example.com`, password: 'correct horse battery' }, expect: 201 });
    const me = await call<{ defaultOrgId: string }>(target.url, 'GET', '/api/auth/me', { token: session.token });
    await mongo.db(db).collection('organizations').updateOne({ _id: me.defaultOrgId as never }, { $set: { plan: 'pro' } });
    await new Promise((r) => setTimeout(r, 1500)); // the plan cache
    const repo = (await call<{ data: { _id: string } }>(target.url, 'POST', '/api/repo-configs', { token: session.token, body: { repositoryName: 'bench/redos', branch: 'main', provider: 'cloud_a' }, expect: 201 })).data._id;
    const rules = [{ resourceType: 'aws_instance', attribute: 'tags.Name', operator: 'matches', value: PATTERN }];
    const g = await call<{ _id: string }>(target.url, 'POST', '/api/guardrails', { token: session.token, body: { name: 'redos', enforcement: 'block', rules }, expect: 201 });
    await call(target.url, 'PATCH', `/api/guardrails/${g._id}/deploy`, { token: session.token, body: { repositoryIds: [repo] } });
    log(`pattern ${PATTERN} accepted and deployed`);

    const evaluate = async (body: string) => {
      const t0 = performance.now();
      const res = await request(`${target.url}/api/guardrails/evaluate`, { method: 'POST', headers: { authorization: `Bearer ${session.token}`, 'content-type': 'application/json' }, body });
      await res.body.text();
      return { status: res.statusCode, ms: performance.now() - t0 };
    };
    const burst = (changes: number, length: number) => {
      const body = JSON.stringify({ repositoryId: repo, plan: attackPlan(changes, length) });
      return async () => {
        const until = performance.now() + MIN_S * 1000;
        const all: { status: number; ms: number }[] = [];
        do all.push(...await Promise.all(Array.from({ length: REQUESTS }, () => evaluate(body)))); while (performance.now() < until);
        return all;
      };
    };
    // Warm-up: one ordinary evaluation, so the first attack does not pay for loading code.
    await evaluate(JSON.stringify({ repositoryId: repo, plan: attackPlan(1, 3) }));

    rows.push(await scenario(target.url, 'baseline', async () => { await new Promise((r) => setTimeout(r, BASELINE_S * 1000)); return []; }));
    rows.push(await scenario(target.url, 'control', burst(1, 3)));
    for (const n of LENGTHS) rows.push(await scenario(target.url, `attack-${n}`, burst(1, n)));
    if (BIG > 0) rows.push(await scenario(target.url, `big-${BIG}`, burst(BIG, 120)));
  } finally {
    await mongo.close();
    await target.stop();
  }
  const base = rows[0].worstMs;
  const control = rows[1].worstMs;
  console.log([
    `Guardrail ReDoS benchmark: pattern ${PATTERN}, bursts of ${REQUESTS} evaluations at once for at least ${MIN_S} s per scenario, GET /health every ${POLL_MS} ms, node ${process.version}, ${os.cpus().length} CPUs`,
    `load average before the run: ${loadAvg.map((l) => l.toFixed(2)).join(' ')}`,
    '',
    table(['scenario', '/health polls', 'worst ms', 'p99 ms', 'p50 ms', 'worst / baseline worst', 'worst / control worst', 'event-loop delay max ms', 'evaluations', 'slowest evaluation ms'],
      rows.map((r) => [r.scenario, r.polls, r.worstMs, r.p99Ms, r.p50Ms, r.worstMs / base, r.worstMs / control, r.loopMaxMs ?? '-', r.evaluations, r.evaluationMs])),
    '',
    ...rows.slice(1).map((r) => `${r.scenario}: worst /health ${fmt(r.worstMs)} ms: target (${TARGET_MS} ms) ${r.worstMs <= TARGET_MS ? 'met' : 'NOT met'}`),
  ].join('\n'));
  const dir = path.join(REPO, '.data', 'bench');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `guardrail-redos-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, `${JSON.stringify({ at: new Date().toISOString(), node: process.version, loadAvg, pattern: PATTERN, requests: REQUESTS, rows }, null, 2)}\n`);
  console.log(`\ndata: ${path.relative(REPO, file)}`);
}

main().then(() => process.exit(0), (err: unknown) => {
  console.error(`bench guardrail-redos: ${err instanceof Error ? err.stack : String(err)}`);
  process.exit(1);
});
