// SAML sign-in end to end, with the test acting as the identity provider: real responses and
// assertions signed with a generated key, and each way one can be wrong.
import t from 'tap';
import { inflateRawSync } from 'node:zlib';
import { buildTestApp, register, bearer, uniqueEmail } from '../../helper.ts';
import { generateKeyPair, samlResponse, type KeyPair } from './idp.ts';
import { startDns } from './dns.ts';

const ENTRY = 'https://idp.example.test/sso';
const SP = 'https://drift.example.test/saml/sp';

t.test('SP-initiated SAML sign-in', async (t) => {
  const dns = await startDns(t);
  const { app, ctx } = await buildTestApp(t, { env: { DNS_SERVERS: dns.server } });
  const owner = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  const idp = generateKeyPair('idp');
  const stranger: KeyPair = generateKeyPair('other-idp');
  const callbackUrl = `${ctx.config.publicUrl}/api/sso/saml/callback`;
  const headers = { ...bearer(owner.token), 'x-org-id': owner.orgId };

  const put = (body: object) => app.inject({ method: 'PUT', url: '/api/sso/config', headers, payload: body });
  const bad = await put({ saml: { entryPoint: ENTRY, issuer: SP, cert: 'not a certificate' } });
  t.equal(bad.statusCode, 400, 'a cert that is not PEM X.509: 400');
  // The organization owns corp.example.test (its TXT record is published): it may enforce it and sign its accounts in.
  const claim = await app.inject({ method: 'POST', url: '/api/sso/domains', headers, payload: { domain: 'corp.example.test' } });
  dns.txt.set(claim.json().record.name, [claim.json().record.value]);
  t.equal((await app.inject({ method: 'POST', url: '/api/sso/domains/corp.example.test/verify', headers })).statusCode, 200, 'domain verified');
  const saved = await put({ saml: { entryPoint: ENTRY, issuer: SP, cert: idp.cert }, enforcedDomains: ['corp.example.test'], enabled: true });
  t.equal(saved.statusCode, 200, saved.body);
  t.match(saved.json(), { provider: 'custom', defaultRole: 'member', enabled: true, saml: { cert: '****', signatureAlgorithm: 'sha256', wantAuthnResponseSigned: true } });
  const read = await app.inject({ method: 'GET', url: '/api/sso/config', headers });
  t.equal(read.json().configured, true);
  t.equal(read.json().config.saml.cert, '****', 'cert masked on read');

  t.equal((await app.inject({ method: 'GET', url: '/api/sso/saml/login' })).json().error.message, 'orgId is required');
  const other = await register(app);
  const none = await app.inject({ method: 'GET', url: `/api/sso/saml/login?orgId=${other.orgId}` });
  t.equal(none.statusCode, 404);
  t.equal(none.json().error.message, 'SSO not configured for this organization');

  /** A fresh AuthnRequest: its ID from the redirect. */
  async function login(): Promise<string> {
    const res = await app.inject({ method: 'GET', url: `/api/sso/saml/login?orgId=${owner.orgId}` });
    t.equal(res.statusCode, 302);
    const url = new URL(res.headers.location as string);
    t.equal(url.origin + url.pathname, ENTRY);
    const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest')!, 'base64')).toString();
    t.match(xml, /AuthnRequest/);
    return /ID="([^"]+)"/.exec(xml)![1];
  }
  const post = (base64: string) => app.inject({
    method: 'POST', url: '/api/sso/saml/callback', headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ SAMLResponse: base64 }).toString(),
  });
  const reasonOf = (res: { headers: Record<string, unknown> }) => new URL(res.headers.location as string).searchParams.get('reason');

  const email = uniqueEmail('sso').replace('@example.com', '@corp.example.test');
  const good = samlResponse(idp, { inResponseTo: await login(), email, audience: SP, destination: callbackUrl });
  const ok = await post(good.base64);
  t.equal(ok.statusCode, 302);
  const target = new URL(ok.headers.location as string);
  t.equal(target.pathname, '/auth/callback', `success redirect (${ok.headers.location})`);
  const code = target.searchParams.get('code')!;
  const ex = await app.inject({ method: 'POST', url: '/api/sso/exchange', payload: { code } });
  t.equal(ex.statusCode, 200, ex.body);
  t.equal(ex.json().user.email, email);
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(ex.json().token) });
  t.equal(me.statusCode, 200, 'the exchanged token signs in');
  t.equal((await app.inject({ method: 'POST', url: '/api/sso/exchange', payload: { code } })).statusCode, 401, 'a code is used once');
  const access = await ctx.tenancy.access(owner.orgId, ex.json().user.id);
  t.equal(access?.role, 'member', 'provisioned just in time with the default role');
  await ctx.audit.flush();
  const { entries } = await ctx.audit.query({ orgId: owner.orgId, action: 'auth.login' }, { page: 1, limit: 10 });
  t.equal(entries[0]?.details?.authMethod, 'saml', 'auth.login audited with authMethod saml');

  t.equal(reasonOf(await post(good.base64)), 'unknown_request', 'the same response again: its request is spent');
  // A new request answered by a response reusing the spent assertion ID.
  const replay = samlResponse(idp, { inResponseTo: await login(), email, audience: SP, destination: callbackUrl, assertionId: good.assertionId });
  t.equal(reasonOf(await post(replay.base64)), 'replayed', 'a replayed assertion ID');

  const cases: [string, () => Promise<string>, string][] = [
    ['tampered', async () => {
      const r = samlResponse(idp, { inResponseTo: await login(), email, audience: SP, destination: callbackUrl });
      return Buffer.from(r.xml.replace(email, `x${email}`)).toString('base64');
    }, 'invalid_signature'],
    ['unsigned', async () => samlResponse(idp, { inResponseTo: await login(), email, audience: SP, destination: callbackUrl, signAssertion: false, signResponse: false }).base64, 'invalid_signature'],
    ['response signed, assertion not', async () => samlResponse(idp, { inResponseTo: await login(), email, audience: SP, destination: callbackUrl, signAssertion: false }).base64, 'invalid_signature'],
    ['wrong cert', async () => samlResponse(stranger, { inResponseTo: await login(), email, audience: SP, destination: callbackUrl }).base64, 'invalid_signature'],
    ['sha1 while sha256 is configured', async () => samlResponse(idp, { inResponseTo: await login(), email, audience: SP, destination: callbackUrl, algorithm: 'sha1' }).base64, 'invalid_signature'],
    ['expired', async () => samlResponse(idp, { inResponseTo: await login(), email, audience: SP, destination: callbackUrl, notBefore: new Date(Date.now() - 3_600_000), notOnOrAfter: new Date(Date.now() - 1_800_000) }).base64, 'expired'],
    ['wrong audience', async () => samlResponse(idp, { inResponseTo: await login(), email, audience: 'https://someone.else/sp', destination: callbackUrl }).base64, 'wrong_audience'],
    ['wrong destination', async () => samlResponse(idp, { inResponseTo: await login(), email, audience: SP, destination: 'https://elsewhere.test/acs' }).base64, 'wrong_destination'],
    ['unknown InResponseTo', async () => samlResponse(idp, { inResponseTo: '_never_issued', email, audience: SP, destination: callbackUrl }).base64, 'unknown_request'],
    ['no InResponseTo (IdP-initiated)', async () => samlResponse(idp, { email, audience: SP, destination: callbackUrl }).base64, 'unknown_request'],
    ['email outside the enforced domains', async () => samlResponse(idp, { inResponseTo: await login(), email: uniqueEmail('outsider'), audience: SP, destination: callbackUrl }).base64, 'domain_not_allowed'],
    ['not XML', async () => Buffer.from('hello').toString('base64'), 'invalid_response'],
  ];
  for (const [name, make, reason] of cases) {
    const res = await post(await make());
    t.equal(res.statusCode, 302, `${name}: redirect`);
    t.equal(reasonOf(res), reason, `${name}: reason ${reason}`);
  }

  // Password sign-in for a member whose email domain the organization enforces SSO for.
  const pwd = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: `pw-${Date.now()}@corp.example.test`, password: 'correct horse battery' } });
  const pwUser = pwd.json();
  await ctx.tenancy.addMember({ orgId: owner.orgId, userId: pwUser.user.id, role: 'member' });
  const refused = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: pwUser.user.email, password: 'correct horse battery' } });
  t.equal(refused.statusCode, 403, 'password sign-in refused for an enforced domain');
  t.match(refused.json().error.message, /SSO/);
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: owner.email, password: 'correct horse battery' } })).statusCode, 200, 'other domains sign in with a password');

  t.same((await app.inject({ method: 'DELETE', url: '/api/sso/config', headers })).json(), { success: true });
  t.equal((await app.inject({ method: 'GET', url: '/api/sso/config', headers })).json().configured, false);
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(ex.json().token) })).statusCode, 200, 'provisioned users keep their accounts');
});
