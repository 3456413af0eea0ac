// Members of an organization: list, change role, remove, move to another organization,
// transfer ownership, leave (SPEC "Organizations", "Organization rules"). Every change
// drops the cached membership in every process (ctx.tenancy.invalidate*).
import type { AppContext } from '../../core/context.ts';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import { ROLE_PERMISSIONS } from '../../core/permissions.ts';
import { newId } from '../../core/crypto.ts';
import { isDuplicateKey } from '../../core/db.ts';
import { pageCount, type Page } from '../../core/schemas.ts';
import type { Membership } from '../../core/tenancy/store.ts';
import type { MemberView } from './schemas.ts';
import type { UserDirectory } from '../auth/service.ts';
import { assertCanManage, orgError, ownerCannotBeRemoved, resolveRole, usernameOf, usersById, withFacts, type AuditFacts, type Caller } from './rules.ts';

export const alreadyMember = () => orgError('already_member', 'This user is already a member of the organization');

export function createMembers(ctx: AppContext, directory: UserDirectory) {
  const { store } = ctx.tenancy;

  /** Member views with names and emails: one directory command for the whole list. */
  async function views(members: Membership[]): Promise<MemberView[]> {
    const users = await usersById(directory, members.map((m) => m.userId));
    return members.map((m) => {
      const u = users.get(m.userId);
      // A membership whose account is gone (deleted mid-way) still shows, with what is known.
      return { userId: m.userId, username: u ? usernameOf(u) : m.userId, email: u?.email ?? '', role: m.role, joinedAt: m.joinedAt.toISOString() };
    });
  }

  async function memberOf(orgId: string, userId: string): Promise<Membership> {
    const m = await store.findMembership(orgId, userId);
    if (!m) throw notFound('Member');
    return m;
  }

  const target = (m: Membership, email?: string) => ({ type: 'member', id: m.userId, ...(email ? { email } : {}) });

  return {
    views,

    async list(orgId: string, page: Page) {
      const [members, total] = await Promise.all([store.listMembers(orgId, page), store.countMembers(orgId)]);
      return { members: await views(members), total, page: page.page, pages: pageCount(total, page.limit) };
    },

    async changeRole(caller: Caller, userId: string, requested: string) {
      const m = await memberOf(caller.org.id, userId);
      if (m.role === 'owner') throw orgError('owner_role_fixed', "The owner's role changes only by transferring ownership");
      await assertCanManage(ctx, caller, m.role);
      const { role } = await resolveRole(ctx, caller.org.org, requested);
      await ctx.tenancy.assertMayGrant(caller.org.id, caller.org, role);
      if (m.role !== role) {
        await store.setMemberRole(caller.org.id, userId, role);
        await ctx.tenancy.invalidateMembership(caller.org.id, userId);
      }
      const [view] = await views([{ ...m, role }]);
      return withFacts(view, { target: target(m), from: m.role, to: role });
    },

    async remove(caller: Caller, userId: string): Promise<{ audit: AuditFacts }> {
      const m = await memberOf(caller.org.id, userId);
      if (m.role === 'owner') throw ownerCannotBeRemoved();
      await assertCanManage(ctx, caller, m.role);
      await store.removeMembership(caller.org.id, userId);
      await ctx.tenancy.invalidateMembership(caller.org.id, userId);
      const email = (await usersById(directory, [userId])).get(userId)?.email ?? '';
      await ctx.bus.emit('member.removed', caller.org.id, {
        userId, email, role: m.role,
        removedBy: caller.isService ? null : { id: caller.userId, ...(caller.email ? { email: caller.email } : {}) },
      });
      return { audit: { target: target(m), role: m.role } };
    },

    /**
     * Moves a member to another organization where the caller also manages members. The
     * target membership is written first: a crash between the two writes leaves the user in
     * both organizations (nothing lost), never in neither.
     */
    async move(caller: Caller, userId: string, input: { targetOrgId: string; role?: string }) {
      const targetOrgId = input.targetOrgId;
      if (targetOrgId === caller.org.id) throw orgError('same_organization', 'targetOrgId is this organization');
      const m = await memberOf(caller.org.id, userId);
      if (m.role === 'owner') throw ownerCannotBeRemoved('moved');
      // The service key acts as admin in every organization (core/guards/chain.ts).
      const there = caller.isService
        ? await ctx.tenancy.org(targetOrgId).then((org) => org && { org, permissions: ROLE_PERMISSIONS.admin })
        : await ctx.tenancy.access(targetOrgId, caller.userId);
      // Not a member there: the organization is not the caller's to see (404, never 403).
      if (!there) throw notFound('Organization');
      if (!there.permissions.has('org:members')) {
        throw new AppError('permission_denied', { message: 'Moving a member needs the owner or admin role (org:members) in both organizations', details: { requiredPermission: 'org:members', organization: targetOrgId } });
      }
      await assertCanManage(ctx, caller, m.role);
      const { role } = await resolveRole(ctx, there.org, input.role ?? 'member');
      await ctx.tenancy.assertMayGrant(targetOrgId, there, role, 'give a role that grants more than yours in the target organization');
      const moved: Membership = { _id: newId(), orgId: targetOrgId, userId, role, joinedAt: new Date() };
      try {
        await store.insertMembership(moved);
      } catch (err) {
        if (isDuplicateKey(err)) throw alreadyMember();
        throw err;
      }
      await store.removeMembership(caller.org.id, userId);
      await ctx.tenancy.invalidateMembership(targetOrgId, userId);
      await ctx.tenancy.invalidateMembership(caller.org.id, userId);
      const details = { target: target(m), fromOrgId: caller.org.id, toOrgId: targetOrgId, fromRole: m.role, role };
      // The target organization's trail records the arrival too: a second entry, in another
      // organization, which the route's own audit rule (one entry, the source's) cannot make.
      // The source entry gets the same details through the rule (withFacts below).
      await ctx.audit.write({
        orgId: targetOrgId, action: 'member.moved', userId: caller.userId, actorName: caller.email, actorKind: 'user',
        method: caller.request.method, route: caller.request.route, resourceType: 'orgs', resourceId: userId, statusCode: 200,
        details, ipAddress: caller.request.ip, userAgent: caller.request.userAgent,
      });
      const [member] = await views([moved]);
      return withFacts({ message: 'Member moved', targetOrgId, member }, details);
    },

    /** The new owner is promoted first, so a crash part-way leaves two owners rather than none. */
    async transferOwnership(caller: Caller, newOwnerId: string) {
      if (newOwnerId === caller.userId) throw orgError('transfer_to_self', 'You already own this organization');
      const heir = await store.findMembership(caller.org.id, newOwnerId);
      if (!heir) throw notFound('Member (newOwnerId must be a current member of the organization)');
      await store.setMemberRole(caller.org.id, newOwnerId, 'owner');
      await store.setOwnerId(caller.org.id, newOwnerId);
      await store.setMemberRole(caller.org.id, caller.userId, 'admin');
      await ctx.tenancy.invalidateMembership(caller.org.id, newOwnerId);
      await ctx.tenancy.invalidateMembership(caller.org.id, caller.userId);
      await ctx.tenancy.invalidateOrg(caller.org.id);
      return withFacts({ message: 'Ownership transferred', ownerId: newOwnerId, previousOwnerRole: 'admin' },
        { target: target(heir), previousOwnerId: caller.userId, newOwnerPreviousRole: heir.role });
    },

    async leave(caller: Caller) {
      if (caller.isService) throw badRequest('Only a member can leave an organization');
      if (caller.org.builtInRole === 'owner') throw orgError('owner_must_transfer', 'The owner must transfer ownership before leaving the organization');
      await store.removeMembership(caller.org.id, caller.userId);
      await ctx.tenancy.invalidateMembership(caller.org.id, caller.userId);
      return withFacts({ message: 'You left the organization' }, { target: { type: 'member', id: caller.userId }, role: caller.org.role });
    },
  };
}
export type Members = ReturnType<typeof createMembers>;
