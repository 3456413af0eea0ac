// Source host (GitHub-compatible): sign-in and linked accounts (SPEC "Authentication and
// profile" /scm*, Authentication 2, 12, 13), app installations (/scm-app/*) and the
// repositories both reach (/api/repositories). docs/scm.md has the flow as requests.
import { Type } from 'typebox';
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import {
  AccountList, ActiveAccount, AddAccountQuery, AppCallbackQuery, Branch, CallbackQuery, ExchangeBody, InstallAnswer, InstallationList,
  InstallationParams, InstallationView, InstallQuery, Message, RepoParams, RepositoryPage, RepositoryQuery, ScmIdParams, SessionAnswer,
  SetActiveAccountBody, SetActiveInstallationBody, StartQuery, SyncAnswer,
} from '../plugins/scm/schemas.ts';
import type { CallbackOutcome } from '../plugins/scm/signin.ts';

const open = { auth: 'none', orgContext: false, reply: 'raw', audit: false, response: { 302: null } } as const satisfies Partial<RouteSpec>;
/** A callback's entry is named by its outcome (a sign-in, a linked account, an installation; none for a refusal). */
const outcome = { event: (r: CallbackOutcome) => r.audit } as const;
const read = { auth: 'user', orgContext: true, permission: 'integrations:read' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'user', orgContext: true, permission: 'integrations:write' } as const satisfies Partial<RouteSpec>;
const repos = { auth: 'user', orgContext: true, permission: 'repos:read' } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'scm',
  prefix: '/api',
  reply: 'named',
  errors: { 502: 'The source host failed or is unreachable (scm.provider_failed)', 503: 'Source host sign-in or app is not configured (scm.not_configured, scm.app_not_configured)' },
  description: 'Source host (GitHub-compatible): sign-in, linked accounts, app installations and repositories',
  routes: [
    { id: 'scmSignIn', method: 'GET', url: '/auth/scm', ...open, rateLimit: 'auth',
      summary: '302 to the host\'s authorize URL (client_id, scope, state: single use, 10 minutes). force=true adds prompt=select_account; cli=true needs redirect_uri starting http://127.0.0.1:<port> (400 otherwise). 503 when the OAuth app is not configured',
      query: StartQuery, handler: 'start' },
    { id: 'scmCallback', method: 'GET', url: '/auth/scm/callback', ...open, rateLimit: 'auth', audit: outcome,
      summary: '302 to {FRONTEND_URL}/auth/callback?code=<one-time code> (CLI: <redirect_uri>?code=), or /auth/error?reason=<reason> (CLI: ?error=). The JWT never appears in a URL: POST /api/auth/scm/exchange turns the code into a session. Audited auth.login (authMethod github_oauth)',
      query: CallbackQuery, raises: ['conflict', 'invalid_credentials', 'not_found'], handler: 'callback' },
    { id: 'scmExchange', method: 'POST', url: '/auth/scm/exchange', auth: 'none', orgContext: false, rateLimit: 'auth', audit: false,
      summary: 'The one-time code of the callback (one use, 60 seconds) -> {token, refreshToken, user}; 401 invalid_token otherwise',
      body: ExchangeBody, response: { 200: SessionAnswer }, raises: ['invalid_token', 'not_found'], handler: 'exchange' },
    { id: 'scmAddAccount', method: 'GET', url: '/auth/scm/add-account', auth: 'user-redirect', orgContext: false, reply: 'raw', audit: false, response: { 302: null }, rateLimit: 'auth',
      summary: 'The browser navigates here with the JWT in query token (or the Authorization header): 302 to the host to link another account to the signed-in user, with a state and a browser-binding cookie (HttpOnly, SameSite=Lax, 10 minutes); the callback links it only in that browser, for that user (else reason=browser_mismatch|user_mismatch|session_ended). Audit auth.github_account_added; an account linked to another user comes back with reason=account_in_use',
      query: AddAccountQuery, handler: 'addAccount' },
    { id: 'listScmAccounts', method: 'GET', url: '/auth/scm/accounts', auth: 'user', summary: 'Linked host accounts, oldest first; one is active', response: { 200: AccountList }, raises: ['invalid_credentials'], handler: 'accounts' },
    { id: 'setActiveScmAccount', method: 'POST', url: '/auth/scm/accounts/active', auth: 'user', audit: 'auth.github_account_activated',
      summary: 'Makes a linked account the active one (/me scmId); 404 when not linked to the caller', body: SetActiveAccountBody, response: { 200: ActiveAccount }, raises: ['not_found'], handler: 'setActiveAccount' },
    { id: 'unlinkScmAccount', method: 'DELETE', url: '/auth/scm/accounts/:scmId', auth: 'user', audit: 'auth.github_account_removed',
      summary: '404 when not linked to the caller; 409 when it is the only way a user without a password signs in', params: ScmIdParams, response: { 200: Message }, raises: ['conflict'], handler: 'unlink' },

    { id: 'scmAppInstall', method: 'GET', url: '/auth/scm-app/install', auth: 'user-redirect', orgContext: true, permission: 'integrations:write', audit: false,
      summary: 'The install URL of the app, with a state bound to the caller, its organization (x-org-id or default) and its browser (a binding cookie: HttpOnly, SameSite=Lax, 10 minutes). The caller is the JWT in the Authorization header or the query token. 503 when the app is not configured',
      query: InstallQuery, response: { 200: InstallAnswer }, handler: 'install' },
    { id: 'scmAppCallback', method: 'GET', url: '/auth/scm-app/callback', ...open, audit: outcome, resumes: { permission: 'integrations:write' },
      summary: 'Callback of the app (user authorization during installation on: code, installation_id, setup_action, state). The state is spent; the browser binding and the session are checked; the code becomes the installing user\'s token and GET /user/installations must list the installation; one organization per installation. Recorded, repositories synced; 302 to {FRONTEND_URL}/settings/scm?installation=<id>, or ?error=<reason>',
      query: AppCallbackQuery, handler: 'appCallback' },
    { id: 'listScmInstallations', method: 'GET', url: '/auth/scm-app/installations', ...read, response: { 200: InstallationList }, handler: 'installations' },
    { id: 'setActiveScmInstallation', method: 'POST', url: '/auth/scm-app/set-active', ...write, audit: 'scm.installation_activated',
      summary: 'The installation whose repositories the organization scans and opens pull requests in', body: SetActiveInstallationBody, response: { 200: InstallationView }, handler: 'setActiveInstallation' },
    { id: 'syncScmRepos', method: 'POST', url: '/auth/scm-app/sync-repos', ...write, audit: 'scm.repositories_synced',
      summary: 'Reads the active installation\'s repositories from the host and stores them (409 when none is active; choose it with set-active)', response: { 200: SyncAnswer }, raises: ['conflict', 'invalid_credentials'], handler: 'syncRepos' },
    { id: 'deleteScmInstallation', method: 'DELETE', url: '/auth/scm-app/installations/:installationId', ...write, audit: 'scm.installation_removed',
      params: InstallationParams, response: { 200: Message }, handler: 'deleteInstallation' },

    { id: 'listRepositories', method: 'GET', url: '/repositories', ...repos,
      summary: 'Repositories of the active linked account and the organization\'s active installation, by full_name; 409 when neither exists', query: RepositoryQuery, response: { 200: RepositoryPage }, raises: ['conflict', 'invalid_credentials'], handler: 'repositories' },
    { id: 'listRepositoryBranches', method: 'GET', url: '/repositories/:owner/:repo/branches', ...repos,
      summary: '[{name, protected}]; 404 for a repository the host does not show', params: RepoParams, response: { 200: Type.Array(Branch) }, raises: ['conflict'], handler: 'branches' },
  ],
});
