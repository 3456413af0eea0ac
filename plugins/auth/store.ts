// The only file that touches the account collections; declares their indexes.
import type { Binary } from 'mongodb';
import type { CollectionSpec, Database } from '../../core/db.ts';

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
  preferences?: Record<string, unknown>;
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
export const USERS = spec('users', [{ key: { email: 1 }, unique: true }, { key: { createdAt: 1 } }]);
export const SESSIONS = spec('sessions', [{ key: { userId: 1, createdAt: 1 } }, { key: { revokedAt: 1 } }]);
export const REFRESH_TOKENS = spec('refresh_tokens', [{ key: { sessionId: 1 } }, { key: { userId: 1 } }]);
export const CLI_TOKENS = spec('cli_tokens', [{ key: { hash: 1 }, unique: true }, { key: { userId: 1, createdAt: -1 } }, { key: { orgId: 1, userId: 1 } }]);
export const ONE_TIME_TOKENS = spec('one_time_tokens', [{ key: { userId: 1, purpose: 1 } }]);
export const DELETION_REQUESTS = spec('deletion_requests', [{ key: { userId: 1, requestedAt: -1 } }, { key: { status: 1, scheduledFor: 1 } }]);
export const AVATARS = spec('avatars', [{ key: { userId: 1 } }]);

export function createAuthStore(db: Database) {
  return {
    users: db.collection<User>(USERS),
    sessions: db.collection<Session>(SESSIONS),
    refreshTokens: db.collection<RefreshToken>(REFRESH_TOKENS),
    cliTokens: db.collection<CliToken>(CLI_TOKENS),
    oneTimeTokens: db.collection<OneTimeToken>(ONE_TIME_TOKENS),
    deletions: db.collection<DeletionRequest>(DELETION_REQUESTS),
    avatars: db.collection<Avatar>(AVATARS),
  };
}
export type AuthStore = ReturnType<typeof createAuthStore>;
