// The organization rules beyond removal: no escalation; an owner must transfer before leaving.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { addMember, addRole } from './helper.ts';

const err = (res: { json(): { error: { code: string } } }) => res.json().error.code;

t.test('escalation: nobody grants or manages permissions their role lacks', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const orgId = owner.orgId;
  await ctx.tenancy.setPlan(orgId, 'team');
  const hrRole = await addRole(b, orgId, 'HR', ['org:read', 'org:members']);
  const hr = await addMember(b, orgId, hrRole);
  const admin = await addMember(b, orgId, 'admin');
  const m = await addMember(b, orgId, 'member');
  const narrower = await addRole(b, orgId, 'Readers', ['org:read']);
  const reader = await addMember(b, orgId, narrower);

  const promote = await app.inject({ method: 'PUT', url: `/api/orgs/${orgId}/members/${reader.userId}`, headers: bearer(hr.token), payload: { role: 'admin' } });
  t.equal(promote.statusCode, 403, 'HR (org:read, org:members) cannot make an admin');
  t.equal(err(promote), 'orgs.role_escalation');
  t.ok(promote.json().error.details.missingPermissions.includes('org:admin'), 'details name the missing permissions');
  const self = await app.inject({ method: 'PUT', url: `/api/orgs/${orgId}/members/${hr.userId}`, headers: bearer(hr.token), payload: { role: 'member' } });
  t.equal(self.statusCode, 403, 'nor promote themselves to member (member holds more than HR)');
  const demote = await app.inject({ method: 'DELETE', url: `/api/orgs/${orgId}/members/${admin.userId}`, headers: bearer(hr.token) });
  t.equal(demote.statusCode, 403, 'nor remove an admin');
  const invite = await app.inject({ method: 'POST', url: `/api/orgs/${orgId}/invitations/link`, headers: bearer(hr.token), payload: { role: 'admin' } });
  t.equal(invite.statusCode, 403, 'nor invite an admin');
  const manage = await app.inject({ method: 'PUT', url: `/api/orgs/${orgId}/members/${m.userId}`, headers: bearer(hr.token), payload: { role: narrower } });
  t.equal(manage.statusCode, 403, 'nor change the role of a member, whose role holds more than HR');
  const viewer = await app.inject({ method: 'PUT', url: `/api/orgs/${orgId}/members/${reader.userId}`, headers: bearer(hr.token), payload: { role: 'viewer' } });
  t.equal(viewer.statusCode, 403, 'viewer holds every :read slug, more than HR');
  const within = await app.inject({ method: 'PUT', url: `/api/orgs/${orgId}/members/${reader.userId}`, headers: bearer(hr.token), payload: { role: hrRole } });
  t.equal(within.statusCode, 200, 'HR may manage a reader and give them its own role');
  const fine = await app.inject({ method: 'POST', url: `/api/orgs/${orgId}/invitations/link`, headers: bearer(hr.token), payload: { role: narrower } });
  t.equal(fine.statusCode, 201, 'a role within their own permissions is fine');
});

t.test('leave and transfer ownership', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const orgId = owner.orgId;
  const heir = await addMember(b, orgId, 'viewer');
  const m = await addMember(b, orgId, 'member');
  const leave = (token: string) => app.inject({ method: 'POST', url: `/api/orgs/${orgId}/leave`, headers: bearer(token) });
  const transfer = (newOwnerId: string, token = owner.token) =>
    app.inject({ method: 'POST', url: `/api/orgs/${orgId}/transfer-ownership`, headers: bearer(token), payload: { newOwnerId } });

  const ownerLeaves = await leave(owner.token);
  t.equal(ownerLeaves.statusCode, 409, 'an owner leaving without transfer: 409');
  t.equal(err(ownerLeaves), 'orgs.owner_must_transfer');
  const left = await leave(m.token);
  t.equal(left.statusCode, 200);
  t.same(left.json(), { message: 'You left the organization' });
  t.equal((await app.inject({ method: 'GET', url: `/api/orgs/${orgId}`, headers: bearer(m.token) })).statusCode, 404, 'gone at once');

  const stranger = await register(app);
  t.equal((await transfer(stranger.userId)).statusCode, 404, 'transfer to a non-member: 404');
  t.equal((await transfer(m.userId)).statusCode, 404, 'to a former member: 404');
  t.equal((await transfer(owner.userId)).statusCode, 400, 'to oneself: 400');
  t.equal((await transfer(owner.userId, heir.token)).statusCode, 403, 'only the owner transfers');

  const done = await transfer(heir.userId);
  t.equal(done.statusCode, 200);
  t.same(done.json(), { message: 'Ownership transferred', ownerId: heir.userId, previousOwnerRole: 'admin' });
  t.equal((await ctx.tenancy.findMembership(orgId, heir.userId))?.role, 'owner', 'the heir is owner');
  t.equal((await ctx.tenancy.findMembership(orgId, owner.userId))?.role, 'admin', 'the previous owner is admin');
  t.equal((await ctx.tenancy.findOrg(orgId))?.ownerId, heir.userId, 'the organization records its owner');
  const asHeir = await app.inject({ method: 'GET', url: `/api/orgs/${orgId}`, headers: bearer(heir.token) });
  t.equal(asHeir.json().role, 'owner', 'the heir sees the owner role at once');
  t.equal((await transfer(owner.userId)).statusCode, 403, 'the previous owner can no longer transfer');
  t.equal((await leave(heir.token)).statusCode, 409, 'the new owner cannot leave either');
  t.equal((await leave(owner.token)).statusCode, 200, 'the previous owner can now leave');

  await ctx.audit.flush();
  const actions = new Set((await ctx.db.db.collection('audit_logs').find({ orgId }).toArray()).map((e) => e.action));
  t.ok(actions.has('member.left') && actions.has('org.ownership_transferred'), 'curated actions member.left and org.ownership_transferred');
});
