import t from 'tap';
import { buildTestApp, register as registerFree, bearer } from '../../helper.ts';
import type { App } from '../../../core/app.ts';

/** On Team: saving credentials is what these tests are about, not the plan's cloud account limit (plan-limit.test.ts covers that). */
async function register(app: App['app']) {
  const s = await registerFree(app);
  await app.ctx.tenancy.setPlan(s.orgId, 'team');
  return s;
}
import { mask } from '../../../plugins/credentials/mask.ts';

const A = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY', region: 'eu-west-1', sessionToken: 'FwoGZXIvYXdzSESSIONTOKENVALUE' };
const B = {
  subscriptionId: '11111111-2222-3333-4444-555555555555', tenantId: 'aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
  clientId: '99999999-8888-7777-6666-000000000000', clientSecret: 'cloud-b-client-SECRET-value~123',
};
const C = {
  projectId: 'my-project-123',
  serviceAccountKey: {
    type: 'service_account', project_id: 'my-project-123', private_key_id: 'PRIVATEKEYID0123456789',
    private_key: '-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASC-SECRET\n-----END PRIVATE KEY-----\n',
    client_email: 'drift@my-project-123.iam.gserviceaccount.com',
  },
};

t.test('mask shows the first and last 4 characters, short values are all stars', async (t) => {
  t.equal(mask('AKIAIOSFODNN7EXAMPLE'), 'AKIA********MPLE');
  t.equal(mask('11111111-2222-3333-4444-555555555555'), '1111********5555');
  t.equal(mask('short-value'), '********', 'a value under 16 characters is not partly shown');
});

t.test('cloud-a: save, masked summary, full values, delete', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  const url = '/api/auth/cloud-a-credentials';

  const empty = await app.inject({ method: 'GET', url, headers: h });
  t.equal(empty.statusCode, 200, 'nothing stored is still a 200');
  t.same(empty.json(), { hasCredentials: false }, 'with hasCredentials false only');
  const noFull = await app.inject({ method: 'GET', url: `${url}/full`, headers: h });
  t.equal(noFull.statusCode, 404, '/full with nothing stored is a 404');
  t.equal(noFull.json().error.code, 'not_found', 'in the error shape');
  const noDelete = await app.inject({ method: 'DELETE', url, headers: h });
  t.equal(noDelete.statusCode, 404, 'deleting nothing is a 404');

  const saved = await app.inject({ method: 'POST', url, headers: h, payload: { ...A, extra: 'ignored' } });
  t.equal(saved.statusCode, 200, 'POST answers 200');
  const summary = saved.json();
  t.match(summary, { hasCredentials: true, accessKeyId: 'AKIA********MPLE', region: 'eu-west-1' }, 'with the masked summary');
  t.ok(Date.parse(summary.lastUpdated), 'and lastUpdated');
  t.same(Object.keys(summary).sort(), ['accessKeyId', 'hasCredentials', 'lastUpdated', 'region'], 'and nothing else');
  t.notOk(saved.body.includes(A.secretAccessKey) || saved.body.includes(A.sessionToken), 'no secret in the POST answer');

  const got = await app.inject({ method: 'GET', url, headers: h });
  t.same(got.json(), summary, 'GET returns the same masked summary');
  t.notOk(got.body.includes(A.secretAccessKey) || got.body.includes(A.accessKeyId), 'never the secret or the whole key id');

  const full = await app.inject({ method: 'GET', url: `${url}/full`, headers: h });
  t.equal(full.statusCode, 200);
  t.same(full.json(), { ...A, lastUpdated: summary.lastUpdated }, '/full returns every value decrypted, and only those');

  const replaced = await app.inject({ method: 'POST', url, headers: h, payload: { accessKeyId: 'AKIAREPLACEMENT00001', secretAccessKey: 'new-secret', region: 'us-east-1' } });
  t.equal(replaced.json().accessKeyId, 'AKIA********0001', 'a second POST replaces the credentials');
  const fullAgain = await app.inject({ method: 'GET', url: `${url}/full`, headers: h });
  t.notOk('sessionToken' in fullAgain.json(), 'the old session token is gone with them');
  t.equal(await ctx.db.db.collection('cloud_credentials').countDocuments({ orgId: s.orgId }), 1, 'one document per organization and provider');

  const del = await app.inject({ method: 'DELETE', url, headers: h });
  t.equal(del.statusCode, 200);
  t.same(del.json(), { message: 'Cloud A credentials deleted' });
  t.same((await app.inject({ method: 'GET', url, headers: h })).json(), { hasCredentials: false }, 'and they are gone');

  await ctx.audit.flush();
  const audit = await ctx.db.db.collection('audit_logs').find({ orgId: s.orgId }).toArray();
  const actions = audit.map((e) => e.action);
  t.ok(actions.includes('credentials.cloud_a_set') && actions.includes('credentials.cloud_a_deleted'), 'writes carry the curated audit actions');
  const setEntry = audit.find((e) => e.action === 'credentials.cloud_a_set' && e.statusCode === 200)!;
  t.equal(setEntry.body.secretAccessKey, '[REDACTED]', 'the audited body has the secret redacted');
  t.notOk(JSON.stringify(audit).includes(A.secretAccessKey), 'no secret anywhere in the audit trail');
});

