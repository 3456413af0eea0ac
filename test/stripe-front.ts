// A loopback front for stripe-mock. stripe-mock answers every call from fixtures and keeps no
// state, so a retrieved Checkout Session is always an open session of nobody. This server
// answers, as Stripe's API is documented to, the cases stripe-mock cannot produce: sessions a
// test registers (completed, of a given organization), an unknown session (404
// resource_missing) and provider failures (500 api_error with a request id). Every other call
// goes to stripe-mock unchanged. One per test process, started on first use (test/helper.ts).
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { request } from 'undici';

export interface StripeFront {
  url: string;
  /** Checkout Sessions answered by id (GET /v1/checkout/sessions/:id). */
  sessions: Map<string, Record<string, unknown>>;
  /** Ids answered 404 resource_missing, as Stripe answers an unknown session. */
  missing: Set<string>;
  /** The next `times` calls whose path starts with `prefix` answer 500 api_error. */
  fail(prefix: string, times?: number): void;
  /** Calls the front saw (method and path), newest last. */
  calls: { method: string; path: string; body: string }[];
}

const readBody = (req: IncomingMessage) => new Promise<string>((resolve, reject) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  req.on('error', reject);
});

let front: Promise<StripeFront> | undefined;

export function stripeFront(stripeMockUrl: string): Promise<StripeFront> {
  front ??= start(stripeMockUrl);
  return front;
}

async function start(upstream: string): Promise<StripeFront> {
  const sessions = new Map<string, Record<string, unknown>>();
  const missing = new Set<string>();
  const failures: { prefix: string; left: number }[] = [];
  const calls: StripeFront['calls'] = [];
  let n = 0;
  const server: Server = createServer(async (req, res) => {
    const body = await readBody(req);
    const path = req.url ?? '/';
    calls.push({ method: req.method ?? 'GET', path, body });
    const requestId = `req_front_${++n}`;
    const answer = (status: number, json: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json', 'request-id': requestId });
      res.end(JSON.stringify(json));
    };
    const failure = failures.find((f) => f.left > 0 && path.startsWith(f.prefix));
    if (failure) {
      failure.left--;
      return answer(500, { error: { type: 'api_error', message: 'An unknown error occurred' } });
    }
    const session = /^\/v1\/checkout\/sessions\/([^/?]+)/.exec(path);
    if (req.method === 'GET' && session) {
      const id = decodeURIComponent(session[1]);
      if (sessions.has(id)) return answer(200, sessions.get(id));
      if (missing.has(id)) {
        return answer(404, { error: { code: 'resource_missing', doc_url: 'https://stripe.com/docs/error-codes/resource-missing', message: `No such checkout.session: '${id}'`, param: 'session', type: 'invalid_request_error' } });
      }
    }
    try {
      const headers: Record<string, string> = {};
      for (const h of ['authorization', 'content-type', 'stripe-version', 'idempotency-key', 'accept']) {
        const v = req.headers[h];
        if (typeof v === 'string') headers[h] = v;
      }
      const up = await request(`${upstream.replace(/\/$/, '')}${path}`, { method: req.method as 'GET', headers, body: body || undefined });
      const text = await up.body.text();
      res.writeHead(up.statusCode, { 'content-type': 'application/json', 'request-id': String(up.headers['request-id'] ?? requestId) });
      res.end(text);
    } catch (err) {
      answer(502, { error: { type: 'api_error', message: `stripe-mock unreachable: ${(err as Error).message}` } });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  // The front must not keep a finished test process alive.
  server.unref();
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`, sessions, missing, calls,
    fail(prefix, times = 1) { failures.push({ prefix, left: times }); },
  };
}
