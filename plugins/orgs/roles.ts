// Custom roles (Team plan and above): a name and exactly the spec's permission slugs (the
// schema refuses anything else with a 400; billing and organization deletion are not slugs,
// so they are never assignable). Deleting a role moves its members to the built-in member role.
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { notFound } from '../../core/errors.ts';
import { BUILT_IN_ROLES, type Permission } from '../../core/permissions.ts';
import type { CustomRole } from '../../core/tenancy/store.ts';
import { isDuplicateKey } from '../../core/db.ts';
import type { InvitationStore } from './store.ts';
import type { CreateRole, RoleView, UpdateRole } from './schemas.ts';
import { assertHolds, orgError, withFacts, type AuditFacts, type Caller } from './rules.ts';

const view = (r: CustomRole, memberCount: number): RoleView => ({
  _id: r._id, name: r.name, description: r.description ?? '', permissions: r.permissions, memberCount, createdAt: r.createdAt.toISOString(),
});

const nameTaken = (name: string) => orgError('role_name_taken', `A role named "${name}" already exists in this organization`);

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw orgError('invalid_role_name', 'name must not be blank');
  if ((BUILT_IN_ROLES as readonly string[]).includes(trimmed.toLowerCase())) {
    throw orgError('invalid_role_name', `"${trimmed}" is a built-in role name`);
  }
  return trimmed;
}

export function createRoles(ctx: AppContext, invitations: InvitationStore) {
  const { store } = ctx.tenancy;

  async function roleOf(orgId: string, roleId: string): Promise<CustomRole> {
    const role = await store.findRole(orgId, roleId);
    if (!role) throw notFound('Role');
    return role;
  }

  return {
    async list(orgId: string): Promise<RoleView[]> {
      const roles = await store.listRoles(orgId);
      const counts = await store.roleMemberCounts(orgId, roles.map((r) => r._id));
      return roles.map((r) => view(r, counts.get(r._id) ?? 0));
    },

    async create(caller: Caller, input: CreateRole): Promise<RoleView> {
      // Nobody defines a role more powerful than their own (it could then be granted).
      assertHolds(caller.org.permissions, input.permissions, 'create a role that grants more than yours');
      const role: CustomRole = {
        _id: newId(), orgId: caller.org.id, name: checkName(input.name), description: input.description ?? '',
        permissions: [...new Set(input.permissions)] as Permission[], createdAt: new Date(),
      };
      try {
        await store.insertRole(role);
      } catch (err) {
        if (isDuplicateKey(err)) throw nameTaken(role.name);
        throw err;
      }
      return view(role, 0);
    },

    async update(caller: Caller, roleId: string, input: UpdateRole) {
      const orgId = caller.org.id;
      const current = await roleOf(orgId, roleId);
      assertHolds(caller.org.permissions, current.permissions, 'change a role that grants more than yours');
      if (input.permissions) assertHolds(caller.org.permissions, input.permissions, 'give a role more permissions than yours');
      const set: Partial<Pick<CustomRole, 'name' | 'description' | 'permissions'>> = {};
      if (input.name !== undefined) set.name = checkName(input.name);
      if (input.description !== undefined) set.description = input.description;
      if (input.permissions) set.permissions = [...new Set(input.permissions)] as Permission[];
      let updated: CustomRole | null;
      try {
        updated = await store.updateRole(orgId, roleId, set);
      } catch (err) {
        if (isDuplicateKey(err)) throw nameTaken(set.name ?? current.name);
        throw err;
      }
      if (!updated) throw notFound('Role');
      // Every member holding it gets the new permissions on their next request, in every process.
      await ctx.tenancy.invalidateRole(orgId, roleId);
      const counts = await store.roleMemberCounts(orgId, [roleId]);
      return withFacts(view(updated, counts.get(roleId) ?? 0),
        { target: { type: 'role', id: roleId, name: updated.name }, before: { name: current.name, permissions: current.permissions }, after: set });
    },

    /**
     * Members first, then pending invitations, then the role: a crash part-way leaves a role
     * with fewer members, never members holding a role that no longer exists.
     */
    async remove(caller: Caller, roleId: string): Promise<{ audit: AuditFacts }> {
      const orgId = caller.org.id;
      const role = await roleOf(orgId, roleId);
      assertHolds(caller.org.permissions, role.permissions, 'delete a role that grants more than yours');
      const holders = await store.membersWithRole(orgId, roleId);
      await store.reassignRole(orgId, roleId, 'member');
      await invitations.reassignRole(orgId, roleId, 'member');
      await store.deleteRole(orgId, roleId);
      for (const m of holders) await ctx.tenancy.invalidateMembership(orgId, m.userId);
      await ctx.tenancy.invalidateRole(orgId, roleId);
      return { audit: { target: { type: 'role', id: roleId, name: role.name }, membersMovedToMember: holders.map((m) => m.userId) } };
    },
  };
}
export type Roles = ReturnType<typeof createRoles>;
