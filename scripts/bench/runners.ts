// Runner job-claim benchmark (issue 6, point 7): `npx tsx scripts/bench/runners.ts`.
// The service runs as its own process (scripts/bench/server.ts app, no job loop); 50 runners
// poll POST /api/runners/jobs over real HTTP from this process.
//   burst: BENCH_SCANS (default 40) pending scans, all 50 runners poll once at the same moment;
//   drain: BENCH_DRAIN (default 200) pending scans, every runner loops poll -> report
//          completed -> poll until nothing is left (the steady state of a busy fleet).
// Each prints claims/s, and checks that no scan was handed to two runners (a runner handed its
// own held job again is a redelivery, not a second claim). BENCH_ROUNDS (default 3) bursts.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { call, fmt, REPO, startServer, table } from './lib.ts';

const RUNNERS = Number(process.env.BENCH_RUNNERS ?? 50);
const BURST = Number(process.env.BENCH_SCANS ?? 40);
const DRAIN = Number(process.env.BENCH_DRAIN ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const log = (s: string) => process.stderr.write(`${s}\n`);
const newId = () => randomBytes(12).toString('hex');

interface World { url: string; db: Db; orgId: string; configId: string; tokens: string[] }
interface Figures { mode: string; scans: number; claimed: number; seconds: number; claimsPerSec: number; polls: number; doubleClaims: number }

/** Pending scans shaped as the scans store writes them (the trigger route is rate limited to 10 a minute). */
async function seedScans(w: World, n: number) {
  const now = Date.now();
  const docs = Array.from({ length: n }, (_, i) => {
    const createdAt = new Date(now + i);
    return {
      _id: newId(), orgId: w.orgId, repositoryConfig: w.configId, repositoryName: 'bench/runners', branch: 'main', status: 'pending',
      triggeredBy: 'manual', triggeredByUser: null, driftCount: 0, newDrifts: 0, resolvedDrifts: 0, error: null,
      createdAt, day: createdAt.toISOString().slice(0, 10), startedAt: null, completedAt: null,
    };
  });
  await w.db.collection('scans').insertMany(docs as never[]);
  return docs.map((d) => d._id);
}

const agentCall = (w: World, token: string, p: string, body: unknown = {}) => fetch(`${w.url}/api/runners${p}`, {
  method: 'POST', headers: { 'x-runner-token': token, 'content-type': 'application/json' }, body: JSON.stringify(body),
}).then(async (r) => {
  if (r.status !== 200) throw new Error(`POST ${p} -> ${r.status}: ${await r.text()}`);
  return (await r.json()).data;
});

/** scanId -> the runners it was handed to; more than one is a double claim. */
const holders = new Map<string, Set<number>>();
const note = (scanId: string, runner: number) => holders.set(scanId, (holders.get(scanId) ?? new Set()).add(runner));
const doubles = (ids: string[]) => ids.filter((id) => (holders.get(id)?.size ?? 0) > 1).length;

async function burst(w: World, round: number): Promise<Figures> {
  const ids = await seedScans(w, BURST);
  const t0 = performance.now();
  const jobs = await Promise.all(w.tokens.map((tk, i) => agentCall(w, tk, '/jobs').then((d) => { if (d.job) note(d.job._id, i); return d.job; })));
  const seconds = (performance.now() - t0) / 1000;
  const claimed = jobs.filter(Boolean).length;
  // Finish them, so the next round's runners are idle (a held job would be handed back).
  await Promise.all(jobs.map((j, i) => j && agentCall(w, w.tokens[i], '/jobs/status', { jobId: j._id, status: 'completed', result: { drifts: [] } })));
  return { mode: `burst ${round}`, scans: BURST, claimed, seconds, claimsPerSec: claimed / seconds, polls: RUNNERS, doubleClaims: doubles(ids) };
}

async function drain(w: World): Promise<Figures> {
  const ids = await seedScans(w, DRAIN);
  let claimed = 0;
  let polls = 0;
  const t0 = performance.now();
  await Promise.all(w.tokens.map(async (tk, i) => {
    for (;;) {
      polls++;
      const { job } = await agentCall(w, tk, '/jobs');
      if (!job) return;
      note(job._id, i);
      claimed++;
      await agentCall(w, tk, '/jobs/status', { jobId: job._id, status: 'completed', result: { drifts: [] } });
    }
  }));
  const seconds = (performance.now() - t0) / 1000;
  return { mode: 'drain (poll, report, poll)', scans: DRAIN, claimed, seconds, claimsPerSec: claimed / seconds, polls, doubleClaims: doubles(ids) };
}

async function main() {
  const run = `bench_runners_${Date.now()}`;
  const { mongoUri } = JSON.parse(readFileSync(path.join(process.env.DRIFT_DATA_DIR ?? path.join(REPO, '.data'), 'services.json'), 'utf8'));
  log(`starting the service (database ${run})`);
  const target = await startServer('runners', 'app', { BENCH_DB: run, BENCH_PREFIX: `${run}:` });
  const client = await new MongoClient(process.env.MONGODB_URI ?? mongoUri).connect();
  try {
    const db = client.db(run);
    const reg = await call<{ token: string }>(target.url, 'POST', '/api/auth/register', { body: { email: `bench-${run}@example.com`, password: 'correct horse battery staple' }, expect: 201 });
    const me = await call<{ defaultOrgId: string }>(target.url, 'GET', '/api/auth/me', { token: reg.token });
    await db.collection('organizations').updateOne({ _id: me.defaultOrgId as never }, { $set: { plan: 'enterprise' } });
    const cfg = await call<{ data: { _id: string } }>(target.url, 'POST', '/api/repo-configs', { token: reg.token, body: { repositoryName: 'bench/runners', branch: 'main', provider: 'cloud_a', runnerLabels: ['bench'], repositoryUrl: 'https://git.example.com/bench/runners.git' }, expect: 201 });
    const tokens: string[] = [];
    for (let i = 0; i < RUNNERS; i++) {
      tokens.push((await call<{ data: { token: string } }>(target.url, 'POST', '/api/runners', { token: reg.token, body: { name: `bench-${i}`, labels: ['bench'] }, expect: 201 })).data.token);
    }
    const w: World = { url: target.url, db, orgId: me.defaultOrgId, configId: cfg.data._id, tokens };

    const rows: Figures[] = [];
    for (let r = 1; r <= ROUNDS; r++) { rows.push(await burst(w, r)); log(`burst ${r}: ${fmt(rows.at(-1)!.claimsPerSec)} claims/s`); }
    rows.push(await drain(w));
    const held = await db.collection('runner_jobs').countDocuments({ orgId: w.orgId });
    const seeded = ROUNDS * BURST + DRAIN;
    const report = [
      `Runner job claims: ${RUNNERS} runners polling at once over HTTP, node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
      table(['mode', 'pending scans', 'claimed', 'polls', 'seconds', 'claims/s', 'scans handed to 2+ runners'],
        rows.map((f) => [f.mode, f.scans, f.claimed, f.polls, fmt(f.seconds), fmt(f.claimsPerSec), f.doubleClaims])),
      `holder records ${held} for ${seeded} scans; double claims in total: ${rows.reduce((n, f) => n + f.doubleClaims, 0)}` +
        (held === seeded && rows.every((f) => f.doubleClaims === 0 && f.claimed === Math.min(f.scans, f.mode.startsWith('burst') ? RUNNERS : f.scans)) ? ' (every scan claimed exactly once)' : ' (NOT exactly once)'),
    ].join('\n');
    console.log(report);
    const out = path.join(REPO, '.data', 'bench');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, `runners-${Date.now()}.json`), JSON.stringify({ runners: RUNNERS, rows, held, seeded }, null, 2));
  } finally {
    await client.close();
    await target.stop();
  }
}

main().then(() => process.exit(0), (err: unknown) => { console.error(err); process.exit(1); });
