// Issue 36 point 3: scans never strand (docs/scans.md "Leases"). Each case plays the fault:
// a cancel while the engine reads, a runner that stops heart-beating, a process whose lease
// lapses between claim and running (a second app on the same database sweeps it), a label
// change while a scan waits, a taker dying between winning a lease generation and writing it,
// 1,001 configs in one organization, and a result retried after a
// partial write.
import t from 'tap';
import { world, drift } from '../fixtures/world.ts';
import { buildTestApp } from '../helper.ts';
import { createExecutor } from '../../plugins/executor/service.ts';
import type { ScanInput, ScanOutcome } from '../../runner-agent/src/engine/index.ts';
import { createRecorder } from '../../plugins/scans/record.ts';
import { createScanStore } from '../../plugins/scans/store.ts';
import { createManagedStore } from '../../plugins/scans/managed-store.ts';
import { createLeases, leaseKey, LEASE_MS } from '../../plugins/scans/lease.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
async function until(what: () => Promise<boolean>, ms = 8000) {
  const end = Date.now() + ms;
  while (Date.now() < end) { if (await what()) return true; await sleep(50); }
  return false;
}
/** An engine that reads until its signal aborts (the readers and plan steps take the same signal). */
function hangingEngine() {
  const seen: AbortSignal[] = [];
  const detect = (input: ScanInput) => new Promise<ScanOutcome>((_, reject) => {
    seen.push(input.signal!);
    input.signal!.addEventListener('abort', () => reject(Object.assign(new Error('aborted'), { name: 'AbortError' })));
  });
  return { seen, detect };
}
const runnerPost = (w: Awaited<ReturnType<typeof world>>, token: string, url: string, payload: object = {}) =>
  w.app.inject({ method: 'POST', url: `/api/runners${url}`, headers: { 'x-runner-token': token }, payload });

t.test('cancel aborts the built-in engine', async (t) => {
  const w = await world(t);
  const config = await w.config('acme/cancel', { repositoryUrl: '/tmp' });
  const engine = hangingEngine();
  const executor = createExecutor(w.ctx, w.scans, { concurrency: 1, endpoint: undefined, localSources: true, providerPlans: false, allowPlanPrograms: false, timeoutMs: 60_000, detect: engine.detect, leaseRenewMs: 100 });
  const scan = await w.scans.trigger(w.owner.orgId, config, null);
  const run = executor.execute(w.owner.orgId, scan._id);
  t.ok(await until(async () => engine.seen.length === 1), 'the engine is reading');
  t.equal((await w.api('POST', `/api/scans/${scan._id}/cancel`)).status, 200, 'cancelled');
  const ended = await Promise.race([run.then(() => true), sleep(5000).then(() => false)]);
  t.ok(ended && engine.seen[0].aborted, 'the engine was aborted and the run ended');
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'cancelled', 'the scan stays cancelled');
});

t.test('cancel reaches a runner: its heartbeat says stop, it reports cancelled', async (t) => {
  const w = await world(t);
  const config = await w.config('acme/rcancel', { runnerLabels: ['c'], repositoryUrl: 'https://git.example.com/a/b.git' });
  const runner = (await w.api('POST', '/api/runners', { name: 'r', labels: ['c'] })).body.data;
  const scan = await w.scans.trigger(w.owner.orgId, config, null);
  const job = (await runnerPost(w, runner.token, '/jobs')).json().data.job;
  t.equal(job?._id, scan._id, 'claimed');
  t.equal((await w.api('POST', `/api/scans/${scan._id}/cancel`)).status, 200);
  const beat = (await runnerPost(w, runner.token, '/heartbeat', { status: 'busy' })).json().data;
  t.same(beat.cancelJobs, [scan._id], 'the next heartbeat names the job to stop');
  const ack = await runnerPost(w, runner.token, '/jobs/status', { jobId: scan._id, status: 'cancelled' });
  t.equal(ack.statusCode, 200, 'the runner reports cancelled');
  t.equal(ack.json().data.status, 'cancelled');
  t.same((await runnerPost(w, runner.token, '/heartbeat', { status: 'online' })).json().data.cancelJobs ?? [], [], 'nothing left to stop');
});

