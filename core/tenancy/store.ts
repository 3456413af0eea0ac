// Organizations, memberships and custom roles: the records every guard consults, so the
// engine owns them. The orgs plugin builds its routes on these functions.
import type { Collection } from 'mongodb';
import type { CollectionSpec, Database } from '../db.ts';
import type { Plan } from '../plans.ts';
import type { Permission } from '../permissions.ts';

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
}
export interface CustomRole {
  _id: string;
  orgId: string;
  name: string;
  description?: string;
  permissions: Permission[];
  createdAt: Date;
}

export const ORGANIZATIONS: CollectionSpec = { name: 'organizations', owner: 'core/tenancy', indexes: [] };
export const MEMBERSHIPS: CollectionSpec = {
  name: 'memberships', owner: 'core/tenancy',
  indexes: [{ key: { orgId: 1, userId: 1 }, unique: true }, { key: { userId: 1, joinedAt: 1 } }, { key: { orgId: 1, joinedAt: 1 } }, { key: { orgId: 1, role: 1 } }],
};
export const ROLES: CollectionSpec = { name: 'roles', owner: 'core/tenancy', indexes: [{ key: { orgId: 1, name: 1 }, unique: true }] };

export interface TenancyStore {
  orgs: Collection<Organization>;
  memberships: Collection<Membership>;
  roles: Collection<CustomRole>;
  findOrg(orgId: string): Promise<Organization | null>;
  findMembership(orgId: string, userId: string): Promise<Membership | null>;
  findRole(orgId: string, roleId: string): Promise<CustomRole | null>;
  listUserMemberships(userId: string): Promise<Membership[]>;
  insertOrg(org: Organization, owner: Membership): Promise<void>;
  setPlan(orgId: string, plan: Plan): Promise<boolean>;
  /** Removes an organization with its memberships and roles (the orgs plugin runs plugin hooks first). */
  removeOrg(orgId: string): Promise<void>;
}

export function createTenancyStore(db: Database): TenancyStore {
  const orgs = db.collection<Organization>(ORGANIZATIONS);
  const memberships = db.collection<Membership>(MEMBERSHIPS);
  const roles = db.collection<CustomRole>(ROLES);
  return {
    orgs, memberships, roles,
    findOrg: (orgId) => orgs.findOne({ _id: orgId }),
    findMembership: (orgId, userId) => memberships.findOne({ orgId, userId }),
    findRole: (orgId, roleId) => roles.findOne({ _id: roleId, orgId }),
    listUserMemberships: (userId) => memberships.find({ userId }).sort({ joinedAt: 1 }).toArray(),
    async insertOrg(org, owner) {
      // Membership first: an org without its owner membership would be unreachable,
      // while a membership to an org not yet written simply resolves to nothing.
      await memberships.insertOne(owner);
      await orgs.insertOne(org);
    },
    async removeOrg(orgId) {
      await orgs.deleteOne({ _id: orgId });
      await memberships.deleteMany({ orgId });
      await roles.deleteMany({ orgId });
    },
    async setPlan(orgId, plan) {
      const res = await orgs.updateOne({ _id: orgId }, { $set: { plan } });
      return res.matchedCount === 1;
    },
  };
}
