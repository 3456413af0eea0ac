// What decides access and the audit trail is in the manifest (issue #12 point 3), and the
// OpenAPI document says it: each route's `audit` and `repositories` reach its operation as
// extensions, every route a CLI scope opens to a repository-bound resource declares how
// limited tokens are held to their repositories, and the engine enforces each rule kind.
import t from 'tap';
import { fullUrl, repositoriesFact } from '../../core/loader.ts';
import { CLI_SCOPES } from '../../core/permissions.ts';
import type { RouteSpec } from '../../core/manifest.ts';
import { buildTestApp, register, bearer } from '../helper.ts';
import { loadFixtures } from './fixtures/index.ts';

/** CLI scopes whose routes act on records of one repository config. */
const REPOSITORY_BOUND = /^(repos|scans|drifts):/;
const auditAction = (audit: RouteSpec['audit']) => (typeof audit === 'object' ? audit.action : audit);

t.test('manifest rules reach the OpenAPI document', async (t) => {
  const { app, plugins } = await buildTestApp(t);
  await app.ready();
  const doc = app.swagger() as unknown as { paths: Record<string, Record<string, Record<string, unknown>>> };
  for (const p of plugins.filter((x) => x.enabled)) {
    for (const r of p.manifest.routes) {
      const path = fullUrl(p.manifest, r).replace(/:(\w+)/g, '{$1}');
      const op = doc.paths[path]?.[r.method.toLowerCase()];
      if (!op) {
        t.fail(`${r.id}: no operation at ${r.method} ${path}`);
        continue;
      }
      const action = auditAction(r.audit);
      if (action) t.equal(op['x-audit-action'], action, `${r.id}: x-audit-action`);
      if (r.audit === false) t.equal(op['x-audit'], false, `${r.id}: x-audit false`);
      const rule = r.repositories;
      if (rule) t.equal(op['x-repositories'], repositoriesFact(rule), `${r.id}: x-repositories`);
      else t.notOk('x-repositories' in op, `${r.id}: no repository rule, no extension`);
    }
  }
});

t.test('every route a CLI scope opens to repository records declares its repository rule', async (t) => {
  const { plugins } = await buildTestApp(t);
  const bound = plugins.filter((p) => p.enabled).flatMap((p) => p.manifest.routes).filter((r) => r.scope && REPOSITORY_BOUND.test(r.scope));
  t.ok(bound.length > 20, `${bound.length} routes`);
  for (const r of bound) t.ok(r.repositories, `${r.id} (${r.scope}) declares repositories`);
});

t.test("'unlimited' routes refuse a token limited to some repositories, after validation", async (t) => {
  const { sampleBody } = await loadFixtures();
  const { app, ctx, plugins } = await buildTestApp(t);
  const owner = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  const token = async (all: boolean) => {
    const res = await app.inject({
      method: 'POST', url: '/api/auth/cli-tokens', headers: bearer(owner.token),
      payload: { name: 'rules', scopes: [...CLI_SCOPES], allRepositories: all, ...(all ? {} : { repositories: ['abcdefabcdefabcdefabcdef'] }) },
    });
    return res.json().token as string;
  };
  const [limited, unlimited] = [await token(false), await token(true)];
  // Path parameters get ids nothing has: the rule is decided before any record is read.
  const routes = plugins.filter((p) => p.enabled).flatMap((p) => p.manifest.routes.filter((r) => r.repositories === 'unlimited')
    .map((r) => ({ r, url: fullUrl(p.manifest, r).replace(/:\w+/g, 'abcdefabcdefabcdefabcdef') })));
  t.ok(routes.length >= 1, `${routes.length} routes`);
  for (const { r, url } of routes) {
    const call = (tok: string, payload: unknown) => app.inject({ method: r.method, url, headers: bearer(tok), ...(payload === undefined ? {} : { payload: payload as object }) });
    const denied = await call(limited, sampleBody[r.id]);
    t.equal(denied.statusCode, 403, `${r.id}: a limited token is refused`);
    t.equal(denied.json().error.code, 'repository_denied');
    if (r.body) t.equal((await call(limited, [42])).statusCode, 400, `${r.id}: a bad body is a 400 first, whoever calls`);
    t.not((await call(unlimited, sampleBody[r.id])).statusCode, 403, `${r.id}: a token for every repository passes`);
  }
});

// A hand-written access check or audit entry in a plugin is a rule the manifest does not show:
// each found in plugins/ must be one of these, each a decision no manifest field can state.
// A new one fails here: declare it in the manifest (permission, gates, repositories, resumes,
// an audit rule or event) instead, or add it below with the reason.
const HAND_WRITTEN_ALLOWED: Record<string, { count: number; why: string }> = {
  'orgs/members.ts permissions.has(': { count: 1, why: 'moving a member: the caller\'s permission in the target organization, named by the body' },
  'orgs/members.ts tenancy.access(': { count: 1, why: 'moving a member: the caller\'s access in the target organization' },
  'orgs/members.ts audit.write(': { count: 1, why: 'moving a member: the second entry, in the target organization\'s trail' },
  'orgs/index.ts tenancy.access(': { count: 1, why: 'accepting an invitation: the new member\'s role, read back for the answer' },
  'sso-scim/scim-tokens.ts tenancy.access(': { count: 1, why: 'a SCIM token acts with its creator\'s permissions (nobody grants more than they hold)' },
  'sso-scim/scim-roles.ts audit.write(': { count: 1, why: 'one entry per role a SCIM group change makes' },
  'drift-watch/run-end.ts audit.write(': { count: 1, why: 'a scheduled job\'s outcome, no request' },
  'webhooks/outbox.ts audit.write(': { count: 1, why: 'a delivery job deactivating a webhook, no request' },
};

t.test('no plugin checks access or writes audit entries by hand beyond the listed exceptions', async (t) => {
  const { readdirSync, readFileSync } = await import('node:fs');
  const { join } = await import('node:path');
  const root = join(import.meta.dirname, '../../plugins');
  const patterns = ['permissions.has(', 'hasPermission(', 'tenancy.access(', 'audit.write(', 'scopes?.includes(', 'scopes.includes(', 'repositoryDenied('];
  const found: Record<string, number> = {};
  for (const dir of readdirSync(root)) {
    for (const file of readdirSync(join(root, dir)).filter((f) => f.endsWith('.ts'))) {
      const text = readFileSync(join(root, dir, file), 'utf8');
      for (const p of patterns) {
        const n = text.split(p).length - 1;
        if (n) found[`${dir}/${file} ${p}`] = n;
      }
    }
  }
  for (const [where, n] of Object.entries(found)) {
    t.equal(n, HAND_WRITTEN_ALLOWED[where]?.count ?? 0, `${where} (${HAND_WRITTEN_ALLOWED[where]?.why ?? 'not an allowed exception: declare it in the manifest'})`);
  }
  for (const where of Object.keys(HAND_WRITTEN_ALLOWED)) t.ok(found[where], `${where}: the exception is still needed (else remove it from the list)`);
});
