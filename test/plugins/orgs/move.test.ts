// Moving a member needs owner/admin in both organizations; renaming an organization.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { addMember } from './helper.ts';

const err = (res: { json(): { error: { code: string } } }) => res.json().error.code;

t.test('move a member: owner/admin in both organizations', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const source = owner.orgId;
  const created = await app.inject({ method: 'POST', url: '/api/orgs', headers: bearer(owner.token), payload: { name: 'Target' } });
  const target = created.json()._id as string;
  const m = await addMember(b, source, 'member');
  const move = (userId: string, body: Record<string, unknown>, token = owner.token, from = source) =>
    app.inject({ method: 'POST', url: `/api/orgs/${from}/members/${userId}/move`, headers: bearer(token), payload: body });

  t.equal((await move(m.userId, { targetOrgId: source })).statusCode, 400, 'to the same organization: 400');
  const ownerMove = await move(owner.userId, { targetOrgId: target });
  t.equal(ownerMove.statusCode, 409, 'the owner cannot be moved out');
  t.equal(err(ownerMove), 'orgs.owner_cannot_be_removed');
  const stranger = await register(app);
  const notMine = await move(m.userId, { targetOrgId: stranger.orgId });
  t.equal(notMine.statusCode, 404, 'a target organization the caller is not in: 404');

  // An admin of the source who is only a viewer in the target.
  const admin = await addMember(b, source, 'admin');
  await ctx.tenancy.addMember({ orgId: target, userId: admin.userId, role: 'viewer' });
  const halfAdmin = await move(m.userId, { targetOrgId: target }, admin.token);
  t.equal(halfAdmin.statusCode, 403, 'admin in the source only: 403');
  t.equal(err(halfAdmin), 'permission_denied');
  t.match(halfAdmin.json().error.message, /both organizations/);

  const moved = await move(m.userId, { targetOrgId: target });
  t.equal(moved.statusCode, 200);
  t.match(moved.json(), { message: 'Member moved', targetOrgId: target, member: { userId: m.userId, role: 'member' } }, 'role defaults to member');
  t.notOk(await ctx.tenancy.findMembership(source, m.userId), 'no longer in the source');
  t.equal((await ctx.tenancy.findMembership(target, m.userId))?.role, 'member', 'in the target');
  t.equal((await app.inject({ method: 'GET', url: `/api/orgs/${source}`, headers: bearer(m.token) })).statusCode, 404, 'the member lost the source at once');
  t.equal((await app.inject({ method: 'GET', url: `/api/orgs/${target}`, headers: bearer(m.token) })).statusCode, 200, 'and reaches the target');

  const again = await addMember(b, source, 'viewer');
  await ctx.tenancy.addMember({ orgId: target, userId: again.userId, role: 'viewer' });
  const dup = await move(again.userId, { targetOrgId: target, role: 'admin' });
  t.equal(dup.statusCode, 409, 'already a member of the target: 409');
  t.equal(err(dup), 'orgs.already_member');
  t.ok(await ctx.tenancy.findMembership(source, again.userId), 'and nothing changed in the source');

  const withRole = await addMember(b, source, 'viewer');
  t.equal((await move(withRole.userId, { targetOrgId: target, role: 'admin' })).json().member.role, 'admin', 'an explicit role');

  await ctx.audit.flush();
  // Two members moved successfully; pick the first one's entries (no order is implied).
  const movedOf = async (orgId: string) => (await ctx.db.db.collection('audit_logs').find({ orgId, action: 'member.moved' }).toArray())
    .find((e) => e.statusCode === 200 && e.details?.target?.id === m.userId);
  const sourceEntry = await movedOf(source);
  const targetEntry = await movedOf(target);
  t.match(sourceEntry?.details, { target: { id: m.userId }, fromOrgId: source, toOrgId: target }, 'the source trail records the move');
  t.match(targetEntry?.details, { target: { id: m.userId }, fromOrgId: source, toOrgId: target }, 'and so does the target trail');
});

t.test('rename: owner or admin; the new name shows everywhere at once', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const admin = await addMember(b, owner.orgId, 'admin');
  const res = await app.inject({ method: 'PUT', url: `/api/orgs/${owner.orgId}`, headers: bearer(admin.token), payload: { name: 'Acme' } });
  t.equal(res.statusCode, 200);
  t.match(res.json(), { _id: owner.orgId, name: 'Acme', role: 'admin', memberCount: 2, plan: 'free' });
  t.equal((await app.inject({ method: 'GET', url: `/api/orgs/${owner.orgId}`, headers: bearer(owner.token) })).json().name, 'Acme');
  t.equal((await app.inject({ method: 'PUT', url: `/api/orgs/${owner.orgId}`, headers: bearer(admin.token), payload: { name: '' } })).statusCode, 400, 'empty name: 400');
  await ctx.audit.flush();
  const entry = await ctx.db.db.collection('audit_logs').findOne({ orgId: owner.orgId, action: 'org.updated' });
  t.match(entry?.details, { from: { name: /organization/ }, to: { name: 'Acme' } }, 'audited as org.updated with the old and new names');
});
