import t from 'tap';
import { world } from '../../fixtures/world.ts';

t.test('one default, create, reorder, set default, delete moves configs, default cannot be deleted', async (t) => {
  const w = await world(t);
  const first = await Promise.all([1, 2, 3].map(() => w.api('GET', '/api/workspaces')));
  t.ok(first.every((r) => r.body.data.length === 1), 'concurrent first reads create one default workspace');
  const def = first[0].body.data[0];
  t.match(def, { name: 'Default', isDefault: true, repoConfigCount: 0 });

  const created = await w.api('POST', '/api/workspaces', { name: 'Prod', description: 'production' });
  t.equal(created.status, 201);
  const prod = created.body.data;
  t.match(prod, { name: 'Prod', description: 'production', isDefault: false, order: 1 });
  const c = await w.config('acme/x', { workspaceId: prod._id });
  t.equal((await w.api('GET', `/api/workspaces/${prod._id}`)).body.data.repoConfigCount, 1, 'repoConfigCount');
  t.equal((await w.api('POST', '/api/repo-configs', { repositoryName: 'a/b', branch: 'm', provider: 'cloud_a', workspaceId: 'f'.repeat(24) })).status, 400, 'an unknown workspaceId is refused');

  const reordered = await w.api('PUT', '/api/workspaces/reorder', { order: [prod._id] });
  t.same(reordered.body.data.map((x: { _id: string }) => x._id), [prod._id, def._id], 'reorder puts listed ones first');
  t.equal((await w.api('PUT', '/api/workspaces/reorder', { order: ['f'.repeat(24)] })).status, 400, 'unknown ids in order: 400');

  t.equal((await w.api('PUT', `/api/workspaces/${prod._id}`, { name: 'Production' })).body.data.name, 'Production', 'update');
  const refused = await w.api('DELETE', `/api/workspaces/${def._id}`);
  t.equal(refused.status, 409, 'the default cannot be deleted');

  const set = await Promise.all([w.api('PUT', `/api/workspaces/${prod._id}/default`), w.api('PUT', `/api/workspaces/${def._id}/default`)]);
  t.ok(set.every((r) => r.status === 200), 'two concurrent set-default calls');
  const defaults = (await w.api('GET', '/api/workspaces')).body.data.filter((x: { isDefault: boolean }) => x.isDefault);
  t.equal(defaults.length, 1, 'leave exactly one default');

  await w.api('PUT', `/api/workspaces/${def._id}/default`);
  const del = await w.api('DELETE', `/api/workspaces/${prod._id}`);
  t.equal(del.status, 200, 'a non-default workspace is deleted');
  t.equal((await w.api('GET', `/api/repo-configs/${c}`)).body.data.workspaceId, def._id, 'its configs moved to the default');
  t.equal((await w.api('GET', '/api/workspaces')).body.data[0].repoConfigCount, 1);

  const token = await w.cli(['repos:read', 'repos:write']);
  t.equal((await w.api('GET', '/api/workspaces', undefined, token)).status, 403, 'closed to CLI tokens (no CLI scope is listed)');
});

t.test('concurrent creates each get their own position', async (t) => {
  const w = await world(t);
  const created = await Promise.all(Array.from({ length: 12 }, (_, i) => w.api('POST', '/api/workspaces', { name: `ws-${i}` })));
  t.ok(created.every((r) => r.status === 201), 'all created');
  const orders = created.map((r) => r.body.data.order as number);
  t.equal(new Set(orders).size, orders.length, `no two workspaces share a position (${orders.join(',')})`);
  const widgets = await Promise.all(Array.from({ length: 8 }, (_, i) => w.api('POST', '/api/drift-widgets', { title: `w-${i}`, type: 'count' })));
  const widgetOrders = widgets.map((r) => r.body.data.order as number);
  t.equal(new Set(widgetOrders).size, widgetOrders.length, `widgets too (${widgetOrders.join(',')})`);
});
