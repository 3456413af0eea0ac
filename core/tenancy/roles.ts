// Custom role writes: create, update, delete. A role's permissions change what every member
// holding it may do, so the write drops the cached role (and, on delete, the holders' cached
// memberships) in every process. Nobody defines, changes or deletes a role granting more than
// they hold (`by`); deleting a role moves its members to the built-in member role.
import { newId } from '../crypto.ts';
import { isDuplicateKey } from '../db.ts';
import { notFound } from '../errors.ts';
import { BUILT_IN_ROLES, type Permission } from '../permissions.ts';
import { assertHolds, type Grantor } from './grants.ts';
import type { CustomRole, TenancyStore } from './store.ts';
import { orgError } from './rules.ts';

export type RoleChanges = Partial<Pick<CustomRole, 'name' | 'description' | 'permissions'>>;

export interface RoleWrites {
  createRole(input: { orgId: string; name: string; description?: string; permissions: Permission[]; by?: Grantor }): Promise<CustomRole>;
  /** Returns the role before and after. */
  updateRole(orgId: string, roleId: string, changes: RoleChanges, by?: Grantor): Promise<{ before: CustomRole; after: CustomRole; set: RoleChanges }>;
  /**
   * Members first (moved to member), then `beforeDelete` (e.g. pending invitations), then the role:
   * a crash part-way leaves a role with fewer members, never members holding a role that is gone.
   */
  removeRole(orgId: string, roleId: string, opts?: { by?: Grantor; beforeDelete?: () => Promise<void> }): Promise<{ role: CustomRole; movedUserIds: string[] }>;
}

const nameTaken = (name: string) => orgError('role_name_taken', `A role named "${name}" already exists in this organization`);

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw orgError('invalid_role_name', 'name must not be blank');
  if ((BUILT_IN_ROLES as readonly string[]).includes(trimmed.toLowerCase())) {
    throw orgError('invalid_role_name', `"${trimmed}" is a built-in role name`);
  }
  return trimmed;
}

export function createRoleWrites(store: TenancyStore, drop: { role(orgId: string, roleId: string): Promise<void>; member(orgId: string, userId: string): Promise<void> }): RoleWrites {
  async function roleOf(orgId: string, roleId: string): Promise<CustomRole> {
    const role = await store.findRole(orgId, roleId);
    if (!role) throw notFound('Role');
    return role;
  }

  return {
    async createRole({ orgId, name, description, permissions, by }) {
      // Nobody defines a role more powerful than their own (it could then be granted).
      if (by) assertHolds(by.permissions, permissions, 'create a role that grants more than yours');
      const role: CustomRole = { _id: newId(), orgId, name: checkName(name), description: description ?? '', permissions: [...new Set(permissions)], createdAt: new Date() };
      try {
        await store.insertRole(role);
      } catch (err) {
        if (isDuplicateKey(err)) throw nameTaken(role.name);
        throw err;
      } finally {
        await drop.role(orgId, role._id);
      }
      return role;
    },

    async updateRole(orgId, roleId, changes, by) {
      const before = await roleOf(orgId, roleId);
      if (by) {
        assertHolds(by.permissions, before.permissions, 'change a role that grants more than yours');
        if (changes.permissions) assertHolds(by.permissions, changes.permissions, 'give a role more permissions than yours');
      }
      const set: RoleChanges = {};
      if (changes.name !== undefined) set.name = checkName(changes.name);
      if (changes.description !== undefined) set.description = changes.description;
      if (changes.permissions) set.permissions = [...new Set(changes.permissions)];
      let after: CustomRole | null;
      try {
        after = await store.updateRole(orgId, roleId, set);
      } catch (err) {
        if (isDuplicateKey(err)) throw nameTaken(set.name ?? before.name);
        throw err;
      }
      if (!after) throw notFound('Role');
      // Every member holding it gets the new permissions on their next request, in every process.
      await drop.role(orgId, roleId);
      return { before, after, set };
    },

    async removeRole(orgId, roleId, { by, beforeDelete } = {}) {
      const role = await roleOf(orgId, roleId);
      if (by) assertHolds(by.permissions, role.permissions, 'delete a role that grants more than yours');
      const holders = await store.membersWithRole(orgId, roleId);
      await store.reassignRole(orgId, roleId, 'member');
      await beforeDelete?.();
      await store.deleteRole(orgId, roleId);
      for (const m of holders) await drop.member(orgId, m.userId);
      await drop.role(orgId, roleId);
      return { role, movedUserIds: holders.map((m) => m.userId) };
    },
  };
}
