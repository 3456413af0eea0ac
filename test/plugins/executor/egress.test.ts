// The built-in executor's clones (issue 32 point 6): from the service host it clones only
// https:// URLs of public hosts, or the hosts EXECUTOR_ALLOWED_HOSTS opens; every notation of a
// loopback or private address, every other protocol and every name resolving to one is
// refused before any connection, with one message whatever is listening there. A tenant plays
// the attacker: it points a config at services on the service's own host.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { bareRepository, gitServer, tcpListener } from './git-server.ts';

const NOT_ALLOWED = /^repositoryUrl is not allowed: /;

t.test('a tenant cannot make the executor connect to the service host or a private address', async (t) => {
  const { app, ctx, services } = await buildTestApp(t, { env: { EXECUTOR_LOCAL_SOURCES: false, EXECUTOR_ALLOWED_HOSTS: '' } });
  const s = await register(app);
  await ctx.tenancy.setPlan(s.orgId, 'enterprise');
  await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: bearer(s.token), payload: { accessKeyId: 'AKIAEXAMPLEEXAMPLE00', secretAccessKey: 'secret-secret-secret', region: 'us-east-1' } });
  const served = await gitServer(t, bareRepository(t));
  const open = await tcpListener(t);
  const closed = (await tcpListener(t)).port; // its listener is counted; nothing should reach it either
  const p = served.port;
  const urls = [
    `http://127.0.0.1:${p}/repo.git`, `https://127.0.0.1:${p}/repo.git`, `https://localhost:${p}/repo.git`, `https://2130706433:${p}/repo.git`,
    `https://0x7f.1:${p}/repo.git`, `https://0177.0.0.1:${p}/repo.git`, `https://[::1]:${p}/repo.git`, `https://[::ffff:127.0.0.1]:${p}/repo.git`,
    `https://[::127.0.0.1]:${p}/repo.git`, `https://[64:ff9b::7f00:1]:${p}/repo.git`, `https://169.254.169.254/latest/meta-data`, `https://10.0.0.1/repo.git`,
    `git://127.0.0.1:${open.port}/repo.git`, `ssh://git@127.0.0.1:${open.port}/repo.git`, `git@127.0.0.1:repo.git`, `http://127.0.0.1:${closed}/repo.git`,
    `https://does-not-resolve.invalid/repo.git`, `ftp://127.0.0.1:${open.port}/repo.git`,
  ];
  const messages = new Set<string>();
  for (const [i, repositoryUrl] of urls.entries()) {
    const created = await app.inject({ method: 'POST', url: '/api/repo-configs', headers: bearer(s.token), payload: { repositoryName: `acme/egress${i}`, branch: 'main', provider: 'cloud_a', repositoryUrl } });
    t.equal(created.statusCode, 201, `${repositoryUrl}: the config is accepted (runners may clone it)`);
    // Triggered through the service: the route's per-minute limit is not what this test is about.
    const scan = await services.scans!.trigger(s.orgId, created.json().data._id, s.userId);
    t.equal(await services.executor!.execute(s.orgId, scan._id), 'failed', `${repositoryUrl}: the scan fails`);
    const after = (await app.inject({ method: 'GET', url: `/api/scans/${scan._id}`, headers: bearer(s.token) })).json().data;
    t.match(after.error, NOT_ALLOWED, `${repositoryUrl}: refused (${after.error.slice(0, 120)})`);
    messages.add(after.error.replace(/acme\/egress\d+/, ''));
  }
  t.equal(served.connections(), 0, 'nothing reached the git server on the service host');
  t.equal(open.connections(), 0, 'nothing reached the other listener');
  t.equal(messages.size, 1, 'one message for every refused target: open, closed, unresolvable and wrong protocol look alike');
});

