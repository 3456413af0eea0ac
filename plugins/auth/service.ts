// What the auth plugin offers the others (PluginServices['auth']): the operator's account
// service, read-only user lookups, and usage meters for the quota route. Organizations are
// not this plugin's: the orgs plugin, which needs auth, attaches how an organization is
// deleted (attachOrganizations), so auth never imports it.
import { Value } from 'typebox/value';
import { badRequest } from '../../core/errors.ts';
import { RegisterBody } from './schemas.ts';
import type { AdminUserRow, AuthStore, User } from './store.ts';
import type { Sessions } from './sessions.ts';
import { normalizeEmail } from './sessions.ts';

/** Account service for the operator CLI (scripts/ops/accounts.ts). */
export interface Accounts {
  /** Registers exactly as POST /register does (same validation, hashing, default organization), then sets the role. */
  createUser(input: RegisterBody & { role?: User['role'] }): Promise<{ userId: string; orgId: string; email: string; role: User['role'] }>;
  /** Sets a user's platform role; null when no user has this email. */
  setRole(email: string, role: User['role']): Promise<{ userId: string; orgId: string; email: string; changed: boolean } | null>;
}

/** Read-only user lookups for other plugins (organization members, audit actors): the users collection stays this plugin's. */
export interface DirectoryUser { _id: string; email: string; name?: string }
export interface UserDirectory {
  byIds(ids: string[]): Promise<DirectoryUser[]>;
  byEmail(email: string): Promise<DirectoryUser | null>;
  /** Those of these users who turned in-app notifications off (preferences.notifications.inApp). */
  inAppMuted(ids: string[]): Promise<Set<string>>;
}

/**
 * How an organization is deleted completely (every plugin's data, its trail, its
 * exactly-once keys): account deletion removes the organizations a user owns alone.
 */
export interface OrganizationRemoval { remove(orgId: string): Promise<void> }

/** A session as sign-in answers it. */
export interface SessionAnswer { token: string; refreshToken: string; user: { id: string; email: string; role: User['role'] } }

/** Sign-in through an organization's identity provider and SCIM provisioning (plugins/sso-scim). */
export interface SingleSignOn {
  /** The account with this email, if any (SSO decides whether the organization may sign it in). */
  accountByEmail(email: string): Promise<{ userId: string; email: string } | null>;
  /** The account with this id, if it still exists (a linked identity's account). */
  accountById(userId: string): Promise<{ userId: string; email: string } | null>;
  /**
   * The account with this email; created without a password when there is none (just-in-time
   * provisioning). The caller must have proven the organization owns the email (a verified
   * domain): an existing account is returned as it is, whoever holds it.
   */
  provision(input: { email: string; name?: string; defaultOrgId: string }): Promise<{ userId: string; email: string; created: boolean }>;
  /** A new session for the account, as a password sign-in issues one; null when the account is gone. */
  startSession(userId: string): Promise<SessionAnswer | null>;
}

/**
 * Sign-in through the source host (plugins/scm): who a JWT from a query parameter belongs to,
 * accounts created like a registration (own organization) but without a password, the
 * linked host account id shown by /me, and sessions issued exactly as a password sign-in does.
 */
export interface SourceHostAccounts {
  /** The user of a valid, unrevoked access JWT; null otherwise. */
  userOfAccessToken(token: string): Promise<{ userId: string; email: string; defaultOrgId: string } | null>;
  /** A new account without a password and its personal organization; 409 when the email is taken. */
  createAccount(input: { email: string; name?: string; scmId: string }): Promise<{ userId: string; email: string; defaultOrgId: string }>;
  /** The active linked host account id (/me `scmId`); null unlinks. */
  setScmId(userId: string, scmId: string | null): Promise<void>;
  /** Whether the account can sign in with a password. */
  hasPassword(userId: string): Promise<boolean>;
  /** The user's default organization; null when the account is gone. */
  defaultOrgOf(userId: string): Promise<string | null>;
}

/** Decides, before the password is checked, whether a user may sign in with a password at all (throws to refuse). */
export type PasswordPolicy = (user: { userId: string; email: string }) => Promise<void>;

/** Platform-wide account reads for the admin routes: no password hash or token field ever leaves. */
export interface AdminUsers {
  count(): Promise<number>;
  page(search: string | undefined, skip: number, limit: number): Promise<{ rows: AdminUserRow[]; total: number }>;
}

export interface AuthService {
  accounts: Accounts;
  adminUsers: AdminUsers;
  userDirectory: UserDirectory;
  sso: SingleSignOn;
  sourceHost: SourceHostAccounts;
  /**
   * The sso-scim plugin attaches the rule that refuses password sign-in for an email domain
   * an organization of the user enforces SSO for; without it every account may use its password.
   */
  attachPasswordPolicy(policy: PasswordPolicy): void;
  /** The orgs plugin attaches organization deletion; without it, account deletion falls back to the engine's hooks. */
  attachOrganizations(organizations: OrganizationRemoval): void;
}

export function createAccounts(store: AuthStore, sessions: Sessions, setRole: (userId: string, role: User['role']) => Promise<void>): Accounts {
  return {
    async createUser({ role = 'user', ...input }) {
      const problem = [...Value.Errors(RegisterBody, input)][0];
      if (problem) throw badRequest(`${problem.instancePath.slice(1) || 'input'} ${problem.message}`);
      const user = await sessions.createAccount(input);
      if (role !== 'user') await setRole(user._id, role);
      return { userId: user._id, orgId: user.defaultOrgId, email: user.email, role };
    },
    async setRole(email, role) {
      const user = await store.userByEmail(normalizeEmail(email));
      if (!user) return null;
      // setRole invalidates the cached user in every process.
      if (user.role !== role) await setRole(user._id, role);
      return { userId: user._id, orgId: user.defaultOrgId, email: user.email, changed: user.role !== role };
    },
  };
}

export function createUserDirectory(store: AuthStore): UserDirectory {
  return {
    byIds: (ids) => (ids.length ? store.directoryByIds([...new Set(ids)]) : Promise.resolve([])),
    byEmail: (email) => store.directoryByEmail(normalizeEmail(email)),
    async inAppMuted(ids) {
      if (!ids.length) return new Set();
      return new Set(await store.inAppMutedIds([...new Set(ids)]));
    },
  };
}

declare module '../../core/plugin.ts' {
  interface PluginServices { auth: AuthService }
}
