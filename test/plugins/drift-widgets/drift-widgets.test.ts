import t from 'tap';
import { world, drift } from '../../fixtures/world.ts';

t.test('widgets: metric from filters, refresh one or all, reorder, update, delete', async (t) => {
  const w = await world(t);
  const c = await w.config();
  await w.scanWith(c, [drift('bucket.a', 'critical'), drift('bucket.b', 'low'), drift('role.c', 'critical')]);
  const crit = (await w.api('POST', '/api/drift-widgets', { title: 'Critical', type: 'count', filters: { severity: ['critical'] } })).body.data;
  t.match(crit, { title: 'Critical', type: 'count', metric: 2, order: 0 }, 'metric computed on create');
  const buckets = (await w.api('POST', '/api/drift-widgets', { title: 'Buckets', type: 'chart', filters: { resourceType: 'bucket' } })).body.data;
  t.equal(buckets.metric, 2);
  t.equal((await w.api('POST', '/api/drift-widgets', { title: 'x', type: 'pie' })).status, 400, 'type is count, chart or list');

  await w.scanWith(c, [drift('bucket.a', 'critical'), drift('bucket.b', 'low'), drift('role.c', 'critical'), drift('vm.d', 'critical')]);
  t.equal((await w.api('GET', `/api/drift-widgets/${crit._id}`)).body.data.metric, 2, 'stored metric until refreshed');
  t.equal((await w.api('POST', `/api/drift-widgets/${crit._id}/refresh`)).body.data.metric, 3, 'refresh one');
  await w.scanWith(c, [drift('bucket.a', 'critical')]);
  const all = (await w.api('POST', '/api/drift-widgets/refresh')).body.data;
  t.same(all.map((x: { metric: number }) => x.metric), [3, 2], 'refresh all (no status filter: resolved drifts count too)');

  const re = await w.api('POST', '/api/drift-widgets/reorder', { order: [buckets._id, crit._id] });
  t.same(re.body.data.map((x: { _id: string }) => x._id), [buckets._id, crit._id], 'reorder');
  t.same((await w.api('GET', '/api/drift-widgets')).body.data.map((x: { _id: string }) => x._id), [buckets._id, crit._id], 'listed in the new order');
  const upd = await w.api('PUT', `/api/drift-widgets/${crit._id}`, { filters: { status: ['resolved'] } });
  t.equal(upd.body.data.metric, 3, 'changing the filters recomputes the metric');
  t.equal((await w.api('DELETE', `/api/drift-widgets/${crit._id}`)).status, 200, 'delete');
  t.equal((await w.api('GET', `/api/drift-widgets/${crit._id}`)).status, 404);
});
