// The fake REST cloud: a loopback HTTP(S) server that answers Azure Resource Manager or Google
// Cloud REST calls from a state, through the readers' own `fake` routes (the mapping back from
// Terraform attributes to the API's JSON). Used by `drift-runner replay` (whatever drift it finds
// is a false positive by construction) and by the tests, which also make it page, throttle and
// refuse. A call no route answers fails loudly (501): a reader calling what the fake cannot
// answer is a bug, not a drift.
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { StateInstance } from '../../types.ts';
import { isFakeHeaders, isFakeList, type FakeRequest, type FakeRoute, type FakeWorld } from './reader.ts';

export type FakeStyle = 'arm' | 'google';

export interface FakeOptions {
  style: FakeStyle;
  routes: FakeRoute[];
  world: FakeWorld;
  /** Serve HTTPS with this key and certificate (ARM's token endpoint must be HTTPS). */
  tls?: { key: string; cert: string };
  /** Items per page of a list answer (tests make it small to exercise paging). */
  pageSize?: number;
  /** Answers outside the readers' routes: token endpoints; return undefined to fall through. */
  extra?: (req: IncomingMessage, body: string, res: ServerResponse) => boolean | Promise<boolean>;
}

export interface RestFake {
  endpoint: string;
  /** Every request answered: method and path (with query), in order. */
  log: string[];
  /** The next `count` calls under `pathPrefix` (any when omitted) answer 429 (or `status`) with Retry-After. */
  throttle(count: number, retryAfterSeconds: number, opts?: { status?: number; pathPrefix?: string }): void;
  /** Calls whose path matches answer 403 in the cloud's shape. */
  deny(path: RegExp): void;
  close(): Promise<void>;
}

export function stateWorld(instances: StateInstance[]): FakeWorld {
  const byType = new Map<string, StateInstance[]>();
  for (const i of instances) byType.set(i.type, [...(byType.get(i.type) ?? []), i]);
  return { of: (type) => byType.get(type) ?? [] };
}

interface Compiled { route: FakeRoute; parts: string[] }

function match(c: Compiled, method: string, service: string, segments: string[]): Record<string, string> | undefined {
  // `*.vault.azure.net`: a data-plane service named by its host (each key vault its own).
  const wild = c.route.service.startsWith('*.') && service.toLowerCase().endsWith(c.route.service.slice(1));
  if (c.route.method !== method || (c.route.service !== service && !wild)) return undefined;
  const star = c.parts.findIndex((p) => p.startsWith('*'));
  if (star < 0 ? c.parts.length !== segments.length : segments.length < c.parts.length) return undefined;
  const params: Record<string, string> = {};
  const one = (p: string, seg: string) => {
    if (p.startsWith(':')) { params[p.slice(1)] = decodeURIComponent(seg); return true; }
    return p.toLowerCase() === seg.toLowerCase();
  };
  if (star < 0) return c.parts.every((p, i) => one(p, segments[i])) ? params : undefined;
  // One `*name` part matches one or more segments (an ARM scope: subscription, group or resource).
  const after = c.parts.length - star - 1;
  const tail = segments.length - after;
  if (!c.parts.slice(0, star).every((p, i) => one(p, segments[i]))) return undefined;
  if (!c.parts.slice(star + 1).every((p, i) => one(p, segments[tail + i]))) return undefined;
  params[c.parts[star].slice(1)] = '/' + segments.slice(star, tail).map(decodeURIComponent).join('/');
  return params;
}

/** Several routes may answer one path (a subnet from its own instance and its associations): objects merge, first wins per key. */
function merge(a: unknown, b: unknown): unknown {
  if (!a || !b || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) || Array.isArray(b)) return a;
  const out: Record<string, unknown> = { ...(b as Record<string, unknown>) };
  for (const [k, v] of Object.entries(a as Record<string, unknown>)) out[k] = k in out ? merge(v, out[k]) : v;
  return out;
}

const ERRORS: Record<FakeStyle, (status: number, code: string, message: string) => unknown> = {
  arm: (_s, code, message) => ({ error: { code, message } }),
  google: (status, code, message) => ({ error: { code: status, message, status: code, errors: [{ message, reason: code.toLowerCase() }] } }),
};
const CODES: Record<FakeStyle, Record<number, string>> = {
  arm: { 404: 'ResourceNotFound', 403: 'AuthorizationFailed', 429: 'TooManyRequests', 503: 'ServiceUnavailable', 401: 'InvalidAuthenticationToken' },
  google: { 404: 'NOT_FOUND', 403: 'PERMISSION_DENIED', 429: 'RESOURCE_EXHAUSTED', 503: 'UNAVAILABLE', 401: 'UNAUTHENTICATED' },
};

