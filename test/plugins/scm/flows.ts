// The browser side of the source-host flows, as tests drive them: a flow's start answers a
// state (in the host URL) and a browser-binding cookie; its callback is a top-level GET that
// carries the cookie back (and nothing else: no Authorization header, as a browser sends none).
import type { buildTestApp } from '../../helper.ts';
import { bearer } from '../../helper.ts';
import type { FakeHost } from './fake-host.ts';

type App = Awaited<ReturnType<typeof buildTestApp>>['app'];
type Injected = Awaited<ReturnType<App['inject']>>;

/** "name=value" of the Set-Cookie of a response (the binding cookie of a flow's start); '' when none. */
export const cookieOf = (res: Injected): string => {
  const raw = res.headers['set-cookie'];
  const first = (Array.isArray(raw) ? raw : raw ? [raw] : []).find((c) => !/max-age=0/i.test(c));
  return first ? first.split(';')[0] : '';
};

export interface Started { state: string; cookie: string; start: Injected }

/** GET /api/auth/scm-app/install as the signed-in user (x-org-id when given). */
export async function startInstall(app: App, token: string, orgId?: string): Promise<Started> {
  const start = await app.inject({ method: 'GET', url: '/api/auth/scm-app/install', headers: { ...bearer(token), ...(orgId ? { 'x-org-id': orgId } : {}) } });
  if (start.statusCode !== 200) throw new Error(`install start: ${start.statusCode} ${start.body}`);
  return { state: new URL(start.json().installUrl).searchParams.get('state')!, cookie: cookieOf(start), start };
}

/** The host sends the browser back to the app's callback (user authorization during installation: a code). */
export async function finishInstall(app: App, q: { state: string; cookie?: string; installationId: string; code?: string; headers?: Record<string, string> }): Promise<URL> {
  const params = new URLSearchParams({ installation_id: q.installationId, setup_action: 'install', state: q.state, ...(q.code ? { code: q.code } : {}) });
  const res = await app.inject({ method: 'GET', url: `/api/auth/scm-app/callback?${params}`, headers: { ...(q.cookie ? { cookie: q.cookie } : {}), ...q.headers } });
  if (res.statusCode !== 302) throw new Error(`install callback: ${res.statusCode} ${res.body}`);
  return new URL(res.headers.location as string);
}

/** The whole install flow, by the host user `login` (who must see the installation). */
export async function installApp(app: App, host: FakeHost, token: string, installationId: string, login: string, orgId?: string): Promise<URL> {
  const s = await startInstall(app, token, orgId);
  return finishInstall(app, { state: s.state, cookie: s.cookie, installationId, code: host.appCode(login) });
}

/** GET /api/auth/scm/add-account?token=<JWT>: the browser navigates there, so the JWT is in the query. */
export async function startAddAccount(app: App, token: string): Promise<Started> {
  const start = await app.inject({ method: 'GET', url: `/api/auth/scm/add-account?token=${encodeURIComponent(token)}` });
  if (start.statusCode !== 302) throw new Error(`add-account start: ${start.statusCode} ${start.body}`);
  return { state: new URL(start.headers.location as string).searchParams.get('state')!, cookie: cookieOf(start), start };
}

export async function scmCallback(app: App, q: { state: string; code: string; cookie?: string; headers?: Record<string, string> }): Promise<URL> {
  const res = await app.inject({ method: 'GET', url: `/api/auth/scm/callback?${new URLSearchParams({ code: q.code, state: q.state })}`, headers: { ...(q.cookie ? { cookie: q.cookie } : {}), ...q.headers } });
  if (res.statusCode !== 302) throw new Error(`scm callback: ${res.statusCode} ${res.body}`);
  return new URL(res.headers.location as string);
}
