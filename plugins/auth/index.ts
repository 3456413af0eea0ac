// Handlers of the account routes (manifests/auth.ts): typed input in, one service call, a
// plain object out. What the trail records of sign-up and sign-in is the manifest's rule.
import { definePlugin } from '../../core/plugin.ts';
import { AppError, unauthorized } from '../../core/errors.ts';
import type { AuditActor } from '../../core/manifest.ts';
import type { Principal } from '../../core/guards/principal.ts';
import manifest from '../../manifests/auth.ts';
import { createAuthStore, type User } from './store.ts';
import { createTokens } from './tokens.ts';
import { createCredentials } from './credential-readers.ts';
import { createSessions } from './sessions.ts';
import { createCliTokens } from './cli-tokens.ts';
import { createAccount } from './account.ts';
import { createRecovery } from './recovery.ts';
import { createDeletion } from './deletion.ts';
import { createAvatars } from './avatar.ts';
import { createAccounts, createUserDirectory, type AuthService, type OrganizationRemoval, type PasswordPolicy } from './service.ts';
import { createPeerAccounts } from './peer-accounts.ts';

const userOf = (principal: Principal | undefined): string => {
  const id = principal?.userId;
  if (!id) throw unauthorized('This route needs a user');
  return id;
};

/**
 * The session answer with who signed in beside it, for the audit rule (`actor`) of the
 * unauthenticated routes: the response schema (SessionTokens) does not carry `actor`, so
 * the client never sees it.
 */
const withActor = <T extends object>(answer: T, user: Pick<User, '_id' | 'email' | 'defaultOrgId'>): T & { actor: AuditActor } =>
  Object.assign(answer, { actor: { kind: 'user' as const, userId: user._id, email: user.email, orgId: user.defaultOrgId } });

export default definePlugin({
  manifest,
  needs: [],
  build(ctx) {
    const store = createAuthStore(ctx.db);
    const tokens = createTokens(ctx, store);
    const creds = createCredentials(ctx, store, tokens);
    const sessions = createSessions(ctx, store, tokens, creds);
    const cliTokens = createCliTokens(ctx, store, creds);
    const account = createAccount(ctx, store, creds, tokens);
    const recovery = createRecovery(ctx, store, sessions, creds);
    let organizations: OrganizationRemoval | undefined;
    let passwordPolicy: PasswordPolicy | undefined;
    const deletion = createDeletion(ctx, store, sessions, creds, async (orgId) => {
      if (organizations) return organizations.remove(orgId);
      // Without the orgs plugin attached: the engine's hooks, then the organization itself.
      await ctx.deleteOrgData(orgId);
      await ctx.tenancy.removeOrganization(orgId);
    });
    const avatars = createAvatars(ctx, store, account.update);
    ctx.onOrgDelete((orgId) => store.removeOrgCliTokens(orgId));

    const service: AuthService = {
      // account.update invalidates the cached user in every process.
      accounts: createAccounts(store, sessions, (userId, role) => account.update(userId, { role })),
      userDirectory: createUserDirectory(store),
      adminUsers: { count: () => store.countUsers(), page: (search, skip, limit) => store.pageUsers(search, skip, limit) },
      attachOrganizations(attached) { organizations = attached; },
      ...createPeerAccounts({ store, tokens, creds, sessions, account }),
      attachPasswordPolicy(policy) { passwordPolicy = policy; },
    };

    return {
      provides: service,
      async start() { await tokens.reload(); },
      handlers: {
        async register({ body }) {
          const { user, session } = await sessions.register(body);
          return withActor(session, user);
        },
        async login({ body }) {
          const policy = passwordPolicy;
          const result = await sessions.login(body, policy && ((user) => policy({ userId: user._id, email: user.email })));
          if (!result) throw new AppError('invalid_credentials');
          return withActor(result.session, result.user);
        },
        refresh: ({ body }) => sessions.refresh(body.refreshToken),
        async logout({ principal }) {
          await sessions.logout(principal.sessionId);
          return { message: 'Logged out' };
        },
        forgotPassword: ({ body }) => recovery.forgot(body.email),
        resetPassword: ({ body }) => recovery.reset(body.token, body.password),
        me: ({ principal }) => account.me(userOf(principal)),
        async completeOnboarding({ principal }) {
          await account.update(userOf(principal), { onboardingCompleted: true });
          return { onboardingCompleted: true };
        },
        async completeTour({ principal }) {
          await account.update(userOf(principal), { tourCompleted: true });
          return { tourCompleted: true };
        },
        quota: ({ org }) => account.quota(org.id),
        getPreferences: ({ principal }) => account.preferences(userOf(principal)),
        setPreferences: ({ principal, body }) => account.setPreferences(userOf(principal), body),
        uploadAvatar: ({ principal, req }) => avatars.upload(userOf(principal), req),
        async getAvatar({ params, reply }) {
          const { contentType, data } = await avatars.get(params.userId);
          return reply.type(contentType).header('cache-control', 'public, max-age=86400').send(data);
        },
        downloadToken: ({ principal }) => account.downloadToken(userOf(principal)),
        serviceToken: () => account.serviceToken(),
        deletionStatus: ({ principal }) => deletion.status(userOf(principal)),
        requestDeletion: ({ principal }) => deletion.request(userOf(principal), principal.email ?? ''),
        cancelDeletion: ({ body }) => deletion.cancel(body.token),
        listCliTokens: async ({ principal }) => ({ tokens: await cliTokens.list(userOf(principal)) }),
        createCliToken: ({ principal, org, body }) => cliTokens.create(userOf(principal), org.id, body),
        async revokeCliToken({ principal, params }) {
          await cliTokens.revoke(userOf(principal), params.tokenId);
          return { message: 'CLI token revoked' };
        },
      },
    };
  },
});
