// App installations, repositories and installation-token clones (issue 22 points 3, 4, 8)
// against a loopback server answering as GitHub's REST API is documented to.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { fakeHost, APP_ID, type FakeRepo } from './fake-host.ts';
import { cookieOf, scmCallback, startAddAccount } from './flows.ts';

const FRONT = 'http://front.test';
const repo = (id: number, owner: string, name: string, priv = true): FakeRepo => ({ id, name, full_name: `${owner}/${name}`, owner: { login: owner }, private: priv, default_branch: 'main' });

t.test('installations, repositories, branches, clone URLs', async (t) => {
  const host = await fakeHost(t);
  const { app, ctx, services } = await buildTestApp(t, { env: { ...host.env, FRONTEND_URL: FRONT } });
  const owner = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  const h = bearer(owner.token);
  host.state.installations.set('77', { id: 77, account: { login: 'acme', type: 'Organization' }, repos: [repo(1, 'acme', 'infra'), repo(2, 'acme', 'network')] });
  host.state.installations.set('88', { id: 88, account: { login: 'beta', type: 'Organization' }, repos: [repo(3, 'beta', 'live')] });
  // The installing user, who can see both installations on the host (GET /user/installations).
  host.addUser({ id: 6006, login: 'installer', name: 'Installer', email: null, emails: [] });
  host.state.userInstallations.set('installer', ['77', '88']);
  host.state.branches.set('acme/infra', [{ name: 'main', protected: true, sha: 'a1' }, { name: 'dev', protected: false, sha: 'a2' }]);

  const install = async (installationId: string) => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/scm-app/install', headers: h });
    t.equal(res.statusCode, 200, res.body);
    const url = new URL(res.json().installUrl);
    t.equal(url.pathname, '/apps/drift-app/installations/new');
    const state = url.searchParams.get('state')!;
    const cookie = cookieOf(res);
    const back = await app.inject({ method: 'GET', url: `/api/auth/scm-app/callback?installation_id=${installationId}&setup_action=install&state=${state}&code=${host.appCode('installer')}`, headers: { cookie } });
    t.equal(back.statusCode, 302);
    return { state, cookie, location: new URL(back.headers.location as string) };
  };

  await t.test('install URL needs a signed-in member; states are single use and checked', async (t) => {
    t.equal((await app.inject({ method: 'GET', url: '/api/auth/scm-app/install' })).statusCode, 401);
    t.equal((await app.inject({ method: 'GET', url: `/api/auth/scm-app/install?token=${owner.token}` })).statusCode, 200, 'the JWT in the query (browser navigation)');
    const bad = await app.inject({ method: 'GET', url: '/api/auth/scm-app/callback?installation_id=77&state=forged' });
    t.equal(new URL(bad.headers.location as string).searchParams.get('error'), 'invalid_state');
    const unknown = await install('99');
    t.equal(unknown.location.searchParams.get('error'), 'unknown_installation', 'the host does not know it');
    const first = await install('77');
    t.equal(first.location.searchParams.get('installation'), '77');
    const replay = await app.inject({ method: 'GET', url: `/api/auth/scm-app/callback?installation_id=88&state=${first.state}&code=${host.appCode('installer')}`, headers: { cookie: first.cookie } });
    t.equal(new URL(replay.headers.location as string).searchParams.get('error'), 'invalid_state', 'a spent state');
    await install('88');
    const jwts = host.state.appJwts;
    t.ok(jwts.length > 0 && jwts.every((c) => String(c.iss) === APP_ID && c.exp - c.iat <= 600), 'app JWTs: iss = app id, at most 10 minutes');
  });

  await t.test('list, set-active, sync-repos, delete', async (t) => {
    const list = (await app.inject({ method: 'GET', url: '/api/auth/scm-app/installations', headers: h })).json().installations;
    t.same(list.map((i: { installationId: string; active: boolean; repositoryCount: number }) => [i.installationId, i.active, i.repositoryCount]), [['77', true, 2], ['88', false, 1]]);
    t.equal((await app.inject({ method: 'POST', url: '/api/auth/scm-app/set-active', headers: h, payload: { installationId: '12345' } })).statusCode, 404);
    const active = await app.inject({ method: 'POST', url: '/api/auth/scm-app/set-active', headers: h, payload: { installationId: '88' } });
    t.equal(active.json().active, true);
    host.state.installations.get('88')!.repos.push(repo(4, 'beta', 'edge'));
    const synced = await app.inject({ method: 'POST', url: '/api/auth/scm-app/sync-repos', headers: h });
    t.equal(synced.json().repositoryCount, 2, 'the active installation, read again');
    t.equal((await app.inject({ method: 'DELETE', url: '/api/auth/scm-app/installations/88', headers: h })).statusCode, 200);
    t.equal((await app.inject({ method: 'DELETE', url: '/api/auth/scm-app/installations/88', headers: h })).statusCode, 404);
    const none = await app.inject({ method: 'POST', url: '/api/auth/scm-app/sync-repos', headers: h });
    t.equal(none.statusCode, 409, 'no active installation');
    t.equal((await app.inject({ method: 'POST', url: '/api/auth/scm-app/set-active', headers: h, payload: { installationId: '77' } })).statusCode, 200);
    const other = await register(app);
    const theirs = await app.inject({ method: 'GET', url: '/api/auth/scm-app/installations', headers: bearer(other.token) });
    t.same(theirs.json().installations, [], "another organization sees none of them");
    t.equal((await app.inject({ method: 'DELETE', url: '/api/auth/scm-app/installations/77', headers: bearer(other.token) })).statusCode, 404);
  });

  await t.test('repositories of the installation and the linked account, paged; branches', async (t) => {
    const mintsBefore = host.state.mints;
    const page1 = (await app.inject({ method: 'GET', url: '/api/repositories?limit=1', headers: h })).json();
    t.equal(page1.pagination.total, 2);
    t.same(page1.data, [{ id: 1, name: 'infra', full_name: 'acme/infra', owner: { login: 'acme' }, private: true, default_branch: 'main' }]);
    t.equal((await app.inject({ method: 'GET', url: '/api/repositories?limit=1&page=2', headers: h })).json().data[0].full_name, 'acme/network');

    const branches = await app.inject({ method: 'GET', url: '/api/repositories/acme/infra/branches', headers: h });
    t.same(branches.json(), [{ name: 'main', protected: true }, { name: 'dev', protected: false }]);
    t.equal((await app.inject({ method: 'GET', url: '/api/repositories/acme/nope/branches', headers: h })).statusCode, 404);
    await app.inject({ method: 'GET', url: '/api/repositories/acme/infra/branches', headers: h });
    t.equal(host.state.mints, mintsBefore, 'the installation token minted at sync is reused from the cache');
    // A token with less than five minutes left is not used: a fresh one is minted (and, this short-lived, not cached).
    await ctx.redis.main.del('scm-installation-token:77');
    host.state.tokenLifetimeMs = 4 * 60_000;
    await app.inject({ method: 'GET', url: '/api/repositories/acme/infra/branches', headers: h });
    await app.inject({ method: 'GET', url: '/api/repositories/acme/infra/branches', headers: h });
    t.equal(host.state.mints, mintsBefore + 2, 'tokens about to expire are minted again');
    host.state.tokenLifetimeMs = 60 * 60_000;
    t.ok(!String(await ctx.redis.main.get('scm-installation-token:77') ?? '').includes('ghs_'), 'a cached token is sealed');

    // A linked account adds its own repositories.
    host.addUser({ id: 5005, login: 'dev', name: 'Dev', email: null, emails: [] });
    host.state.userRepos.set('dev', [repo(9, 'dev', 'sandbox', false), repo(1, 'acme', 'infra')]);
    const start = await startAddAccount(app, owner.token);
    await scmCallback(app, { code: host.code('dev'), state: start.state, cookie: start.cookie });
    const all = (await app.inject({ method: 'GET', url: '/api/repositories', headers: h })).json();
    t.same(all.data.map((r: { full_name: string }) => r.full_name), ['acme/infra', 'acme/network', 'dev/sandbox'], 'both sources, once each');
    host.state.branches.set('dev/sandbox', [{ name: 'main', protected: false, sha: 'd1' }]);
    t.same((await app.inject({ method: 'GET', url: '/api/repositories/dev/sandbox/branches', headers: h })).json(), [{ name: 'main', protected: false }], 'through the account token');

    const lonely = await register(app);
    const none = await app.inject({ method: 'GET', url: '/api/repositories', headers: bearer(lonely.token) });
    t.equal(none.statusCode, 409);
    t.match(none.json().error.message, /No source host account is linked and no app installation is active/);
  });

  await t.test('a config of an installed repository: runner jobs clone with a fresh token, never stored', async (t) => {
    const config = await app.inject({ method: 'POST', url: '/api/repo-configs', headers: h, payload: { repositoryName: 'acme/infra', branch: 'main', provider: 'cloud_a' } });
    t.equal(config.statusCode, 201, config.body);
    const configId = config.json().data._id;
    t.equal((await app.inject({ method: 'PUT', url: `/api/repo-configs/${configId}`, headers: h, payload: { runnerLabels: ['scm'] } })).statusCode, 200);
    const runner = (await app.inject({ method: 'POST', url: '/api/runners', headers: h, payload: { name: 'r', labels: ['scm'] } })).json().data;
    const scan = await services.scans!.trigger(owner.orgId, configId, null);
    const claim = await app.inject({ method: 'POST', url: '/api/runners/jobs', headers: { 'x-runner-token': runner.token }, payload: {} });
    const source = claim.json().data.job.scan.source;
    const url = new URL(source.url);
    t.equal(`${url.origin}${url.pathname}`, `${host.base}/acme/infra.git`, 'the host URL of the repository (repositoryUrl unset)');
    t.equal(url.username, 'x-access-token');
    t.ok(host.state.installationTokens.has(url.password), 'a valid installation token');

    const stored = JSON.stringify(await ctx.db.db.collection('scans').findOne({ _id: scan._id as never }));
    t.notMatch(stored, /ghs_/, 'no token on the scan record');
    await ctx.audit.flush();
    const { entries } = await ctx.audit.query({ orgId: owner.orgId }, { page: 1, limit: 100 });
    t.notMatch(JSON.stringify(entries), /ghs_/, 'no token in the audit trail');
    t.equal(await services.scm!.cloneUrl(owner.orgId, 'other/repo', undefined), null, 'a repository outside the installation: no token');
    t.equal(await services.scm!.cloneUrl(owner.orgId, 'acme/infra', 'https://elsewhere.example/acme/infra.git'), null, 'a URL on another host: no token');
  });
});
