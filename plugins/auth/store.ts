// The only file that touches the account collections; declares their indexes. Accounts
// belong to users, not organizations: functions take the user (or token) they act on.
import type { Binary } from 'mongodb';
import type { CollectionSpec, Database } from '../../core/db.ts';
import type { Preferences } from './schemas.ts';

export interface User {
  _id: string;
  email: string;
  passwordHash: string | null;
  name?: string;
  role: 'user' | 'admin';
  scmId?: string;
  avatar?: string;
  defaultOrgId: string;
  onboardingCompleted?: boolean;
  tourCompleted?: boolean;
  preferences?: Preferences;
  createdAt: Date;
  lastLoginAt?: Date;
  passwordChangedAt?: Date;
}
export interface Session { _id: string; userId: string; createdAt: Date; expiresAt: Date; revokedAt: Date | null; revokedReason?: string }
export interface RefreshToken { _id: string; sessionId: string; userId: string; createdAt: Date; expiresAt: Date }
export interface CliToken {
  _id: string;
  hash: string;
  userId: string;
  orgId: string;
  name: string;
  prefix: string;
  scopes: string[];
  allRepositories: boolean;
  repositories: string[];
  createdAt: Date;
  lastUsedAt?: Date;
}
export interface OneTimeToken { _id: string; userId: string; purpose: 'reset' | 'deletion'; createdAt: Date; expiresAt: Date }
export interface DeletionRequest { _id: string; userId: string; status: 'pending' | 'cancelled' | 'completed'; requestedAt: Date; scheduledFor: Date; cancelledAt?: Date; completedAt?: Date }
export interface Avatar { _id: string; userId: string; contentType: string; data: Binary; updatedAt: Date }

const spec = (name: string, indexes: CollectionSpec['indexes']): CollectionSpec => ({ name, owner: 'plugins/auth', indexes });
// createdAt+_id: the admin user list (newest first, stable); name: its search's count.
export const USERS = spec('users', [{ key: { email: 1 }, unique: true }, { key: { createdAt: 1 } }, { key: { createdAt: 1, _id: 1 } }, { key: { name: 1 } }]);
export const SESSIONS = spec('sessions', [{ key: { userId: 1, createdAt: 1 } }, { key: { revokedAt: 1 } }]);
export const REFRESH_TOKENS = spec('refresh_tokens', [{ key: { sessionId: 1 } }, { key: { userId: 1 } }]);
export const CLI_TOKENS = spec('cli_tokens', [{ key: { hash: 1 }, unique: true }, { key: { userId: 1, createdAt: -1 } }, { key: { orgId: 1, userId: 1 } }]);
export const ONE_TIME_TOKENS = spec('one_time_tokens', [{ key: { userId: 1, purpose: 1 } }]);
export const DELETION_REQUESTS = spec('deletion_requests', [{ key: { userId: 1, requestedAt: -1 } }, { key: { status: 1, scheduledFor: 1 } }]);
export const AVATARS = spec('avatars', [{ key: { userId: 1 } }]);

