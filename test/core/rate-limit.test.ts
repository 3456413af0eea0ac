import t from 'tap';
import { buildTestApp, uniqueEmail } from '../helper.ts';

t.test('Auth limit: 50 per 15 minutes per IP, with headers and Retry-After', async (t) => {
  const { app } = await buildTestApp(t);
  const login = () => app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() } });
  const first = await login();
  t.equal(first.statusCode, 200);
  t.equal(first.headers['ratelimit-limit'], '50');
  t.equal(first.headers['ratelimit-remaining'], '49');
  t.equal(first.headers['ratelimit-policy'], '50;w=900');
  for (let i = 0; i < 49; i++) await login();
  const limited = await login();
  t.equal(limited.statusCode, 429, 'the 51st request is limited');
  t.equal(limited.json().error.code, 'rate_limited');
  t.ok(Number(limited.headers['retry-after']) > 0, 'with Retry-After');
  const otherIp = await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() }, remoteAddress: '10.9.9.9' });
  t.equal(otherIp.statusCode, 200, 'another IP has its own budget');
});

t.test('Auth limit fails open when Redis is down', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  ctx.redis.main.disconnect();
  const res = await app.inject({ method: 'POST', url: '/api/auth/forgot-password', payload: { email: uniqueEmail() } });
  t.equal(res.statusCode, 200, 'sign-in flows keep working without Redis');
});
