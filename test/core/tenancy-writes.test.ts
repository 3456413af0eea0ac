// core/tenancy's write API, driven directly against the real database: the owner rules (exactly
// one owner, who is not removed, demoted or deactivated except by a transfer), the rule that
// nobody grants or takes away more than they hold (for every caller naming an acting member,
// SCIM's token creator included), and cache invalidation (a cached access() sees each write at once).
import t from 'tap';
import { buildTestApp } from '../helper.ts';
import { newId } from '../../core/crypto.ts';
import { ROLE_PERMISSIONS } from '../../core/permissions.ts';
import { NO_GRANTOR } from '../../core/tenancy/grants.ts';
import { createTenancyStore } from '../../core/tenancy/store.ts';

const { ctx } = await buildTestApp(t);
const tenancy = ctx.tenancy;
// The raw store, only to show what the cache would keep without the write API's invalidation.
const raw = createTenancyStore(ctx.db);
const code = (c: string) => ({ code: c }) as object as Error;
const member = { permissions: ROLE_PERMISSIONS.member };
const admin = { permissions: ROLE_PERMISSIONS.admin };

async function org(plan: 'free' | 'team' = 'free') {
  const ownerId = newId();
  const o = await tenancy.createOrganization({ name: 'Org', ownerId, plan });
  return { orgId: o._id, ownerId };
}
const owners = async (orgId: string) => (await tenancy.listMembers(orgId, { page: 1, limit: 100 })).filter((m) => m.role === 'owner').map((m) => m.userId);

t.test('an organization starts with exactly one owner, who cannot be removed, demoted or deactivated', async (t) => {
  const { orgId, ownerId } = await org();
  t.same(await owners(orgId), [ownerId]);
  t.equal((await tenancy.findOrg(orgId))?.ownerId, ownerId);
  t.equal((await tenancy.access(orgId, ownerId))?.builtInRole, 'owner');
  await t.rejects(tenancy.removeMember(orgId, ownerId), code('orgs.owner_cannot_be_removed'));
  await t.rejects(tenancy.setRole(orgId, ownerId, 'admin'), code('orgs.owner_role_fixed'));
  await t.rejects(tenancy.setMemberActive(orgId, ownerId, false), code('orgs.owner_cannot_be_removed'));
  const m = newId();
  await tenancy.addMember({ orgId, userId: m, role: 'member' });
  await t.rejects(tenancy.addMember({ orgId, userId: newId(), role: 'owner' }), code('orgs.owner_role_fixed'), 'nobody joins as owner');
  await t.rejects(tenancy.setRole(orgId, m, 'owner'), code('orgs.owner_role_fixed'), 'nobody becomes owner but by a transfer');
  await t.rejects(tenancy.moveMember({ userId: ownerId, from: orgId, to: (await org()).orgId, role: 'member' }), code('orgs.owner_cannot_be_removed'));
  await t.rejects(tenancy.addMember({ orgId, userId: m, role: 'viewer' }), code('orgs.already_member'));
  await t.rejects(tenancy.addMember({ orgId, userId: newId(), role: newId() }), code('orgs.unknown_role'));
  await t.rejects(tenancy.removeMember(orgId, newId()), code('not_found'));
  t.same(await owners(orgId), [ownerId], 'still exactly one owner');
});

t.test('ownership moves to a member only, and the previous owner becomes admin', async (t) => {
  const { orgId, ownerId } = await org();
  const heir = newId();
  await tenancy.addMember({ orgId, userId: heir, role: 'viewer' });
  await t.rejects(tenancy.transferOwnership(orgId, ownerId, newId()), code('not_found'), 'not to a stranger');
  await t.rejects(tenancy.transferOwnership(orgId, ownerId, ownerId), code('orgs.transfer_to_self'));
  await t.rejects(tenancy.transferOwnership(orgId, heir, ownerId), code('forbidden'), 'only the owner hands it over');
  t.equal((await tenancy.access(orgId, heir))?.role, 'viewer', 'cached');
  t.equal((await tenancy.org(orgId))?.ownerId, ownerId, 'cached');
  const before = await tenancy.transferOwnership(orgId, ownerId, heir);
  t.equal(before.role, 'viewer', 'answers the heir as they were');
  t.same(await owners(orgId), [heir], 'exactly one owner');
  t.equal((await tenancy.access(orgId, heir))?.role, 'owner', 'the cached access sees it at once');
  t.equal((await tenancy.access(orgId, ownerId))?.role, 'admin');
  t.equal((await tenancy.org(orgId))?.ownerId, heir, 'the cached organization too');
});