t.test('cloud-b: save, masked summary, full values, delete', async (t) => {
  const { app } = await buildTestApp(t);
  const h = bearer((await register(app)).token);
  const url = '/api/auth/cloud-b-credentials';
  t.same((await app.inject({ method: 'GET', url, headers: h })).json(), { hasCredentials: false });

  const saved = await app.inject({ method: 'POST', url, headers: h, payload: B });
  t.equal(saved.statusCode, 200);
  t.match(saved.json(), {
    hasCredentials: true, subscriptionId: '1111********5555', tenantId: 'aaaa********eeee', clientId: '9999********0000',
  }, 'identifiers come back masked');
  t.notOk(saved.body.includes(B.clientSecret), 'the client secret never appears in the summary');
  const got = await app.inject({ method: 'GET', url, headers: h });
  t.same(got.json(), saved.json());

  const full = await app.inject({ method: 'GET', url: `${url}/full`, headers: h });
  t.same(full.json(), { ...B, lastUpdated: saved.json().lastUpdated }, '/full returns every value');

  const del = await app.inject({ method: 'DELETE', url, headers: h });
  t.same(del.json(), { message: 'Cloud B credentials deleted' });
  t.equal((await app.inject({ method: 'GET', url: `${url}/full`, headers: h })).statusCode, 404, 'gone after delete');
});

t.test('cloud-c: save, masked summary, full values, delete', async (t) => {
  const { app, ctx, services } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  const url = '/api/auth/cloud-c-credentials';

  const saved = await app.inject({ method: 'POST', url, headers: h, payload: C });
  t.equal(saved.statusCode, 200);
  t.same(Object.keys(saved.json()).sort(), ['clientEmail', 'hasCredentials', 'lastUpdated', 'projectId']);
  t.match(saved.json(), { hasCredentials: true, projectId: C.projectId, clientEmail: C.serviceAccountKey.client_email });
  t.notOk(saved.body.includes('PRIVATE KEY'), 'the service account key is not in the summary');

  const full = await app.inject({ method: 'GET', url: `${url}/full`, headers: h });
  t.same(full.json(), { ...C, lastUpdated: saved.json().lastUpdated }, '/full returns the key object as given');

  const service = services.credentials!;
  t.same(await service.values(s.orgId, 'cloud_c'), C, 'later plugins read the decrypted values through their deps');
  t.equal(await service.values(s.orgId, 'cloud_a'), null, 'and null for a provider with nothing stored');

  const noEmail = await app.inject({ method: 'POST', url, headers: h, payload: { projectId: 'p-2', serviceAccountKey: { type: 'service_account' } } });
  t.same(Object.keys(noEmail.json()).sort(), ['hasCredentials', 'lastUpdated', 'projectId'], 'no clientEmail when the key has none');

  const del = await app.inject({ method: 'DELETE', url, headers: h });
  t.same(del.json(), { message: 'Cloud C credentials deleted' });
});

t.test('secrets are sealed at rest, bound to their organization', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: h, payload: A });
  await app.inject({ method: 'POST', url: '/api/auth/cloud-b-credentials', headers: h, payload: B });
  await app.inject({ method: 'POST', url: '/api/auth/cloud-c-credentials', headers: h, payload: C });

  const raw = ctx.db.db.collection('cloud_credentials');
  const docs = await raw.find({ orgId: s.orgId }).toArray();
  t.equal(docs.length, 3, 'one document per provider');
  const text = JSON.stringify(docs);
  for (const secret of [A.accessKeyId, A.secretAccessKey, A.sessionToken, B.subscriptionId, B.clientSecret, C.serviceAccountKey.private_key, C.serviceAccountKey.private_key_id]) {
    t.notOk(text.includes(secret), `"${secret.slice(0, 12)}..." is not stored in clear`);
  }

  // A sealed value copied into another organization's document is refused, not decrypted there.
  const other = await register(app);
  await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: bearer(other.token), payload: { ...A, secretAccessKey: 'other-secret' } });
  const mine = docs.find((d) => d.provider === 'cloud_a')!;
  await raw.updateOne({ orgId: other.orgId, provider: 'cloud_a' }, { $set: { sealed: mine.sealed } });
  const moved = await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials/full', headers: bearer(other.token) });
  t.equal(moved.statusCode, 409, 'a moved sealed value cannot be opened (credentials_unreadable: 409 in core/errors.ts)');
  t.equal(moved.json().error.code, 'credentials_unreadable', 'and says why');
  t.notOk(moved.body.includes(A.secretAccessKey), 'without revealing the other organization\'s secret');
});

