// The issue tracker's HTTP side (Jira Cloud REST v3 behind Atlassian's OAuth 2.0): the token
// exchange and refresh (rotating refresh tokens, sealed at rest), and one call of the REST API
// for an organization, refreshing an access token about to expire (or answered 401) first.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import type { AppContext } from '../../core/context.ts';
import { AppError, badRequest } from '../../core/errors.ts';
import type { TrackerConnection, TrackerStore } from './store.ts';

const TIMEOUT_MS = 15_000;

export const notConfigured = () => new AppError('tracker.not_configured', { message: 'Tracker integration is not configured' });
export const notConnected = () => new AppError('tracker.not_connected', { message: 'The issue tracker is not connected; connect it through /api/tracker/oauth/initiate' });
export const providerFailed = (what: string, status: number, detail?: string) =>
  new AppError('tracker.provider_failed', { message: `The issue tracker answered ${status} to ${what}${detail ? `: ${detail}` : ''}` });

export interface Tokens { access_token: string; refresh_token?: string; expires_in: number; scope?: string }

export type Connected = TrackerConnection & { accessToken: string; cloudId: string; siteUrl: string };

export function createTrackerClient(ctx: AppContext, store: TrackerStore) {
  const cfg = ctx.config;
  const ca = cfg.OUTBOUND_EXTRA_CA_FILE ? [...rootCertificates, readFileSync(cfg.OUTBOUND_EXTRA_CA_FILE, 'utf8')] : undefined;
  const agent = new Agent({ connect: ca ? { ca } : {} });
  const authBase = cfg.TRACKER_AUTH_URL.replace(/\/+$/, '');
  const apiBase = cfg.TRACKER_API_URL.replace(/\/+$/, '');
  const redirectUri = `${cfg.publicUrl}/api/tracker/oauth/callback`;

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

  async function connection(orgId: string): Promise<Connected> {
    const c = await store.get(orgId);
    if (!c?.accessToken || !c.cloudId || !c.siteUrl) throw notConnected();
    return c as Connected;
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

  return { configured, http, exchange, sealTokens, connection, jira, ok, authBase, apiBase, redirectUri, close: () => agent.close() };
}
export type TrackerClient = ReturnType<typeof createTrackerClient>;
