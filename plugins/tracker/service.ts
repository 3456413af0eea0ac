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
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import type { AppContext } from '../../core/context.ts';
import { randomToken, sha256Hex } from '../../core/crypto.ts';
import { proveBinding, type CallbackEvidence, type SessionCheck } from '../../core/browser-binding.ts';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import type { DriftService } from '../drifts/service.ts';
import type { WidgetService } from '../drift-widgets/service.ts';
import type { TrackerConnection, TrackerStore } from './store.ts';
import type { ConfigBody, ConfigView } from './schemas.ts';

export const STATE_TTL_SECONDS = 600;
export const SCOPES = 'read:jira-work write:jira-work read:jira-user offline_access';
const TIMEOUT_MS = 15_000;

const notConfigured = () => new AppError('tracker.not_configured', { message: 'Tracker integration is not configured' });
const notConnected = () => new AppError('tracker.not_connected', { message: 'The issue tracker is not connected; connect it through /api/tracker/oauth/initiate' });
const providerFailed = (what: string, status: number, detail?: string) =>
  new AppError('tracker.provider_failed', { message: `The issue tracker answered ${status} to ${what}${detail ? `: ${detail}` : ''}` });

interface Tokens { access_token: string; refresh_token?: string; expires_in: number; scope?: string }

const BINDING_ERRORS = { browser_mismatch: 'oauth.browser_mismatch', user_mismatch: 'oauth.user_mismatch', session_ended: 'oauth.session_ended' } as const;

