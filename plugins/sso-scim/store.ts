// The only file touching the SSO and SCIM collections; every query is covered by an index
// declared here (equality fields first, then the sort): SCIM lists page by _id within the
// organization, and a filter's one equality (userName, externalId, displayName) has its index.
import type { Filter } from 'mongodb';
import type { CollectionSpec, Database } from '../../core/db.ts';
import { pager } from './scim-pages.ts';

export interface SsoConfig {
  _id: string;
  orgId: string;
  provider: string;
  saml: { entryPoint: string; issuer: string; cert: string; signatureAlgorithm: 'sha1' | 'sha256' | 'sha512'; wantAuthnResponseSigned: boolean };
  enforcedDomains: string[];
  defaultRole: string;
  enabled: boolean;
  createdAt: Date;
  updatedAt: Date;
}
export interface ScimToken {
  _id: string; orgId: string; label: string; prefix: string; hash: string; createdAt: Date; lastUsedAt?: Date;
  /** Who created it: the token changes roles with this user's permissions, read live (core/tenancy/grants.ts). */
  createdBy?: string;
}
export interface ScimUser {
  _id: string;
  orgId: string;
  /**
   * The account this SCIM user is linked to, or `unlinked:<id>` while there is none (no usable
   * email yet, or no account with it); the unique orgId+userId index keeps one SCIM user per account.
   */
  userId: string;
  /** The pending invitation sent for it (orgs plugin) while the account holder has not accepted. */
  invitationId?: string;
  userName: string;
  userNameLower: string;
  externalId?: string;
  displayName?: string;
  nickName?: string;
  title?: string;
  userType?: string;
  preferredLanguage?: string;
  locale?: string;
  timezone?: string;
  profileUrl?: string;
  name?: Record<string, string>;
  emails?: { value: string; type?: string; primary?: boolean; display?: string }[];
  phoneNumbers?: { value: string; type?: string; primary?: boolean; display?: string }[];
  /** Absent (never sent, or removed by PATCH) counts as active. */
  active?: boolean;
  enterprise?: { employeeNumber?: string; department?: string; costCenter?: string; organization?: string; division?: string; manager?: { value?: string; ref?: string; displayName?: string } };
  createdAt: Date;
  updatedAt: Date;
  version: number;
}
export interface ScimGroup {
  _id: string;
  orgId: string;
  displayName: string;
  displayNameLower: string;
  externalId?: string;
  /** SCIM user ids. */
  members: string[];
  /** The `display` the identity provider sent for a member, by member id (RFC 7643 §2.4). */
  displays?: Record<string, string>;
  mappedRole: 'admin' | 'member' | 'viewer' | null;
  mappedCustomRoleId: string | null;
  /** True while a role is mapped (the recompute reads only these groups). */
  mapped: boolean;
  createdAt: Date;
  updatedAt: Date;
  version: number;
}

const spec = (name: string, indexes: CollectionSpec['indexes']): CollectionSpec => ({ name, owner: 'plugins/sso-scim', indexes });
export const SSO_CONFIGS = spec('sso_configs', [{ key: { orgId: 1 }, unique: true }, { key: { enforcedDomains: 1, enabled: 1 } }]);
export const SCIM_TOKENS = spec('scim_tokens', [{ key: { hash: 1 }, unique: true }, { key: { orgId: 1, createdAt: -1 } }]);
export const SCIM_USERS = spec('scim_users', [
  { key: { orgId: 1, userNameLower: 1 }, unique: true },
  { key: { orgId: 1, userId: 1 }, unique: true },
  { key: { orgId: 1, _id: 1 } },
  { key: { orgId: 1, userNameLower: 1, _id: 1 } },
  { key: { orgId: 1, externalId: 1, _id: 1 } },
]);
export const SCIM_GROUPS = spec('scim_groups', [
  { key: { orgId: 1, displayNameLower: 1 }, unique: true },
  { key: { orgId: 1, _id: 1 } },
  { key: { orgId: 1, displayNameLower: 1, _id: 1 } },
  { key: { orgId: 1, externalId: 1, _id: 1 } },
  { key: { orgId: 1, members: 1 } },
  { key: { orgId: 1, mapped: 1 } },
]);

const BY_ID = { _id: 1 } as const;

