// Abuse cases of issue 32 point 4, played as the other tenant against a loopback server
// answering as GitHub does: an installation is attached only when the installing user's own
// host token lists it (GET /user/installations), to one organization at a time; the
// add-account and app-install flows complete only in the browser that started them, for the
// user who started them, once.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { fakeHost, type FakeRepo } from './fake-host.ts';
import { finishInstall, installApp, scmCallback, startAddAccount, startInstall } from './flows.ts';

const FRONT = 'http://front.test';
const repo = (id: number, owner: string, name: string): FakeRepo => ({ id, name, full_name: `${owner}/${name}`, owner: { login: owner }, private: true, default_branch: 'main' });
const ghUser = (id: number, login: string) => ({ id, login, name: login, email: null, emails: [] });

t.test('app installations: proven with the installing user\'s host token, one organization at a time', async (t) => {
  const host = await fakeHost(t);
  const { app, ctx } = await buildTestApp(t, { env: { ...host.env, FRONTEND_URL: FRONT } });
  const alice = await register(app); // org A
  const bob = await register(app); // org B, the attacker
  host.state.installations.set('77', { id: 77, account: { login: 'acme', type: 'Organization' }, repos: [repo(1, 'acme', 'secret-infra')] });
  host.state.installations.set('78', { id: 78, account: { login: 'bobco', type: 'Organization' }, repos: [repo(2, 'bobco', 'site')] });
  host.state.installations.set('79', { id: 79, account: { login: 'shared', type: 'Organization' }, repos: [repo(3, 'shared', 'x')] });
  for (const [id, login] of [[7001, 'alice-gh'], [7002, 'bob-gh'], [7003, 'carol-gh']] as const) host.addUser(ghUser(id, login));
  host.state.userInstallations.set('alice-gh', ['77']);
  host.state.userInstallations.set('bob-gh', ['78']);
  host.state.userInstallations.set('carol-gh', ['77', '79']);
  const installationsOf = async (token: string) => (await app.inject({ method: 'GET', url: '/api/auth/scm-app/installations', headers: bearer(token) })).json().installations as { installationId: string }[];

  t.equal((await installApp(app, host, alice.token, '77', 'alice-gh')).searchParams.get('installation'), '77', 'org A installs its own installation');
  const exchanges = host.state.calls.filter((c) => c.path === '/login/oauth/access_token');
  t.same(exchanges.map((c) => c.body.client_id), ['gh-app-client'], "the install code is exchanged with the app's own client");
  t.ok(host.state.calls.some((c) => c.path.startsWith('/user/installations') && /^Bearer ghu_alice-gh_/.test(c.auth ?? '')), "the installation is looked up with the installing user's token");

  await t.test('org B names org A\'s installation id: refused, nothing attached, its repositories unchanged', async (t) => {
    const before = await app.inject({ method: 'GET', url: '/api/repositories', headers: bearer(bob.token) });
    const s = await startInstall(app, bob.token);
    const back = await finishInstall(app, { state: s.state, cookie: s.cookie, installationId: '77', code: host.appCode('bob-gh') });
    t.equal(back.searchParams.get('installation'), null, 'not attached');
    t.equal(back.searchParams.get('error'), 'installation_not_visible');
    t.same(await installationsOf(bob.token), [], 'org B has no installation');
    const after = await app.inject({ method: 'GET', url: '/api/repositories', headers: bearer(bob.token) });
    t.equal(after.statusCode, before.statusCode, '/api/repositories of B unchanged');
    t.equal(after.statusCode, 409);
    t.equal(await ctx.redis.main.exists('scm-installation-token:77'), 1, 'A\'s token cache untouched (no mint for B)');
    t.equal((await installationsOf(alice.token)).length, 1, 'A keeps its installation');
  });

  await t.test('without a code (user authorization during installation off): refused', async (t) => {
    const s = await startInstall(app, bob.token);
    const back = await finishInstall(app, { state: s.state, cookie: s.cookie, installationId: '78' });
    t.equal(back.searchParams.get('error'), 'missing_code');
    t.same(await installationsOf(bob.token), []);
  });

  await t.test('a user who can see it, for a second organization: 409-style refusal, one organization at a time', async (t) => {
    const carol = await register(app);
    const back = await installApp(app, host, carol.token, '77', 'carol-gh');
    t.equal(back.searchParams.get('error'), 'installation_in_use');
    t.same(await installationsOf(carol.token), []);
  });

  await t.test('two organizations race for one installation: exactly one gets it', async (t) => {
    const sessions = await Promise.all([register(app), register(app), register(app), register(app)]);
    const started = await Promise.all(sessions.map((s) => startInstall(app, s.token)));
    const backs = await Promise.all(started.map((s) => finishInstall(app, { state: s.state, cookie: s.cookie, installationId: '79', code: host.appCode('carol-gh') })));
    t.equal(backs.filter((b) => b.searchParams.get('installation') === '79').length, 1, 'one winner');
    t.equal(backs.filter((b) => b.searchParams.get('error') === 'installation_in_use').length, 3, 'the others are refused');
    t.equal(await ctx.db.db.collection('scm_installations').countDocuments({ installationId: '79' }), 1, 'one record');
  });

  await t.test('completed from another browser, by another user, or twice: refused', async (t) => {
    const noCookie = await startInstall(app, bob.token);
    const b1 = await finishInstall(app, { state: noCookie.state, installationId: '78', code: host.appCode('bob-gh') });
    t.equal(b1.searchParams.get('error'), 'browser_mismatch', 'no cookie');
    const victim = await startInstall(app, bob.token);
    const other = await startInstall(app, alice.token);
    const b2 = await finishInstall(app, { state: victim.state, cookie: other.cookie, installationId: '78', code: host.appCode('bob-gh') });
    t.equal(b2.searchParams.get('error'), 'browser_mismatch', 'another browser\'s cookie');
    const s3 = await startInstall(app, bob.token);
    const b3 = await finishInstall(app, { state: s3.state, cookie: s3.cookie, installationId: '78', code: host.appCode('bob-gh'), headers: bearer(alice.token) });
    t.equal(b3.searchParams.get('error'), 'user_mismatch', 'another signed-in user');
    t.same(await installationsOf(bob.token), [], 'none of these attached anything');

    const ok = await startInstall(app, bob.token);
    t.match(ok.start.headers['set-cookie'], /HttpOnly/i);
    t.match(ok.start.headers['set-cookie'], /SameSite=Lax/i);
    t.match(ok.start.headers['set-cookie'], /Max-Age=600/i);
    const good = await finishInstall(app, { state: ok.state, cookie: ok.cookie, installationId: '78', code: host.appCode('bob-gh') });
    t.equal(good.searchParams.get('installation'), '78', 'the same browser and user: attached');
    const replay = await finishInstall(app, { state: ok.state, cookie: ok.cookie, installationId: '78', code: host.appCode('bob-gh') });
    t.equal(replay.searchParams.get('error'), 'invalid_state', 'a state works once');

    const ended = await startInstall(app, bob.token);
    t.equal((await app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(bob.token) })).statusCode, 200);
    const b4 = await finishInstall(app, { state: ended.state, cookie: ended.cookie, installationId: '78', code: host.appCode('bob-gh') });
    t.equal(b4.searchParams.get('error'), 'session_ended', 'signed out since the start');
  });
});

