// Handlers of the account routes: typed input in, one service call, a plain object out.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Value } from 'typebox/value';
import { definePlugin } from '../../core/legacy.ts';
import { AppError, badRequest, unauthorized } from '../../core/errors.ts';
import type { Principal } from '../../core/guards/principal.ts';
import { createAuthStore } from './store.ts';
import { createTokens } from './tokens.ts';
import { createCredentials } from './credentials.ts';
import { createSessions, normalizeEmail } from './sessions.ts';
import { createCliTokens } from './cli-tokens.ts';
import { createAccount } from './account.ts';
import { createRecovery } from './recovery.ts';
import { createDeletion } from './deletion.ts';
import { createAvatars } from './avatar.ts';
import { RegisterBody, type CreateCliToken, type LoginBody } from './schemas.ts';
import type { User } from './store.ts';

/** Account service for the operator CLI (scripts/ops.ts), on ctx.services.accounts. */
export interface Accounts {
  /** Registers exactly as POST /register does (same validation, hashing, default organization), then sets the role. */
  createUser(input: RegisterBody & { role?: User['role'] }): Promise<{ userId: string; orgId: string; email: string; role: User['role'] }>;
  /** Sets a user's platform role; null when no user has this email. */
  setRole(email: string, role: User['role']): Promise<{ userId: string; orgId: string; email: string; changed: boolean } | null>;
}

/**
 * Read-only user lookups for other plugins (organization members, audit actors), on
 * ctx.services.userDirectory: the users collection stays this plugin's.
 */
export interface DirectoryUser { _id: string; email: string; name?: string }
export interface UserDirectory {
  byIds(ids: string[]): Promise<DirectoryUser[]>;
  byEmail(email: string): Promise<DirectoryUser | null>;
  /** Those of these users who turned in-app notifications off (preferences.notifications.inApp). */
  inAppMuted(ids: string[]): Promise<Set<string>>;
}

type Req = FastifyRequest;
const userId = (req: Req): string => {
  const id = req.principal?.userId;
  if (!id) throw unauthorized('This route needs a user');
  return id;
};
const body = <T>(req: Req) => req.body as T;

export default definePlugin(async (ctx) => {
  const store = createAuthStore(ctx.db);
  const tokens = createTokens(ctx, store);
  const creds = createCredentials(ctx, store, tokens);
  const sessions = createSessions(ctx, store, tokens, creds);
  const cliTokens = createCliTokens(ctx, store, creds);
  const account = createAccount(ctx, store, creds, tokens);
  const recovery = createRecovery(ctx, store, sessions, creds);
  const deletion = createDeletion(ctx, store, sessions, creds);
  const avatars = createAvatars(ctx, store, account.update);
  const accounts: Accounts = {
    async createUser({ role = 'user', ...input }) {
      const problem = [...Value.Errors(RegisterBody, input)][0];
      if (problem) throw badRequest(`${problem.instancePath.slice(1) || 'input'} ${problem.message}`);
      const user = await sessions.createAccount(input);
      if (role !== 'user') await account.update(user._id, { role });
      return { userId: user._id, orgId: user.defaultOrgId, email: user.email, role };
    },
    async setRole(email, role) {
      const user = await store.users.findOne({ email: normalizeEmail(email) });
      if (!user) return null;
      // account.update invalidates the cached user in every process.
      if (user.role !== role) await account.update(user._id, { role });
      return { userId: user._id, orgId: user.defaultOrgId, email: user.email, changed: user.role !== role };
    },
  };
  ctx.services.accounts = accounts;
  // CLI tokens are bound to one organization and go with it.
  ctx.onOrgDelete(async (orgId) => { await store.cliTokens.deleteMany({ orgId }); });
  const directoryFields = { projection: { _id: 1, email: 1, name: 1 } };
  const userDirectory: UserDirectory = {
    byIds: (ids) => (ids.length ? store.users.find({ _id: { $in: [...new Set(ids)] } }, directoryFields).toArray() : Promise.resolve([])),
    byEmail: (email) => store.users.findOne({ email: normalizeEmail(email) }, directoryFields),
    async inAppMuted(ids) {
      if (!ids.length) return new Set();
      const rows = await store.users.find({ _id: { $in: [...new Set(ids)] }, 'preferences.notifications.inApp': false }, { projection: { _id: 1 } }).toArray();
      return new Set(rows.map((u) => u._id));
    },
  };
  ctx.services.userDirectory = userDirectory;
  const actor = (user: { _id: string; email: string; defaultOrgId: string; role: 'user' | 'admin' }): Principal =>
    ({ kind: 'user', userId: user._id, email: user.email, defaultOrgId: user.defaultOrgId, platformRole: user.role });

  return {
    async start() { await tokens.reload(); },
    handlers: {
      async register(req: Req) {
        const result = await sessions.register(body<RegisterBody>(req));
        const user = await creds.users.get(result.user.id);
        if (user) req.auditActor = actor(user);
        return result;
      },
      async login(req: Req) {
        const input = body<LoginBody>(req);
        const result = await sessions.login(input);
        if (!result) {
          req.auditAction = 'auth.login_failed';
          req.auditDetails = { email: input.email.trim().toLowerCase() };
          throw new AppError('invalid_credentials');
        }
        req.auditActor = actor(result.user);
        req.auditDetails = { authMethod: 'password' };
        return result.session;
      },
      refresh: (req: Req) => sessions.refresh(body<{ refreshToken: string }>(req).refreshToken),
      async logout(req: Req) {
        await sessions.logout(req.principal?.sessionId);
        return { message: 'Logged out' };
      },
      forgotPassword: (req: Req) => recovery.forgot(body<{ email: string }>(req).email),
      resetPassword: (req: Req) => recovery.reset(body<{ token: string; password: string }>(req).token, body<{ password: string }>(req).password),
      me: (req: Req) => account.me(userId(req)),
      async completeOnboarding(req: Req) {
        await account.update(userId(req), { onboardingCompleted: true });
        return { onboardingCompleted: true };
      },
      async completeTour(req: Req) {
        await account.update(userId(req), { tourCompleted: true });
        return { tourCompleted: true };
      },
      quota: (req: Req) => account.quota(req.org!.id),
      getPreferences: (req: Req) => account.preferences(userId(req)),
      setPreferences: (req: Req) => account.setPreferences(userId(req), body<Record<string, unknown>>(req)),
      uploadAvatar: (req: Req) => avatars.upload(userId(req), req),
      async getAvatar(req: Req, reply: FastifyReply) {
        const { contentType, data } = await avatars.get((req.params as { userId: string }).userId);
        return reply.type(contentType).header('cache-control', 'public, max-age=86400').send(data);
      },
      downloadToken: (req: Req) => account.downloadToken(userId(req)),
      serviceToken: () => account.serviceToken(),
      deletionStatus: (req: Req) => deletion.status(userId(req)),
      requestDeletion: (req: Req) => deletion.request(userId(req), req.principal!.email ?? ''),
      cancelDeletion: (req: Req) => deletion.cancel(body<{ token: string }>(req).token),
      async listCliTokens(req: Req) {
        return { tokens: await cliTokens.list(userId(req)) };
      },
      createCliToken: (req: Req) => cliTokens.create(userId(req), req.org!.id, body<CreateCliToken>(req)),
      async revokeCliToken(req: Req) {
        await cliTokens.revoke(userId(req), (req.params as { tokenId: string }).tokenId);
        return { message: 'CLI token revoked' };
      },
    },
  };
});
