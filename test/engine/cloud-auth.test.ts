// How the engine gets cloud_b (Azure) and cloud_c (Google Cloud) access tokens, against loopback
// fakes of the two token endpoints (cloud-auth-fakes.ts): the token, its cache, and the
// ScanErrors a user sees (what failed, what to do, never the secret).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { ScanError } from '../../runner-agent/src/engine/errors.ts';
import { armScope, azureTokenSource } from '../../runner-agent/src/engine/cloud/azure/auth.ts';
import { googleTokenSource } from '../../runner-agent/src/engine/cloud/google/auth.ts';
import type { TokenSource } from '../../runner-agent/src/engine/cloud/token.ts';
import { fakeEntra, fakeGoogleToken, serviceAccountKey, testCertificate } from './cloud-auth-fakes.ts';

const SECRET = 'Xq8~s3cr3t.value-that-must-never-leak';
const AZ = { subscriptionId: '00000000-0000-0000-0000-000000000001', tenantId: 'tenant-1', clientId: 'app-1', clientSecret: SECRET };
const tls = testCertificate();
const entra = await fakeEntra(t, tls, { 'app-1': SECRET });
const az = (creds: Record<string, unknown> | null, extra: object = {}) => azureTokenSource(creds, { authorityHost: entra.base, ca: tls.cert, retries: 0, ...extra });

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const { port } = s.address() as { port: number };
  await new Promise((r) => s.close(r));
  return port;
}

/** The ScanError `source.token()` fails with, checked to hold no `secret` anywhere. */
async function failure(t: Test, source: TokenSource, secret: string, signal?: AbortSignal): Promise<ScanError> {
  const err = await source.token(signal).then(() => undefined, (e: unknown) => e);
  t.ok(err instanceof ScanError, 'a ScanError');
  const e = err as ScanError;
  for (const text of [e.message, JSON.stringify(e), String(e.stack), JSON.stringify(e.cause ?? null)]) t.notOk(text.includes(secret), 'no secret in the error');
  return e;
}

t.test('cloud_b: service principal token from the identity platform, cached', async (t) => {
  const source = az(AZ);
  t.equal(source.describe, 'service principal app-1 in tenant tenant-1');
  const before = entra.tokenRequests().length;
  const [a, b] = await Promise.all([source.token(), source.token()]);
  t.equal(a, b, 'concurrent callers share one token');
  t.equal(await source.token(), a, 'later calls use the cached token');
  const sent = entra.tokenRequests().slice(before);
  t.equal(sent.length, 1, 'one token request for three calls');
  t.equal(sent[0].path, '/tenant-1/oauth2/v2.0/token');
  t.equal(sent[0].form.get('grant_type'), 'client_credentials');
  t.equal(sent[0].form.get('client_id'), 'app-1');
  t.equal(sent[0].form.get('client_secret'), SECRET, 'the secret as a client_secret form field');
  t.equal(sent[0].form.get('scope'), 'https://management.azure.com/.default');
});

t.test('cloud_b: a token within 5 minutes of expiry is fetched again', async (t) => {
  const short = await fakeEntra(t, tls, { 'app-1': SECRET }, { expiresIn: 200 });
  const source = azureTokenSource(AZ, { authorityHost: short.base, ca: tls.cert, retries: 0 });
  t.not(await source.token(), await source.token());
  t.equal(short.tokenRequests().length, 2);
});

t.test('cloud_b: refused secret, missing fields, bad tenant', async (t) => {
  const e = await failure(t, az({ ...AZ, clientSecret: `${SECRET}-old` }), SECRET);
  t.equal(e.code, 'access_denied');
  t.equal(e.message, 'cloud_b could not get a token for service principal app-1 in tenant tenant-1: AADSTS7000215: Invalid client secret provided.; check the tenant id, client id and secret');
  t.throws(() => az({ subscriptionId: 's', tenantId: 'x', clientSecret: SECRET }), new ScanError('no_credentials', 'The cloud_b credentials lack clientId: update them, then scan again'));
  t.throws(() => az({ ...AZ, tenantId: ' ', clientSecret: 42 }), { code: 'no_credentials', message: /lack tenantId, clientSecret:/ });
  t.throws(() => az({ ...AZ, tenantId: 'bad tenant/..' }), { code: 'no_credentials', message: /tenant id "bad tenant\/\.\." is not a valid/ });
});

t.test('cloud_b: an unreachable or untrusted authority fails `timeout` naming the host', async (t) => {
  const port = await closedPort();
  const down = await failure(t, azureTokenSource(AZ, { authorityHost: `https://127.0.0.1:${port}`, retries: 0 }), SECRET);
  t.equal(down.code, 'timeout');
  t.match(down.message, `cloud_b could not reach its token endpoint 127.0.0.1:${port}`);
  const untrusted = await failure(t, azureTokenSource(AZ, { authorityHost: entra.base, retries: 0 }), SECRET);
  t.equal(untrusted.code, 'timeout', 'without `ca` the self-signed endpoint is refused');
  const ac = new AbortController();
  setTimeout(() => ac.abort(), 200);
  const hung = await failure(t, az({ ...AZ, tenantId: 'hang' }), SECRET, ac.signal);
  t.equal(hung.code, 'timeout', "the caller's signal ends the wait");
});

