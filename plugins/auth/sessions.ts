// Sign-up, sign-in, refresh rotation and sign-out. A session is a refresh-token family:
// every refresh spends the presented token through the exactly-once primitive, and
// presenting a spent token again revokes the whole family (token theft detection).
import type { AppContext } from '../../core/context.ts';
import { AppError, conflict, unauthorized } from '../../core/errors.ts';
import { DUMMY_PASSWORD_HASH, hashPassword, newId, randomToken, sha256Hex, verifyPassword } from '../../core/crypto.ts';
import { isDuplicateKey } from '../../core/db.ts';
import type { AuthStore, User } from './store.ts';
import type { Tokens } from './tokens.ts';
import type { Credentials } from './credential-readers.ts';

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export function createSessions(ctx: AppContext, store: AuthStore, tokens: Tokens, creds: Credentials) {
  const refreshTtlMs = ctx.config.REFRESH_TOKEN_TTL * 1000;

  async function issueRefresh(sessionId: string, userId: string): Promise<string> {
    const refreshToken = randomToken('rt_');
    const now = new Date();
    await store.insertRefreshToken({ _id: sha256Hex(refreshToken), sessionId, userId, createdAt: now, expiresAt: new Date(now.getTime() + refreshTtlMs) });
    return refreshToken;
  }

  async function startSession(user: User) {
    const now = new Date();
    const sessionId = newId();
    await store.insertSession({ _id: sessionId, userId: user._id, createdAt: now, expiresAt: new Date(now.getTime() + refreshTtlMs), revokedAt: null });
    const refreshToken = await issueRefresh(sessionId, user._id);
    return { token: tokens.sign('access', user._id, { sid: sessionId }), refreshToken, user: { id: user._id, email: user.email, role: user.role } };
  }

  return {
    startSession,

    /** Creates the account and its default organization; no session. Without a password: an account that signs in through the source host. */
    async createAccount(input: { email: string; password?: string; name?: string; scmId?: string }): Promise<User> {
      const email = normalizeEmail(input.email);
      const userId = newId();
      const passwordHash = input.password === undefined ? null : await hashPassword(input.password);
      const now = new Date();
      // The organization first: a crash before the user insert leaves an unreachable org
      // (garbage, no loss); a lost email race removes it again.
      const org = await ctx.tenancy.createOrganization({ name: `${input.name || email.split('@')[0]}'s organization`, ownerId: userId });
      const user: User = {
        _id: userId, email, passwordHash, name: input.name, role: 'user', defaultOrgId: org._id, createdAt: now,
        ...(passwordHash ? { passwordChangedAt: now } : {}), ...(input.scmId ? { scmId: input.scmId } : {}),
      };
      try {
        await store.insertUser(user);
      } catch (err) {
        await ctx.tenancy.removeOrganization(org._id);
        if (isDuplicateKey(err)) throw conflict('An account with this email already exists');
        throw err;
      }
      return user;
    },

    /** The new account and its first session (the answer names the user without the role). */
    async register(input: { email: string; password: string; name?: string }) {
      const user = await this.createAccount(input);
      const session = await startSession(user);
      return { user, session: { ...session, user: { id: user._id, email: user.email } } };
    },

    /**
     * The account with this email, or a new one without a password whose default organization
     * is the one that provisions it (sign-in through an identity provider, SCIM): no
     * organization of its own is created. A lost race for the email finds the winner's account.
     */
    async provisionAccount(input: { email: string; name?: string; defaultOrgId: string }): Promise<{ user: User; created: boolean }> {
      const email = normalizeEmail(input.email);
      const existing = await store.userByEmail(email);
      if (existing) return { user: existing, created: false };
      const user: User = { _id: newId(), email, passwordHash: null, name: input.name, role: 'user', defaultOrgId: input.defaultOrgId, createdAt: new Date() };
      try {
        await store.insertUser(user);
        return { user, created: true };
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
        const winner = await store.userByEmail(email);
        if (!winner) throw err;
        return { user: winner, created: false };
      }
    },

    /** Same answer and about the same time whether or not the email exists. */
    async login(input: { email: string; password: string }, policy?: (user: User) => Promise<void>) {
      const user = await store.userByEmail(normalizeEmail(input.email));
      // An organization that signs this user's email domain in through SSO refuses passwords (403).
      if (user && policy) await policy(user);
      const ok = await verifyPassword(input.password, user?.passwordHash ?? DUMMY_PASSWORD_HASH);
      if (!user || !user.passwordHash || !ok) return null;
      await store.updateUser(user._id, { lastLoginAt: new Date() });
      return { user, session: await startSession(user) };
    },

    async refresh(refreshToken: string) {
      const hash = sha256Hex(refreshToken);
      const record = await store.refreshToken(hash);
      if (!record || record.expiresAt < new Date()) throw unauthorized('Invalid or expired refresh token', 'invalid_token');
      const session = await store.session(record.sessionId);
      if (!session || session.revokedAt) throw unauthorized('Session has been revoked', 'invalid_token');
      if (!(await ctx.once.claim(`refresh:${hash}`))) {
        await tokens.revokeSessions([record.sessionId], 'refresh_token_reuse');
        await store.removeSessionRefreshTokens(record.sessionId);
        throw new AppError('invalid_token', { message: 'Refresh token was already used; the session has been revoked' });
      }
      const user = await creds.users.get(record.userId);
      if (!user) throw unauthorized('Invalid or expired refresh token', 'invalid_token');
      const next = await issueRefresh(record.sessionId, user._id);
      return { token: tokens.sign('access', user._id, { sid: record.sessionId }), refreshToken: next, user: { id: user._id, email: user.email, role: user.role } };
    },

    async logout(sessionId: string | undefined) {
      if (!sessionId) return;
      await tokens.revokeSessions([sessionId], 'logout');
      await store.removeSessionRefreshTokens(sessionId);
    },

    /** Ends every session of a user (password reset, account deletion). */
    async revokeAll(userId: string, reason: string) {
      await tokens.revokeSessions(await store.userSessionIds(userId), reason);
      await store.removeUserRefreshTokens(userId);
    },
  };
}
export type Sessions = ReturnType<typeof createSessions>;
