// Source host integration (docs/scm.md): OAuth sign-in and linked accounts, app
// installations of an organization, the repositories both reach, installation tokens for
// clones and pull requests.
//
// Single-use values live in Redis under the hash of what the browser carries, spent with GETDEL:
// - sign-in, add-account and install states (states.ts): 10 minutes, bound to their flow; the
//   add-account and install states also to the browser and session that started them
//   (core/browser-binding.ts), and the install to its organization (app-install.ts);
// - the sign-in's exchange code: 60 seconds, turned into a session by POST /scm/exchange, so
//   the JWT never travels in a URL.
// Tokens are sealed at rest (ctx.sealer); installation tokens are cached sealed in Redis until
// five minutes before they expire. No token is logged, audited or stored on a scan.
import type { AppContext } from '../../core/context.ts';
import { randomToken, sha256Hex } from '../../core/crypto.ts';
import { proveBinding, type CallbackEvidence } from '../../core/browser-binding.ts';
import { AppError, badRequest, conflict, notFound } from '../../core/errors.ts';
import type { AuthService, SessionAnswer } from '../auth/service.ts';
import { createHost, type HostRepo, type HostUser } from './host.ts';
import { createStates } from './states.ts';
import { createAppInstall } from './app-install.ts';
import { createLinkedAccounts } from './accounts.ts';
import type { ScmAccount, ScmInstallation, ScmStore, StoredRepo } from './store.ts';

export { STATE_TTL_SECONDS } from './states.ts';
export const EXCHANGE_TTL_SECONDS = 60;
export const SCOPES = 'read:user user:email repo';
/** An installation token is used until this long before it expires, then minted again. */
const TOKEN_MARGIN_MS = 5 * 60_000;
const CLI_PREFIX = 'http://127.0.0.1:';

const notConfigured = () => new AppError('scm.not_configured', { message: 'Source host sign-in is not configured' });

/** A CLI's loopback address: exactly http://127.0.0.1:<port>[/path], nothing that merely starts like it. */
export function validCliRedirect(uri: string | undefined): string {
  if (!uri || !uri.startsWith(CLI_PREFIX)) throw badRequest(`redirect_uri must start with ${CLI_PREFIX} for the CLI flow`);
  let url: URL;
  try { url = new URL(uri); } catch { throw badRequest('redirect_uri is not a URL'); }
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1' || !/^\d+$/.test(url.port) || url.username || url.password) {
    throw badRequest(`redirect_uri must start with ${CLI_PREFIX} for the CLI flow`);
  }
  return url.toString();
}

const withQuery = (base: string, params: Record<string, string>) => {
  const url = new URL(base);
  for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
  return url.toString();
};

const repoView = (r: HostRepo | StoredRepo): StoredRepo => ({
  id: r.id, name: r.name, full_name: r.full_name, owner: { login: r.owner.login }, private: Boolean(r.private), default_branch: r.default_branch,
});

