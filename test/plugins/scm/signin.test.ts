// Source-host sign-in (issue 22 points 1, 2, 8) against a loopback server answering as
// GitHub's OAuth web flow and REST API are documented to: the redirect, state misuse, CLI
// redirect_uri validation, user lookup (account id, verified email, new account), the
// one-time exchange code, linked accounts and their conflicts, and configuration errors.
import t from 'tap';
import { buildTestApp, register, bearer, uniqueEmail, TEST_SECRETS } from '../../helper.ts';
import { sha256Hex } from '../../../core/crypto.ts';
import { fakeHost } from './fake-host.ts';
import { cookieOf } from './flows.ts';
import { loadConfig, ConfigError } from '../../../core/config.ts';
import { readPrivateKey } from '../../../plugins/scm/host.ts';
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const FRONT = 'http://front.test';

t.test('configuration: http only for loopback hosts; the private key as PEM or a path', async (t) => {
  const base = { MONGODB_URI: 'mongodb://127.0.0.1:1/x', REDIS_URL: 'redis://127.0.0.1:1', ...TEST_SECRETS };
  t.throws(() => loadConfig({ ...base, SCM_API_URL: 'http://api.example.com' }), new ConfigError('Configuration error: SCM_API_URL must be https:// (http:// only for a loopback host)'));
  t.throws(() => loadConfig({ ...base, SCM_WEB_URL: 'http://127.0.0.1.evil.com' }), { message: /SCM_WEB_URL must be https/ });
  t.doesNotThrow(() => loadConfig({ ...base, SCM_API_URL: 'http://127.0.0.1:9000', SCM_WEB_URL: 'https://ghe.example.com' }));
  const pem = generateKeyPairSync('rsa', { modulusLength: 2048, privateKeyEncoding: { type: 'pkcs8', format: 'pem' }, publicKeyEncoding: { type: 'spki', format: 'pem' } }).privateKey;
  const dir = mkdtempSync(path.join(tmpdir(), 'scm-key-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'app.pem'), pem);
  t.equal(readPrivateKey(path.join(dir, 'app.pem')), pem);
  t.equal(readPrivateKey(pem.replace(/\n/g, '\\n')), pem, 'escaped newlines (one-line environment values)');
  t.equal(readPrivateKey(path.join(dir, 'missing.pem')), null);
});

t.test('without the OAuth app or the app: 503 with the exact messages; the rest works', async (t) => {
  const { app } = await buildTestApp(t);
  const start = await app.inject({ method: 'GET', url: '/api/auth/scm' });
  t.equal(start.statusCode, 503);
  t.equal(start.json().error.message, 'Source host sign-in is not configured');
  // Both start routes take a signed-in user first (manifest auth user-redirect), then answer 503.
  const s = await register(app);
  const add = await app.inject({ method: 'GET', url: `/api/auth/scm/add-account?token=${s.token}` });
  t.equal(add.statusCode, 503);
  t.equal(add.json().error.message, 'Source host sign-in is not configured');
  t.notOk(add.headers['set-cookie'], 'no binding cookie for a flow that cannot start');
  const install = await app.inject({ method: 'GET', url: '/api/auth/scm-app/install', headers: bearer(s.token) });
  t.equal(install.statusCode, 503);
  t.equal(install.json().error.message, 'Source host app is not configured');
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/scm/add-account?token=x' })).statusCode, 401, 'an invalid JWT: 401 before anything else');
  const me = await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(s.token) });
  t.equal(me.statusCode, 200);
  t.equal(me.json().scmId, null);
});

