// Plan limits are manifest facts (`limit`), enforced by the engine before the handler
// (core/limits.ts): every route naming one answers 403 plan_limit, with the one message and
// details naming the limit, once a Free organization is at its limit; and the OpenAPI
// document says which limit each route counts against (x-limit).
import t from 'tap';
import { fullUrl } from '../../core/loader.ts';
import { LIMIT_NAMES, PLAN_LIMITS, limitMessage } from '../../core/plans.ts';
import { buildTestApp, register, bearer } from '../helper.ts';
import { routeSample } from '../../lib/rotation.ts';
import { loadFixtures, type WriteWorld } from './fixtures/index.ts';

const fill = (url: string, params: Record<string, string> = {}) => url.replace(/:(\w+)/g, (_, name) => params[name] ?? 'abcdefabcdefabcdefabcdef');

t.test('every route with a plan limit answers 403 plan_limit for a Free organization at its limit', async (t) => {
  const { write, limited } = await loadFixtures();
  const { app, ctx, plugins, services } = await buildTestApp(t);
  const routes = plugins.filter((p) => p.enabled).flatMap((p) => p.manifest.routes.filter((r) => r.limit).map((r) => ({ r, url: fullUrl(p.manifest, r) })));
  t.ok(routes.length >= 5, `${routes.length} routes`);
  t.same([...new Set(routes.map(({ r }) => r.limit))].sort(), [...LIMIT_NAMES].sort(), 'every limit of the table is enforced by some route');
  const sample = routeSample();
  t.comment(sample.describe);
  for (const { r, url } of routes) {
    const fixture = limited[r.id] ?? write[r.id];
    if (!fixture) {
      t.fail(`${r.id}: no fixture makes a call that adds a counted record (test/contract/fixtures: limited or write)`);
      continue;
    }
    if (!sample.takes(r.id)) continue;
    // A fresh organization on the Free plan, at zero usage.
    const owner = await register(app);
    const w: WriteWorld = { app, ctx, services, owner, other: owner, register: () => register(app), mailTo: async () => { throw new Error('no mail here'); } };
    const call = await fixture(w);
    const allowed = PLAN_LIMITS.free[r.limit!]!;
    const send = () => app.inject({ method: r.method, url: fill(url, call.params), headers: { ...bearer(call.token ?? owner.token), ...call.headers }, payload: call.body });
    for (let i = 0; i < allowed; i++) {
      const res = await send();
      t.ok(res.statusCode < 300, `${r.id}: call ${i + 1} of the ${allowed} the Free plan allows succeeds (${res.statusCode})`);
    }
    const refused = await send();
    t.equal(refused.statusCode, 403, `${r.id}: at the Free limit of ${allowed} ${r.limit}, 403`);
    const error = refused.json().error;
    t.equal(error?.code, 'plan_limit', `${r.id}: plan_limit`);
    t.equal(error?.message, limitMessage(r.limit!, 'free', allowed), `${r.id}: the one message naming the limit`);
    t.match(error?.details, { limit: r.limit, plan: 'free', allowed }, `${r.id}: details name the limit`);
    t.type(error?.details?.used, 'number', `${r.id}: and the usage`);
  }
});

t.test('the OpenAPI document names each route\'s plan limit (x-limit)', async (t) => {
  const { app, plugins } = await buildTestApp(t);
  await app.ready();
  const doc = app.swagger() as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
  for (const p of plugins.filter((x) => x.enabled)) {
    for (const r of p.manifest.routes) {
      const op = doc.paths[fullUrl(p.manifest, r).replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()];
      if (r.limit) t.equal(op?.['x-limit'], r.limit, `${r.id}: x-limit ${r.limit}`);
      else if (op && 'x-limit' in op) t.fail(`${r.id}: x-limit without a limit`);
    }
  }
});
