// TRUST_PROXY (issue 32 point 7): what Fastify supports, a hop count or the proxies'
// addresses/CIDRs; `true` (trust any X-Forwarded-For) is refused at start. Behind one proxy, a
// client writing its own left-most X-Forwarded-For neither escapes the Auth limit nor chooses
// the address the audit trail records: the address the proxy appended is the client's.
import t from 'tap';
import { buildTestApp, uniqueEmail, bearer, TEST_SECRETS } from '../helper.ts';
import { loadConfig } from '../../core/config.ts';

const base = { MONGODB_URI: 'mongodb://x', REDIS_URL: 'redis://x', ...TEST_SECRETS };

t.test('TRUST_PROXY: a hop count or addresses/CIDRs; true is refused with a hint', async (t) => {
  t.equal(loadConfig({}, base).TRUST_PROXY, false, 'default: no proxy trusted');
  t.equal(loadConfig({ TRUST_PROXY: '1' }, base).TRUST_PROXY, 1, 'a hop count');
  t.equal(loadConfig({ TRUST_PROXY: '2' }, base).TRUST_PROXY, 2);
  t.equal(loadConfig({ TRUST_PROXY: 'false' }, base).TRUST_PROXY, false);
  t.same(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,::1' }, base).TRUST_PROXY, ['10.0.0.0/8', '192.168.1.7', '::1'], 'addresses and CIDRs');
  for (const v of ['true', 'TRUE', 'yes']) {
    t.throws(() => loadConfig({ TRUST_PROXY: v }, base), /TRUST_PROXY=true trusts any X-Forwarded-For; set the number of proxies in front \(e\.g\. 1\) or their addresses\/CIDRs/, `refuses "${v}"`);
  }
  for (const v of ['0.5', '-1', '10.0.0.0/33', 'proxy.example.com', '300.1.1.1']) {
    t.throws(() => loadConfig({ TRUST_PROXY: v }, base), /Configuration error: TRUST_PROXY/, `refuses "${v}"`);
  }
});

t.test('behind one proxy, a rotated left-most X-Forwarded-For does not escape the Auth limit', async (t) => {
  const { app, ctx } = await buildTestApp(t, { env: { TRUST_PROXY: 1 } });
  const PROXY = '10.1.2.3';
  const CLIENT = '203.0.113.77';
  // The client sends its own X-Forwarded-For; the proxy appends the address it saw.
  const send = (i: number) => app.inject({
    method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() }, remoteAddress: PROXY,
    headers: { 'x-forwarded-for': `198.51.100.${i % 250}, ${CLIENT}` },
  });
  const codes: number[] = [];
  for (let i = 0; i < 51; i++) codes.push((await send(i)).statusCode);
  t.equal(codes.filter((c) => c === 200).length, 50, 'the 50 allowed requests pass');
  t.equal(codes[50], 429, 'the 51st is limited although its left-most X-Forwarded-For is new');
  const other = await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() }, remoteAddress: PROXY, headers: { 'x-forwarded-for': '203.0.113.78' } });
  t.equal(other.statusCode, 200, 'another client behind the same proxy has its own budget');

  const email = uniqueEmail();
  const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email, password: 'correct horse battery' }, remoteAddress: PROXY, headers: { 'x-forwarded-for': '1.2.3.4, 203.0.113.99' } });
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(reg.json().token) });
  await ctx.audit.flush();
  const entry = await ctx.db.db.collection('audit_logs').findOne({ orgId: me.json().defaultOrgId, action: 'auth.signup' });
  t.equal(entry?.ipAddress, '203.0.113.99', 'the audit trail records the address the proxy appended, not the one the client wrote');
});
