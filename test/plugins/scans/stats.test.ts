// A completed scan's record says what it did not compare (stats: compared, notCompared per type
// and reason), shown by GET /api/scans/:id and in lists; null before completion and when an
// older engine sent none; a malformed report is refused. End to end from the engine: a real
// detectDrift outcome's stats through scanStatsOf.
import t from 'tap';
import { drift, world } from '../../fixtures/world.ts';
import { scanStatsOf } from '../../../plugins/scans/execution.ts';
import { NOT_COMPARED_MAX } from '../../../plugins/scans/schemas.ts';

const notCompared = [
  { resourceType: 'aws_eks_cluster', reason: 'no_reader' as const, count: 3 },
  { resourceType: 'aws_kms_key', reason: 'unknown_region' as const, count: 2 },
  { resourceType: 'aws_dynamodb_table', reason: 'access_denied' as const, count: 1 },
  { resourceType: 'aws_s3_bucket', reason: 'unsupported_shape' as const, count: 1 },
];

t.test('the scan record shows what the scan did not compare', async (t) => {
  const w = await world(t);
  const c = await w.config();
  const scan = await w.scans.trigger(w.owner.orgId, c, null);
  t.equal((await w.api('GET', `/api/scans/${scan._id}`)).body.data.stats, null, 'pending: no stats yet');
  await w.scans.recordScanResult(w.owner.orgId, scan._id, { status: 'running' });
  await w.scans.recordScanResult(w.owner.orgId, scan._id, { status: 'completed', drifts: [drift('bucket.a')], stats: { compared: 40, notCompared } });
  const shown = await w.api('GET', `/api/scans/${scan._id}`);
  t.equal(shown.status, 200);
  const before = { compared: 40, notCompared, comparedBy: null, providerPlan: null };
  t.same(shown.body.data.stats, before, 'GET /api/scans/:id (a report without comparedBy and providerPlan: null)');
  t.same((await w.api('GET', '/api/scans')).body.data.find((s: { _id: string }) => s._id === scan._id)?.stats, before, 'and the list');

  const old = await w.scans.trigger(w.owner.orgId, await w.config('acme/old'), null);
  await w.scans.recordScanResult(w.owner.orgId, old._id, { status: 'completed', drifts: [] });
  t.equal((await w.api('GET', `/api/scans/${old._id}`)).body.data.stats, null, 'an engine that sent no stats: null, not a claim that all was compared');

  const bad = await w.scans.trigger(w.owner.orgId, await w.config('acme/bad'), null);
  await t.rejects(w.scans.recordScanResult(w.owner.orgId, bad._id, {
    status: 'completed', drifts: [], stats: { compared: 1, notCompared: [{ resourceType: 'x', reason: 'bored', count: 1 }] },
  } as never), { statusCode: 400 } as never, 'an unknown reason is refused');
});

t.test('scanStatsOf: an engine outcome\'s stats as the record keeps them', async (t) => {
  t.same(scanStatsOf(5, { mode: 'sdk', notCompared }), { compared: 5, notCompared, comparedBy: null, providerPlan: null });
  t.same(scanStatsOf(undefined, { notCompared: [] }), { compared: null, notCompared: [], comparedBy: null, providerPlan: null }, 'no count: compared null');
  t.equal(scanStatsOf(5, { mode: 'sdk' }), undefined, 'an older engine without notCompared: none');
  t.equal(scanStatsOf(5, { notCompared: [{ resourceType: 'x', reason: 'no_reader', count: 0 }] }), undefined, 'a malformed row: none');
  const many = Array.from({ length: NOT_COMPARED_MAX + 5 }, (_, i) => ({ resourceType: `aws_t${i}`, reason: 'no_reader', count: 1 }));
  t.equal(scanStatsOf(1, { notCompared: many })?.notCompared.length, NOT_COMPARED_MAX, 'bounded: the largest rows kept (the engine sorts them)');
});

const plan = { ran: true, binary: 'terraform 1.11.4', targets: 3, compared: 3, durationMs: 4210 };

