// Members: list, change role, remove (the owner cannot be removed).
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { addMember, addRole } from './helper.ts';

const err = (res: { json(): { error: { code: string } } }) => res.json().error.code;

t.test('list members: userId, username, email, role, joinedAt; pages in join order', async (t) => {
  const b = await buildTestApp(t);
  const { app } = b;
  const owner = await register(app);
  const res = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: `named-${Date.now()}@example.com`, password: 'correct horse battery', name: 'Ada Lovelace' } });
  const named = res.json().user.id as string;
  await b.ctx.tenancy.addMember({ orgId: owner.orgId, userId: named, role: 'viewer' });
  const plain = await addMember(b, owner.orgId, 'member');

  const list = await app.inject({ method: 'GET', url: `/api/orgs/${owner.orgId}/members`, headers: bearer(owner.token) });
  t.equal(list.statusCode, 200);
  const body = list.json();
  t.same(Object.keys(body).sort(), ['members', 'page', 'pages', 'total']);
  t.equal(body.total, 3);
  t.same(body.members.map((m: { role: string }) => m.role), ['owner', 'viewer', 'member'], 'oldest first');
  const ada = body.members[1];
  t.same(Object.keys(ada).sort(), ['email', 'joinedAt', 'role', 'userId', 'username']);
  t.equal(ada.username, 'Ada Lovelace', 'username is the name when there is one');
  t.equal(body.members[2].username, plain.email.split('@')[0], 'else the local part of the email');
  t.equal(body.members[2].email, plain.email);
  t.ok(Date.parse(ada.joinedAt), 'joinedAt is a timestamp');

  const page2 = await app.inject({ method: 'GET', url: `/api/orgs/${owner.orgId}/members?limit=2&page=2`, headers: bearer(owner.token) });
  t.same(page2.json().members.map((m: { userId: string }) => m.userId), [plain.userId], 'second page of two');
  t.equal(page2.json().pages, 2);
});

t.test('change role: built-in and custom roles, the owner fixed, effective at once', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const orgId = owner.orgId;
  const m = await addMember(b, orgId, 'member');
  const put = (role: unknown, userId = m.userId, token = owner.token) =>
    app.inject({ method: 'PUT', url: `/api/orgs/${orgId}/members/${userId}`, headers: bearer(token), payload: { role } });

  const viewer = await put('viewer');
  t.equal(viewer.statusCode, 200);
  t.match(viewer.json(), { userId: m.userId, role: 'viewer', email: m.email });
  const invite = await app.inject({ method: 'POST', url: `/api/orgs/${orgId}/invitations/link`, headers: bearer(m.token), payload: {} });
  t.equal(invite.statusCode, 403, 'the new role applies to the next request (cache invalidated)');

  t.equal((await put('owner')).statusCode, 400, 'owner is not assignable (transfer ownership instead)');
  t.equal((await put('superuser')).statusCode, 400, 'unknown built-in role: 400');
  const ownerRole = await put('admin', owner.userId);
  t.equal(ownerRole.statusCode, 409, "the owner's role changes only through transfer");
  t.equal(err(ownerRole), 'orgs.owner_role_fixed');
  t.equal((await put('viewer', 'abcdefabcdefabcdefabcdef')).statusCode, 404, 'not a member: 404');

  const customId = await addRole(b, orgId, 'Auditors', ['org:read', 'repos:read']);
  const onFree = await put(customId);
  t.equal(onFree.statusCode, 403, 'custom roles need the Team plan');
  t.equal(err(onFree), 'plan_required');
  await ctx.tenancy.setPlan(orgId, 'team');
  const custom = await put(customId);
  t.equal(custom.statusCode, 200, 'a custom role id of this organization');
  t.equal(custom.json().role, customId);
  const other = await register(app);
  const foreignRole = await addRole(b, other.orgId, 'Foreign', ['org:read']);
  const foreign = await put(foreignRole);
  t.equal(foreign.statusCode, 400, "another organization's role id is unknown here");
  t.equal(err(foreign), 'orgs.unknown_role');

  await ctx.audit.flush();
  const entry = (await ctx.db.db.collection('audit_logs').find({ orgId, action: 'member.role_changed' }).toArray()).find((e) => e.statusCode === 200);
  t.match(entry?.details, { target: { type: 'member', id: m.userId }, from: 'member', to: 'viewer' }, 'audited as member.role_changed with before/after');
});

t.test('remove: the owner cannot be removed; a removed member loses access at once', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const admin = await addMember(b, owner.orgId, 'admin');
  const m = await addMember(b, owner.orgId, 'member');
  const del = (userId: string, token = admin.token) => app.inject({ method: 'DELETE', url: `/api/orgs/${owner.orgId}/members/${userId}`, headers: bearer(token) });

  const refused = await del(owner.userId);
  t.equal(refused.statusCode, 409, 'removing the owner: 409');
  t.equal(err(refused), 'orgs.owner_cannot_be_removed');
  t.match(refused.json().error.message, /transfer ownership/);
  t.ok(await ctx.tenancy.findMembership(owner.orgId, owner.userId), 'the owner is still there');

  t.equal((await app.inject({ method: 'GET', url: `/api/orgs/${owner.orgId}`, headers: bearer(m.token) })).statusCode, 200, 'member can read before');
  const removed = await del(m.userId);
  t.equal(removed.statusCode, 204, 'DELETE answers 204');
  t.equal(removed.body, '');
  t.equal((await app.inject({ method: 'GET', url: `/api/orgs/${owner.orgId}`, headers: bearer(m.token) })).statusCode, 404, 'and afterwards sees 404');
  t.equal((await del(m.userId)).statusCode, 404, 'removing again: 404');

  await ctx.audit.flush();
  const actions = (await ctx.db.db.collection('audit_logs').find({ orgId: owner.orgId }).toArray()).map((e) => `${e.action}:${e.statusCode}`);
  t.ok(actions.includes('member.removed:204') && actions.includes('member.removed:409'), 'both attempts audited as member.removed with their status');
});