t.test('add-account: only the browser and user that started it link an account', async (t) => {
  const host = await fakeHost(t);
  const { app } = await buildTestApp(t, { env: { ...host.env, FRONTEND_URL: FRONT } });
  const attacker = await register(app);
  const victim = await register(app);
  host.addUser(ghUser(8001, 'victim-gh'));
  host.addUser(ghUser(8002, 'attacker-gh'));
  const accountsOf = async (token: string) => (await app.inject({ method: 'GET', url: '/api/auth/scm/accounts', headers: bearer(token) })).json().accounts as { scmId: string }[];

  const s = await startAddAccount(app, attacker.token);
  const noCookie = await scmCallback(app, { state: s.state, code: host.code('victim-gh') });
  t.equal(noCookie.searchParams.get('reason'), 'browser_mismatch', 'completed in the victim\'s browser (no cookie): refused');
  t.same(await accountsOf(attacker.token), [], 'the victim\'s host account is not linked to the attacker');

  const a2 = await startAddAccount(app, attacker.token);
  const own = await startAddAccount(app, victim.token);
  const otherCookie = await scmCallback(app, { state: a2.state, code: host.code('victim-gh'), cookie: own.cookie });
  t.equal(otherCookie.searchParams.get('reason'), 'browser_mismatch', 'the victim\'s own cookie does not fit the attacker\'s state');
  t.same(await accountsOf(attacker.token), []);

  const a3 = await startAddAccount(app, attacker.token);
  const otherUser = await scmCallback(app, { state: a3.state, code: host.code('victim-gh'), cookie: a3.cookie, headers: bearer(victim.token) });
  t.equal(otherUser.searchParams.get('reason'), 'user_mismatch', 'another signed-in user');
  t.same(await accountsOf(attacker.token), []);

  const mine = await startAddAccount(app, attacker.token);
  t.match(mine.start.headers['set-cookie'], /HttpOnly/i);
  const ok = await scmCallback(app, { state: mine.state, code: host.code('attacker-gh'), cookie: mine.cookie });
  t.equal(`${ok.origin}${ok.pathname}`, `${FRONT}/settings/accounts`, 'the same browser: linked');
  t.same((await accountsOf(attacker.token)).map((a) => a.scmId), ['8002']);
  const replay = await scmCallback(app, { state: mine.state, code: host.code('attacker-gh'), cookie: mine.cookie });
  t.equal(replay.searchParams.get('reason'), 'invalid_state', 'a state works once');
});