t.test('hybrid scans: comparedBy and providerPlan on the scan record, from the executor and a runner', async (t) => {
  const w = await world(t);
  const c = await w.config();
  const scan = await w.scans.trigger(w.owner.orgId, c, null);
  await w.scans.recordScanResult(w.owner.orgId, scan._id, { status: 'running' });
  await w.scans.recordScanResult(w.owner.orgId, scan._id, {
    status: 'completed', drifts: [], stats: { compared: 40, notCompared: [], comparedBy: { native: 37, provider: 3 }, providerPlan: plan },
  });
  t.same((await w.api('GET', `/api/scans/${scan._id}`)).body.data.stats, { compared: 40, notCompared: [], comparedBy: { native: 37, provider: 3 }, providerPlan: plan }, 'GET /api/scans/:id');

  // A runner's report: the engine's stats as it sends them, mapped by scanStatsOf.
  const id = await w.config('acme/runner', { runnerLabels: ['linux'], repositoryUrl: 'https://git.example.com/acme/runner.git' });
  const runner = (await w.api('POST', '/api/runners', { name: 'r', labels: ['linux'] })).body.data as { token: string };
  const agent = (url: string, payload: unknown = {}) => w.app.inject({ method: 'POST', url, headers: { 'x-runner-token': runner.token }, payload: payload as object });
  const rs = await w.scans.trigger(w.owner.orgId, id, null);
  t.equal((await agent('/api/runners/jobs')).json().data.job._id, rs._id);
  const reason = 'No tofu or terraform binary on this runner: ' + 'x'.repeat(3000);
  const engineStats = { mode: 'sdk', durationMs: 12, comparedBy: { native: 9, provider: 0 }, notCompared: [{ resourceType: 'aws_codebuild_project', reason: 'no_reader', count: 2 }],
    providerPlan: { ran: false, binary: null, targets: 2, compared: 0, durationMs: 0.4, reason } };
  const done = await agent('/api/runners/jobs/status', { jobId: rs._id, status: 'completed', result: { drifts: [], resourcesScanned: 9, stats: engineStats } });
  t.equal(done.statusCode, 200);
  const stats = (await w.api('GET', `/api/scans/${rs._id}`)).body.data.stats;
  t.match(stats, { compared: 9, comparedBy: { native: 9, provider: 0 }, providerPlan: { ran: false, binary: null, targets: 2, compared: 0, durationMs: 0 } },
    'a runner without a binary: native only, and the plan says why');
  t.equal(stats.providerPlan.reason.length, 1000, 'the reason bounded to 1000 characters');
  t.ok(stats.providerPlan.reason.startsWith('No tofu or terraform binary'), 'from its start');

  const old = await w.scans.trigger(w.owner.orgId, await w.config('acme/older'), null);
  await w.scans.recordScanResult(w.owner.orgId, old._id, { status: 'completed', drifts: [], stats: { compared: 1, notCompared: [] } });
  await w.ctx.db.db.collection('scans').updateOne({ _id: old._id as never }, { $unset: { 'stats.comparedBy': '', 'stats.providerPlan': '' } });
  t.match((await w.api('GET', `/api/scans/${old._id}`)).body.data.stats, { compared: 1, comparedBy: null, providerPlan: null }, 'a scan recorded before them: null');

  const bad = await w.scans.trigger(w.owner.orgId, await w.config('acme/bad'), null);
  await t.rejects(w.scans.recordScanResult(w.owner.orgId, bad._id, {
    status: 'completed', drifts: [], stats: { compared: 1, notCompared: [], comparedBy: { native: -1, provider: 0 } },
  }), { statusCode: 400 } as never, 'a negative count is refused');
});

t.test('scanStatsOf: comparedBy and providerPlan validated and bounded', async (t) => {
  t.same(scanStatsOf(4, { notCompared: [], comparedBy: { native: 1, provider: 3 }, providerPlan: plan }),
    { compared: 4, notCompared: [], comparedBy: { native: 1, provider: 3 }, providerPlan: plan }, 'kept as sent');
  t.equal(scanStatsOf(4, { notCompared: [], comparedBy: { native: 1 } })?.comparedBy, null, 'comparedBy without provider: null');
  t.equal(scanStatsOf(4, { notCompared: [], comparedBy: { native: 1.5, provider: 0 } })?.comparedBy, null, 'a fractional count: null');
  t.equal(scanStatsOf(4, { notCompared: [], providerPlan: { ...plan, ran: 'yes' } })?.providerPlan, null, 'a malformed plan: null, the rest kept');
  t.equal(scanStatsOf(4, { notCompared: [], providerPlan: { ...plan, targets: -1 } })?.providerPlan, null, 'a negative target count: null');
  t.same(scanStatsOf(4, { notCompared: [], providerPlan: { ...plan, extra: 1 } })?.providerPlan, plan, 'a field it does not know (a newer engine): dropped, the plan kept');
  t.same(scanStatsOf(4, { notCompared: [], providerPlan: { ...plan, binary: 'b'.repeat(300), durationMs: 12.7, reason: 'r'.repeat(5000) } })?.providerPlan,
    { ...plan, binary: 'b'.repeat(100), durationMs: 13, reason: 'r'.repeat(1000) }, 'binary and reason cut, the duration rounded');
});