export function createScmService(ctx: AppContext, store: ScmStore, auth: AuthService) {
  const cfg = ctx.config;
  const host = createHost(ctx);
  const redis = ctx.redis.main;
  const callbackUrl = `${cfg.publicUrl}/api/auth/scm/callback`;
  const frontend = cfg.FRONTEND_URL.replace(/\/+$/, '');
  const oauthConfigured = () => Boolean(cfg.SCM_CLIENT_ID && cfg.SCM_CLIENT_SECRET);

  const states = createStates(redis);

  const accounts = createLinkedAccounts(ctx, store, host, auth);
  const { link, signInUser } = accounts;

  /** An installation token, from the cache while it has more than five minutes left. */
  async function installationToken(installationId: string): Promise<string> {
    const key = `scm-installation-token:${installationId}`;
    const cached = await redis.get(key);
    if (cached) {
      const { token, expiresAt } = JSON.parse(ctx.sealer.open(cached)) as { token: string; expiresAt: number };
      if (expiresAt - Date.now() > TOKEN_MARGIN_MS) return token;
    }
    const minted = await host.mintInstallationToken(installationId);
    const keep = minted.expiresAt.getTime() - Date.now() - TOKEN_MARGIN_MS;
    if (keep > 1000) await redis.set(key, ctx.sealer.seal(JSON.stringify({ token: minted.token, expiresAt: minted.expiresAt.getTime() })), 'PX', keep);
    return minted.token;
  }
  const forgetInstallationToken = (installationId: string) => redis.del(`scm-installation-token:${installationId}`);

  async function accountToken(userId: string): Promise<{ account: ScmAccount; token: string } | null> {
    const account = await store.activeAccount(userId);
    return account ? { account, token: ctx.sealer.open(account.token) } : null;
  }

  async function sync(orgId: string, inst: ScmInstallation) {
    const token = await installationToken(inst.installationId);
    const repos = (await host.installationRepos(token)).map(repoView);
    const at = new Date();
    await store.setRepositories(orgId, inst.installationId, repos, at);
    return { installationId: inst.installationId, repositoryCount: repos.length, syncedAt: at.toISOString() };
  }

  const installationView = (i: ScmInstallation) => ({
    installationId: i.installationId, accountLogin: i.accountLogin, accountType: i.accountType, active: i.active,
    repositoryCount: i.repositories.length, syncedAt: i.syncedAt?.toISOString() ?? null, createdAt: i.createdAt.toISOString(),
  });

  /** The repository in the organization's active installation (full name, any case); null when not there. */
  async function installedRepo(orgId: string, fullName: string): Promise<{ inst: ScmInstallation; repo: StoredRepo } | null> {
    const inst = await store.activeInstallation(orgId);
    const repo = inst?.repositories.find((r) => r.full_name.toLowerCase() === fullName.toLowerCase());
    return inst && repo ? { inst, repo } : null;
  }

  const appInstall = createAppInstall(ctx, { store, host, auth, states, sync });

  return {
    host,
    // ---- sign-in ----------------------------------------------------------------------
    async start(query: { force?: boolean; cli?: boolean; redirect_uri?: string }): Promise<string> {
      if (!oauthConfigured()) throw notConfigured();
      const redirectUri = query.cli ? validCliRedirect(query.redirect_uri) : null;
      const state = await states.create({ flow: 'login', cli: Boolean(query.cli), redirectUri });
      return host.authorizeUrl({
        client_id: cfg.SCM_CLIENT_ID!, redirect_uri: callbackUrl, scope: SCOPES, state,
        ...(query.force ? { prompt: 'select_account' } : {}),
      });
    },

    /** The caller passed the manifest's guards (a user session); nonceHash: its browser's binding. */
    async startAddAccount(userId: string, sessionId: string | null, nonceHash: string): Promise<string> {
      if (!oauthConfigured()) throw notConfigured();
      const state = await states.create({ flow: 'add', userId, sessionId, nonceHash });
      return host.authorizeUrl({ client_id: cfg.SCM_CLIENT_ID!, redirect_uri: callbackUrl, scope: SCOPES, state, prompt: 'select_account' });
    },

    /** Where the browser goes after the host sends it back: never an error page of ours, always a redirect. */
    async callback(query: { code?: string; state?: string; error?: string }, meta: { ip: string; userAgent: string | null }, evidence: CallbackEvidence): Promise<string> {
      if (!oauthConfigured()) throw notConfigured();
      const state = await states.spend(query.state);
      const failTo = (reason: string) => (state?.flow === 'login' && state.cli && state.redirectUri
        ? withQuery(state.redirectUri, { error: reason })
        : `${frontend}/auth/error?${new URLSearchParams({ reason })}`);
      if (!state || state.flow === 'install') return failTo('invalid_state');
      // Linking: only in the browser, and for the user, that started it (a stranger completing
      // the attacker's authorize URL would link their own host account and its token to the attacker).
      if (state.flow === 'add') {
        const unbound = await proveBinding(state, evidence, auth.liveSessions);
        if (unbound) return failTo(unbound);
      }
      if (query.error || !query.code) return failTo(query.error === 'access_denied' ? 'access_denied' : 'missing_code');
      // A host that fails (unreachable, 5xx) sends the browser to the error page too, never a JSON 502.
      let exchanged: Awaited<ReturnType<typeof host.exchangeCode>>;
      let hostUser: HostUser;
      try {
        exchanged = await host.exchangeCode(query.code, callbackUrl);
        if (!exchanged) return failTo('code_refused');
        hostUser = await host.user(exchanged.token);
      } catch (err) {
        if ((err as AppError).code !== 'scm.provider_failed') throw err;
        ctx.log.warn({ err: (err as Error).message }, 'scm: sign-in callback could not reach the host');
        return failTo('provider_error');
      }

      if (state.flow === 'add') {
        if (!(await link(state.userId, hostUser, exchanged.token, exchanged.scope, false))) return failTo('account_in_use');
        const orgId = await auth.sourceHost.defaultOrgOf(state.userId);
        await ctx.audit.write({
          orgId, action: 'auth.github_account_added', userId: state.userId, actorKind: 'user', method: 'GET', route: '/api/auth/scm/callback',
          resourceType: 'scm_account', resourceId: String(hostUser.id), statusCode: 302, details: { login: hostUser.login }, ipAddress: meta.ip, userAgent: meta.userAgent,
        });
        return `${frontend}/settings/accounts?${new URLSearchParams({ linked: hostUser.login })}`;
      }

      const found = await signInUser(hostUser, exchanged.token);
      if ('reason' in found) return failTo(found.reason);
      if (!(await link(found.userId, hostUser, exchanged.token, exchanged.scope, true))) return failTo('account_in_use');
      const code = randomToken('scx_', 24);
      await redis.set(`scm-exchange:${sha256Hex(code)}`, found.userId, 'EX', EXCHANGE_TTL_SECONDS);
      const orgId = await auth.sourceHost.defaultOrgOf(found.userId);
      await ctx.audit.write({
        orgId, action: 'auth.login', userId: found.userId, actorKind: 'user', method: 'GET', route: '/api/auth/scm/callback',
        resourceType: 'auth', resourceId: found.userId, statusCode: 302,
        details: { authMethod: 'github_oauth', scmId: String(hostUser.id), created: found.created }, ipAddress: meta.ip, userAgent: meta.userAgent,
      });
      return state.cli && state.redirectUri ? withQuery(state.redirectUri, { code }) : `${frontend}/auth/callback?${new URLSearchParams({ code })}`;
    },

    /** The one-time code of the callback's redirect -> a session (one use, 60 seconds). */
    async exchange(code: string): Promise<SessionAnswer> {
      const userId = await redis.getdel(`scm-exchange:${sha256Hex(code)}`);
      const session = userId ? await auth.sso.startSession(userId) : null;
      if (!session) throw new AppError('invalid_token', { message: 'Invalid, used or expired sign-in code' });
      return session;
    },

    // ---- linked accounts --------------------------------------------------------------
    listAccounts: accounts.list,
    setActiveAccount: accounts.setActive,
    unlink: accounts.unlink,

    // ---- app installations ------------------------------------------------------------
    installUrl: appInstall.installUrl,
    appCallback: appInstall.appCallback,

    listInstallations: async (orgId: string) => (await store.installations(orgId)).map(installationView),
    async setActiveInstallation(orgId: string, installationId: string) {
      if (!(await store.installation(orgId, installationId))) throw notFound('Installation');
      await store.setActiveInstallation(orgId, installationId);
      return installationView((await store.installation(orgId, installationId))!);
    },
    async syncRepos(orgId: string, installationId: string | undefined) {
      const inst = installationId ? await store.installation(orgId, installationId) : await store.activeInstallation(orgId);
      if (!inst) {
        if (installationId) throw notFound('Installation');
        throw conflict('No app installation is active for this organization: install the app through /api/auth/scm-app/install');
      }
      return sync(orgId, inst);
    },
    async removeInstallation(orgId: string, installationId: string) {
      if (!(await store.removeInstallation(orgId, installationId))) throw notFound('Installation');
      await forgetInstallationToken(installationId);
      return { message: 'Installation removed' };
    },

    // ---- repositories -----------------------------------------------------------------
    async repositories(userId: string, orgId: string, page: number, limit: number) {
      const account = await accountToken(userId);
      let inst = await store.activeInstallation(orgId);
      if (!account && !inst) {
        throw conflict('No source host account is linked and no app installation is active: sign in through /api/auth/scm or install the app through /api/auth/scm-app/install');
      }
      if (inst && !inst.syncedAt) { await sync(orgId, inst); inst = await store.activeInstallation(orgId); }
      const byId = new Map<number, StoredRepo>();
      for (const r of inst?.repositories ?? []) byId.set(r.id, r);
      if (account) for (const r of await host.userRepos(account.token)) byId.set(r.id, repoView(r));
      const all = [...byId.values()].sort((a, b) => a.full_name.localeCompare(b.full_name) || a.id - b.id);
      const total = all.length;
      return { success: true as const, data: all.slice((page - 1) * limit, page * limit), pagination: { page, limit, total, pages: Math.ceil(total / limit) } };
    },
    async branches(userId: string, orgId: string, owner: string, repo: string) {
      const fullName = `${owner}/${repo}`;
      const installed = await installedRepo(orgId, fullName);
      if (installed) return host.branches(await installationToken(installed.inst.installationId), installed.repo.full_name);
      const account = await accountToken(userId);
      if (!account) {
        if (await store.activeInstallation(orgId)) throw notFound('Repository');
        throw conflict('No source host account is linked and no app installation is active: sign in through /api/auth/scm or install the app through /api/auth/scm-app/install');
      }
      return host.branches(account.token, fullName);
    },

    // ---- for other plugins ------------------------------------------------------------
    /**
     * The clone URL of a repository config's repository with a fresh installation token in it,
     * when the repository belongs to the organization's active installation and its URL is on
     * the source host (or unset); null otherwise. Built when a scan is handed to the executor
     * or a runner, never stored.
     */
    async cloneUrl(orgId: string, repositoryName: string, repositoryUrl: string | undefined): Promise<string | null> {
      if (!host.appConfigured()) return null;
      const installed = await installedRepo(orgId, repositoryName);
      if (!installed) return null;
      const web = new URL(host.web);
      let url: URL;
      if (repositoryUrl?.trim()) {
        try { url = new URL(repositoryUrl.trim()); } catch { return null; }
        if (url.host !== web.host || url.protocol !== web.protocol || url.username || url.password) return null;
      } else {
        url = new URL(`${host.web}/${installed.repo.full_name}.git`);
      }
      url.username = 'x-access-token';
      url.password = await installationToken(installed.inst.installationId);
      return url.toString();
    },
    /** For pull requests: the active installation holding this repository, and a token for it; null when none does. */
    async installationFor(orgId: string, repositoryName: string): Promise<{ installationId: string; fullName: string; defaultBranch: string; token: string } | null> {
      const installed = await installedRepo(orgId, repositoryName);
      if (!installed) return null;
      return { installationId: installed.inst.installationId, fullName: installed.repo.full_name, defaultBranch: installed.repo.default_branch, token: await installationToken(installed.inst.installationId) };
    },
    hasActiveInstallation: async (orgId: string) => Boolean(await store.activeInstallation(orgId)),
    removeOrg: (orgId: string) => store.removeOrg(orgId),
    close: () => host.close(),
  };
}
export type ScmService = ReturnType<typeof createScmService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { scm: ScmService }
}