export async function startRestFake(opts: FakeOptions): Promise<RestFake> {
  const compiled: Compiled[] = opts.routes.map((route) => ({ route, parts: route.path.split('/').filter(Boolean) }));
  const pageSize = opts.pageSize ?? 100;
  const throttles: { left: number; seconds: number; status: number; prefix?: string }[] = [];
  const denied: RegExp[] = [];
  const log: string[] = [];
  let endpoint = '';

  const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(body));
  };
  const fail = (res: ServerResponse, status: number, message: string, headers?: Record<string, string>) =>
    json(res, status, ERRORS[opts.style](status, CODES[opts.style][status] ?? 'Error', message), headers);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    if (opts.extra && (await opts.extra(req, body, res))) return;
    const url = new URL(req.url ?? '/', 'http://fake');
    log.push(`${req.method} ${url.pathname}${url.search}`);
    if (!/^Bearer \S+/.test(req.headers.authorization ?? '')) return fail(res, 401, 'No bearer token');
    const t = throttles.find((x) => x.left > 0 && (!x.prefix || url.pathname.startsWith(x.prefix)));
    if (t) { t.left--; return fail(res, t.status, 'Too many requests, retry later', { 'retry-after': String(t.seconds) }); }
    if (denied.some((re) => re.test(url.pathname))) return fail(res, 403, `The client does not have authorization to perform action over scope '${url.pathname}'`);
    const [service, ...segments] = url.pathname.split('/').filter(Boolean);
    let parsed: unknown;
    try { parsed = body ? JSON.parse(body) : undefined; } catch { return fail(res, 400, 'Body is not JSON'); }
    let answer: unknown;
    let matched = false;
    for (const c of compiled) {
      const params = match(c, req.method ?? 'GET', service ?? '', segments);
      if (!params) continue;
      matched = true;
      const fr: FakeRequest = { method: req.method ?? 'GET', service: service ?? '', path: `/${segments.join('/')}`, params, query: url.searchParams, body: parsed };
      const one = c.route.answer(fr, opts.world);
      if (one === undefined) continue;
      if (isFakeList(one)) { answer = one; break; }
      answer = answer === undefined ? one : merge(answer, one);
    }
    if (matched) {
      if (answer === undefined) return fail(res, 404, `The resource '${url.pathname}' was not found.`);
      if (isFakeHeaders(answer)) { res.writeHead(200, answer.headers); res.end(); return; }
      if (!isFakeList(answer)) return json(res, 200, answer);
      // Pages: ARM `$skiptoken` in a full nextLink URL; Google `pageToken` / `nextPageToken`.
      const from = Number(url.searchParams.get(opts.style === 'arm' ? '$skiptoken' : 'pageToken') ?? 0) || 0;
      const page: Record<string, unknown> = { [answer.key]: answer.items.slice(from, from + pageSize) };
      if (from + pageSize < answer.items.length) {
        if (opts.style === 'arm') {
          const next = new URL(`${endpoint}${url.pathname}${url.search}`);
          next.searchParams.set('$skiptoken', String(from + pageSize));
          page.nextLink = next.toString();
        } else page.nextPageToken = String(from + pageSize);
      }
      return json(res, 200, page);
    }
    res.writeHead(501, { 'content-type': 'text/plain' });
    res.end(`fake cloud: no route answers ${req.method} ${url.pathname}`);
  }

  const listener = (req: IncomingMessage, res: ServerResponse) => {
    void handle(req, res).catch((e: unknown) => { if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' }); res.end(`fake cloud: ${(e as Error).stack ?? String(e)}`); });
  };
  const server = opts.tls ? createHttps({ key: opts.tls.key, cert: opts.tls.cert }, listener) : createHttp(listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    endpoint, log,
    throttle: (count, seconds, o = {}) => { throttles.push({ left: count, seconds, status: o.status ?? 429, prefix: o.pathPrefix }); },
    deny: (re) => { denied.push(re); },
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
