// Contract tests driven from the manifests: for every route of every enabled plugin,
// no credentials -> 401, a CLI token without the route's scope -> 403, an organization
// below the route's plan -> 403, a body or params breaking the schema -> 400, an unknown id
// -> 404, another organization's record -> 404, and for plugins whose records belong to a
// repository, a CLI token limited to other repositories -> 403 repository_denied. A route is
// covered the moment it is declared.
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { CLI_SCOPES } from '../../core/permissions.ts';
import { fullUrl, routePlan } from '../../core/loader.ts';
import { buildTestApp, register, bearer } from '../helper.ts';
import { routeSample } from '../../lib/rotation.ts';
import { loadFixtures, type World } from './fixtures/index.ts';
import { ownerRepositories } from './fixtures/repo-configs.ts';
import { scimToken } from './fixtures/sso-scim.ts';
import { cloudEventsToken } from './fixtures/cloud-events.ts';

const randomId = () => randomBytes(12).toString('hex');
const paramNames = (url: string) => [...url.matchAll(/:(\w+)/g)].map((m) => m[1]);
const fill = (url: string, params: Record<string, string>) => url.replace(/:(\w+)/g, (_, name) => params[name] ?? randomId());

t.test('every manifest route keeps the contract', async (t) => {
  const { crossOrg, exempt, sampleBody, otherRepository } = await loadFixtures();
  const built = await buildTestApp(t);
  const { app, ctx, plugins, services } = built;
  const owner = await register(app);
  const other = await register(app);
  const free = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  await ctx.tenancy.setPlan(other.orgId, 'enterprise');
  const world: World = { app, ctx, services, owner, other };

  async function cliToken(session: typeof owner, scopes: string[]) {
    const res = await app.inject({ method: 'POST', url: '/api/auth/cli-tokens', headers: bearer(session.token), payload: { name: 'contract', scopes, allRepositories: true } });
    if (res.statusCode !== 201) throw new Error(`cli token: ${res.body}`);
    return res.json().token as string;
  }
  // All CLI scopes, but only the one repository `allowed` of the owner's organization.
  let limited: string | undefined;
  async function limitedToken() {
    if (!limited) {
      const { allowed } = await ownerRepositories(world);
      const res = await app.inject({ method: 'POST', url: '/api/auth/cli-tokens', headers: bearer(owner.token), payload: { name: 'limited', scopes: [...CLI_SCOPES], allRepositories: false, repositories: [allowed] } });
      if (res.statusCode !== 201) throw new Error(`limited cli token: ${res.body}`);
      limited = res.json().token as string;
    }
    return limited!;
  }
  let runner: string | undefined;
  async function runnerToken() {
    if (!runner) runner = (await app.inject({ method: 'POST', url: '/api/runners', headers: bearer(owner.token), payload: { name: 'contract' } })).json().data.token as string;
    return runner!;
  }
  // SCIM protocol routes answer in the SCIM error schema (manifest errorFormat 'scim').
  const isErrorShape = (body: { success?: unknown; error?: { code?: unknown; message?: unknown }; schemas?: unknown; status?: unknown; detail?: unknown }) =>
    (body.success === false && typeof body.error?.code === 'string' && typeof body.error?.message === 'string')
    || (Array.isArray(body.schemas) && body.schemas[0] === 'urn:ietf:params:scim:api:messages:2.0:Error' && typeof body.status === 'string' && typeof body.detail === 'string');

  const sample = routeSample();
  t.comment(sample.describe);
  for (const plugin of plugins.filter((p) => p.enabled)) {
    for (const route of plugin.manifest.routes) {
      if (!sample.takes(route.id)) continue;
      const url = fullUrl(plugin.manifest, route);
      const names = paramNames(url);
      const plan = routePlan(plugin, route);
      const call = (opts: { token?: string; params?: Record<string, string>; payload?: unknown; headers?: Record<string, string>; query?: Record<string, string> } = {}) =>
        app.inject({
          method: route.method,
          url: fill(url, opts.params ?? {}) + (opts.query ? `?${new URLSearchParams(opts.query)}` : ''),
          headers: { ...(opts.token ? bearer(opts.token) : {}), ...opts.headers },
          ...(opts.payload !== undefined ? { payload: opts.payload as object } : {}),
        });

      await t.test(`${route.id} ${route.method} ${url}`, async (t) => {
        if (route.auth !== 'none') {
          const res = await call();
          t.equal(res.statusCode, 401, 'no credentials: 401');
          t.ok(isErrorShape(res.json()), 'in the error shape');
        }

        if (route.scope && (route.auth === 'bearer' || route.auth === 'download')) {
          const token = await cliToken(owner, CLI_SCOPES.filter((s) => s !== route.scope));
          const res = await call({ token });
          t.equal(res.statusCode, 403, `CLI token without ${route.scope}: 403`);
          t.equal(res.json().error.code, 'scope_denied');
        }
        if (!route.scope && !route.cliAllowed && route.auth === 'bearer') {
          const res = await call({ token: await cliToken(owner, [...CLI_SCOPES]) });
          t.equal(res.statusCode, 403, 'no CLI scope grants this route: 403 for CLI tokens');
        }
        if (route.auth === 'user' || route.auth === 'user-redirect') {
          const res = await call({ token: await cliToken(owner, [...CLI_SCOPES]) });
          t.equal(res.statusCode, 403, 'CLI token on a user-session route: 403');
        }

        if (plan && plan !== 'free' && (route.auth === 'bearer' || route.auth === 'user' || route.auth === 'user-redirect')) {
          const params = route.orgParam ? { [route.orgParam]: free.orgId } : {};
          const res = await call({ token: free.token, params });
          t.equal(res.statusCode, 403, `organization on Free below ${plan}: 403`);
          t.equal(res.json().error.code, 'plan_required');
        }

        const credentials: { token?: string; headers?: Record<string, string>; query?: Record<string, string> } = route.auth === 'none' ? {}
          : route.auth === 'service-key' ? { headers: { 'x-service-key': 'test-service-key-0123456789abcdef' } }
          : route.auth === 'runner' ? { headers: { 'x-runner-token': await runnerToken() } }
          : route.auth === 'runner-link' ? { query: { token: await runnerToken() } }
          : route.auth === 'scim' ? { token: await scimToken(world, owner) }
          : route.auth === 'cloud-events' ? { token: await cloudEventsToken(world, owner) }
          : { token: owner.token };
        // The caller's own organization, so the guards let a bad body reach validation.
        const ownOrg = route.orgParam ? { [route.orgParam]: owner.orgId } : {};
        if (route.body) {
          const res = await call({ ...credentials, params: ownOrg, payload: [42] });
          t.equal(res.statusCode, 400, 'body breaking the schema: 400');
          t.ok(isErrorShape(res.json()), 'in the error shape');
        }
        if (names.length) {
          // Parameters that are names rather than ids (a source-host owner and repository) have no malformed value to send.
          if (!exempt[route.id]?.badParams) {
            const bad = Object.fromEntries(names.map((n) => [n, 'not-an-id']));
            const res = await call({ ...credentials, params: bad, payload: sampleBody[route.id] });
            if (route.auth === 'runner-link' && names.includes('runnerId')) {
              // A runner link names its runner: the token decides before the schema (core/guards/chain.ts).
              t.equal(res.statusCode, 401, "params naming another runner than the link token's: 401");
              t.equal(res.json().error?.code, 'invalid_token');
            } else {
              t.equal(res.statusCode, 400, 'params breaking the schema: 400');
            }
            t.ok(isErrorShape(res.json()), 'in the error shape');
          }

          if (!exempt[route.id]?.unknownId) {
            const unknown = await call({ ...credentials, payload: sampleBody[route.id] });
            t.equal(unknown.statusCode, 404, 'unknown id: 404');
            t.ok(isErrorShape(unknown.json()), 'in the error shape');
          }
          if (!exempt[route.id]?.crossOrg) {
            const fixture = crossOrg[route.id];
            if (!fixture) {
              t.fail(`no cross-organization fixture for ${route.id}: add one to test/contract/fixtures/${plugin.manifest.plugin}.ts`);
            } else {
              const res = await call({ ...credentials, params: await fixture(world), payload: sampleBody[route.id] });
              t.equal(res.statusCode, 404, "another organization's record: 404");
            }
          }
        }

        // A CLI token limited to some repositories, on a record of another repository of the same organization.
        // Routes whose manifest entry holds a record to the token's repositories need the fixture.
        const holdsRecord = typeof route.repositories === 'object';
        if (route.scope && (holdsRecord || otherRepository[route.id])) {
          const fixture = otherRepository[route.id];
          if (fixture) {
            const res = await call({ token: await limitedToken(), params: await fixture(world), payload: sampleBody[route.id] });
            t.equal(res.statusCode, 403, 'a CLI token limited to other repositories: 403');
            t.equal(res.json().error?.code, 'repository_denied');
          } else if (!exempt[route.id]?.otherRepository) {
            t.fail(`no other-repository fixture for ${route.id}: add one to test/contract/fixtures/${plugin.manifest.plugin}.ts`);
          }
        }
      });
    }
  }
});

t.test('a disabled plugin has no routes and no OpenAPI entries', async (t) => {
  const { app } = await buildTestApp(t, { operator: { plugins: { credentials: { enabled: false } } } });
  await app.ready();
  const doc = app.swagger() as { paths: Record<string, unknown> };
  t.notOk(Object.keys(doc.paths).some((p) => p.includes('cloud-a-credentials')), 'no OpenAPI path');
  const res = await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials' });
  t.equal(res.statusCode, 404, 'no route');
});