t.test('a runner that stops heart-beating: its scan goes back to pending and another runner takes it; the stale runner is refused', async (t) => {
  const w = await world(t);
  const config = await w.config('acme/dead', { runnerLabels: ['d'], repositoryUrl: 'https://git.example.com/a/b.git' });
  const a = (await w.api('POST', '/api/runners', { name: 'a', labels: ['d'] })).body.data;
  const b = (await w.api('POST', '/api/runners', { name: 'b', labels: ['d'] })).body.data;
  const scan = await w.scans.trigger(w.owner.orgId, config, null);
  t.equal((await runnerPost(w, a.token, '/jobs')).json().data.job?._id, scan._id, 'runner a claims');
  await runnerPost(w, a.token, '/jobs/status', { jobId: scan._id, status: 'running' });
  await runnerPost(w, b.token, '/heartbeat', { status: 'online' });
  // a falls silent; b keeps beating. The sweep runs as if RUNNER_OFFLINE_AFTER has passed for a only.
  await w.ctx.db.db.collection('runners').updateOne({ _id: a._id }, { $set: { lastHeartbeat: new Date(Date.now() - 3600_000) } });
  await w.services.runners!.sweep();
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'pending', 'back to pending, not failed');
  t.equal((await runnerPost(w, b.token, '/jobs')).json().data.job?._id, scan._id, 'runner b claims it');
  const stale = await runnerPost(w, a.token, '/jobs/status', { jobId: scan._id, status: 'completed', result: { drifts: [] } });
  t.equal(stale.statusCode, 404, "the stale runner's result is refused");
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'running', 'still running under b');
  const done = await runnerPost(w, b.token, '/jobs/status', { jobId: scan._id, status: 'completed', result: { drifts: [] } });
  t.equal(done.json().data.status, 'completed', "b's result is recorded");
});

t.test('two apps on one database: a lease that lapses (claimed, its holder gone) is swept back and run once by the other', async (t) => {
  const a = await world(t);
  const b = await buildTestApp(t, { keep: true, env: { MONGODB_DB: a.ctx.config.MONGODB_DB, REDIS_KEY_PREFIX: a.ctx.config.REDIS_KEY_PREFIX } });
  const config = await a.config('acme/lapse', { repositoryUrl: '/tmp' });
  const engineA = hangingEngine();
  const execA = createExecutor(a.ctx, a.scans, { concurrency: 1, endpoint: undefined, localSources: true, providerPlans: false, allowPlanPrograms: false, timeoutMs: 60_000, detect: engineA.detect, leaseRenewMs: 100 });
  const ranB: string[] = [];
  const execB = createExecutor(b.ctx, b.services.scans!, {
    concurrency: 1, endpoint: undefined, localSources: true, providerPlans: false, allowPlanPrograms: false, timeoutMs: 60_000, leaseRenewMs: 100,
    detect: async (i) => { ranB.push(i.provider); return { drifts: [], resourcesScanned: 0, stats: { durationMs: 1, notCompared: [] } } as unknown as ScanOutcome; },
  });
  const scan = await a.scans.trigger(a.owner.orgId, config, null);
  const runA = execA.execute(a.owner.orgId, scan._id);
  t.ok(await until(async () => engineA.seen.length === 1), 'app a runs the scan');
  // App b sweeps as if a had not renewed its lease for a minute (a killed process renews nothing).
  const swept = await b.services.scans!.sweepLeases(new Date(Date.now() + 60_000));
  t.equal(swept, 1, 'b hands the scan back to pending');
  t.ok(await Promise.race([runA.then(() => true), sleep(5000).then(() => false)]) && engineA.seen[0].aborted, "a's engine stops: its lease is gone");
  t.equal(await execB.execute(a.owner.orgId, scan._id), 'ran', 'b claims and runs it');
  t.equal(ranB.length, 1, 'once');
  t.equal((await a.api('GET', `/api/scans/${scan._id}`)).body.data.status, 'completed', "b's result stands; a's late failure was refused");
});