t.test('cloud_b: no stored credentials uses DefaultAzureCredential (here the AZURE_* environment)', async (t) => {
  const saved = { ...process.env };
  t.teardown(() => { process.env = saved; });
  Object.assign(process.env, { AZURE_TENANT_ID: 'tenant-2', AZURE_CLIENT_ID: 'app-1', AZURE_CLIENT_SECRET: SECRET });
  const source = az(null);
  t.match(source.describe, 'DefaultAzureCredential');
  t.match(await source.token(), /^entra-token-/);
  t.equal(entra.tokenRequests().at(-1)?.path, '/tenant-2/oauth2/v2.0/token');
  t.equal(armScope('https://management.usgovcloudapi.net'), 'https://management.usgovcloudapi.net/.default');
  t.equal(armScope(entra.base), 'https://management.azure.com/.default', 'a fake ARM keeps the public scope');
});

const sa = serviceAccountKey();
const google = await fakeGoogleToken(t, { [sa.key.client_email]: sa.publicKey });

t.test('cloud_c: service-account token from a signed JWT, cached', async (t) => {
  const source = googleTokenSource({ projectId: 'proj-9', serviceAccountKey: sa.key }, { tokenUrl: `${google.base}/token` });
  t.equal(source.describe, `service account ${sa.key.client_email}`);
  t.equal(source.projectId, 'proj-9');
  const token = await source.token();
  t.equal(await source.token(), token, 'cached');
  t.equal(google.tokenRequests().length, 1);
  const claims = google.claims.at(-1)!;
  t.equal(claims.iss, sa.key.client_email);
  t.equal(claims.scope, 'https://www.googleapis.com/auth/cloud-platform.read-only');
  t.equal(claims.aud, 'https://oauth2.googleapis.com/token');
  const fromText = googleTokenSource({ projectId: 'proj-9', serviceAccountKey: JSON.stringify(sa.key) }, { tokenUrl: `${google.base}/token` });
  t.match(await fromText.token(), /^google-token-/, 'a key stored as JSON text works too');
});

t.test('cloud_c: refused key, bad key, unreachable endpoint', async (t) => {
  const other = serviceAccountKey();
  const refused = await failure(t, googleTokenSource({ projectId: 'p', serviceAccountKey: { ...other.key, client_email: sa.key.client_email } }, { tokenUrl: `${google.base}/token` }), other.key.private_key);
  t.equal(refused.code, 'access_denied');
  t.equal(refused.message, `cloud_c could not get a token for service account ${sa.key.client_email}: HTTP 400 invalid_grant (Invalid JWT Signature.); check the key is valid and not disabled, and that the service account exists`);
  t.throws(() => googleTokenSource({ projectId: 'p', serviceAccountKey: '{"type": "service_account", ' }, {}), { code: 'no_credentials', message: /not valid JSON/ });
  t.throws(() => googleTokenSource({ projectId: 'p', serviceAccountKey: { ...sa.key, private_key: '' } }, {}), { code: 'no_credentials', message: /lacks private_key/ });
  t.throws(() => googleTokenSource({ projectId: 'p', serviceAccountKey: { ...sa.key, private_key: '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n' } }, {}), { code: 'no_credentials', message: /not a PEM private key/ });
  t.throws(() => googleTokenSource({ projectId: 'p' }, {}), { code: 'no_credentials', message: /lack serviceAccountKey/ });
  const port = await closedPort();
  const down = await failure(t, googleTokenSource({ projectId: 'p', serviceAccountKey: sa.key }, { tokenUrl: `http://127.0.0.1:${port}/token` }), sa.key.private_key);
  t.equal(down.code, 'timeout');
  t.equal(down.message, `cloud_c could not reach its token endpoint 127.0.0.1:${port} (ECONNREFUSED); check the network, proxy and trusted certificates of this host, then scan again`);
});

t.test('cloud_c: HTTPS token endpoint trusted through `ca`', async (t) => {
  const secure = await fakeGoogleToken(t, { [sa.key.client_email]: sa.publicKey }, tls);
  const source = googleTokenSource({ projectId: 'p', serviceAccountKey: sa.key }, { tokenUrl: `${secure.base}/token`, ca: tls.cert });
  t.match(await source.token(), /^google-token-/);
});

t.test('cloud_c: no stored credentials uses application default credentials', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'drift-adc-'));
  const saved = { ...process.env };
  t.teardown(() => { process.env = saved; rmSync(dir, { recursive: true, force: true }); });
  writeFileSync(join(dir, 'key.json'), JSON.stringify(sa.key));
  for (const k of ['GOOGLE_CLOUD_PROJECT', 'GCLOUD_PROJECT', 'CLOUDSDK_CORE_PROJECT']) delete process.env[k];
  process.env.GOOGLE_APPLICATION_CREDENTIALS = join(dir, 'key.json');
  const source = googleTokenSource(null, { tokenUrl: `${google.base}/token` });
  t.match(await source.token(), /^google-token-/);
  t.equal(source.projectId, 'proj-1', "ADC's project, known after the first token");
  t.equal(source.describe, `service account ${sa.key.client_email} (application default credentials)`);
  process.env.GOOGLE_APPLICATION_CREDENTIALS = join(dir, 'missing.json');
  const none = await failure(t, googleTokenSource(null, { tokenUrl: `${google.base}/token` }), sa.key.private_key);
  t.equal(none.code, 'no_credentials');
  t.match(none.message, /the file GOOGLE_APPLICATION_CREDENTIALS names could not be read \(ENOENT\)/);
  writeFileSync(join(dir, 'broken.json'), `{"private_key": "${sa.key.private_key.slice(0, 80)}`);
  process.env.GOOGLE_APPLICATION_CREDENTIALS = join(dir, 'broken.json');
  const broken = await failure(t, googleTokenSource(null, {}), sa.key.private_key.slice(40, 80));
  t.equal(broken.code, 'no_credentials', 'a broken ADC file is described, its text never quoted');
});