t.test('EXECUTOR_ALLOWED_HOSTS opens an internal git host; the clone connects to the address checked, follows no redirect', async (t) => {
  const { checkout } = await import('../../../runner-agent/src/engine/source.ts');
  const { createCloneGuard } = await import('../../../plugins/executor/clone-guard.ts');
  const served = await gitServer(t, bareRepository(t));
  const source = (url: string) => ({ kind: 'git' as const, url, branch: 'main' });

  const byCidr = createCloneGuard({ allowedHosts: '127.0.0.0/8', localSources: false });
  const repo = await checkout(source(`http://127.0.0.1:${served.port}/repo.git`), undefined, byCidr);
  t.teardown(() => repo.cleanup());
  t.match(repo.commit, /^[0-9a-f]{40}$/, 'an address inside an allowed CIDR is cloned, over http too');

  // A name only the guard's resolver knows: the clone can only succeed if git connects to the
  // address the guard checked (curl's pinned resolve), never asking the system resolver again.
  const pinned = createCloneGuard({ allowedHosts: '127.0.0.0/8', localSources: false, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
  const viaName = await checkout(source(`http://git.internal.invalid:${served.port}/repo.git`), undefined, pinned);
  t.teardown(() => viaName.cleanup());
  t.equal(viaName.commit, repo.commit, 'cloned through the checked address');

  // Rebinding: the check saw a public address; git is told to connect there, not to what the name says later.
  const rebound = createCloneGuard({ allowedHosts: '', localSources: false, resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
  const target = await rebound('https://localhost/acme/infra.git');
  t.ok(target.config.includes('http.curloptResolve=localhost:443:93.184.216.34'), 'the connection is pinned to the checked address');
  t.ok(target.config.includes('http.followRedirects=false') && target.config.includes('protocol.allow=never') && target.config.includes('protocol.https.allow=always'), 'no redirects, https only');
  await t.rejects(rebound('http://localhost/acme/infra.git'), NOT_ALLOWED, 'plain http to a host the operator did not open is refused, even when public');

  const byName = createCloneGuard({ allowedHosts: 'localhost', localSources: false });
  const named = await checkout(source(`http://localhost:${served.port}/repo.git`), undefined, byName);
  t.teardown(() => named.cleanup());
  t.equal(named.commit, repo.commit, 'an allowed name is cloned whatever it resolves to');

  const inside = await gitServer(t, bareRepository(t));
  const redirecting = await gitServer(t, bareRepository(t), { redirect: `http://127.0.0.1:${inside.port}` });
  const failures = new Set<string>();
  for (const url of [`http://127.0.0.1:${redirecting.port}/repo.git`, `http://127.0.0.1:${served.port}/missing.git`, `http://127.0.0.1:${(await tcpListener(t)).port}/repo.git`]) {
    const err = await checkout(source(url), undefined, byCidr).then(() => null, (e: Error) => e);
    t.match(err?.message, /^Branch "main" of http:\/\/127\.0\.0\.1:\d+\/\w+\.git could not be cloned: check the URL/, `${url}: the uniform failure`);
    failures.add(String(err?.message).replace(/:\d+\/\w+\.git/, ''));
  }
  t.equal(failures.size, 1, 'a redirect, a missing repository and a closed connection read alike');
  t.ok(redirecting.requests.length > 0 && inside.requests.length === 0, 'the redirect was not followed');
  t.ok((await byCidr(`file:///etc`).then(() => false, () => true)), 'file:// is refused without EXECUTOR_LOCAL_SOURCES');
});

t.test('EXECUTOR_ALLOWED_HOSTS is checked at boot', async (t) => {
  const { loadConfig } = await import('../../../core/config.ts');
  const { TEST_SECRETS } = await import('../../helper.ts');
  const base = { MONGODB_URI: 'mongodb://x', REDIS_URL: 'redis://x', ...TEST_SECRETS };
  t.equal(loadConfig({}, base).EXECUTOR_ALLOWED_HOSTS, '', 'default: no internal host');
  t.equal(loadConfig({ EXECUTOR_ALLOWED_HOSTS: 'git.corp.example, 10.0.0.0/8, fd00::/8' }, base).EXECUTOR_ALLOWED_HOSTS, 'git.corp.example, 10.0.0.0/8, fd00::/8');
  for (const bad of ['10.0.0.0/33', 'https://git.corp', 'a b']) {
    t.throws(() => loadConfig({ EXECUTOR_ALLOWED_HOSTS: bad }, base), /Configuration error: EXECUTOR_ALLOWED_HOSTS is invalid/, `refuses "${bad}"`);
  }
});
