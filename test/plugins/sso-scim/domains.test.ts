// Domain verification: the TXT record to publish, its lookup through a loopback DNS server,
// one organization per verified domain (also under concurrent verifications), and
// enforcedDomains limited to verified domains.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { startDns } from './dns.ts';
import { generateKeyPair } from './idp.ts';

t.test('SSO domain verification', async (t) => {
  const dns = await startDns(t);
  const { app, ctx } = await buildTestApp(t, { env: { DNS_SERVERS: dns.server } });
  const a = await register(app);
  const b = await register(app);
  await ctx.tenancy.setPlan(a.orgId, 'enterprise');
  await ctx.tenancy.setPlan(b.orgId, 'enterprise');
  const as = (s: typeof a) => ({ ...bearer(s.token), 'x-org-id': s.orgId });
  const call = (s: typeof a, method: 'GET' | 'POST' | 'DELETE' | 'PUT', url: string, payload?: object) => app.inject({ method, url, headers: as(s), payload });
  const domain = `corp-${Date.now()}.example.test`;

  for (const bad of ['*.example.com', '192.168.0.1', '[::1]', 'localhost', 'exa_mple.com', '-bad.example.com', 'a..b.com', '1.2.3.4']) {
    const res = await call(a, 'POST', '/api/sso/domains', { domain: bad });
    t.equal(res.statusCode, 400, `${bad}: 400 (${res.json().error?.message})`);
  }
  const uni = await call(a, 'POST', '/api/sso/domains', { domain: 'BÜCHER.Example.test' });
  t.equal(uni.json().domain, 'xn--bcher-kva.example.test', 'lowercase punycode form');

  const added = await call(a, 'POST', '/api/sso/domains', { domain: domain.toUpperCase() });
  t.equal(added.statusCode, 201, added.body);
  const record = added.json().record;
  t.match(added.json(), { domain, status: 'pending', verifiedAt: null, record: { name: `_drift-verification.${domain}`, type: 'TXT' } });
  t.match(record.value, /^drift-verification=[\w-]{20,}$/, 'a random token to publish');
  t.equal((await call(a, 'POST', '/api/sso/domains', { domain })).json().record.value, record.value, 'adding again keeps the token');

  const missing = await call(a, 'POST', `/api/sso/domains/${domain}/verify`);
  t.equal(missing.statusCode, 409, 'no record yet: 409');
  t.equal(missing.json().error.code, 'sso.domain_record_missing');
  t.match(missing.json().error.message, record.value, 'the message says what to publish');
  t.match(missing.json().error.message, record.name);

  // enforcedDomains names only verified domains.
  const cfg = (domains: string[]) => ({ saml: { entryPoint: 'https://idp.example.test/sso', issuer: 'https://sp.example.test', cert: generateKeyPair('d').cert }, enforcedDomains: domains, enabled: true });
  const refused = await call(a, 'PUT', '/api/sso/config', cfg([domain, 'victim.example.test']));
  t.equal(refused.statusCode, 400, 'enforcedDomains with unverified domains: 400');
  t.equal(refused.json().error.code, 'sso.domain_unverified');
  t.match(refused.json().error.message, `not verified: ${domain}, victim.example.test`);

  // Org B claims the same domain and both publish their records: exactly one verification wins.
  const claimB = await call(b, 'POST', '/api/sso/domains', { domain });
  t.equal(claimB.statusCode, 201, 'another organization may claim it too (pending)');
  t.not(claimB.json().record.value, record.value, 'with its own token');
  dns.txt.set(`_drift-verification.${domain}`, [record.value, claimB.json().record.value]);
  const race = await Promise.all([a, b, a, b, a, b].map((s) => call(s, 'POST', `/api/sso/domains/${domain}/verify`)));
  const winners = new Set(race.filter((r) => r.statusCode === 200).map((r) => r.json().record.value));
  t.equal(winners.size, 1, `exactly one organization verifies it (${race.map((r) => r.statusCode).join(',')})`);
  const winner = winners.has(record.value) ? a : b;
  const loser = winner === a ? b : a;
  const lost = await call(loser, 'POST', `/api/sso/domains/${domain}/verify`);
  t.equal(lost.statusCode, 409, 'the other organization: 409');
  t.equal(lost.json().error.code, 'sso.domain_taken');
  t.match(lost.json().error.message, /verified by another organization/);
  t.equal((await call(loser, 'PUT', '/api/sso/config', cfg([domain]))).statusCode, 400, "the loser cannot enforce the winner's domain");

  const list = await call(winner, 'GET', '/api/sso/domains');
  t.match(list.json().domains.find((d: { domain: string }) => d.domain === domain), { status: 'verified', verifiedAt: String });
  t.match((await call(loser, 'GET', '/api/sso/domains')).json().domains, [{ domain, status: 'pending' }]);
  const put = await call(winner, 'PUT', '/api/sso/config', cfg([domain.toUpperCase()]));
  t.equal(put.statusCode, 200, put.body);
  t.same(put.json().enforcedDomains, [domain]);

  // Removing the domain: no longer verified anywhere, no longer enforced; the other may verify it now.
  t.equal((await call(winner, 'DELETE', `/api/sso/domains/${domain}`)).statusCode, 200);
  t.equal((await call(winner, 'DELETE', `/api/sso/domains/${domain}`)).statusCode, 404, 'gone');
  t.same((await call(winner, 'GET', '/api/sso/config')).json().config.enforcedDomains, [], 'no longer enforced');
  t.equal((await call(winner, 'POST', `/api/sso/domains/${domain}/verify`)).statusCode, 404, 'verify needs a claim');
  t.equal((await call(loser, 'POST', `/api/sso/domains/${domain}/verify`)).statusCode, 200, 'the other organization verifies it now');

  t.equal((await call(a, 'POST', '/api/sso/domains/unknown.example.test/verify')).statusCode, 404);
  const free = await register(app);
  t.equal((await call(free, 'POST', '/api/sso/domains', { domain: 'x.example.test' })).statusCode, 403, 'Enterprise only');
});
