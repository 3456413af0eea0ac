// The REST cloud kit on one reader per cloud: a state read back from the fake is no drift; a live
// change is, with its severity; paging, throttling (Retry-After), 404 and 403 behave as the APIs do.
import t from 'tap';
import { changed, compareAgainst, instance } from './harness.ts';

const SUB = '00000000-0000-0000-0000-000000000001';
const rg = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_resource_group', name, {
  id: `/subscriptions/${SUB}/resourceGroups/${name}`, name, location: 'westeurope', tags: { env: 'prod' }, managed_by: '', ...attrs,
});
const net = (name: string, attrs: Record<string, unknown> = {}) => instance('google_compute_network', name, {
  id: `projects/p1/global/networks/${name}`, name, project: 'p1', description: '', auto_create_subnetworks: false, routing_mode: 'REGIONAL', mtu: 1460,
  self_link: `https://www.googleapis.com/compute/v1/projects/p1/global/networks/${name}`, ...attrs,
});

t.test('Azure: the state read back is no drift; a tag edit is a low drift; a deleted group is deleted', async (t) => {
  const a = rg('a');
  const b = rg('b');
  const clean = await compareAgainst('azure', [a, b]);
  t.equal(clean.compared, 2);
  t.same(clean.drifts, []);
  const { drifts } = await compareAgainst('azure', [a, b], [changed(a, { tags: { env: 'dev' } })]);
  const byAddress = Object.fromEntries(drifts.map((d) => [d.resourceAddress, d]));
  t.same(byAddress['azurerm_resource_group.a'].diff, [{ attribute: 'tags.env', before: 'prod', after: 'dev' }]);
  t.match(byAddress['azurerm_resource_group.a'], { severity: 'low', ruleId: 'tags-only', account: SUB });
  t.equal(byAddress['azurerm_resource_group.a'].location, 'westeurope');
  t.equal(byAddress['azurerm_resource_group.b'].changeType, 'deleted');
});

t.test('Google: the state read back is no drift; a changed attribute is a drift', async (t) => {
  const n = net('n');
  t.same((await compareAgainst('google', [n])).drifts, []);
  const { drifts } = await compareAgainst('google', [n], [changed(n, { routing_mode: 'GLOBAL' })]);
  t.same(drifts[0]?.diff, [{ attribute: 'routing_mode', before: 'REGIONAL', after: 'GLOBAL' }]);
  t.equal(drifts[0]?.account, 'p1');
});

t.test('throttling is waited out (Retry-After), the calls counted', async (t) => {
  const { drifts, api, fake } = await compareAgainst('azure', [rg('a')], undefined, { tune: (f) => f.throttle(2, 0) });
  t.same(drifts, []);
  t.equal(api.totalCalls, 3, 'two throttled calls and the one answered');
  t.equal(fake.log.length, 3);
});

t.test('a refused read fails the scan with what to grant', async (t) => {
  await t.rejects(compareAgainst('azure', [rg('a')], undefined, { tune: (f) => f.deny(/resourceGroups/) }),
    { name: 'ScanError', code: 'access_denied', message: /Reader role/ });
  await t.rejects(compareAgainst('google', [net('n')], undefined, { tune: (f) => f.deny(/networks/) }),
    { name: 'ScanError', code: 'access_denied', message: /roles\/viewer/ });
});

t.test('not found in the scope it was read in: read again in the scope its id names before a deletion', async (t) => {
  const { compareRest } = await import('../../../runner-agent/src/engine/cloud/rest/compare.ts');
  const { googleApi } = await import('../../../runner-agent/src/engine/cloud/google/index.ts');
  const { googleReader } = await import('../../../runner-agent/src/engine/cloud/google/kit.ts');
  const { googleIdScope } = await import('../../../runner-agent/src/engine/cloud/google/scope.ts');
  const { startRestFake, stateWorld } = await import('../../../runner-agent/src/engine/cloud/rest/fake.ts');
  const { buildIgnoreRules } = await import('../../../runner-agent/src/engine/ignore.ts');
  const { IGNORED_ATTRIBUTES } = await import('../../../runner-agent/src/engine/catalogue.ts');
  // A reader that reads where the scan's scope says (as a type whose state holds no project would).
  const reader = googleReader({
    type: 'google_pubsub_topic', service: 'pubsub', route: '/v1/projects/:project/topics/:name',
    pathOf: (a, scope) => `/v1/projects/${scope.account}/topics/${a.name}`,
    toState: (j) => ({ name: String(j.name).split('/').pop() }), fromState: (a) => ({ name: `projects/${a.project}/topics/${a.name}` }),
  });
  const cloud = { readers: { google_pubsub_topic: reader }, idScope: googleIdScope };
  const topic = instance('google_pubsub_topic', 'moved', { id: 'projects/p-own/topics/moved', name: 'moved', project: 'p-own' });
  const fake = await startRestFake({ style: 'google', routes: reader.fake, world: stateWorld([topic]) });
  const api = googleApi({ token: async () => 't', describe: 'test' }, { endpoint: fake.endpoint });
  t.teardown(async () => { await api.destroy(); await fake.close(); });
  const stats = { unsupported: {}, ignoredDiffs: 0 } as { unsupported: Record<string, number>; ignoredDiffs: number; foundInIdScope?: string[] };
  const scope = { account: 'p-provider', location: null, source: 'provider' };
  const { drifts } = await compareRest([{ instance: topic, scope }], cloud, api, buildIgnoreRules([], IGNORED_ATTRIBUTES), stats);
  t.same(drifts, [], 'found where its id says: no deletion');
  t.same(stats.foundInIdScope, ['google_pubsub_topic.moved']);
  t.match(fake.log, [/projects\/p-provider\//, /projects\/p-own\//], "the scan's scope first, then the id's");
  const gone = await compareRest([{ instance: { ...topic, attributes: { ...topic.attributes, id: 'projects/p-other/topics/moved', project: 'p-other' } }, scope }], cloud, api, buildIgnoreRules([], IGNORED_ATTRIBUTES), stats);
  t.match(gone.drifts, [{ changeType: 'deleted', account: 'p-provider' }], 'in neither: deleted, where it was looked for');
});
