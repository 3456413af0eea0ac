// Tenancy: the one owner of organizations, memberships and custom roles. Reads as the guards
// see them (cached organization, membership and custom-role lookups) and named reads for
// plugins; every write goes through the write API here (members.ts, roles.ts), which enforces
// the owner and no-escalation rules and drops the cached records in every service process.
// The raw store (store.ts) is not reachable from plugins.
import type { CacheHub } from '../cache.ts';
import { isBuiltInRole, ROLE_PERMISSIONS, type BuiltInRole, type Permission } from '../permissions.ts';
import { newId } from '../crypto.ts';
import type { Plan } from '../plans.ts';
import type { Database } from '../db.ts';
import { createTenancyStore, type Organization, type TenancyStore } from './store.ts';
import { createGrants, type Grants } from './grants.ts';
import { createMemberWrites, type MemberWrites } from './members.ts';
import { createRoleWrites, type RoleWrites } from './roles.ts';

/** The records' shapes; the store itself stays inside core/tenancy. */
export type { CustomRole, Membership, Organization } from './store.ts';

export interface OrgAccess {
  org: Organization;
  /** Built-in role name or custom role id, as stored. */
  role: string;
  builtInRole: BuiltInRole | null;
  permissions: ReadonlySet<Permission>;
}

/** What plugins may read straight from the database (uncached: the newest state, for decisions). */
export type TenancyReads = Pick<TenancyStore, 'findOrg' | 'findMembership' | 'findRole' | 'findOrgs' | 'membershipsOfUsers'
  | 'listUserMemberships' | 'orgIdsOnPlan' | 'listMembers' | 'countMembers' | 'memberCounts' | 'memberUserIds' | 'listRoles' | 'roleMemberCounts'>;

/** Grants: the rule that nobody grants more than they hold (core/tenancy/grants.ts). */
export interface Tenancy extends Grants, TenancyReads, MemberWrites, RoleWrites {
  org(orgId: string): Promise<Organization | null>;
  /** The caller's access to an organization, or null when not a member. */
  access(orgId: string, userId: string): Promise<OrgAccess | null>;
  /** A new organization with `ownerId` as its owner member. */
  createOrganization(input: { name: string; ownerId: string; plan?: Plan }): Promise<Organization>;
  renameOrganization(orgId: string, name: string): Promise<boolean>;
  setPlan(orgId: string, plan: Plan): Promise<boolean>;
  /** What a role (built-in name or custom role id) grants in an organization; null for an unknown custom role. */
  permissionsOf(orgId: string, role: string): Promise<ReadonlySet<Permission> | null>;
  /** Removes the organization, its memberships and roles (the caller runs the plugins' hooks first). */
  removeOrganization(orgId: string): Promise<void>;
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
  const dropOrg = (orgId: string) => orgCache.invalidate(orgId);
  const dropMember = (orgId: string, userId: string) => memberCache.invalidate(`${orgId}:${userId}`);
  const dropRole = (orgId: string, roleId: string) => roleCache.invalidate(`${orgId}:${roleId}`);

  async function permissionsOf(orgId: string, role: string): Promise<ReadonlySet<Permission> | null> {
    if (isBuiltInRole(role)) return ROLE_PERMISSIONS[role];
    const custom = await roleCache.get(`${orgId}:${role}`);
    return custom ? new Set(custom.permissions) : null;
  }
  const grants = createGrants(permissionsOf);

  return {
    ...grants,
    findOrg: store.findOrg, findMembership: store.findMembership, findRole: store.findRole, findOrgs: store.findOrgs,
    membershipsOfUsers: store.membershipsOfUsers, listUserMemberships: store.listUserMemberships, orgIdsOnPlan: store.orgIdsOnPlan,
    listMembers: store.listMembers, countMembers: store.countMembers, memberCounts: store.memberCounts, memberUserIds: store.memberUserIds,
    listRoles: store.listRoles, roleMemberCounts: store.roleMemberCounts,
    ...createMemberWrites({ store, grants, permissionsOf, dropMember, dropOrg }),
    ...createRoleWrites(store, { role: dropRole, member: dropMember }),
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
      // A lookup made before the organization existed may have cached its absence.
      await dropOrg(org._id);
      await dropMember(org._id, ownerId);
      return org;
    },
    async renameOrganization(orgId, name) {
      const ok = await store.renameOrg(orgId, name);
      await dropOrg(orgId);
      return ok;
    },
    async setPlan(orgId, plan) {
      const ok = await store.setPlan(orgId, plan);
      await dropOrg(orgId);
      return ok;
    },
    async removeOrganization(orgId) {
      const [userIds, roles] = await Promise.all([store.memberUserIds(orgId), store.listRoles(orgId)]);
      await store.removeOrg(orgId);
      await dropOrg(orgId);
      for (const userId of userIds) await dropMember(orgId, userId);
      for (const role of roles) await dropRole(orgId, role._id);
    },
  };
}
