// Loopback fakes of the two token endpoints the engine's cloud auth talks to, answering as their
// documentation says: the Microsoft identity platform (HTTPS, a certificate made here with the
// openssl CLI; OpenID configuration + client-credentials token grant) and Google's OAuth 2.0
// token endpoint (JWT-bearer grant, the assertion's RS256 signature checked against the key).
import { execFileSync } from 'node:child_process';
import { generateKeyPairSync, verify, type KeyObject } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttp, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createHttps } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Test } from 'tap';

/** A self-signed certificate for 127.0.0.1, made per test process. */
export function testCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(join(tmpdir(), 'drift-cloud-auth-'));
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
      '-days', '2', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1'], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Seen { method: string; path: string; form: URLSearchParams }
type Handler = (seen: Seen, base: string) => { status: number; body?: unknown } | 'hang';

async function serve(t: Test, tls: { key: string; cert: string } | undefined, handle: Handler) {
  const seen: Seen[] = [];
  const hung: ServerResponse[] = [];
  const onRequest = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => { body += c.toString('utf8'); });
    req.on('end', () => {
      const s = { method: req.method ?? '', path: new URL(req.url ?? '/', 'http://x').pathname, form: new URLSearchParams(body) };
      seen.push(s);
      const a = handle(s, base);
      if (a === 'hang') { hung.push(res); return; }
      res.writeHead(a.status, { 'content-type': 'application/json' }).end(JSON.stringify(a.body ?? {}));
    });
  };
  const server = tls ? createHttps(tls, onRequest) : createHttp(onRequest);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `${tls ? 'https' : 'http'}://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t.teardown(() => { hung.forEach((r) => r.destroy()); server.closeAllConnections(); server.close(); });
  return { base, seen, tokenRequests: () => seen.filter((s) => s.method === 'POST') };
}

/**
 * The Microsoft identity platform for one app: `secrets[clientId]` is its secret. Tenant
 * "hang" never answers; `expiresIn` sets the tokens' lifetime.
 */
export function fakeEntra(t: Test, tls: { key: string; cert: string }, secrets: Record<string, string>, opts: { expiresIn?: number } = {}) {
  let issued = 0;
  return serve(t, tls, (s, base) => {
    const [, tenant, ...rest] = s.path.split('/');
    if (s.method === 'GET' && rest.join('/') === 'v2.0/.well-known/openid-configuration') {
      return { status: 200, body: {
        token_endpoint: `${base}/${tenant}/oauth2/v2.0/token`, issuer: `${base}/${tenant}/v2.0`,
        authorization_endpoint: `${base}/${tenant}/oauth2/v2.0/authorize`, jwks_uri: `${base}/${tenant}/discovery/v2.0/keys`,
      } };
    }
    if (s.method !== 'POST' || rest.join('/') !== 'oauth2/v2.0/token') return { status: 404, body: { error: 'not_found' } };
    if (tenant === 'hang') return 'hang';
    const id = s.form.get('client_id') ?? '';
    if (s.form.get('grant_type') !== 'client_credentials' || secrets[id] === undefined || s.form.get('client_secret') !== secrets[id]) {
      return { status: 401, body: {
        error: 'invalid_client', error_codes: [7000215], timestamp: '2026-11-24 11:00:00Z', trace_id: 'a1', correlation_id: 'c1',
        error_description: `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${id}'. Trace ID: a1 Correlation ID: c1 Timestamp: 2026-11-24 11:00:00Z`,
      } };
    }
    return { status: 200, body: { token_type: 'Bearer', expires_in: opts.expiresIn ?? 3599, ext_expires_in: opts.expiresIn ?? 3599, access_token: `entra-token-${++issued}` } };
  });
}

/** A service-account key (the JSON key file's fields) with a fresh RSA key pair. */
export function serviceAccountKey(email = 'drift-reader@proj-1.iam.gserviceaccount.com') {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const key = {
    type: 'service_account', project_id: 'proj-1', private_key_id: 'k1', client_email: email, client_id: '1001',
    private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    auth_uri: 'https://accounts.google.com/o/oauth2/auth', token_uri: 'https://oauth2.googleapis.com/token',
  };
  return { key, publicKey };
}

const b64json = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

/** Google's token endpoint, trusting the service accounts in `keys` (client_email -> public key). */
export async function fakeGoogleToken(t: Test, keys: Record<string, KeyObject>, tls?: { key: string; cert: string }) {
  const claims: Record<string, unknown>[] = [];
  const server = await serve(t, tls, (s) => {
    if (s.method !== 'POST' || s.path !== '/token') return { status: 404, body: { error: 'not_found' } };
    if (s.form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return { status: 400, body: { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' } };
    const [h, p, sig] = (s.form.get('assertion') ?? '').split('.');
    let header: Record<string, unknown>, payload: Record<string, unknown>;
    try { header = b64json(h ?? ''); payload = b64json(p ?? ''); } catch { return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT: Token must be a short-lived token and in a reasonable timeframe' } }; }
    const pub = keys[String(payload.iss)];
    const ok = header.alg === 'RS256' && pub !== undefined && verify('sha256', Buffer.from(`${h}.${p}`), pub, Buffer.from(sig ?? '', 'base64url'));
    if (!ok) return { status: 400, body: { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' } };
    claims.push(payload);
    return { status: 200, body: { access_token: `google-token-${claims.length}`, expires_in: 3599, token_type: 'Bearer' } };
  });
  return { ...server, claims };
}
