// Custom roles (Team plan and above): a name and exactly the spec's permission slugs (the
// schema refuses anything else with a 400; billing and organization deletion are not slugs,
// so they are never assignable). The writes and their rules (nobody defines a role granting
// more than they hold; deleting a role moves its members to member) are core/tenancy's.
import type { AppContext } from '../../core/context.ts';
import type { Permission } from '../../core/permissions.ts';
import type { CustomRole } from '../../core/tenancy/index.ts';
import type { InvitationStore } from './store.ts';
import type { CreateRole, RoleView, UpdateRole } from './schemas.ts';
import { withFacts, type AuditFacts, type Caller } from './rules.ts';

const view = (r: CustomRole, memberCount: number): RoleView => ({
  _id: r._id, name: r.name, description: r.description ?? '', permissions: r.permissions, memberCount, createdAt: r.createdAt.toISOString(),
});

export function createRoles(ctx: AppContext, invitations: InvitationStore) {
  const { tenancy } = ctx;

  return {
    async list(orgId: string): Promise<RoleView[]> {
      const roles = await tenancy.listRoles(orgId);
      const counts = await tenancy.roleMemberCounts(orgId, roles.map((r) => r._id));
      return roles.map((r) => view(r, counts.get(r._id) ?? 0));
    },

    async create(caller: Caller, input: CreateRole): Promise<RoleView> {
      const role = await tenancy.createRole({
        orgId: caller.org.id, name: input.name, description: input.description, permissions: input.permissions as Permission[], by: caller.org,
      });
      return view(role, 0);
    },

    async update(caller: Caller, roleId: string, input: UpdateRole) {
      const orgId = caller.org.id;
      const { before, after, set } = await tenancy.updateRole(orgId, roleId, { ...input, permissions: input.permissions as Permission[] | undefined }, caller.org);
      const counts = await tenancy.roleMemberCounts(orgId, [roleId]);
      return withFacts(view(after, counts.get(roleId) ?? 0),
        { target: { type: 'role', id: roleId, name: after.name }, before: { name: before.name, permissions: before.permissions }, after: set });
    },

    /** Members move to member, then pending invitations to the role invite as member, then the role goes. */
    async remove(caller: Caller, roleId: string): Promise<{ audit: AuditFacts }> {
      const orgId = caller.org.id;
      const { role, movedUserIds } = await tenancy.removeRole(orgId, roleId, {
        by: caller.org, beforeDelete: () => invitations.reassignRole(orgId, roleId, 'member'),
      });
      return { audit: { target: { type: 'role', id: roleId, name: role.name }, membersMovedToMember: movedUserIds } };
    },
  };
}
export type Roles = ReturnType<typeof createRoles>;
