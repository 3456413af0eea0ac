// A member with a custom role gets exactly its permissions on every plugin's routes: for
// each permission slug, a role holding only that slug passes the guard of every route
// that names it, and a role holding every other slug is refused with 403. Driven from the
// manifests like the contract tests, so a route is covered the moment it is declared.
import t from 'tap';
import { PERMISSIONS, type Permission } from '../../core/permissions.ts';
import { fullUrl } from '../../core/loader.ts';
import { buildTestApp, register, bearer } from '../helper.ts';
import { routeSample } from '../../lib/rotation.ts';
import { loadFixtures } from './fixtures/index.ts';
import { addMember, addRole } from '../plugins/orgs/helper.ts';

const randomId = () => 'abcdef0123456789abcdef01';

t.test('custom roles: exactly their permissions, on every route of every plugin', async (t) => {
  const { sampleBody } = await loadFixtures();
  const b = await buildTestApp(t);
  const { app, ctx, plugins } = b;
  const owner = await register(app);
  const orgId = owner.orgId;
  await ctx.tenancy.setPlan(orgId, 'enterprise');
  const holder = await addMember(b, orgId, 'viewer');
  const lacker = await addMember(b, orgId, 'viewer');
  const allSlugs = await addRole(b, orgId, 'All slugs', [...PERMISSIONS]);

  const routes = plugins.filter((p) => p.enabled).flatMap((p) => p.manifest.routes
    .filter((r) => (r.permission || r.ownerOnly) && (r.auth === 'bearer' || r.auth === 'user' || r.auth === 'user-redirect' || r.auth === 'download') && !r.platformAdmin)
    .map((r) => ({ r, url: fullUrl(p.manifest, r) })));
  t.ok(routes.length > 10, `${routes.length} routes name a permission or owner-only`);

  const call = (token: string, { r, url }: (typeof routes)[number]) => app.inject({
    method: r.method,
    url: url.replace(/:(\w+)/g, (_, name) => (name === r.orgParam ? orgId : randomId())),
    headers: { ...bearer(token), ...(r.orgParam ? {} : { 'x-org-id': orgId }) },
    ...(sampleBody[r.id] !== undefined ? { payload: sampleBody[r.id] as object } : {}),
  });
  const deniedByRole = (res: { statusCode: number; json(): { error?: { code?: string } } }) =>
    res.statusCode === 403 && res.json().error?.code === 'permission_denied';
  const setRole = async (userId: string, role: string) => {
    // core/tenancy's write drops the cached membership itself.
    await ctx.tenancy.setRole(orgId, userId, role);
  };

  const used = [...new Set(routes.flatMap(({ r }) => (r.permission ? [r.permission] : [])))];
  const sample = routeSample();
  t.comment(sample.describe);
  for (const slug of PERMISSIONS) {
    const mine = routes.filter(({ r }) => r.permission === slug && sample.takes(r.id));
    if (!mine.length) continue;
    await t.test(`${slug}: ${mine.length} route(s)`, async (t) => {
      await setRole(holder.userId, await addRole(b, orgId, `only ${slug}`, [slug as Permission]));
      await setRole(lacker.userId, await addRole(b, orgId, `all but ${slug}`, PERMISSIONS.filter((p) => p !== slug)));
      for (const route of mine) {
        const yes = await call(holder.token, route);
        t.notOk(deniedByRole(yes), `${route.r.id}: a role with only ${slug} passes (${yes.statusCode})`);
        const no = await call(lacker.token, route);
        t.ok(deniedByRole(no), `${route.r.id}: a role with every slug but ${slug} gets 403 (${no.statusCode})`);
      }
    });
  }
  t.ok(used.length > 3, `slugs named by routes: ${used.join(', ')}`);

  await t.test('owner-only routes: no custom role reaches them, even with every slug', async (t) => {
    await setRole(holder.userId, allSlugs);
    for (const route of routes.filter(({ r }) => r.ownerOnly && sample.takes(r.id))) {
      const res = await call(holder.token, route);
      t.ok(deniedByRole(res), `${route.r.id}: 403 (${res.statusCode})`);
    }
  });
});