const DIRECTORY_FIELDS = { projection: { _id: 1, email: 1, name: 1 } } as const;
/** What the admin user list reads of an account: never the password hash. */
const ADMIN_FIELDS = { projection: { _id: 1, email: 1, name: 1, role: 1, createdAt: 1, lastLoginAt: 1, defaultOrgId: 1 } } as const;
export type AdminUserRow = Pick<User, '_id' | 'email' | 'name' | 'role' | 'createdAt' | 'lastLoginAt' | 'defaultOrgId'>;
const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function createAuthStore(db: Database) {
  const users = db.collection<User>(USERS);
  const sessions = db.collection<Session>(SESSIONS);
  const refreshTokens = db.collection<RefreshToken>(REFRESH_TOKENS);
  const cliTokens = db.collection<CliToken>(CLI_TOKENS);
  const oneTimeTokens = db.collection<OneTimeToken>(ONE_TIME_TOKENS);
  const deletions = db.collection<DeletionRequest>(DELETION_REQUESTS);
  const avatars = db.collection<Avatar>(AVATARS);
  return {
    userById: (userId: string) => users.findOne({ _id: userId }),
    userByEmail: (email: string) => users.findOne({ email }),
    /** Throws a duplicate-key error when the email is taken (unique index). */
    insertUser: async (user: User) => { await users.insertOne(user); },
    /** False when no such user. */
    async updateUser(userId: string, set: Partial<Omit<User, '_id' | 'createdAt'>>): Promise<boolean> {
      const res = await users.updateOne({ _id: userId }, { $set: set });
      return res.matchedCount > 0;
    },
    /** Id, email and name only (the user directory other plugins read). */
    directoryByIds: (ids: string[]) => users.find({ _id: { $in: ids } }, DIRECTORY_FIELDS).toArray(),
    directoryByEmail: (email: string) => users.findOne({ email }, DIRECTORY_FIELDS),
    async inAppMutedIds(ids: string[]): Promise<string[]> {
      const rows = await users.find({ _id: { $in: ids }, 'preferences.notifications.inApp': false }, { projection: { _id: 1 } }).toArray();
      return rows.map((u) => u._id);
    },
    async removeUser(userId: string) { await users.deleteOne({ _id: userId }); },
    /** Every account (the admin dashboard): from collection metadata, no scan. */
    countUsers: () => users.estimatedDocumentCount(),
    /** One page of accounts, newest first; `search`: a case-insensitive substring of the email or name. */
    async pageUsers(search: string | undefined, skip: number, limit: number): Promise<{ rows: AdminUserRow[]; total: number }> {
      const pattern = search ? { $regex: escapeRegex(search), $options: 'i' } : undefined;
      // Without a search, a range over every createdAt: the page then reads the {createdAt, _id}
      // index in its sort order (and the index check, whose query log loses sort documents,
      // sees the index-served range rather than a bare collection scan).
      const filter = pattern ? { $or: [{ email: pattern }, { name: pattern }] } : { createdAt: { $gte: new Date(0) } };
      const [rows, total] = await Promise.all([
        users.find(filter, ADMIN_FIELDS).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit).toArray(),
        pattern ? users.countDocuments(filter) : users.estimatedDocumentCount(),
      ]);
      return { rows: rows as AdminUserRow[], total };
    },
    /** CLI tokens, avatar and one-time tokens of a user (account deletion; sessions are revoked apart). */
    async removeUserCredentials(userId: string) {
      await cliTokens.deleteMany({ userId });
      await avatars.deleteMany({ userId });
      await oneTimeTokens.deleteMany({ userId });
    },

    insertSession: async (session: Session) => { await sessions.insertOne(session); },
    session: (sessionId: string) => sessions.findOne({ _id: sessionId }),
    /** Every session id of a user, oldest first. */
    async userSessionIds(userId: string): Promise<string[]> {
      const rows = await sessions.find({ userId }, { projection: { _id: 1 } }).sort({ createdAt: 1 }).toArray();
      return rows.map((s) => s._id);
    },
    /** Ids of the sessions revoked since a date (the in-memory revocation list). */
    async sessionsRevokedSince(since: Date): Promise<string[]> {
      const rows = await sessions.find({ revokedAt: { $gte: since } }, { projection: { _id: 1 } }).toArray();
      return rows.map((s) => s._id);
    },
    async revokeSessions(sessionIds: string[], reason: string, at: Date) {
      await sessions.updateMany({ _id: { $in: sessionIds } }, { $set: { revokedAt: at, revokedReason: reason } });
    },

    insertRefreshToken: async (token: RefreshToken) => { await refreshTokens.insertOne(token); },
    refreshToken: (hash: string) => refreshTokens.findOne({ _id: hash }),
    async removeSessionRefreshTokens(sessionId: string) { await refreshTokens.deleteMany({ sessionId }); },
    async removeUserRefreshTokens(userId: string) { await refreshTokens.deleteMany({ userId }); },

    listCliTokens: (userId: string, limit: number) => cliTokens.find({ userId }).sort({ createdAt: -1 }).limit(limit).toArray(),
    cliTokenByHash: (hash: string) => cliTokens.findOne({ hash }),
    insertCliToken: async (token: CliToken) => { await cliTokens.insertOne(token); },
    /** The deleted token, or null when the user has no such token. */
    revokeCliToken: (userId: string, tokenId: string) => cliTokens.findOneAndDelete({ _id: tokenId, userId }),
    /** CLI tokens are bound to one organization and go with it. */
    async removeOrgCliTokens(orgId: string) { await cliTokens.deleteMany({ orgId }); },

    async saveAvatar(userId: string, contentType: string, data: Binary, at: Date) {
      await avatars.updateOne({ _id: userId }, { $set: { userId, contentType, data, updatedAt: at } }, { upsert: true });
    },
    avatar: (userId: string) => avatars.findOne({ _id: userId }),

    insertOneTimeToken: async (token: OneTimeToken) => { await oneTimeTokens.insertOne(token); },
    oneTimeToken: (hash: string) => oneTimeTokens.findOne({ _id: hash }),
    spendOneTimeToken: async (hash: string) => { await oneTimeTokens.deleteOne({ _id: hash }); },

    latestDeletion: (userId: string) => deletions.find({ userId }).sort({ requestedAt: -1 }).limit(1).next(),
    deletionById: (requestId: string) => deletions.findOne({ _id: requestId }),
    insertDeletion: async (request: DeletionRequest) => { await deletions.insertOne(request); },
    async completeDeletion(requestId: string, at: Date) {
      await deletions.updateOne({ _id: requestId }, { $set: { status: 'completed', completedAt: at } });
    },
    async cancelDeletion(requestId: string, at: Date) {
      await deletions.updateOne({ _id: requestId }, { $set: { status: 'cancelled', cancelledAt: at } });
    },
  };
}
export type AuthStore = ReturnType<typeof createAuthStore>;