t.test('credentials belong to the organization: another org\'s caller gets 404', async (t) => {
  const { app } = await buildTestApp(t);
  const owner = await register(app);
  const stranger = await register(app);
  t.not(owner.orgId, stranger.orgId, 'each user has their own default organization');
  await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: bearer(owner.token), payload: A });

  const own = await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials', headers: bearer(stranger.token) });
  t.same(own.json(), { hasCredentials: false }, 'the stranger\'s own organization has none');
  const headers = { ...bearer(stranger.token), 'x-org-id': owner.orgId };
  for (const [method, url] of [['GET', '/api/auth/cloud-a-credentials'], ['GET', '/api/auth/cloud-a-credentials/full'],
    ['DELETE', '/api/auth/cloud-a-credentials'], ['GET', '/api/auth/credential-rotation-status']] as const) {
    const res = await app.inject({ method, url, headers });
    t.equal(res.statusCode, 404, `${method} ${url} with another org's x-org-id is 404`);
    t.notOk(res.body.includes(A.secretAccessKey) || res.body.includes('AKIA'), 'and shows nothing of it');
  }
  const overwrite = await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers, payload: { ...A, secretAccessKey: 'hijack' } });
  t.equal(overwrite.statusCode, 404, 'nor can it overwrite them');
  const still = await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials/full', headers: { ...bearer(owner.token), 'x-org-id': owner.orgId } });
  t.equal(still.json().secretAccessKey, A.secretAccessKey, 'the owner\'s credentials are untouched');

  const anonymous = await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials' });
  t.equal(anonymous.statusCode, 401, 'no token is a 401');
});

t.test('validation: missing or mistyped fields are a 400', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  const cases: [string, Record<string, unknown>, string][] = [
    ['cloud-a', { accessKeyId: A.accessKeyId, region: A.region }, 'without secretAccessKey'],
    ['cloud-a', { secretAccessKey: A.secretAccessKey, region: A.region }, 'without accessKeyId'],
    ['cloud-a', { accessKeyId: A.accessKeyId, secretAccessKey: A.secretAccessKey }, 'without region'],
    ['cloud-a', { ...A, accessKeyId: '' }, 'with an empty accessKeyId'],
    ['cloud-b', { subscriptionId: B.subscriptionId, tenantId: B.tenantId, clientId: B.clientId }, 'without clientSecret'],
    ['cloud-b', { ...B, tenantId: { id: B.tenantId } }, 'with an object tenantId'],
    ['cloud-c', { serviceAccountKey: C.serviceAccountKey }, 'without projectId'],
    ['cloud-c', { projectId: C.projectId, serviceAccountKey: 'not an object' }, 'with a string serviceAccountKey'],
    ['cloud-c', { projectId: C.projectId, serviceAccountKey: {} }, 'with an empty serviceAccountKey'],
    ['cloud-c', { projectId: C.projectId }, 'without serviceAccountKey'],
  ];
  for (const [provider, payload, what] of cases) {
    const res = await app.inject({ method: 'POST', url: `/api/auth/${provider}-credentials`, headers: h, payload });
    t.equal(res.statusCode, 400, `${provider} ${what} is a 400`);
    t.equal(res.json().error?.code, 'validation_failed', 'in the error shape');
  }
  t.equal(await ctx.db.db.collection('cloud_credentials').countDocuments({ orgId: s.orgId }), 0, 'nothing was stored');
});

t.test('quota usage counts stored cloud providers; organization deletion removes them', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  const usage = async () => (await app.inject({ method: 'GET', url: '/api/auth/quota', headers: h })).json().usage.cloudAccounts;
  t.equal(await usage(), 0, 'none at first');
  await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: h, payload: A });
  await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: h, payload: A });
  await app.inject({ method: 'POST', url: '/api/auth/cloud-c-credentials', headers: h, payload: C });
  t.equal(await usage(), 2, 'one per provider stored, however often it was saved');
  await app.inject({ method: 'DELETE', url: '/api/auth/cloud-a-credentials', headers: h });
  t.equal(await usage(), 1, 'a deleted provider no longer counts');

  await ctx.deleteOrgData(s.orgId);
  t.equal(await ctx.db.db.collection('cloud_credentials').countDocuments({ orgId: s.orgId }), 0, 'organization deletion removes its credentials');
});

t.test('concurrent first saves of one provider leave one document', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  const results = await Promise.all(Array.from({ length: 12 }, (_, i) => app.inject({
    method: 'POST', url: '/api/auth/cloud-a-credentials', headers: bearer(s.token), payload: { ...A, secretAccessKey: `secret-${i}` },
  })));
  t.same(results.map((r) => r.statusCode), Array(12).fill(200), 'every save answers 200');
  t.equal(await ctx.db.db.collection('cloud_credentials').countDocuments({ orgId: s.orgId }), 1, 'and the unique index keeps one document');
  const full = await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials/full', headers: bearer(s.token) });
  t.match(full.json().secretAccessKey, /^secret-\d+$/, 'holding one of the saved values, whole');
});
