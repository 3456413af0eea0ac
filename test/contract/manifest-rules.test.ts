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

// Issue 35 point 3: each operation documents its own error statuses, no catch-all range. Every
// error code a plugin's files raise (an AppError literal, a shorthand, an orgs/SCIM rule) is
// documented by some route of its manifest: declared in `raises`, or named by a status the
// route's guards derive. Which route answers it is held at runtime (core/status-log.ts).
const SHORTHANDS: Record<string, string> = { notFound: 'not_found', badRequest: 'bad_request', conflict: 'conflict', forbidden: 'forbidden', unauthorized: 'unauthorized' };

/** The error codes a plugin's source raises, each with a file that raises it. */
async function raisedCodes(dir: string): Promise<Map<string, string>> {
  const { readdirSync, readFileSync, statSync } = await import('node:fs');
  const { join } = await import('node:path');
  const { ERRORS } = await import('../../core/errors.ts');
  const found = new Map<string, string>();
  const walk = (d: string): string[] => readdirSync(d).flatMap((f) => (statSync(join(d, f)).isDirectory() ? walk(join(d, f)) : f.endsWith('.ts') ? [join(d, f)] : []));
  for (const file of walk(dir)) {
    const text = readFileSync(file, 'utf8');
    const add = (code: string) => { if (code in ERRORS && !found.has(code)) found.set(code, file.slice(dir.length + 1)); };
    for (const m of text.matchAll(/new AppError\('([\w.]+)'/g)) add(m[1]);
    for (const m of text.matchAll(/\bscimError\('([\w.]+)'/g)) add(m[1]);
    for (const m of text.matchAll(/\borgError\('(\w+)'/g)) add(`orgs.${m[1]}`);
    for (const m of text.matchAll(/'([a-z_]+\.[a-z_]+)'/g)) add(m[1]);
    for (const m of text.matchAll(/\b(notFound|badRequest|conflict|forbidden|unauthorized)\(/g)) add(SHORTHANDS[m[1]]);
    if (/\bunauthorized\([^\n]*'invalid_token'/.test(text)) add('invalid_token');
  }
  return found;
}

t.test('every error code a plugin raises is documented by a route of its manifest; no range entries', async (t) => {
  const { join } = await import('node:path');
  const { discoverPlugins, routePlan } = await import('../../core/loader.ts');
  const { needsOrgContext } = await import('../../core/guards/chain.ts');
  const { documentedCodes, errorStatuses } = await import('../../core/openapi-errors.ts');
  const plugins = await discoverPlugins({ plugins: {} });
  const documented = new Map<string, Set<string>>();
  for (const p of plugins) {
    const codes = new Set<string>();
    for (const r of p.manifest.routes) {
      const plan = routePlan(p, r);
      const statuses = errorStatuses(p.manifest, r, plan, needsOrgContext(r, plan));
      t.notOk(Object.keys(statuses).some((s) => !/^\d{3}$/.test(s)), `${r.id}: every error entry is one status`);
      const named = documentedCodes(statuses);
      for (const code of r.raises ?? []) t.ok(named.has(code), `${r.id}: raises ${code}, named by its status`);
      for (const code of named) codes.add(code);
    }
    documented.set(p.manifest.plugin, codes);
  }
  for (const p of plugins) {
    // A plugin's code also runs in the routes of the plugins it plugs into (sso-scim's password policy in auth's login).
    const deps = [p.manifest.plugin, ...p.definition.needs, ...(p.definition.uses ?? [])];
    for (const [code, file] of await raisedCodes(join(import.meta.dirname, '../../plugins', p.manifest.plugin))) {
      t.ok(deps.some((d) => documented.get(d)?.has(code)), `plugins/${p.manifest.plugin}/${file} raises ${code}: declare it in the raises of the routes that answer it (manifests/${p.manifest.plugin}.ts or a plugin it needs)`);
    }
  }
  const doc = JSON.parse((await import('node:fs')).readFileSync(join(import.meta.dirname, '../../openapi/openapi.json'), 'utf8')) as { paths: Record<string, Record<string, { responses?: object }>> };
  const ranges = Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).flatMap(([method, op]) => Object.keys(op.responses ?? {}).filter((s) => !/^\d{3}$/.test(s)).map((s) => `${method} ${path} ${s}`)));
  t.same(ranges, [], 'the committed OpenAPI document has no range (4XX, default) entry');
});
