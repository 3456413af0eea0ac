// The issue tracker (Jira Cloud REST v3) through Atlassian's OAuth 2.0 authorization-code
// flow (three-legged), docs/integrations.md "Tracker":
//  1. initiate: a random `state` bound to the user, organization, session and browser (the hash
//     of the binding cookie's nonce, core/browser-binding.ts), kept 10 minutes in Redis and spent
//     with GETDEL (single use), and the authorization URL at TRACKER_AUTH_URL/authorize.
//  2. callback: the state is spent; it must come from the browser and user that started it
//     (whoever else completes the authorize URL would connect their own Jira site to the
//     organization), and the user must still hold integrations:write there; then the code is
//     exchanged at TRACKER_AUTH_URL/oauth/token, the site found through
//     TRACKER_API_URL/oauth/token/accessible-resources, the tokens sealed.
//  3. every Jira call goes to TRACKER_API_URL/ex/jira/{cloudId}/rest/api/3/...; an access token
//     about to expire (or answered 401) is refreshed first with the refresh token (rotating).
import type { AppContext } from '../../core/context.ts';
import { randomToken, sha256Hex } from '../../core/crypto.ts';
import { proveBinding, type CallbackEvidence, type SessionCheck } from '../../core/browser-binding.ts';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import type { RouteInput } from '../../core/manifest.ts';
import type { DriftService } from '../drifts/service.ts';
import type { WidgetService } from '../drift-widgets/service.ts';
import type { TrackerConnection, TrackerStore } from './store.ts';
import type { ConfigBody, ConfigView } from './schemas.ts';
import { createTrackerClient, providerFailed } from './client.ts';
import { createTickets } from './tickets.ts';

export const STATE_TTL_SECONDS = 600;
export const SCOPES = 'read:jira-work write:jira-work read:jira-user offline_access';

const BINDING_ERRORS = { browser_mismatch: 'oauth.browser_mismatch', user_mismatch: 'oauth.user_mismatch', session_ended: 'oauth.session_ended' } as const;

export function createTrackerService(ctx: AppContext, store: TrackerStore, deps: { drifts: Pick<DriftService, 'query'>; widgets: Pick<WidgetService, 'record' | 'setTicket'>; sessions: SessionCheck }) {
  const client = createTrackerClient(ctx, store);
  const { configured, http, exchange, sealTokens, connection, jira, ok, authBase, apiBase, redirectUri } = client;
  const tickets = createTickets(ctx, client, deps);
  const redis = ctx.redis.main;

  const configView = (c: TrackerConnection | null): ConfigView => ({
    connected: !!c?.accessToken, siteUrl: c?.accessToken ? c.siteUrl : null, defaultProject: c?.defaultProject ?? null, defaultIssueType: c?.defaultIssueType ?? null,
  });

  return {
    /** nonceHash: the binding of the caller's browser (the handler sets its cookie). */
    async initiate(orgId: string, userId: string, sessionId: string | null, nonceHash: string) {
      const { clientId } = configured();
      const state = randomToken('', 24);
      await redis.set(`tracker-state:${sha256Hex(state)}`, JSON.stringify({ orgId, userId, sessionId, nonceHash }), 'EX', STATE_TTL_SECONDS);
      const q = new URLSearchParams({ audience: 'api.atlassian.com', client_id: clientId, scope: SCOPES, redirect_uri: redirectUri, state, response_type: 'code', prompt: 'consent' });
      return { authorizationUrl: `${authBase}/authorize?${q}` };
    },
    /** `resumed`: the engine's answer to the route's `resumes` rule (manifests/tracker.ts). */
    async callback(query: { state: string; code?: string; error?: string }, evidence: CallbackEvidence, resumed: RouteInput['resumed']) {
      configured();
      // GETDEL: the state is spent by the first callback that presents it, whatever happens next.
      const raw = await redis.getdel(`tracker-state:${sha256Hex(query.state)}`);
      if (!raw) throw badRequest('Invalid or expired state');
      const started = JSON.parse(raw) as { orgId: string; userId: string; sessionId?: string | null; nonceHash?: string };
      const { orgId, userId } = started;
      const unbound = await proveBinding(started, evidence, deps.sessions);
      if (unbound) throw new AppError(BINDING_ERRORS[unbound]);
      if (!(await resumed(orgId, userId))) throw new AppError('permission_denied');
      if (query.error) throw badRequest(`Authorization was not granted: ${query.error}`);
      if (!query.code) throw badRequest('code is required');
      const t = await exchange({ grant_type: 'authorization_code', code: query.code, redirect_uri: redirectUri });
      const sites = await http('GET', `${apiBase}/oauth/token/accessible-resources`, { token: t.access_token });
      if (sites.status !== 200 || !Array.isArray(sites.json)) throw providerFailed('the accessible-resources request', sites.status);
      const site = (sites.json as { id: string; url: string; scopes?: string[] }[]).find((s) => !s.scopes || s.scopes.some((x) => x.includes('jira')));
      if (!site) throw badRequest('The authorization grants no Jira site');
      await store.set(orgId, { cloudId: site.id, siteUrl: site.url, connectedBy: userId, ...sealTokens(t, null) });
      return configView(await store.get(orgId));
    },
    getConfig: async (orgId: string) => configView(await store.get(orgId)),
    async setConfig(orgId: string, body: ConfigBody) {
      configured();
      const set: Partial<TrackerConnection> = {};
      if (body.defaultProject !== undefined) set.defaultProject = body.defaultProject;
      if (body.defaultIssueType !== undefined) set.defaultIssueType = body.defaultIssueType;
      await store.set(orgId, set);
      return configView(await store.get(orgId));
    },
    async testConnection(orgId: string) {
      const me = ok(await jira(orgId, 'GET', '/myself'), 'the account request');
      return { success: true as const, siteUrl: (await connection(orgId)).siteUrl, user: String(me.displayName ?? me.accountId ?? '') };
    },
    async projects(orgId: string) {
      const page = ok(await jira(orgId, 'GET', '/project/search?maxResults=100&orderBy=key'), 'the project list');
      return (page.values as { id: string; key: string; name: string }[]).map((p) => ({ id: String(p.id), key: p.key, name: p.name }));
    },
    async issueTypes(orgId: string, projectKey: string) {
      const res = await jira(orgId, 'GET', `/issue/createmeta/${encodeURIComponent(projectKey)}/issuetypes?maxResults=100`);
      if (res.status === 404) throw notFound('Project');
      const page = ok(res, 'the issue-type list');
      const list = (page.issueTypes ?? page.values ?? []) as { id: string; name: string; subtask?: boolean }[];
      return list.map((t) => ({ id: String(t.id), name: t.name, subtask: !!t.subtask }));
    },
    async priorities(orgId: string) {
      const list = ok(await jira(orgId, 'GET', '/priority'), 'the priority list') as { id: string; name: string }[];
      return list.map((p) => ({ id: String(p.id), name: p.name }));
    },
    createTicket: tickets.createTicket,
    verifyTicket: tickets.verifyTicket,
    async disconnect(orgId: string) {
      await store.disconnect(orgId);
      return { message: 'Tracker disconnected' };
    },
    removeOrg: (orgId: string) => store.removeOrg(orgId),
    close: client.close,
  };
}
export type TrackerService = ReturnType<typeof createTrackerService>;
