// Members of an organization: list, change role, remove, move to another organization,
// transfer ownership, leave (SPEC "Organizations", "Organization rules"). The writes and their
// rules (owner, no escalation, cache invalidation) are core/tenancy's (ctx.tenancy); this adds
// who is asking, the views and the events.
import type { AppContext } from '../../core/context.ts';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import { ROLE_PERMISSIONS } from '../../core/permissions.ts';
import { pageCount, type Page } from '../../core/schemas.ts';
import type { Membership } from '../../core/tenancy/index.ts';
import type { MemberView } from './schemas.ts';
import type { UserDirectory } from '../auth/service.ts';
import { orgError, ownerCannotBeRemoved, usernameOf, usersById, withFacts, type AuditFacts, type Caller } from './rules.ts';

export { alreadyMember } from '../../core/tenancy/rules.ts';

const target = (m: Membership, email?: string) => ({ type: 'member', id: m.userId, ...(email ? { email } : {}) });

export function createMembers(ctx: AppContext, directory: UserDirectory) {
  const { tenancy } = ctx;

  /** Member views with names and emails: one directory command for the whole list. */
  async function views(members: Membership[]): Promise<MemberView[]> {
    const users = await usersById(directory, members.map((m) => m.userId));
    return members.map((m) => {
      const u = users.get(m.userId);
      // A membership whose account is gone (deleted mid-way) still shows, with what is known.
      return { userId: m.userId, username: u ? usernameOf(u) : m.userId, email: u?.email ?? '', role: m.role, joinedAt: m.joinedAt.toISOString() };
    });
  }

  /** Where the caller moves a member to: they must manage members there too (the service key acts as admin everywhere). */
  async function accessIn(caller: Caller, targetOrgId: string) {
    const there = caller.isService
      ? await tenancy.org(targetOrgId).then((org) => org && { org, permissions: ROLE_PERMISSIONS.admin })
      : await tenancy.access(targetOrgId, caller.userId);
    // Not a member there: the organization is not the caller's to see (404, never 403).
    if (!there) throw notFound('Organization');
    if (!there.permissions.has('org:members')) {
      throw new AppError('permission_denied', { message: 'Moving a member needs the owner or admin role (org:members) in both organizations', details: { requiredPermission: 'org:members', organization: targetOrgId } });
    }
    return there;
  }

  return {
    views,

    async list(orgId: string, page: Page) {
      const [members, total] = await Promise.all([tenancy.listMembers(orgId, page), tenancy.countMembers(orgId)]);
      return { members: await views(members), total, page: page.page, pages: pageCount(total, page.limit) };
    },

    async changeRole(caller: Caller, userId: string, role: string) {
      const m = await tenancy.setRole(caller.org.id, userId, role, { by: caller.org, plan: true });
      const [view] = await views([{ ...m, role }]);
      return withFacts(view, { target: target(m), from: m.role, to: role });
    },

    async remove(caller: Caller, userId: string): Promise<{ audit: AuditFacts }> {
      const m = await tenancy.removeMember(caller.org.id, userId, { by: caller.org });
      const email = (await usersById(directory, [userId])).get(userId)?.email ?? '';
      await ctx.bus.emit('member.removed', caller.org.id, {
        userId, email, role: m.role,
        removedBy: caller.isService ? null : { id: caller.userId, ...(caller.email ? { email: caller.email } : {}) },
      });
      return { audit: { target: target(m), role: m.role } };
    },

    /** Moves a member to another organization where the caller also manages members. */
    async move(caller: Caller, userId: string, input: { targetOrgId: string; role?: string }) {
      const targetOrgId = input.targetOrgId;
      if (targetOrgId === caller.org.id) throw orgError('same_organization', 'targetOrgId is this organization');
      const current = await tenancy.findMembership(caller.org.id, userId);
      if (!current) throw notFound('Member');
      if (current.role === 'owner') throw ownerCannotBeRemoved('moved');
      const there = await accessIn(caller, targetOrgId);
      const { before, moved } = await tenancy.moveMember({
        userId, from: caller.org.id, to: targetOrgId, role: input.role ?? 'member', by: caller.org, byTarget: there,
        what: 'give a role that grants more than yours in the target organization',
      });
      const details = { target: target(before), fromOrgId: caller.org.id, toOrgId: targetOrgId, fromRole: before.role, role: moved.role };
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

    async transferOwnership(caller: Caller, newOwnerId: string) {
      const heir = await tenancy.transferOwnership(caller.org.id, caller.userId, newOwnerId);
      return withFacts({ message: 'Ownership transferred', ownerId: newOwnerId, previousOwnerRole: 'admin' },
        { target: target(heir), previousOwnerId: caller.userId, newOwnerPreviousRole: heir.role });
    },

    async leave(caller: Caller) {
      if (caller.isService) throw badRequest('Only a member can leave an organization');
      if (caller.org.builtInRole === 'owner') throw orgError('owner_must_transfer', 'The owner must transfer ownership before leaving the organization');
      await tenancy.removeMember(caller.org.id, caller.userId);
      return withFacts({ message: 'You left the organization' }, { target: { type: 'member', id: caller.userId }, role: caller.org.role });
    },
  };
}
export type Members = ReturnType<typeof createMembers>;
