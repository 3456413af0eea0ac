// Tenancy as the guards see it: cached organization, membership and custom-role lookups,
// with invalidation that reaches every service process.
import type { CacheHub } from '../cache.ts';
import { isBuiltInRole, ROLE_PERMISSIONS, type BuiltInRole, type Permission } from '../permissions.ts';
import { newId } from '../crypto.ts';
import type { Plan } from '../plans.ts';
import type { Database } from '../db.ts';
import { createTenancyStore, type Organization, type TenancyStore } from './store.ts';
import { createGrants, type Grants } from './grants.ts';

export interface OrgAccess {
  org: Organization;
  /** Built-in role name or custom role id, as stored. */
  role: string;
  builtInRole: BuiltInRole | null;
  permissions: ReadonlySet<Permission>;
}

/** Grants: the rule that nobody grants more than they hold (core/tenancy/grants.ts). */
export interface Tenancy extends Grants {
  store: TenancyStore;
  org(orgId: string): Promise<Organization | null>;
  /** The caller's access to an organization, or null when not a member. */
  access(orgId: string, userId: string): Promise<OrgAccess | null>;
  createOrganization(input: { name: string; ownerId: string; plan?: Plan }): Promise<Organization>;
  setPlan(orgId: string, plan: Plan): Promise<boolean>;
  /** What a role (built-in name or custom role id) grants in an organization; null for an unknown custom role. */
  permissionsOf(orgId: string, role: string): Promise<ReadonlySet<Permission> | null>;
  /** Removes the organization, its memberships and roles, and drops them from every process's cache. */
  removeOrganization(orgId: string): Promise<void>;
  invalidateOrg(orgId: string): Promise<void>;
  invalidateMembership(orgId: string, userId: string): Promise<void>;
  invalidateRole(orgId: string, roleId: string): Promise<void>;
}

export function createTenancy(db: Database, caches: CacheHub): Tenancy {
  const store = createTenancyStore(db);
  const orgCache = caches.create('org', (orgId) => store.findOrg(orgId));
  const memberCache = caches.create('membership', (key) => {
    const [orgId, userId] = key.split(':');
    return store.findMembership(orgId, userId);
  });
  const roleCache = caches.create('role', (key) => {
    const [orgId, roleId] = key.split(':');
    return store.findRole(orgId, roleId);
  });

  async function permissionsOf(orgId: string, role: string): Promise<ReadonlySet<Permission> | null> {
    if (isBuiltInRole(role)) return ROLE_PERMISSIONS[role];
    const custom = await roleCache.get(`${orgId}:${role}`);
    return custom ? new Set(custom.permissions) : null;
  }

  return {
    store,
    ...createGrants(permissionsOf),
    permissionsOf,
    org: (orgId) => orgCache.get(orgId),
    async access(orgId, userId) {
      const [org, membership] = await Promise.all([orgCache.get(orgId), memberCache.get(`${orgId}:${userId}`)]);
      // A member an identity provider deactivated has no access until reactivated.
      if (!org || !membership || membership.deactivated) return null;
      if (isBuiltInRole(membership.role)) {
        return { org, role: membership.role, builtInRole: membership.role, permissions: ROLE_PERMISSIONS[membership.role] };
      }
      const custom = await roleCache.get(`${orgId}:${membership.role}`);
      // A dangling custom role id grants nothing rather than failing the request.
      return { org, role: membership.role, builtInRole: null, permissions: new Set(custom?.permissions ?? []) };
    },
    async createOrganization({ name, ownerId, plan = 'free' }) {
      const org: Organization = { _id: newId(), name, plan, ownerId, createdAt: new Date() };
      await store.insertOrg(org, { _id: newId(), orgId: org._id, userId: ownerId, role: 'owner', joinedAt: org.createdAt });
      return org;
    },
    async setPlan(orgId, plan) {
      const ok = await store.setPlan(orgId, plan);
      await orgCache.invalidate(orgId);
      return ok;
    },
    async removeOrganization(orgId) {
      const [userIds, roles] = await Promise.all([store.memberUserIds(orgId), store.listRoles(orgId)]);
      await store.removeOrg(orgId);
      await orgCache.invalidate(orgId);
      for (const userId of userIds) await memberCache.invalidate(`${orgId}:${userId}`);
      for (const role of roles) await roleCache.invalidate(`${orgId}:${role._id}`);
    },
    invalidateOrg: (orgId) => orgCache.invalidate(orgId),
    invalidateMembership: (orgId, userId) => memberCache.invalidate(`${orgId}:${userId}`),
    invalidateRole: (orgId, roleId) => roleCache.invalidate(`${orgId}:${roleId}`),
  };
}
