import t from 'tap';
import { buildTestApp, register, bearer } from '../helper.ts';
import { loadConfig } from '../../core/config.ts';
import { TEST_SECRETS } from '../helper.ts';

t.test('bad input gets a 4xx in the error shape and changes nothing', async (t) => {
  const { app, ctx } = await buildTestApp(t, { env: { BODY_LIMIT: 4096 } });
  const s = await register(app);
  const cases = [
    { name: 'malformed JSON', req: { method: 'POST' as const, url: '/api/orgs', headers: { ...bearer(s.token), 'content-type': 'application/json' }, payload: '{"name": ' }, status: 400 },
    { name: 'wrong type', req: { method: 'POST' as const, url: '/api/orgs', headers: bearer(s.token), payload: { name: 42 } }, status: 400 },
    { name: 'oversize body', req: { method: 'POST' as const, url: '/api/orgs', headers: bearer(s.token), payload: { name: 'x'.repeat(10_000) } }, status: 413 },
    { name: 'unsupported media type', req: { method: 'POST' as const, url: '/api/orgs', headers: { ...bearer(s.token), 'content-type': 'text/xml' }, payload: '<a/>' }, status: 415 },
    { name: 'unknown route', req: { method: 'GET' as const, url: '/api/nope' }, status: 404 },
    { name: 'unknown org', req: { method: 'GET' as const, url: `/api/orgs/${'f'.repeat(24)}`, headers: bearer(s.token) }, status: 404 },
    { name: 'bad x-org-id', req: { method: 'GET' as const, url: '/api/auth/quota', headers: { ...bearer(s.token), 'x-org-id': 'zzz' } }, status: 400 },
  ];
  for (const c of cases) {
    const res = await app.inject(c.req);
    t.equal(res.statusCode, c.status, `${c.name}: ${c.status}`);
    const body = res.json();
    t.equal(body.success, false, `${c.name}: error shape`);
    t.type(body.error.code, 'string');
    t.notMatch(res.body, /at .*\.ts:\d+/, `${c.name}: no stack trace`);
  }
  t.equal((await ctx.tenancy.listUserMemberships(s.userId)).length, 1, 'no organization was created by bad requests');
});

t.test('configuration errors name the variable', async (t) => {
  const base = { MONGODB_URI: 'mongodb://127.0.0.1:1/', REDIS_URL: 'redis://127.0.0.1:1', ...TEST_SECRETS };
  t.throws(() => loadConfig({ ...base, JWT_SECRET: undefined }), { message: /JWT_SECRET is missing/ });
  t.throws(() => loadConfig({ ...base, PORT: 'eighty' }), { message: /PORT is invalid/ });
  t.throws(() => loadConfig({ ...base, ENCRYPTION_KEY: 'short' }), { message: /ENCRYPTION_KEY is invalid/ });
  t.throws(() => loadConfig({ ...base, MONGODB_URI: 'http://x' }), { message: /MONGODB_URI is invalid/ });
  t.throws(() => loadConfig({ ...base, DRIFT_CONFIG: 'package.json' }), { message: /DRIFT_CONFIG/ });
  t.ok(loadConfig(base).PORT === 3000, 'defaults apply');
});

t.test('/health: 200 while up, 503 naming the part that is down', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const up = await app.inject({ method: 'GET', url: '/health' });
  t.equal(up.statusCode, 200);
  t.equal(up.json().database.status, 'up');
  ctx.redis.main.disconnect();
  const down = await app.inject({ method: 'GET', url: '/health' });
  t.equal(down.statusCode, 503);
  t.same(down.json().down, ['redis']);
});