export function createSsoScimStore(db: Database) {
  const configs = db.collection<SsoConfig>(SSO_CONFIGS);
  const tokens = db.collection<ScimToken>(SCIM_TOKENS);
  const users = db.collection<ScimUser>(SCIM_USERS);
  const groups = db.collection<ScimGroup>(SCIM_GROUPS);
  return {
    // SSO configuration
    config: (orgId: string) => configs.findOne({ orgId }),
    async saveConfig(c: SsoConfig): Promise<SsoConfig> {
      const { _id, createdAt, ...rest } = c;
      await configs.updateOne({ orgId: c.orgId }, { $set: rest, $setOnInsert: { _id, createdAt } }, { upsert: true });
      return (await configs.findOne({ orgId: c.orgId }))!;
    },
    removeConfig: async (orgId: string) => (await configs.deleteOne({ orgId })).deletedCount === 1,
    /** The organization stops enforcing a domain (it is no longer verified). */
    pullEnforcedDomain: async (orgId: string, domain: string) => { await configs.updateOne({ orgId }, { $pull: { enforcedDomains: domain } }); },
    /** Enabled configurations enforcing an email domain. */
    enforcing: (domain: string) => configs.find({ enforcedDomains: domain, enabled: true }).toArray(),

    // SCIM tokens
    insertToken: async (t: ScimToken) => { await tokens.insertOne(t); },
    tokenByHash: (hash: string) => tokens.findOne({ hash }),
    listTokens: (orgId: string) => tokens.find({ orgId }).sort({ createdAt: -1 }).limit(500).toArray(),
    removeToken: (orgId: string, id: string) => tokens.findOneAndDelete({ _id: id, orgId }),
    token: (orgId: string, id: string) => tokens.findOne({ _id: id, orgId }),
    touchToken: async (id: string, at: Date) => { await tokens.updateOne({ _id: id }, { $set: { lastUsedAt: at } }); },

    // SCIM users
    insertUser: async (u: ScimUser) => { await users.insertOne(u); },
    user: (orgId: string, id: string) => users.findOne({ _id: id, orgId }),
    userByName: (orgId: string, userNameLower: string) => users.findOne({ orgId, userNameLower }),
    userByAccount: (orgId: string, userId: string) => users.findOne({ orgId, userId }),
    usersByIds: (orgId: string, ids: string[]) => (ids.length ? users.find({ _id: { $in: ids }, orgId }).toArray() : Promise.resolve([])),
    /** One page of a filter (compiled for the database), in id order, and how many match (scim-pages.ts). */
    pageUsers: pager(db, users),
    /** Every user a widened filter matches (the rest of the filter is evaluated in memory). */
    allUsers: (orgId: string, query: Filter<ScimUser>) => users.find({ orgId, ...query } as Filter<ScimUser>).sort(BY_ID).toArray(),
    async replaceUser(u: ScimUser, expectedVersion: number): Promise<boolean> {
      const res = await users.replaceOne({ _id: u._id, orgId: u.orgId, version: expectedVersion }, u);
      return res.matchedCount === 1;
    },
    removeUser: async (orgId: string, id: string) => (await users.deleteOne({ _id: id, orgId })).deletedCount === 1,

    // SCIM groups
    insertGroup: async (g: ScimGroup) => { await groups.insertOne(g); },
    group: (orgId: string, id: string) => groups.findOne({ _id: id, orgId }),
    /** One page of a filter (compiled for the database), in id order, and how many match (scim-pages.ts). */
    pageGroups: pager(db, groups),
    allGroups: (orgId: string, query: Filter<ScimGroup> = {}) => groups.find({ orgId, ...query } as Filter<ScimGroup>).sort(BY_ID).toArray(),
    mappedGroups: (orgId: string) => groups.find({ orgId, mapped: true }).toArray(),
    async replaceGroup(g: ScimGroup, expectedVersion: number): Promise<boolean> {
      const res = await groups.replaceOne({ _id: g._id, orgId: g.orgId, version: expectedVersion }, g);
      return res.matchedCount === 1;
    },
    setMapping: (orgId: string, id: string, mappedRole: ScimGroup['mappedRole'], mappedCustomRoleId: string | null) =>
      groups.findOneAndUpdate({ _id: id, orgId }, { $set: { mappedRole, mappedCustomRoleId, mapped: Boolean(mappedRole || mappedCustomRoleId), updatedAt: new Date() } }, { returnDocument: 'after' }),
    removeGroup: async (orgId: string, id: string) => (await groups.deleteOne({ _id: id, orgId })).deletedCount === 1,
    /** Takes a deleted user out of every group of the organization, in one statement. */
    async pullMember(orgId: string, scimUserId: string) {
      await groups.updateMany({ orgId, members: scimUserId }, { $pull: { members: scimUserId }, $unset: { [`displays.${scimUserId}`]: '' }, $set: { updatedAt: new Date() }, $inc: { version: 1 } });
    },
    /** The groups holding any of these users (a User resource's `groups`), names only: one command. */
    groupsOfUsers: (orgId: string, scimUserIds: string[]) => (scimUserIds.length
      ? groups.find({ orgId, members: { $in: scimUserIds } }, { projection: { _id: 1, displayName: 1, members: 1 } }).toArray()
      : Promise.resolve([])),
    setLink: async (orgId: string, id: string, userId: string, invitationId: string | null) => {
      await users.updateOne({ _id: id, orgId }, invitationId ? { $set: { userId, invitationId } } : { $set: { userId }, $unset: { invitationId: '' } });
    },

    async removeOrg(orgId: string) {
      await Promise.all([configs.deleteMany({ orgId }), tokens.deleteMany({ orgId }), users.deleteMany({ orgId }), groups.deleteMany({ orgId })]);
    },
  };
}
export type SsoScimStore = ReturnType<typeof createSsoScimStore>;