export function createTrackerService(ctx: AppContext, store: TrackerStore, deps: { drifts: Pick<DriftService, 'query'>; widgets: Pick<WidgetService, 'record' | 'setTicket'>; sessions: SessionCheck }) {
  const cfg = ctx.config;
  const ca = cfg.OUTBOUND_EXTRA_CA_FILE ? [...rootCertificates, readFileSync(cfg.OUTBOUND_EXTRA_CA_FILE, 'utf8')] : undefined;
  const agent = new Agent({ connect: ca ? { ca } : {} });
  const authBase = cfg.TRACKER_AUTH_URL.replace(/\/+$/, '');
  const apiBase = cfg.TRACKER_API_URL.replace(/\/+$/, '');
  const redirectUri = `${cfg.publicUrl}/api/tracker/oauth/callback`;
  const redis = ctx.redis.main;

  function configured(): { clientId: string; clientSecret: string } {
    if (!cfg.TRACKER_CLIENT_ID) throw notConfigured();
    return { clientId: cfg.TRACKER_CLIENT_ID, clientSecret: cfg.TRACKER_CLIENT_SECRET ?? '' };
  }

  async function http(method: 'GET' | 'POST', url: string, opts: { token?: string; body?: object } = {}): Promise<{ status: number; json: any }> {
    let res;
    try {
      res = await request(url, {
        method, dispatcher: agent, signal: AbortSignal.timeout(TIMEOUT_MS),
        headers: { accept: 'application/json', ...(opts.body ? { 'content-type': 'application/json' } : {}), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
        ...(opts.body ? { body: JSON.stringify(opts.body) } : {}),
      });
    } catch (err) {
      throw new AppError('tracker.provider_failed', { message: `The issue tracker is unreachable (${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name})` });
    }
    const text = await res.body.text();
    let json: unknown = null;
    try { json = text ? JSON.parse(text) : null; } catch { json = text; }
    return { status: res.statusCode, json };
  }

  async function exchange(body: Record<string, string>): Promise<Tokens> {
    const { clientId, clientSecret } = configured();
    const res = await http('POST', `${authBase}/oauth/token`, { body: { client_id: clientId, client_secret: clientSecret, ...body } });
    if (res.status !== 200 || typeof res.json?.access_token !== 'string') {
      throw res.status >= 400 && res.status < 500
        ? badRequest(`The authorization server refused the ${body.grant_type === 'refresh_token' ? 'refresh' : 'code'}: ${res.json?.error_description ?? res.json?.error ?? res.status}`)
        : providerFailed('the token request', res.status);
    }
    return res.json as Tokens;
  }

  const sealTokens = (t: Tokens, previousRefresh: string | null) => ({
    accessToken: ctx.sealer.seal(t.access_token),
    refreshToken: t.refresh_token ? ctx.sealer.seal(t.refresh_token) : previousRefresh,
    expiresAt: new Date(Date.now() + t.expires_in * 1000),
  });

  async function connection(orgId: string): Promise<TrackerConnection & { accessToken: string; cloudId: string; siteUrl: string }> {
    const c = await store.get(orgId);
    if (!c?.accessToken || !c.cloudId || !c.siteUrl) throw notConnected();
    return c as TrackerConnection & { accessToken: string; cloudId: string; siteUrl: string };
  }

  async function refresh(orgId: string, c: TrackerConnection): Promise<string> {
    if (!c.refreshToken) throw notConnected();
    const t = await exchange({ grant_type: 'refresh_token', refresh_token: ctx.sealer.open(c.refreshToken) });
    await store.set(orgId, sealTokens(t, c.refreshToken));
    return t.access_token;
  }

  /** One Jira REST v3 call for the organization, refreshing the access token when needed. */
  async function jira(orgId: string, method: 'GET' | 'POST', path: string, body?: object): Promise<{ status: number; json: any }> {
    configured();
    const c = await connection(orgId);
    let token = c.expiresAt && c.expiresAt.getTime() > Date.now() + 60_000 ? ctx.sealer.open(c.accessToken) : await refresh(orgId, c);
    const url = `${apiBase}/ex/jira/${encodeURIComponent(c.cloudId)}/rest/api/3${path}`;
    let res = await http(method, url, { token, body });
    if (res.status === 401) {
      token = await refresh(orgId, (await store.get(orgId))!);
      res = await http(method, url, { token, body });
    }
    return res;
  }
  const ok = (res: { status: number; json: any }, what: string) => {
    if (res.status < 200 || res.status >= 300) throw providerFailed(what, res.status, (res.json?.errorMessages ?? []).join('; ') || undefined);
    return res.json;
  };

  const configView = (c: TrackerConnection | null): ConfigView => ({
    connected: !!c?.accessToken, siteUrl: c?.accessToken ? c.siteUrl : null, defaultProject: c?.defaultProject ?? null, defaultIssueType: c?.defaultIssueType ?? null,
  });

  async function widget(orgId: string, id: string) {
    configured();
    const w = await deps.widgets.record(orgId, id);
    if (!w) throw notFound('Widget');
    return w;
  }

  /** The issue's description in the Atlassian Document Format: the widget's filters and the drifts it counts. */
  function description(w: { title: string; filters: object; metric: number }, drifts: { resourceAddress: string; severity: string; status: string; repositoryName: string }[], total: number) {
    const text = (t: string) => ({ type: 'text', text: t });
    const filters = Object.entries(w.filters).filter(([, v]) => v !== undefined && !(Array.isArray(v) && !v.length))
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(', ') : String(v)}`);
    return {
      type: 'doc', version: 1,
      content: [
        { type: 'paragraph', content: [text(`Created from the Drift widget "${w.title}": ${total} drifts match its filters.`)] },
        { type: 'paragraph', content: [text(`Filters: ${filters.length ? filters.join('; ') : 'none (every drift)'}`)] },
        ...(drifts.length ? [{
          type: 'bulletList',
          content: drifts.map((d) => ({ type: 'listItem', content: [{ type: 'paragraph', content: [text(`[${d.severity}] ${d.resourceAddress} (${d.repositoryName}, ${d.status})`)] }] })),
        }] : []),
        ...(total > drifts.length ? [{ type: 'paragraph', content: [text(`… and ${total - drifts.length} more.`)] }] : []),
        { type: 'paragraph', content: [text(`${cfg.FRONTEND_URL}/drifts`)] },
      ],
    };
  }

  return {
    /** nonceHash: the binding of the caller's browser (the handler sets its cookie). */
    async initiate(orgId: string, userId: string, sessionId: string | null, nonceHash: string) {
      const { clientId } = configured();
      const state = randomToken('', 24);
      await redis.set(`tracker-state:${sha256Hex(state)}`, JSON.stringify({ orgId, userId, sessionId, nonceHash }), 'EX', STATE_TTL_SECONDS);
      const q = new URLSearchParams({ audience: 'api.atlassian.com', client_id: clientId, scope: SCOPES, redirect_uri: redirectUri, state, response_type: 'code', prompt: 'consent' });
      return { authorizationUrl: `${authBase}/authorize?${q}` };
    },
    async callback(query: { state: string; code?: string; error?: string }, evidence: CallbackEvidence) {
      configured();
      // GETDEL: the state is spent by the first callback that presents it, whatever happens next.
      const raw = await redis.getdel(`tracker-state:${sha256Hex(query.state)}`);
      if (!raw) throw badRequest('Invalid or expired state');
      const started = JSON.parse(raw) as { orgId: string; userId: string; sessionId?: string | null; nonceHash?: string };
      const { orgId, userId } = started;
      const unbound = await proveBinding(started, evidence, deps.sessions);
      if (unbound) throw new AppError(BINDING_ERRORS[unbound]);
      if (!(await ctx.tenancy.access(orgId, userId))?.permissions.has('integrations:write')) throw new AppError('permission_denied');
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
    async createTicket(orgId: string, widgetId: string) {
      const w = await widget(orgId, widgetId);
      if (w.ticket) return { key: w.ticket.key, url: w.ticket.url, created: false };
      const c = await connection(orgId);
      if (!c.defaultProject || !c.defaultIssueType) throw badRequest('Set defaultProject and defaultIssueType in the tracker config first');
      // One ticket per widget, also when two calls race: the winner creates, the other answers the winner's.
      const claim = await ctx.once.runOnce(`tracker-ticket:${widgetId}`, orgId, async () => {
        const f = w.filters;
        const found = await deps.drifts.query(orgId, {
          page: 1, limit: 20, status: f.status?.join(','), severity: f.severity?.join(','), resourceType: f.resourceType, q: f.q, repositoryConfigId: f.repositoryConfigId,
        } as never, undefined);
        const summary = `Drift: ${w.title} (${found.pagination.total} drifts)`.slice(0, 250);
        const res = await jira(orgId, 'POST', '/issue', {
          fields: { project: { key: c.defaultProject }, issuetype: { name: c.defaultIssueType }, summary, description: description(w, found.data, found.pagination.total) },
        });
        const issue = ok(res, 'the issue creation') as { id: string; key: string };
        const ticket = { id: String(issue.id), key: issue.key, url: `${c.siteUrl.replace(/\/+$/, '')}/browse/${issue.key}`, createdAt: new Date() };
        await deps.widgets.setTicket(orgId, widgetId, ticket);
        return ticket;
      });
      if (claim.won) return { key: claim.value.key, url: claim.value.url, created: true };
      const again = await widget(orgId, widgetId);
      if (!again.ticket) throw new AppError('conflict', { message: 'A ticket for this widget is being created; try again shortly' });
      return { key: again.ticket.key, url: again.ticket.url, created: false };
    },
    async verifyTicket(orgId: string, widgetId: string) {
      const w = await widget(orgId, widgetId);
      if (!w.ticket) return { exists: false, key: null, url: null, status: null };
      const res = await jira(orgId, 'GET', `/issue/${encodeURIComponent(w.ticket.key)}?fields=status,summary`);
      if (res.status === 404) return { exists: false, key: w.ticket.key, url: w.ticket.url, status: null };
      const issue = ok(res, 'the issue request');
      return { exists: true, key: w.ticket.key, url: w.ticket.url, status: String(issue.fields?.status?.name ?? '') };
    },
    async disconnect(orgId: string) {
      await store.disconnect(orgId);
      return { message: 'Tracker disconnected' };
    },
    removeOrg: (orgId: string) => store.removeOrg(orgId),
    close: () => agent.close(),
  };
}
export type TrackerService = ReturnType<typeof createTrackerService>;
