// Sign-in with the source host and linking another host account (docs/scm.md "Sign-in").
// The callback always redirects: never an error page of ours. What it did (a sign-in, a
// linked account) comes back beside the target as an audit event, which the manifest's audit
// rule hands to the engine (core/audit.ts): no entry is written by hand.
import type { AppContext } from '../../core/context.ts';
import type { AuditEvent } from '../../core/manifest.ts';
import { randomToken, sha256Hex } from '../../core/crypto.ts';
import { proveBinding, type CallbackEvidence } from '../../core/browser-binding.ts';
import { AppError, badRequest } from '../../core/errors.ts';
import type { AuthService, SessionAnswer } from '../auth/service.ts';
import type { Host, HostUser } from './host.ts';
import type { States } from './states.ts';
import type { LinkedAccounts } from './accounts.ts';

export const EXCHANGE_TTL_SECONDS = 60;
export const SCOPES = 'read:user user:email repo';
const CLI_PREFIX = 'http://127.0.0.1:';

/** Where a callback sends the browser, and the trail's entry for what it did (none for a refusal). */
export interface CallbackOutcome { redirect: string; audit?: AuditEvent }

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

export function createSignIn(ctx: AppContext, deps: { host: Host; states: States; accounts: LinkedAccounts; auth: AuthService }) {
  const { host, states, accounts, auth } = deps;
  const cfg = ctx.config;
  const redis = ctx.redis.main;
  const callbackUrl = `${cfg.publicUrl}/api/auth/scm/callback`;
  const frontend = cfg.FRONTEND_URL.replace(/\/+$/, '');
  const oauthConfigured = () => Boolean(cfg.SCM_CLIENT_ID && cfg.SCM_CLIENT_SECRET);

  /** The host's user behind a callback's code; a reason when there is none. */
  async function hostUserOf(code: string): Promise<{ token: string; scope: string; user: HostUser } | { reason: string }> {
    // A host that fails (unreachable, 5xx) sends the browser to the error page too, never a JSON 502.
    try {
      const exchanged = await host.exchangeCode(code, callbackUrl);
      if (!exchanged) return { reason: 'code_refused' };
      return { token: exchanged.token, scope: exchanged.scope, user: await host.user(exchanged.token) };
    } catch (err) {
      if ((err as AppError).code !== 'scm.provider_failed') throw err;
      ctx.log.warn({ err: (err as Error).message }, 'scm: sign-in callback could not reach the host');
      return { reason: 'provider_error' };
    }
  }

  return {
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

    /** Where the browser goes after the host sends it back: always a redirect. */
    async callback(query: { code?: string; state?: string; error?: string }, evidence: CallbackEvidence): Promise<CallbackOutcome> {
      if (!oauthConfigured()) throw notConfigured();
      const state = await states.spend(query.state);
      const failTo = (reason: string) => ({ redirect: state?.flow === 'login' && state.cli && state.redirectUri
        ? withQuery(state.redirectUri, { error: reason })
        : `${frontend}/auth/error?${new URLSearchParams({ reason })}` });
      if (!state || state.flow === 'install') return failTo('invalid_state');
      // Linking: only in the browser, and for the user, that started it (a stranger completing
      // the attacker's authorize URL would link their own host account and its token to the attacker).
      if (state.flow === 'add') {
        const unbound = await proveBinding(state, evidence, auth.liveSessions);
        if (unbound) return failTo(unbound);
      }
      if (query.error || !query.code) return failTo(query.error === 'access_denied' ? 'access_denied' : 'missing_code');
      const found = await hostUserOf(query.code);
      if ('reason' in found) return failTo(found.reason);
      const hostUser = found.user;

      if (state.flow === 'add') {
        if (!(await accounts.link(state.userId, hostUser, found.token, found.scope, false))) return failTo('account_in_use');
        return {
          redirect: `${frontend}/settings/accounts?${new URLSearchParams({ linked: hostUser.login })}`,
          audit: {
            action: 'auth.github_account_added', orgId: await auth.sourceHost.defaultOrgOf(state.userId), actor: { userId: state.userId, kind: 'user' },
            resourceType: 'scm_account', resourceId: String(hostUser.id), details: { login: hostUser.login },
          },
        };
      }

      const signedIn = await accounts.signInUser(hostUser, found.token);
      if ('reason' in signedIn) return failTo(signedIn.reason);
      if (!(await accounts.link(signedIn.userId, hostUser, found.token, found.scope, true))) return failTo('account_in_use');
      const code = randomToken('scx_', 24);
      await redis.set(`scm-exchange:${sha256Hex(code)}`, signedIn.userId, 'EX', EXCHANGE_TTL_SECONDS);
      return {
        redirect: state.cli && state.redirectUri ? withQuery(state.redirectUri, { code }) : `${frontend}/auth/callback?${new URLSearchParams({ code })}`,
        audit: {
          action: 'auth.login', orgId: await auth.sourceHost.defaultOrgOf(signedIn.userId), actor: { userId: signedIn.userId, kind: 'user' },
          resourceType: 'auth', resourceId: signedIn.userId, details: { authMethod: 'github_oauth', scmId: String(hostUser.id), created: signedIn.created },
        },
      };
    },

    /** The one-time code of the callback's redirect -> a session (one use, 60 seconds). */
    async exchange(code: string): Promise<SessionAnswer> {
      const userId = await redis.getdel(`scm-exchange:${sha256Hex(code)}`);
      const session = userId ? await auth.sso.startSession(userId) : null;
      if (!session) throw new AppError('invalid_token', { message: 'Invalid, used or expired sign-in code' });
      return session;
    },
  };
}
