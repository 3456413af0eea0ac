// What the auth plugin lends the plugins that sign people in another way: accounts an identity
// provider proves (sso-scim), accounts of a source host's sign-in (scm), and whether a session is
// still live (the event stream). Each reads and writes accounts only through this plugin.
import type { AuthStore } from './store.ts';
import type { Tokens } from './tokens.ts';
import type { Credentials } from './credential-readers.ts';
import { normalizeEmail, type Sessions } from './sessions.ts';
import type { createAccount } from './account.ts';
import type { AuthService } from './service.ts';

interface Parts { store: AuthStore; tokens: Tokens; creds: Credentials; sessions: Sessions; account: ReturnType<typeof createAccount> }

export function createPeerAccounts({ store, tokens, creds, sessions, account }: Parts): Pick<AuthService, 'sso' | 'sourceHost' | 'liveSessions'> {
  return {
    sso: {
      async accountByEmail(email) {
        const user = await store.userByEmail(normalizeEmail(email));
        return user ? { userId: user._id, email: user.email } : null;
      },
      async accountById(userId) {
        const user = await creds.users.get(userId);
        return user ? { userId: user._id, email: user.email } : null;
      },
      async provision(input) {
        const { user, created } = await sessions.provisionAccount(input);
        return { userId: user._id, email: user.email, created };
      },
      async startSession(userId) {
        const user = await creds.users.get(userId);
        if (!user) return null;
        await store.updateUser(user._id, { lastLoginAt: new Date() });
        return sessions.startSession(user);
      },
    },
    sourceHost: {
      async userOfAccessToken(token) {
        const claims = tokens.verify(token);
        if (!claims || claims.typ !== 'access' || (claims.sid && tokens.isRevoked(claims.sid))) return null;
        const user = await creds.users.get(claims.sub);
        return user ? { userId: user._id, email: user.email, defaultOrgId: user.defaultOrgId } : null;
      },
      async createAccount(input) {
        const user = await sessions.createAccount(input);
        return { userId: user._id, email: user.email, defaultOrgId: user.defaultOrgId };
      },
      // account.update invalidates the cached user in every process.
      setScmId: (userId, scmId) => account.update(userId, { scmId: scmId ?? undefined }),
      hasPassword: async (userId) => Boolean((await creds.users.get(userId))?.passwordHash),
      defaultOrgOf: async (userId) => (await creds.users.get(userId))?.defaultOrgId ?? null,
    },
    liveSessions: {
      async userOfAccessToken(token) {
        const claims = tokens.verify(token);
        if (!claims || claims.typ !== 'access' || (claims.sid && tokens.isRevoked(claims.sid))) return null;
        return (await creds.users.get(claims.sub)) ? { userId: claims.sub } : null;
      },
      isLive: async (userId, sessionId) => Boolean(await creds.users.get(userId)) && !(sessionId && tokens.isRevoked(sessionId)),
    },
  };
}
