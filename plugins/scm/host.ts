// The source host's documented HTTP API (GitHub REST v3 and its OAuth web flow; GitHub
// Enterprise Server at SCM_WEB_URL / SCM_API_URL): every outbound call goes through here, over
// undici. Tokens travel only in the Authorization header and are never logged; an error names
// the call and the host's status, never a token.
import { readFileSync, existsSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import { createSigner } from 'fast-jwt';
import type { AppContext } from '../../core/context.ts';
import { AppError, notFound } from '../../core/errors.ts';

const TIMEOUT_MS = 15_000;
/** An app JWT lives at most 10 minutes (the host refuses longer); 60 s back-dated for clock drift. */
const APP_JWT_SECONDS = 540;

export interface HostUser { id: number; login: string; name?: string | null; email?: string | null; avatar_url?: string }
export interface HostEmail { email: string; primary: boolean; verified: boolean }
export interface HostRepo { id: number; name: string; full_name: string; owner: { login: string }; private: boolean; default_branch: string }
export interface HostInstallation { id: number; account: { login: string; type?: string } | null; repository_selection?: string }
export interface HostResponse { status: number; json: any }

export const providerFailed = (what: string, status: number, detail?: string) =>
  new AppError('scm.provider_failed', { message: `The source host answered ${status} to ${what}${detail ? `: ${detail}` : ''}` });

/** The app's private key from SCM_APP_PRIVATE_KEY: the PEM itself, or the path of a PEM file. */
export function readPrivateKey(value: string | undefined): string | null {
  if (!value) return null;
  const text = value.includes('-----BEGIN') ? value : existsSync(value) ? readFileSync(value, 'utf8') : null;
  return text ? text.replace(/\\n/g, '\n') : null;
}

/** One call of the host: its status and JSON (or text); unreachable or cut off: 502 scm.provider_failed. */
const hostHttp = (agent: Agent, api: string) => async function http(method: string, url: string, opts: { auth?: string; body?: object; form?: boolean } = {}): Promise<HostResponse> {
  let res;
  try {
    res = await request(url, {
      method: method as 'GET', dispatcher: agent, signal: AbortSignal.timeout(TIMEOUT_MS),
      headers: {
        accept: url.startsWith(api) ? 'application/vnd.github+json' : 'application/json',
        'user-agent': 'drift-service', 'x-github-api-version': '2022-11-28',
        ...(opts.body ? { 'content-type': 'application/json' } : {}),
        ...(opts.auth ? { authorization: opts.auth } : {}),
      },
      ...(opts.body ? { body: JSON.stringify(opts.body) } : {}),
    });
  } catch (err) {
    throw new AppError('scm.provider_failed', { message: `The source host is unreachable (${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).name})` });
  }
  let text: string;
  try {
    text = await res.body.text();
  } catch (err) {
    throw new AppError('scm.provider_failed', { message: `The source host closed the connection mid-answer (${(err as { code?: string }).code ?? (err as Error).name})` });
  }
  let json: unknown = null;
  try { json = text ? JSON.parse(text) : null; } catch { json = text; }
  return { status: res.statusCode, json };
};

export const ok = (res: HostResponse, what: string) => {
  if (res.status < 200 || res.status >= 300) throw providerFailed(what, res.status, typeof res.json?.message === 'string' ? res.json.message : undefined);
  return res.json;
};

export function createHost(ctx: AppContext) {
  const cfg = ctx.config;
  const ca = cfg.OUTBOUND_EXTRA_CA_FILE ? [...rootCertificates, readFileSync(cfg.OUTBOUND_EXTRA_CA_FILE, 'utf8')] : undefined;
  const agent = new Agent({ connect: ca ? { ca } : {} });
  const web = cfg.SCM_WEB_URL.replace(/\/+$/, '');
  const api = cfg.SCM_API_URL.replace(/\/+$/, '');
  const privateKey = readPrivateKey(cfg.SCM_APP_PRIVATE_KEY);
  const signApp = privateKey && cfg.SCM_APP_ID ? createSigner({ algorithm: 'RS256', key: privateKey }) : null;

  const http = hostHttp(agent, api);
  const bearer = (token: string) => `Bearer ${token}`;
  const repoPath = (fullName: string) => fullName.split('/').map(encodeURIComponent).join('/');

  return {
    web, api,
    appConfigured: () => Boolean(signApp && cfg.SCM_APP_SLUG),
    /** The authorize URL of the OAuth web flow. */
    authorizeUrl(params: Record<string, string>) {
      return `${web}/login/oauth/authorize?${new URLSearchParams(params)}`;
    },
    installUrl(state: string) {
      return `${web}/apps/${encodeURIComponent(cfg.SCM_APP_SLUG ?? '')}/installations/new?${new URLSearchParams({ state })}`;
    },
    /** The app's own OAuth client (SCM_APP_CLIENT_*), else the OAuth app's; null when neither is configured. */
    appClient(): { id: string; secret: string } | null {
      const id = cfg.SCM_APP_CLIENT_ID ?? cfg.SCM_CLIENT_ID;
      const secret = cfg.SCM_APP_CLIENT_ID ? cfg.SCM_APP_CLIENT_SECRET : cfg.SCM_CLIENT_SECRET;
      return id && secret ? { id, secret } : null;
    },
    /**
     * Code -> user access token; null when the host refuses the code (it answers 200 with `error`).
     * `client`: whose code it is (the OAuth app's by default; the app's own at the install callback).
     */
    async exchangeCode(code: string, redirectUri: string, client?: { id: string; secret: string }): Promise<{ token: string; scope: string } | null> {
      const res = await http('POST', `${web}/login/oauth/access_token`, {
        body: { client_id: client?.id ?? cfg.SCM_CLIENT_ID, client_secret: client?.secret ?? cfg.SCM_CLIENT_SECRET, code, redirect_uri: redirectUri },
      });
      if (res.status >= 500) throw providerFailed('the token request', res.status);
      if (res.status !== 200 || typeof res.json?.access_token !== 'string') return null;
      return { token: res.json.access_token, scope: String(res.json.scope ?? '') };
    },
    async user(token: string): Promise<HostUser> {
      return ok(await http('GET', `${api}/user`, { auth: bearer(token) }), 'GET /user') as HostUser;
    },
    /** The account's emails; [] when the token may not read them. */
    async emails(token: string): Promise<HostEmail[]> {
      const res = await http('GET', `${api}/user/emails`, { auth: bearer(token) });
      return res.status === 200 && Array.isArray(res.json) ? res.json as HostEmail[] : [];
    },
    /** An app JWT (RS256, iss = app id, at most 10 minutes). */
    appJwt(now = Date.now()): string {
      if (!signApp) throw new AppError('scm.app_not_configured', { message: 'Source host app is not configured' });
      const iat = Math.floor(now / 1000) - 60;
      return signApp({ iat, exp: iat + 60 + APP_JWT_SECONDS, iss: cfg.SCM_APP_ID });
    },
    /** The installation as the app sees it; null when the host does not know it. */
    async installation(installationId: string): Promise<HostInstallation | null> {
      const res = await http('GET', `${api}/app/installations/${encodeURIComponent(installationId)}`, { auth: bearer(this.appJwt()) });
      if (res.status === 404) return null;
      return ok(res, 'GET /app/installations/{id}') as HostInstallation;
    },
    /**
     * Whether the user of this token (a user access token of the app) can see the installation:
     * GET /user/installations lists the installations of the app the user can reach (pages of
     * 100, at most 10,000). The proof that an installation id named in a URL is theirs.
     */
    async userSeesInstallation(token: string, installationId: string): Promise<boolean> {
      for (let page = 1; page <= 100; page++) {
        const json = ok(await http('GET', `${api}/user/installations?per_page=100&page=${page}`, { auth: bearer(token) }), 'GET /user/installations');
        const rows = (Array.isArray(json?.installations) ? json.installations : []) as { id: number }[];
        if (rows.some((i) => String(i.id) === installationId)) return true;
        if (rows.length < 100 || page * 100 >= Number(json?.total_count ?? 0)) return false;
      }
      return false;
    },
    async mintInstallationToken(installationId: string): Promise<{ token: string; expiresAt: Date }> {
      const res = await http('POST', `${api}/app/installations/${encodeURIComponent(installationId)}/access_tokens`, { auth: bearer(this.appJwt()) });
      const json = ok(res, 'POST /app/installations/{id}/access_tokens');
      return { token: json.token, expiresAt: new Date(json.expires_at) };
    },
    /** Every repository of an installation (pages of 100, at most 10,000). */
    async installationRepos(token: string): Promise<HostRepo[]> {
      const out: HostRepo[] = [];
      for (let page = 1; page <= 100; page++) {
        const json = ok(await http('GET', `${api}/installation/repositories?per_page=100&page=${page}`, { auth: bearer(token) }), 'GET /installation/repositories');
        const repos = (json?.repositories ?? []) as HostRepo[];
        out.push(...repos);
        if (repos.length < 100 || out.length >= (json?.total_count ?? 0)) break;
      }
      return out;
    },
    /** The repositories a user token reaches (pages of 100, at most 1,000). */
    async userRepos(token: string): Promise<HostRepo[]> {
      const out: HostRepo[] = [];
      for (let page = 1; page <= 10; page++) {
        const repos = ok(await http('GET', `${api}/user/repos?per_page=100&page=${page}&sort=full_name`, { auth: bearer(token) }), 'GET /user/repos') as HostRepo[];
        out.push(...repos);
        if (repos.length < 100) break;
      }
      return out;
    },
    async branches(token: string, fullName: string): Promise<{ name: string; protected: boolean }[]> {
      const out: { name: string; protected: boolean }[] = [];
      for (let page = 1; page <= 10; page++) {
        const res = await http('GET', `${api}/repos/${repoPath(fullName)}/branches?per_page=100&page=${page}`, { auth: bearer(token) });
        if (res.status === 404) throw notFound('Repository');
        const rows = ok(res, 'GET /repos/{owner}/{repo}/branches') as { name: string; protected?: boolean }[];
        out.push(...rows.map((b) => ({ name: b.name, protected: Boolean(b.protected) })));
        if (rows.length < 100) break;
      }
      return out;
    },
    /** A call of the REST API as an installation (pull requests): the raw answer, for the caller to judge. */
    call: (method: string, path: string, token: string, body?: object) => http(method, `${api}${path}`, { auth: bearer(token), body }),
    ok,
    repoPath,
    close: () => agent.close(),
  };
}
export type Host = ReturnType<typeof createHost>;
