// Organizations, memberships and custom roles: the records every guard consults, so the
// engine owns them. The orgs plugin builds its routes on these functions; every query
// here is covered by one of the indexes declared below (core/index-check.ts).
import { isDuplicateKey, type CollectionSpec, type Database } from '../db.ts';
import { PLANS, type Plan } from '../plans.ts';
import type { Permission } from '../permissions.ts';
import { pageWindow, type Page } from '../schemas.ts';

export interface Organization {
  _id: string;
  name: string;
  plan: Plan;
  ownerId: string;
  createdAt: Date;
}
export interface Membership {
  _id: string;
  orgId: string;
  userId: string;
  /** Built-in role name or a custom role _id of the same organization. */
  role: string;
  joinedAt: Date;
  /**
   * Set while an identity provider has deactivated the member (SCIM active:false): the
   * membership and its role are kept, but grant no access (Tenancy.access answers null).
   */
  deactivated?: boolean;
}
export interface CustomRole {
  _id: string;
  orgId: string;
  name: string;
  description?: string;
  permissions: Permission[];
  createdAt: Date;
}

// plan: the audit retention job reads organizations one plan at a time.
export const ORGANIZATIONS: CollectionSpec = { name: 'organizations', owner: 'core/tenancy', indexes: [{ key: { plan: 1 } }] };
export const MEMBERSHIPS: CollectionSpec = {
  name: 'memberships', owner: 'core/tenancy',
  // orgId+joinedAt+_id: the member list pages in a stable order (ties on joinedAt broken by _id).
  indexes: [{ key: { orgId: 1, userId: 1 }, unique: true }, { key: { userId: 1, joinedAt: 1 } }, { key: { orgId: 1, joinedAt: 1, _id: 1 } }, { key: { orgId: 1, role: 1 } }],
};
export const ROLES: CollectionSpec = { name: 'roles', owner: 'core/tenancy', indexes: [{ key: { orgId: 1, name: 1 }, unique: true }] };

export interface TenancyStore {
  findOrg(orgId: string): Promise<Organization | null>;
  findMembership(orgId: string, userId: string): Promise<Membership | null>;
  findRole(orgId: string, roleId: string): Promise<CustomRole | null>;
  /** Several organizations by id, in one command (missing ones are left out). */
  findOrgs(orgIds: string[]): Promise<Organization[]>;
  /** The organizations of several users, in one command (the admin user list). */
  membershipsOfUsers(userIds: string[]): Promise<Pick<Membership, 'userId' | 'orgId'>[]>;
  listUserMemberships(userId: string): Promise<Membership[]>;
  insertOrg(org: Organization, owner: Membership): Promise<void>;
  setPlan(orgId: string, plan: Plan): Promise<boolean>;
  renameOrg(orgId: string, name: string): Promise<boolean>;
  setOwnerId(orgId: string, ownerId: string): Promise<void>;
  /** Ids of the organizations on one plan (audit retention). */
  orgIdsOnPlan(plan: Plan): Promise<string[]>;
  /** Removes an organization with its memberships and roles (the orgs plugin runs plugin hooks first). */
  removeOrg(orgId: string): Promise<void>;

  /** One page of members, oldest first, ties broken by _id. */
  listMembers(orgId: string, page: Page): Promise<Membership[]>;
  countMembers(orgId: string): Promise<number>;
  /** Member counts of several organizations, in one command. */
  memberCounts(orgIds: string[]): Promise<Map<string, number>>;
  /** Every member but one user, oldest first (who inherits an organization whose owner leaves for good). */
  otherMembers(orgId: string, exceptUserId: string): Promise<Membership[]>;
  memberUserIds(orgId: string): Promise<string[]>;
  membersWithRole(orgId: string, role: string): Promise<Membership[]>;
  /** Throws a duplicate-key error when the user is already a member (unique orgId+userId). */
  insertMembership(m: Membership): Promise<void>;
  setMemberRole(orgId: string, userId: string, role: string): Promise<boolean>;
  /** Moves every member holding `from` to `to` in one statement. */
  reassignRole(orgId: string, from: string, to: string): Promise<number>;
  removeMembership(orgId: string, userId: string): Promise<boolean>;
  /** Deactivates (true) or reactivates a member; the caller invalidates the membership cache. */
  setMemberDeactivated(orgId: string, userId: string, deactivated: boolean): Promise<boolean>;

  listRoles(orgId: string): Promise<CustomRole[]>;
  /** Member count of each of the given roles, in one command. */
  roleMemberCounts(orgId: string, roles: string[]): Promise<Map<string, number>>;
  /** Throws a unique violation (isDuplicateKey) on a name already used in the organization; so does updateRole. */
  insertRole(role: CustomRole): Promise<void>;
  updateRole(orgId: string, roleId: string, set: Partial<Pick<CustomRole, 'name' | 'description' | 'permissions'>>): Promise<CustomRole | null>;
  deleteRole(orgId: string, roleId: string): Promise<boolean>;
}

