// Custom roles (Team plan and above): CRUD with exactly the spec's permission slugs,
// changes effective at once, deletion moves members to member.
import t from 'tap';
import { PERMISSIONS } from '../../../core/permissions.ts';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { addMember } from './helper.ts';

const err = (res: { json(): { error: { code: string } } }) => res.json().error.code;

t.test('custom roles: create, list, update, delete', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const orgId = owner.orgId;
  const h = bearer(owner.token);
  const url = `/api/orgs/${orgId}/roles`;

  const free = await app.inject({ method: 'GET', url, headers: h });
  t.equal(free.statusCode, 403, 'Free plan: 403');
  t.equal(err(free), 'plan_required');
  await ctx.tenancy.setPlan(orgId, 'team');

  const created = await app.inject({ method: 'POST', url, headers: h, payload: { name: 'Security', description: 'Reads everything', permissions: ['repos:read', 'drifts:read', 'org:read'] } });
  t.equal(created.statusCode, 201);
  const role = created.json();
  t.same(Object.keys(role).sort(), ['_id', 'createdAt', 'description', 'memberCount', 'name', 'permissions']);
  t.match(role, { name: 'Security', description: 'Reads everything', permissions: ['repos:read', 'drifts:read', 'org:read'], memberCount: 0 });

  const all = await app.inject({ method: 'POST', url, headers: h, payload: { name: 'Everything', permissions: [...PERMISSIONS] } });
  t.equal(all.statusCode, 201, 'every one of the 22 slugs is assignable');
  for (const bad of [['billing'], ['org:delete'], ['repos:admin'], ['owner'], ['REPOS:READ'], ['repos:read', 'scans:trigger']]) {
    const res = await app.inject({ method: 'POST', url, headers: h, payload: { name: `Bad ${bad.join()}`, permissions: bad } });
    t.equal(res.statusCode, 400, `${bad.join(', ')}: 400`);
    t.equal(err(res), 'validation_failed');
  }
  t.equal((await app.inject({ method: 'POST', url, headers: h, payload: { name: 'No perms' } })).statusCode, 400, 'permissions is required');
  const builtIn = await app.inject({ method: 'POST', url, headers: h, payload: { name: 'Admin', permissions: ['org:read'] } });
  t.equal(builtIn.statusCode, 400, 'a built-in role name: 400');
  t.equal(err(builtIn), 'orgs.invalid_role_name');
  const taken = await app.inject({ method: 'POST', url, headers: h, payload: { name: 'Security', permissions: ['org:read'] } });
  t.equal(taken.statusCode, 409, 'a name already used: 409');
  t.equal(err(taken), 'orgs.role_name_taken');

  const holder = await addMember(b, orgId, role._id);
  const listed = await app.inject({ method: 'GET', url, headers: h });
  t.same(listed.json().roles.map((r: { name: string; memberCount: number }) => [r.name, r.memberCount]), [['Everything', 0], ['Security', 1]], 'by name, with member counts');

  const readMembers = () => app.inject({ method: 'GET', url: `/api/orgs/${orgId}/members`, headers: bearer(holder.token) });
  t.equal((await readMembers()).statusCode, 200, 'the role grants org:read');
  const renamed = await app.inject({ method: 'PUT', url: `${url}/${role._id}`, headers: h, payload: { name: 'SecOps' } });
  t.equal(renamed.statusCode, 200);
  t.match(renamed.json(), { name: 'SecOps', description: 'Reads everything', permissions: ['repos:read', 'drifts:read', 'org:read'], memberCount: 1 }, 'partial update keeps the other fields');
  const narrowed = await app.inject({ method: 'PUT', url: `${url}/${role._id}`, headers: h, payload: { permissions: ['repos:read'] } });
  t.same(narrowed.json().permissions, ['repos:read']);
  const denied = await readMembers();
  t.equal(denied.statusCode, 403, 'the holder loses org:read at once (role cache invalidated)');
  t.equal(err(denied), 'permission_denied');
  t.equal((await app.inject({ method: 'PUT', url: `${url}/${role._id}`, headers: h, payload: {} })).statusCode, 400, 'an empty update: 400');
  t.equal((await app.inject({ method: 'PUT', url: `${url}/${role._id}`, headers: h, payload: { permissions: ['billing'] } })).statusCode, 400, 'invalid slug on update: 400');
  t.equal((await app.inject({ method: 'PUT', url: `${url}/${role._id}`, headers: h, payload: { name: 'Everything' } })).statusCode, 409, 'renaming onto another name: 409');
  t.equal((await app.inject({ method: 'PUT', url: `${url}/abcdefabcdefabcdefabcdef`, headers: h, payload: { name: 'X' } })).statusCode, 404, 'unknown role: 404');

  const removed = await app.inject({ method: 'DELETE', url: `${url}/${role._id}`, headers: h });
  t.equal(removed.statusCode, 204);
  t.equal((await ctx.tenancy.findMembership(orgId, holder.userId))?.role, 'member', 'its member moved to the built-in member role');
  t.equal((await readMembers()).statusCode, 200, 'and has member permissions at once');
  t.equal((await app.inject({ method: 'DELETE', url: `${url}/${role._id}`, headers: h })).statusCode, 404, 'deleting again: 404');
  t.same((await app.inject({ method: 'GET', url, headers: h })).json().roles.map((r: { name: string }) => r.name), ['Everything']);

  await ctx.audit.flush();
  const actions = new Set((await ctx.db.db.collection('audit_logs').find({ orgId }).toArray()).map((e) => e.action));
  for (const a of ['role.created', 'role.updated', 'role.deleted']) t.ok(actions.has(a), `audited as ${a}`);
});

t.test('nobody defines or changes a role beyond their own permissions', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'team');
  const url = `/api/orgs/${owner.orgId}/roles`;
  const mk = async (name: string, permissions: string[]) => (await app.inject({ method: 'POST', url, headers: bearer(owner.token), payload: { name, permissions } })).json()._id as string;
  const settingsRole = await mk('Settings', ['org:read', 'org:admin']);
  const wide = await mk('Wide', ['repos:write']);
  const own = await addMember(b, owner.orgId, settingsRole);

  const up = await app.inject({ method: 'POST', url, headers: bearer(own.token), payload: { name: 'Escalate', permissions: ['repos:write'] } });
  t.equal(up.statusCode, 403, 'creating a role with a permission the caller lacks');
  t.equal(err(up), 'orgs.role_escalation');
  const self = await app.inject({ method: 'PUT', url: `${url}/${settingsRole}`, headers: bearer(own.token), payload: { permissions: ['org:read', 'org:admin', 'org:members'] } });
  t.equal(self.statusCode, 403, 'widening their own role');
  t.equal((await app.inject({ method: 'DELETE', url: `${url}/${wide}`, headers: bearer(own.token) })).statusCode, 403, 'deleting a role wider than theirs');
  t.equal((await app.inject({ method: 'POST', url, headers: bearer(own.token), payload: { name: 'Narrow', permissions: ['org:read'] } })).statusCode, 201, 'a role within their permissions is fine');
});