t.test('an acting member grants and takes away nothing they do not hold; a refusal writes nothing', async (t) => {
  const { orgId } = await org('team');
  const [a, v, w] = [newId(), newId(), newId()];
  await tenancy.addMember({ orgId, userId: a, role: 'admin' });
  await tenancy.addMember({ orgId, userId: v, role: 'viewer' });
  const esc = code('orgs.role_escalation');
  await t.rejects(tenancy.setRole(orgId, v, 'admin', { by: member }), esc, 'a member makes no admin');
  await t.rejects(tenancy.setRole(orgId, a, 'viewer', { by: member }), esc, 'nor demotes one');
  await t.rejects(tenancy.removeMember(orgId, a, { by: member }), esc, 'nor removes one');
  await t.rejects(tenancy.setMemberActive(orgId, a, false, { by: member }), esc, 'nor deactivates one');
  await t.rejects(tenancy.addMember({ orgId, userId: w, role: 'admin', by: member }), esc, 'nor adds one');
  // A SCIM token whose creator has left grants nothing at all.
  await t.rejects(tenancy.addMember({ orgId, userId: w, role: 'viewer', by: NO_GRANTOR }), esc, 'a grantor without permissions adds nobody');
  await t.rejects(tenancy.createRole({ orgId, name: 'Power', permissions: ['org:admin'], by: member }), esc, 'nor defines a role above theirs');
  const target = (await org()).orgId;
  await t.rejects(tenancy.moveMember({ userId: v, from: orgId, to: target, role: 'admin', by: admin, byTarget: member }), esc, 'nor gives more in the target');
  t.equal((await tenancy.findMembership(orgId, v))?.role, 'viewer', 'nothing written');
  t.equal((await tenancy.findMembership(orgId, a))?.role, 'admin');
  t.notOk(await tenancy.findMembership(orgId, w));
  t.notOk(await tenancy.findMembership(target, v));
  t.equal((await tenancy.listRoles(orgId)).length, 0);
  await tenancy.setRole(orgId, v, 'member', { by: admin });
  t.equal((await tenancy.findMembership(orgId, v))?.role, 'member', 'within what they hold it is written');
  await t.rejects(tenancy.setRole(orgId, v, (await tenancy.createRole({ orgId: (await org()).orgId, name: 'Elsewhere', permissions: [] }))._id, { by: admin, plan: true }),
    code('orgs.unknown_role'), 'a role of another organization is unknown here');
  const free = await org();
  const custom = await tenancy.createRole({ orgId: free.orgId, name: 'Ops', permissions: ['org:read'] });
  await tenancy.addMember({ orgId: free.orgId, userId: w, role: 'viewer' });
  await t.rejects(tenancy.setRole(free.orgId, w, custom._id, { by: admin, plan: true }), code('plan_required'), 'custom roles need Team');
});

t.test('every write reaches a cached access() at once', async (t) => {
  const { orgId } = await org('team');
  const u = newId();
  await tenancy.addMember({ orgId, userId: u, role: 'viewer' });
  t.equal((await tenancy.access(orgId, u))?.role, 'viewer');
  // Without invalidation the cache would keep answering viewer: the raw write proves it caches.
  await raw.setMemberRole(orgId, u, 'member');
  t.equal((await tenancy.access(orgId, u))?.role, 'viewer', 'a raw write is not seen (the access is cached)');
  await tenancy.setRole(orgId, u, 'admin');
  t.equal((await tenancy.access(orgId, u))?.role, 'admin', 'setRole');
  await tenancy.setMemberActive(orgId, u, false);
  t.equal(await tenancy.access(orgId, u), null, 'deactivated: no access');
  await tenancy.setMemberActive(orgId, u, true);
  t.equal((await tenancy.access(orgId, u))?.role, 'admin', 'reactivated');

  const role = await tenancy.createRole({ orgId, name: 'Readers', permissions: ['org:read', 'drifts:read'] });
  await tenancy.setRole(orgId, u, role._id);
  t.ok((await tenancy.access(orgId, u))?.permissions.has('drifts:read'));
  await tenancy.updateRole(orgId, role._id, { permissions: ['org:read'] });
  t.notOk((await tenancy.access(orgId, u))?.permissions.has('drifts:read'), 'updateRole');
  let hook = false;
  const removed = await tenancy.removeRole(orgId, role._id, { beforeDelete: async () => { hook = true; } });
  t.same(removed.movedUserIds, [u]);
  t.ok(hook, 'the hook runs before the role goes');
  t.equal((await tenancy.access(orgId, u))?.role, 'member', 'removeRole moves holders to member');

  await tenancy.renameOrganization(orgId, 'Renamed');
  t.equal((await tenancy.org(orgId))?.name, 'Renamed', 'renameOrganization');
  const target = (await org()).orgId;
  await tenancy.moveMember({ userId: u, from: orgId, to: target, role: 'viewer' });
  t.equal(await tenancy.access(orgId, u), null, 'moved out');
  t.equal((await tenancy.access(target, u))?.role, 'viewer', 'moved in');
  await tenancy.removeMember(target, u);
  t.equal(await tenancy.access(target, u), null, 'removeMember');
  const gone = await org();
  t.ok(await tenancy.access(gone.orgId, gone.ownerId));
  await tenancy.removeOrganization(gone.orgId);
  t.equal(await tenancy.access(gone.orgId, gone.ownerId), null, 'removeOrganization');
});

t.test('a deleted account: an heir takes each organization it owned with others, one it owned alone goes', async (t) => {
  const leaving = newId();
  const shared = await tenancy.createOrganization({ name: 'Shared', ownerId: leaving });
  const alone = await tenancy.createOrganization({ name: 'Alone', ownerId: leaving });
  const elsewhere = await org();
  const [m, a] = [newId(), newId()];
  await tenancy.addMember({ orgId: shared._id, userId: m, role: 'member' });
  await tenancy.addMember({ orgId: shared._id, userId: a, role: 'admin' });
  await tenancy.addMember({ orgId: elsewhere.orgId, userId: leaving, role: 'viewer' });
  const removedOrgs: string[] = [];
  await tenancy.removeAccount(leaving, async (orgId) => { removedOrgs.push(orgId); await tenancy.removeOrganization(orgId); });
  t.same(removedOrgs, [alone._id], 'only the organization it owned alone is removed');
  t.same(await owners(shared._id), [a], 'the longest-standing admin inherits, before an older member');
  t.equal((await tenancy.org(shared._id))?.ownerId, a);
  t.equal((await tenancy.access(shared._id, a))?.role, 'owner', 'cached access sees the heir at once');
  t.equal(await tenancy.access(elsewhere.orgId, leaving), null, 'gone from every organization');
  t.same(await tenancy.listUserMemberships(leaving), []);
});