t.test('sign-in, accounts and their conflicts', async (t) => {
  const host = await fakeHost(t);
  const { app, ctx } = await buildTestApp(t, { env: { ...host.env, FRONTEND_URL: FRONT } });
  const redis = ctx.redis.main;
  const octoEmail = uniqueEmail('octo');
  host.addUser({ id: 1001, login: 'octo', name: 'Octo Cat', email: null, emails: [{ email: `x-${octoEmail}`, primary: false, verified: true }, { email: octoEmail, primary: true, verified: true }] });

  const startFlow = async (query = '') => {
    const res = await app.inject({ method: 'GET', url: `/api/auth/scm${query}` });
    t.equal(res.statusCode, 302, `start ${query}: ${res.body}`);
    return new URL(res.headers.location as string);
  };
  const callback = async (code: string, state: string, cookie?: string) => {
    const res = await app.inject({ method: 'GET', url: `/api/auth/scm/callback?${new URLSearchParams({ code, state })}`, headers: cookie ? { cookie } : {} });
    t.equal(res.statusCode, 302, res.body);
    return new URL(res.headers.location as string);
  };
  const exchange = (code: string) => app.inject({ method: 'POST', url: '/api/auth/scm/exchange', payload: { code } });

  await t.test('the redirect to the host', async (t) => {
    const loc = await startFlow();
    t.equal(`${loc.origin}${loc.pathname}`, `${host.base}/login/oauth/authorize`);
    t.equal(loc.searchParams.get('client_id'), 'gh-client');
    t.match(loc.searchParams.get('scope'), /user:email/);
    t.match(loc.searchParams.get('redirect_uri'), /\/api\/auth\/scm\/callback$/);
    t.ok((loc.searchParams.get('state') ?? '').length >= 20);
    t.equal(loc.searchParams.get('prompt'), null);
    t.equal((await startFlow('?force=true')).searchParams.get('prompt'), 'select_account');
  });

  await t.test('CLI redirect_uri validation', async (t) => {
    for (const bad of ['', 'http://127.0.0.1.evil.com', 'http://127.0.0.1.evil.com:8080/cb', 'http://127.0.0.1:80@evil.com/', 'https://127.0.0.1:8080/', 'http://localhost:8080/', 'http://127.0.0.1:/x']) {
      const res = await app.inject({ method: 'GET', url: `/api/auth/scm?cli=true&redirect_uri=${encodeURIComponent(bad)}` });
      t.equal(res.statusCode, 400, `${bad} refused`);
    }
    const ok = await app.inject({ method: 'GET', url: `/api/auth/scm?cli=true&redirect_uri=${encodeURIComponent('http://127.0.0.1:8765/callback')}` });
    t.equal(ok.statusCode, 302);
  });

  await t.test('state misuse: unknown, reused, expired; a refused code', async (t) => {
    const unknown = await callback(host.code('octo'), 'no-such-state');
    t.equal(`${unknown.origin}${unknown.pathname}`, `${FRONT}/auth/error`);
    t.equal(unknown.searchParams.get('reason'), 'invalid_state');

    const state = (await startFlow()).searchParams.get('state')!;
    const refused = await callback('wrong-code', state);
    t.equal(refused.searchParams.get('reason'), 'code_refused');
    const reused = await callback(host.code('octo'), state);
    t.equal(reused.searchParams.get('reason'), 'invalid_state', 'a state works once, even after a failure');

    const expiring = (await startFlow()).searchParams.get('state')!;
    await redis.pexpire(`scm-state:${sha256Hex(expiring)}`, 1);
    await new Promise((r) => setTimeout(r, 20));
    t.equal((await callback(host.code('octo'), expiring)).searchParams.get('reason'), 'invalid_state');

    const outage = (await startFlow()).searchParams.get('state')!;
    host.state.down = true;
    t.equal((await callback(host.code('octo'), outage)).searchParams.get('reason'), 'provider_error', 'a host outage: the error page, not a JSON 502');
    host.state.down = false;

    const cli = (await startFlow(`?cli=true&redirect_uri=${encodeURIComponent('http://127.0.0.1:8765/cb')}`)).searchParams.get('state')!;
    const cliRefused = await callback('wrong-code', cli);
    t.equal(`${cliRefused.origin}${cliRefused.pathname}`, 'http://127.0.0.1:8765/cb');
    t.equal(cliRefused.searchParams.get('error'), 'code_refused');
  });

  let octo: { token: string; userId: string; orgId: string };
  await t.test('first sign-in creates the user and a personal organization; the exchange code works once', async (t) => {
    const state = (await startFlow()).searchParams.get('state')!;
    const loc = await callback(host.code('octo'), state);
    t.equal(`${loc.origin}${loc.pathname}`, `${FRONT}/auth/callback`);
    t.notMatch(loc.toString(), /eyJ/, 'no JWT in the URL');
    const code = loc.searchParams.get('code')!;
    const res = await exchange(code);
    t.equal(res.statusCode, 200, res.body);
    const session = res.json();
    t.ok(session.token && session.refreshToken);
    t.equal(session.user.email, octoEmail);
    t.equal((await exchange(code)).statusCode, 401, 'one use');
    const me = (await app.inject({ method: 'GET', url: '/api/auth/me', headers: bearer(session.token) })).json();
    t.equal(me.scmId, '1001');
    t.equal(me.name, 'Octo Cat');
    const orgs = await app.inject({ method: 'GET', url: `/api/orgs/${me.defaultOrgId}`, headers: bearer(session.token) });
    t.equal(orgs.statusCode, 200, 'the personal organization exists and the user is in it');
    octo = { token: session.token, userId: me.id, orgId: me.defaultOrgId };
    await ctx.audit.flush();
    const { entries } = await ctx.audit.query({ orgId: me.defaultOrgId, action: 'auth.login' }, { page: 1, limit: 10 });
    t.equal(entries.length, 1);
    t.equal(entries[0].details?.authMethod, 'github_oauth');
    t.notMatch(JSON.stringify(entries), /gho_/, 'no token in the trail');
    const stored = await ctx.db.db.collection('scm_accounts').findOne({ scmId: '1001' });
    t.ok(stored && !String(stored.token).includes('gho_'), 'the host token is sealed at rest');
  });

  await t.test('the next sign-in finds the user by the host account id; the CLI flow lands on its address', async (t) => {
    const state = (await startFlow(`?cli=true&redirect_uri=${encodeURIComponent('http://127.0.0.1:9999/done')}`)).searchParams.get('state')!;
    const loc = await callback(host.code('octo'), state);
    t.equal(`${loc.origin}${loc.pathname}`, 'http://127.0.0.1:9999/done');
    const res = await exchange(loc.searchParams.get('code')!);
    t.equal(res.json().user.id, octo.userId);
  });

  await t.test('an existing account is found by the verified primary email; an unverified one is not used', async (t) => {
    const email = uniqueEmail('pw');
    const pw = await register(app, email);
    host.addUser({ id: 2002, login: 'pwuser', name: 'Pw User', email, emails: [{ email, primary: true, verified: true }] });
    const state = (await startFlow()).searchParams.get('state')!;
    const loc = await callback(host.code('pwuser'), state);
    t.equal((await exchange(loc.searchParams.get('code')!)).json().user.id, pw.userId);

    host.addUser({ id: 3003, login: 'unverified', name: 'U', email: null, emails: [{ email: uniqueEmail('u'), primary: true, verified: false }] });
    const s2 = (await startFlow()).searchParams.get('state')!;
    t.equal((await callback(host.code('unverified'), s2)).searchParams.get('reason'), 'no_verified_email');
  });

  await t.test('add-account links another host account; one linked elsewhere is refused', async (t) => {
    host.addUser({ id: 4004, login: 'octo-work', name: 'Octo Work', email: null, emails: [] });
    t.equal((await app.inject({ method: 'GET', url: '/api/auth/scm/add-account?token=not-a-jwt' })).statusCode, 401);
    const start = await app.inject({ method: 'GET', url: `/api/auth/scm/add-account?token=${octo.token}` });
    t.equal(start.statusCode, 302);
    const state = new URL(start.headers.location as string).searchParams.get('state')!;
    const loc = await callback(host.code('octo-work'), state, cookieOf(start));
    t.equal(`${loc.origin}${loc.pathname}`, `${FRONT}/settings/accounts`);
    const list = (await app.inject({ method: 'GET', url: '/api/auth/scm/accounts', headers: bearer(octo.token) })).json().accounts;
    t.same(list.map((a: { scmId: string; active: boolean }) => [a.scmId, a.active]), [['1001', true], ['4004', false]]);
    await ctx.audit.flush();
    const { entries } = await ctx.audit.query({ orgId: octo.orgId, action: 'auth.github_account_added' }, { page: 1, limit: 10 });
    t.equal(entries.length, 1);

    // pwuser's host account (2002) belongs to another user.
    const again = await app.inject({ method: 'GET', url: `/api/auth/scm/add-account?token=${octo.token}` });
    const s2 = new URL(again.headers.location as string).searchParams.get('state')!;
    const conflict = await callback(host.code('pwuser'), s2, cookieOf(again));
    t.equal(conflict.searchParams.get('reason'), 'account_in_use');
  });

  await t.test('set active, unlink, and the only sign-in method', async (t) => {
    const h = bearer(octo.token);
    t.equal((await app.inject({ method: 'POST', url: '/api/auth/scm/accounts/active', headers: h, payload: { scmId: '2002' } })).statusCode, 404, 'not linked to the caller');
    t.equal((await app.inject({ method: 'POST', url: '/api/auth/scm/accounts/active', headers: h, payload: { scmId: '4004' } })).statusCode, 200);
    t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: h })).json().scmId, '4004');
    t.equal((await app.inject({ method: 'DELETE', url: '/api/auth/scm/accounts/4004', headers: h })).statusCode, 200);
    t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: h })).json().scmId, '1001', 'the remaining account becomes active');
    const only = await app.inject({ method: 'DELETE', url: '/api/auth/scm/accounts/1001', headers: h });
    t.equal(only.statusCode, 409, 'the only sign-in method of a user without a password');
    t.match(only.json().error.message, /only way/);
    t.equal((await app.inject({ method: 'DELETE', url: '/api/auth/scm/accounts/9999', headers: h })).statusCode, 404);
  });
});