t.test('a process dies between winning a lease generation and writing it: claimed again after LEASE_MS, by one runner', async (t) => {
  const w = await world(t);
  const store = createScanStore(w.ctx.db);
  const config = await w.config('acme/strand', { runnerLabels: ['s'], repositoryUrl: 'https://git.example.com/a/b.git' });
  const a = (await w.api('POST', '/api/runners', { name: 'a', labels: ['s'] })).body.data;
  const b = (await w.api('POST', '/api/runners', { name: 'b', labels: ['s'] })).body.data;
  const scan = await w.scans.trigger(w.owner.orgId, config, null);
  // The dying taker: it wins generation 1 and never writes it to the scan.
  t.ok(await w.ctx.once.claim(leaseKey(scan._id, 1), w.owner.orgId), 'the dead process won generation 1');
  t.equal((await runnerPost(w, a.token, '/jobs')).json().data.job, null, 'within LEASE_MS the generation is still its taker\'s');
  // LEASE_MS passes (the key's time moved back rather than waiting 30 s).
  const keys = w.ctx.db.db.collection<{ _id: string; at: Date }>('once_keys');
  await keys.updateOne({ _id: leaseKey(scan._id, 1) }, { $set: { at: new Date(Date.now() - LEASE_MS - 1000) } });
  const polls = await Promise.all([a, b, a, b].map((r) => runnerPost(w, r.token, '/jobs')));
  const jobs = polls.map((p) => p.json().data.job?._id ?? null);
  t.same(jobs.filter((j) => j === scan._id).length, 1, `claimed again, by one poll of four racing (${JSON.stringify(jobs)})`);
  const taken = (await store.get(w.owner.orgId, scan._id))!;
  t.match(taken, { status: 'running', lease: { gen: 1 } }, 'running under the generation taken over');
  t.ok([`runner:${a._id}`, `runner:${b._id}`].includes(taken.lease!.holder!), 'held by the runner that won');
  // The generation the scan now names is held: a late taker of the same generation gets nothing.
  const leases = createLeases(w.ctx, store);
  await keys.updateOne({ _id: leaseKey(scan._id, 1) }, { $set: { at: new Date(Date.now() - LEASE_MS - 1000) } });
  t.equal(await leases.take({ ...taken, lease: null }, 'late'), null, 'a taker with a stale read cannot take the generation the scan names');
  t.match(await store.get(w.owner.orgId, scan._id), { status: 'running', lease: { gen: 1, holder: taken.lease!.holder } }, 'still the winner\'s');
});

t.test('a hand-back that dies between its generation key and its write: the next sweep after LEASE_MS hands the scan back', async (t) => {
  const w = await world(t);
  const store = createScanStore(w.ctx.db);
  const config = await w.config('acme/strand2', { runnerLabels: ['s2'], repositoryUrl: 'https://git.example.com/a/b.git' });
  const r = (await w.api('POST', '/api/runners', { name: 'r', labels: ['s2'] })).body.data;
  const scan = await w.scans.trigger(w.owner.orgId, config, null);
  t.equal((await runnerPost(w, r.token, '/jobs')).json().data.job?._id, scan._id, 'claimed (generation 1), never moved on');
  // Not started within LEASE_MS: a sweep's hand-back wins generation 2 and dies before writing it.
  const scans = w.ctx.db.db.collection<{ _id: string }>('scans');
  await scans.updateOne({ _id: scan._id }, { $set: { status: 'pending', 'lease.at': new Date(Date.now() - LEASE_MS - 1000) } });
  t.ok(await w.ctx.once.claim(leaseKey(scan._id, 2), w.owner.orgId), 'the dead sweep won generation 2');
  t.equal(await w.services.scans!.sweepLeases(), 0, 'within LEASE_MS of that, nothing is handed back');
  const keys = w.ctx.db.db.collection<{ _id: string; at: Date }>('once_keys');
  await keys.updateOne({ _id: leaseKey(scan._id, 2) }, { $set: { at: new Date(Date.now() - LEASE_MS - 1000) } });
  const swept = await Promise.all([w.services.scans!.sweepLeases(), w.services.scans!.sweepLeases()]);
  t.same(swept.sort(), [0, 1], `after it, one of two racing sweeps hands it back (${JSON.stringify(swept)})`);
  t.match(await store.get(w.owner.orgId, scan._id), { status: 'pending', lease: { gen: 2, holder: null } }, 'pending under generation 2');
  t.equal((await runnerPost(w, r.token, '/jobs')).json().data.job?._id, scan._id, 'and claimed again (generation 3)');
  t.match(await store.get(w.owner.orgId, scan._id), { status: 'running', lease: { gen: 3 } });
});

