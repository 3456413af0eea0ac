// Fault: Redis stops (a TCP proxy in front of the shared Redis is cut: connections drop and the
// port refuses, as when the server stops) and comes back, with the app running all along.
// docs/faults.md states what each part does; this test holds it:
//   - credential routes fail closed: 503 store_unavailable, nothing stored or changed;
//   - the other rate limits fail open (sign-in works), plan limits fail closed (503, nothing created);
//   - exactly-once and locks answer 503 rather than run twice; bearer requests keep working;
//   - /health answers 503 naming redis, within a bound;
//   - once Redis is back, everything works again without a restart.
import t from 'tap';
import { bearer, buildTestApp, register, serviceUrls, uniqueEmail } from '../helper.ts';
import { startProxy } from './proxy.ts';
import { until } from '../e2e/lib.ts';

const A = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY', region: 'eu-west-1' };
const B = { accessKeyId: 'AKIAI44QH8DHBEXAMPLE', secretAccessKey: 'je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY', region: 'us-east-1' };

t.test('Redis stopped, then back: limits as documented, recovery without restart', async (t) => {
  const proxy = await startProxy(serviceUrls().redisUrl);
  t.teardown(() => proxy.close());
  const { app, ctx } = await buildTestApp(t, { env: { REDIS_URL: proxy.url('redis') } });
  // The test's teardown deletes its keys through Redis: restore it first (teardowns run last-in first-out).
  t.teardown(() => proxy.restore());
  const s = await register(app);
  // Pro: one cloud account, five repository configs (a limit that needs its Redis lock).
  await ctx.tenancy.setPlan(s.orgId, 'pro');
  const h = bearer(s.token);
  const creds = ctx.db.db.collection('cloud_credentials');
  t.equal((await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: h, payload: A })).statusCode, 200, 'stored while Redis is up');
  const before = await creds.findOne({ orgId: s.orgId });

  await proxy.cut();
  const t0 = Date.now();
  const health = await app.inject({ method: 'GET', url: '/health' });
  t.equal(health.statusCode, 503, '/health: 503');
  t.match(health.json(), { status: 'degraded' });
  t.match(JSON.stringify(health.json()), /redis/, 'naming redis');
  t.ok(Date.now() - t0 < 10_000, `answered within 10 s (${Date.now() - t0} ms)`);

  // Credentials: fail closed, nothing changes.
  const post = await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: h, payload: B });
  t.equal(post.statusCode, 503, 'credential write: 503');
  t.equal(post.json().error.code, 'store_unavailable');
  t.match(post.json().error.message, /try again/, `a clear message (${post.json().error.message})`);
  const del = await app.inject({ method: 'DELETE', url: '/api/auth/cloud-a-credentials', headers: h });
  t.equal(del.statusCode, 503, 'credential delete: 503');
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials', headers: h })).statusCode, 503, 'credential read: 503');
  t.same(await creds.findOne({ orgId: s.orgId }), before, 'the stored credential is unchanged');

  // Auth limit: fails open (an outage must not lock users out).
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: s.email, password: 'correct horse battery' } });
  t.equal(login.statusCode, 200, 'sign-in works (Auth limit fails open)');
  const reg = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { email: uniqueEmail(), password: 'correct horse battery' } });
  t.equal(reg.statusCode, 201, 'registration works');
  // Bearer requests that need no Redis keep working.
  t.equal((await app.inject({ method: 'GET', url: '/api/auth/me', headers: h })).statusCode, 200, 'GET /api/auth/me works');
  t.equal((await app.inject({ method: 'GET', url: '/api/repo-configs', headers: h })).statusCode, 200, 'reads work');
  // Plan limits (repositories) need their Redis lock: fail closed, nothing created.
  const configsBefore = await ctx.db.db.collection('repo_configs').countDocuments({ orgId: s.orgId });
  const cfg = await app.inject({ method: 'POST', url: '/api/repo-configs', headers: h, payload: { repositoryName: 'acme/infra', branch: 'main', provider: 'cloud_a' } });
  t.equal(cfg.statusCode, 503, 'a write under a plan limit: 503');
  t.match(cfg.json().error.message, /Plan limits cannot be checked/);
  t.equal(await ctx.db.db.collection('repo_configs').countDocuments({ orgId: s.orgId }), configsBefore, 'nothing created');

  await proxy.restore();
  // Recovery without restart: ioredis reconnects on its own (retry every 2 s at most).
  await until('the credential routes to answer again', async () =>
    (await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials', headers: h })).statusCode === 200, 20_000);
  t.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200, '/health: 200 again');
  const again = await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: h, payload: B });
  t.equal(again.statusCode, 200, 'credential write works again');
  const made = await app.inject({ method: 'POST', url: '/api/repo-configs', headers: h, payload: { repositoryName: 'acme/infra', branch: 'main', provider: 'cloud_a' } });
  t.equal(made.statusCode, 201, 'plan-limited write works again');
});
