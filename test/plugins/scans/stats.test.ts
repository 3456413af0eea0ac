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
  t.same(shown.body.data.stats, { compared: 40, notCompared }, 'GET /api/scans/:id');
  t.same((await w.api('GET', '/api/scans')).body.data.find((s: { _id: string }) => s._id === scan._id)?.stats, { compared: 40, notCompared }, 'and the list');

  const old = await w.scans.trigger(w.owner.orgId, await w.config('acme/old'), null);
  await w.scans.recordScanResult(w.owner.orgId, old._id, { status: 'completed', drifts: [] });
  t.equal((await w.api('GET', `/api/scans/${old._id}`)).body.data.stats, null, 'an engine that sent no stats: null, not a claim that all was compared');

  const bad = await w.scans.trigger(w.owner.orgId, await w.config('acme/bad'), null);
  await t.rejects(w.scans.recordScanResult(w.owner.orgId, bad._id, {
    status: 'completed', drifts: [], stats: { compared: 1, notCompared: [{ resourceType: 'x', reason: 'bored', count: 1 }] },
  } as never), { statusCode: 400 } as never, 'an unknown reason is refused');
});

t.test('scanStatsOf: an engine outcome\'s stats as the record keeps them', async (t) => {
  t.same(scanStatsOf(5, { mode: 'sdk', notCompared }), { compared: 5, notCompared });
  t.same(scanStatsOf(undefined, { notCompared: [] }), { compared: null, notCompared: [] }, 'no count: compared null');
  t.equal(scanStatsOf(5, { mode: 'sdk' }), undefined, 'an older engine without notCompared: none');
  t.equal(scanStatsOf(5, { notCompared: [{ resourceType: 'x', reason: 'no_reader', count: 0 }] }), undefined, 'a malformed row: none');
  const many = Array.from({ length: NOT_COMPARED_MAX + 5 }, (_, i) => ({ resourceType: `aws_t${i}`, reason: 'no_reader', count: 1 }));
  t.equal(scanStatsOf(1, { notCompared: many })?.notCompared.length, NOT_COMPARED_MAX, 'bounded: the largest rows kept (the engine sorts them)');
});