t.test('removing runnerLabels re-routes a pending scan to the built-in executor', async (t) => {
  const w = await world(t);
  const config = await w.config('acme/labels', { runnerLabels: ['gone'], repositoryUrl: '/tmp' });
  const scan = await w.scans.trigger(w.owner.orgId, config, null);
  const jobs = w.ctx.db.db.collection('agenda_jobs');
  const before = await jobs.countDocuments({ name: 'scans.execute', 'data.scanId': scan._id });
  t.equal((await w.api('PUT', `/api/repo-configs/${config}`, { runnerLabels: [] })).status, 200);
  const after = await jobs.countDocuments({ name: 'scans.execute', 'data.scanId': scan._id });
  t.ok(after > before, `the scan is handed to the built-in executor again (${before} -> ${after} execute jobs)`);
});

t.test('runner claims see past 1,000 configs in one organization', async (t) => {
  const w = await world(t);
  const labelled = await w.config('acme/first', { runnerLabels: ['old'], repositoryUrl: 'https://git.example.com/a/b.git' });
  const now = Date.now();
  await w.ctx.db.db.collection('repo_configs').insertMany(Array.from({ length: 1000 }, (_, i) => ({
    _id: `c${String(i).padStart(23, '0')}`, orgId: w.owner.orgId, slot: `bulk${i}`, repositoryName: `acme/bulk${i}`, branch: 'main', provider: 'cloud_a',
    runnerLabels: [], iacPaths: [], status: 'active', createdAt: new Date(now + 1000 + i), updatedAt: new Date(now + 1000 + i),
  })) as never[]);
  const runner = (await w.api('POST', '/api/runners', { name: 'r', labels: ['old'] })).body.data;
  const scan = await w.scans.trigger(w.owner.orgId, labelled, null);
  t.equal((await runnerPost(w, runner.token, '/jobs')).json().data.job?._id, scan._id, 'the oldest config (1,001st newest) is still served');
});

t.test('a result retried after a partial write counts every drift once', async (t) => {
  const w = await world(t);
  const config = await w.config('acme/retry');
  await w.scanWith(config, [drift('aws_s3_bucket.a'), drift('aws_s3_bucket.b')]);
  let fail = true;
  const recorder = createRecorder(w.ctx, {
    scans: createScanStore(w.ctx.db), drifts: w.services.drifts!, managed: createManagedStore(w.ctx.db), onRunning: async () => undefined,
    configs: { recordScan: async (...args) => { if (fail) { fail = false; throw new Error('connection lost'); } return w.services['repo-configs']!.recordScan(...args); } },
  });
  const scan = await w.scans.trigger(w.owner.orgId, config, null);
  await recorder.recordScanResult(w.owner.orgId, scan._id, { status: 'running' });
  const result = { status: 'completed' as const, drifts: [drift('aws_s3_bucket.c')] };
  await t.rejects(recorder.recordScanResult(w.owner.orgId, scan._id, result), /connection lost/, 'the first attempt wrote the drifts, then failed');
  const retried = await recorder.recordScanResult(w.owner.orgId, scan._id, result);
  t.match(retried.scan, { status: 'completed', driftCount: 1, newDrifts: 1, resolvedDrifts: 2 }, 'the retry counts both resolved drifts and the new one');
});
