// Plan limits as an engine part (core/limits.ts): the manifest's `limit` is checked at boot
// against the table's keys, a route's plugin must count what its route limits, the refusal
// has one message format, and a hold is exact under concurrency (here without any plugin).
import t from 'tap';
import { checkHandlers, validateManifests, ManifestError, type LoadedPlugin } from '../../core/loader.ts';
import type { Manifest, RouteSpec } from '../../core/manifest.ts';
import { limitMessage } from '../../core/plans.ts';
import { buildTestApp, register } from '../helper.ts';

const route = (extra: Partial<RouteSpec>): RouteSpec => ({ id: 'createWidget', method: 'POST', url: '/', auth: 'bearer', permission: 'repos:write', response: { 201: null }, handler: 'create', ...extra });
const manifest = (r: RouteSpec): Manifest => ({ plugin: 'widgets', prefix: '/api/widgets', reply: 'envelope', routes: [r] });
const plugin = (m: Manifest): LoadedPlugin => ({ manifest: m, enabled: true, plan: undefined, definition: { manifest: m, needs: [], build: () => ({ handlers: {} }) } });

t.test('an unknown limit stops the boot with a suggestion; a limit its plugin does not count too', async (t) => {
  t.throws(() => validateManifests([plugin(manifest(route({ limit: 'repository' as never })))]),
    new ManifestError('manifests/widgets.ts route "createWidget": unknown plan limit "repository"; did you mean "repositories"?'));
  t.doesNotThrow(() => validateManifests([plugin(manifest(route({ limit: 'repositories' })))]));
  const m = manifest(route({ limit: 'cloudAccounts' }));
  t.throws(() => checkHandlers(m, { create: () => null }, new Set(), { has: () => false }),
    new ManifestError('manifests/widgets.ts route "createWidget": limit "cloudAccounts" is not counted by plugins/widgets; define its meter with ctx.defineMeter(\'cloudAccounts\', ...) in build'));
  t.doesNotThrow(() => checkHandlers(m, { create: () => null }, new Set(), { has: (p, n) => p === 'widgets' && n === 'cloudAccounts' }));
});

t.test('one message format, naming the limit', async (t) => {
  t.equal(limitMessage('repositories', 'free', 1), 'The Free plan allows 1 repository config; delete one or upgrade');
  t.equal(limitMessage('repositories', 'pro', 5), 'The Pro plan allows 5 repository configs; delete one or upgrade');
  t.equal(limitMessage('scansPerDay', 'free', 3), 'The Free plan allows 3 scans per day; try again tomorrow (UTC) or upgrade');
  t.equal(limitMessage('cloudAccounts', 'free', 0), 'The Free plan allows 0 cloud accounts; upgrade to add one');
  t.equal(limitMessage('cloudAccounts', 'pro', 1), 'The Pro plan allows 1 cloud account; delete one or upgrade');
});

t.test('holds: counted under a lock, exact under concurrency, given back on failure; one take per limit', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  await ctx.tenancy.setPlan(s.orgId, 'pro');
  // A meter of a test "plugin": records kept in memory, written a little after the check.
  const records: string[] = [];
  ctx.limits.define('test-widgets', 'repositories', { used: async (orgId) => records.filter((r) => r === orgId).length });
  const create = () => ctx.limits.within(s.orgId, 'repositories', async () => {
    await new Promise((r) => setTimeout(r, 5));
    records.push(s.orgId);
  });
  const results = await Promise.allSettled(Array.from({ length: 12 }, create));
  t.equal(results.filter((r) => r.status === 'fulfilled').length, 5, 'twelve concurrent creations on Pro: five');
  t.equal(records.length, 5, 'five records');
  const refused = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  t.match(refused.reason, { code: 'plan_limit', statusCode: 403, details: { limit: 'repositories', plan: 'pro', allowed: 5, used: 5 } });

  records.length = 0;
  await t.rejects(ctx.limits.within(s.orgId, 'repositories', async () => { throw new Error('handler failed'); }), /handler failed/);
  await ctx.limits.within(s.orgId, 'repositories', async () => { records.push(s.orgId); });
  t.equal(records.length, 1, 'a failed creation lets go of the lock: the next one passes at once');

  t.throws(() => ctx.limits.define('test-widgets', 'repositories', { used: async () => 0 }), /defines the "repositories" meter twice/);
  t.throws(() => ctx.limits.define('other', 'scansPerDay', { used: async () => 0, take: async () => null }), /already has its take from plugins\/scans/);
});
