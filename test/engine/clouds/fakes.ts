// A whole fake cloud on one endpoint, as a scan's single endpoint override sees it: the readers'
// REST routes (rest/fake.ts) plus the cloud's token endpoint — the Microsoft identity platform
// (HTTPS with a certificate made at test time; OpenID configuration and the client-credentials
// grant) or Google's OAuth token endpoint (JWT-bearer grant, the assertion's signature checked).
import { verify, type KeyObject } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AZURE } from '../../../runner-agent/src/engine/cloud/azure/index.ts';
import { GOOGLE } from '../../../runner-agent/src/engine/cloud/google/index.ts';
import { startRestFake, stateWorld, type RestFake } from '../../../runner-agent/src/engine/cloud/rest/fake.ts';
import { fakeList, type FakeRoute } from '../../../runner-agent/src/engine/cloud/rest/reader.ts';

/** The account's locations / regions, as Cloud Discovery lists them by default (documented shapes, trimmed). */
const LOCATIONS: FakeRoute = { method: 'GET', service: 'management', path: '/subscriptions/:sub/locations',
  answer: (req) => fakeList(['eastus', 'westeurope'].map((name) => ({ id: `/subscriptions/${req.params.sub}/locations/${name}`, name, displayName: name, type: 'Region' }))) };
const REGIONS: FakeRoute = { method: 'GET', service: 'compute', path: '/compute/v1/projects/:project/regions',
  answer: (req) => fakeList(['europe-west1', 'us-central1'].map((name) => ({ kind: 'compute#region', name, status: 'UP', selfLink: `https://www.googleapis.com/compute/v1/projects/${req.params.project}/regions/${name}` })), 'items') };
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { testCertificate } from '../cloud-auth-fakes.ts';

const reply = (res: ServerResponse, status: number, body: unknown) => { res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body)); return true; };

export interface CloudFake extends RestFake { tokensIssued: () => number; ca?: string }

/** ARM and Entra for one service principal (`clientId` with `secret`), over HTTPS. */
export async function fakeAzure(live: StateInstance[], app: { clientId: string; secret: string }, opts: { pageSize?: number; routes?: FakeRoute[] } = {}): Promise<CloudFake> {
  const tls = testCertificate();
  let issued = 0;
  let base = '';
  const fake = await startRestFake({
    style: 'arm', tls, world: stateWorld(live), routes: [...Object.values(AZURE.readers).flatMap((r) => r.fake), LOCATIONS, ...(opts.routes ?? [])], pageSize: opts.pageSize,
    extra: (req: IncomingMessage, body: string, res: ServerResponse) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      const [, tenant, ...rest] = path.split('/');
      if (req.method === 'GET' && rest.join('/') === 'v2.0/.well-known/openid-configuration') {
        return reply(res, 200, { token_endpoint: `${base}/${tenant}/oauth2/v2.0/token`, issuer: `${base}/${tenant}/v2.0`, authorization_endpoint: `${base}/${tenant}/oauth2/v2.0/authorize`, jwks_uri: `${base}/${tenant}/discovery/v2.0/keys` });
      }
      if (req.method !== 'POST' || rest.join('/') !== 'oauth2/v2.0/token') return false;
      const form = new URLSearchParams(body);
      if (form.get('client_id') !== app.clientId || form.get('client_secret') !== app.secret) {
        return reply(res, 401, { error: 'invalid_client', error_codes: [7000215], error_description: `AADSTS7000215: Invalid client secret provided. Ensure the secret being sent in the request is the client secret value, not the client secret ID, for a secret added to app '${form.get('client_id')}'.` });
      }
      return reply(res, 200, { token_type: 'Bearer', expires_in: 3599, ext_expires_in: 3599, access_token: `arm-token-${++issued}` });
    },
  });
  base = fake.endpoint;
  return { ...fake, tokensIssued: () => issued, ca: tls.cert };
}

/** Google's APIs and token endpoint, trusting the service accounts in `keys` (client_email -> public key). */
export async function fakeGoogle(live: StateInstance[], keys: Record<string, KeyObject>, opts: { pageSize?: number; routes?: FakeRoute[] } = {}): Promise<CloudFake> {
  let issued = 0;
  const b64 = (s: string) => JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
  const fake = await startRestFake({
    style: 'google', world: stateWorld(live), routes: [...Object.values(GOOGLE.readers).flatMap((r) => r.fake), REGIONS, ...(opts.routes ?? [])], pageSize: opts.pageSize,
    extra: (req: IncomingMessage, body: string, res: ServerResponse) => {
      if (req.method !== 'POST' || new URL(req.url ?? '/', 'http://x').pathname !== '/token') return false;
      const [h = '', p = '', sig = ''] = (new URLSearchParams(body).get('assertion') ?? '').split('.');
      let payload: Record<string, unknown>;
      try { payload = b64(p); b64(h); } catch { return reply(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT.' }); }
      const pub = keys[String(payload.iss)];
      if (!pub || !verify('sha256', Buffer.from(`${h}.${p}`), pub, Buffer.from(sig, 'base64url'))) return reply(res, 400, { error: 'invalid_grant', error_description: 'Invalid JWT Signature.' });
      return reply(res, 200, { access_token: `google-token-${++issued}`, expires_in: 3599, token_type: 'Bearer' });
    },
  });
  return { ...fake, tokensIssued: () => issued };
}