export function createTenancyStore(db: Database): TenancyStore {
  const orgs = db.collection<Organization>(ORGANIZATIONS);
  const memberships = db.collection<Membership>(MEMBERSHIPS);
  const roles = db.collection<CustomRole>(ROLES);
  return {
    findOrg: (orgId) => orgs.findOne({ _id: orgId }),
    findMembership: (orgId, userId) => memberships.findOne({ orgId, userId }),
    findRole: (orgId, roleId) => roles.findOne({ _id: roleId, orgId }),
    findOrgs: (orgIds) => (orgIds.length ? orgs.find({ _id: { $in: orgIds } }).toArray() : Promise.resolve([])),
    listUserMemberships: (userId) => memberships.find({ userId }).sort({ joinedAt: 1 }).toArray(),
    membershipsOfUsers: (userIds) => (userIds.length
      ? memberships.find({ userId: { $in: userIds } }, { projection: { _id: 0, userId: 1, orgId: 1 } }).toArray()
      : Promise.resolve([])),
    async insertOrg(org, owner) {
      // Membership first: an org without its owner membership would be unreachable,
      // while a membership to an org not yet written simply resolves to nothing.
      await memberships.insertOne(owner);
      await orgs.insertOne(org);
    },
    async removeOrg(orgId) {
      // Dependent records first, the organization last: a crash part-way leaves an
      // organization its owner can still see and delete again (every step is idempotent).
      await roles.deleteMany({ orgId });
      await memberships.deleteMany({ orgId });
      await orgs.deleteOne({ _id: orgId });
    },
    async setPlan(orgId, plan) {
      const res = await orgs.updateOne({ _id: orgId }, { $set: { plan } });
      return res.matchedCount === 1;
    },
    async renameOrg(orgId, name) {
      const res = await orgs.updateOne({ _id: orgId }, { $set: { name } });
      return res.matchedCount === 1;
    },
    async setOwnerId(orgId, ownerId) {
      await orgs.updateOne({ _id: orgId }, { $set: { ownerId } });
    },
    async orgIdsOnPlan(plan) {
      if (!PLANS.includes(plan)) return [];
      const rows = await orgs.find({ plan }, { projection: { _id: 1 } }).toArray();
      return rows.map((r) => r._id);
    },

    listMembers(orgId, page) {
      const { skip, limit } = pageWindow(page);
      return memberships.find({ orgId }).sort({ joinedAt: 1, _id: 1 }).skip(skip).limit(limit).toArray();
    },
    countMembers: (orgId) => memberships.countDocuments({ orgId }),
    async memberCounts(orgIds) {
      if (!orgIds.length) return new Map();
      const rows = await memberships.aggregate<{ _id: string; n: number }>([
        { $match: { orgId: { $in: orgIds } } },
        { $group: { _id: '$orgId', n: { $sum: 1 } } },
      ]).toArray();
      return new Map(rows.map((r) => [r._id, r.n]));
    },
    otherMembers: (orgId, exceptUserId) => memberships.find({ orgId, userId: { $ne: exceptUserId } }).sort({ joinedAt: 1 }).toArray(),
    async memberUserIds(orgId) {
      const rows = await memberships.find({ orgId }, { projection: { userId: 1 } }).toArray();
      return rows.map((r) => r.userId);
    },
    membersWithRole: (orgId, role) => memberships.find({ orgId, role }).toArray(),
    async insertMembership(m) {
      await memberships.insertOne(m);
    },
    async setMemberRole(orgId, userId, role) {
      const res = await memberships.updateOne({ orgId, userId }, { $set: { role } });
      return res.matchedCount === 1;
    },
    async reassignRole(orgId, from, to) {
      const res = await memberships.updateMany({ orgId, role: from }, { $set: { role: to } });
      return res.modifiedCount;
    },
    async setMemberDeactivated(orgId, userId, deactivated) {
      const res = await memberships.updateOne({ orgId, userId }, deactivated ? { $set: { deactivated: true } } : { $unset: { deactivated: '' } });
      return res.matchedCount === 1;
    },
    async removeMembership(orgId, userId) {
      const res = await memberships.deleteOne({ orgId, userId });
      return res.deletedCount === 1;
    },

    listRoles: (orgId) => roles.find({ orgId }).sort({ name: 1 }).toArray(),
    async roleMemberCounts(orgId, ids) {
      if (!ids.length) return new Map();
      const rows = await memberships.aggregate<{ _id: string; n: number }>([
        { $match: { orgId, role: { $in: ids } } },
        { $group: { _id: '$role', n: { $sum: 1 } } },
      ]).toArray();
      return new Map(rows.map((r) => [r._id, r.n]));
    },
    async insertRole(role) {
      await roles.insertOne(role);
    },
    async updateRole(orgId, roleId, set) {
      return roles.findOneAndUpdate({ _id: roleId, orgId }, { $set: set }, { returnDocument: 'after' });
    },
    async deleteRole(orgId, roleId) {
      const res = await roles.deleteOne({ _id: roleId, orgId });
      return res.deletedCount === 1;
    },
  };
}
