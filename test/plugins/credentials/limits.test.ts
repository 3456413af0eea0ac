import t from 'tap';
import { buildTestApp, register as registerFree, bearer } from '../../helper.ts';
import type { App } from '../../../core/app.ts';

/** On Team: saving credentials is what these tests are about, not the plan's cloud account limit (plan-limit.test.ts covers that). */
async function register(app: App['app']) {
  const s = await registerFree(app);
  await app.ctx.tenancy.setPlan(s.orgId, 'team');
  return s;
}

const A = { accessKeyId: 'AKIAIOSFODNN7EXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYSECRETKEY', region: 'eu-west-1' };
const B = { subscriptionId: 'sub-0000-1111-2222', tenantId: 'tenant-0000-1111-2222', clientId: 'client-0000-1111-2222', clientSecret: 'b-secret' };
const DAY_MS = 24 * 60 * 60 * 1000;

t.test('credentials rate limit: 60 per hour per user, then 429 with Retry-After', async (t) => {
  const { app } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);

  const first = await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials', headers: h });
  t.equal(first.statusCode, 200);
  t.equal(first.headers['ratelimit-limit'], '60', 'the limit is announced');
  t.equal(first.headers['ratelimit-remaining'], '59', 'with what is left');

  // Every credential route draws on the same budget.
  const urls = ['/api/auth/cloud-a-credentials', '/api/auth/cloud-b-credentials', '/api/auth/cloud-c-credentials', '/api/auth/credential-rotation-status'];
  for (let i = 2; i <= 60; i++) {
    const res = await app.inject({ method: 'GET', url: urls[i % urls.length], headers: h });
    if (res.statusCode !== 200) t.fail(`request ${i} answered ${res.statusCode}`);
  }
  const over = await app.inject({ method: 'GET', url: '/api/auth/cloud-b-credentials', headers: h });
  t.equal(over.statusCode, 429, 'the 61st request within the hour is refused');
  t.equal(over.json().error.code, 'rate_limited', 'in the error shape');
  const retryAfter = Number(over.headers['retry-after']);
  t.ok(retryAfter > 0 && retryAfter <= 3600, `with Retry-After in seconds (${over.headers['retry-after']})`);
  const write = await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: h, payload: A });
  t.equal(write.statusCode, 429, 'writes share the budget');

  const other = await register(app);
  const fresh = await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials', headers: bearer(other.token) });
  t.equal(fresh.statusCode, 200, 'another user has their own budget');
});

t.test('fail-closed: with Redis down the credential routes answer 503 and store nothing', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  ctx.redis.main.disconnect();

  const post = await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: h, payload: A });
  t.equal(post.statusCode, 503, 'POST is refused');
  t.equal(post.json().error.code, 'store_unavailable', 'in the error shape');
  const get = await app.inject({ method: 'GET', url: '/api/auth/cloud-a-credentials/full', headers: h });
  t.equal(get.statusCode, 503, 'reads too');
  t.equal(await ctx.db.db.collection('cloud_credentials').countDocuments({ orgId: s.orgId }), 0, 'nothing was stored');
});

t.test('rotation status: the oldest stored credential decides', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const s = await register(app);
  const h = bearer(s.token);
  const raw = ctx.db.db.collection('cloud_credentials');
  const status = async () => {
    const res = await app.inject({ method: 'GET', url: '/api/auth/credential-rotation-status', headers: h });
    t.equal(res.statusCode, 200);
    return res.json();
  };
  const thresholds = { warningDays: 30, requiredDays: 90 };

  t.same(await status(), { rotationRequired: false, rotationRecommended: false, daysUntilRequired: null, lastRotatedAt: null, thresholds },
    'nothing stored: nothing to rotate');

  const saved = await app.inject({ method: 'POST', url: '/api/auth/cloud-a-credentials', headers: h, payload: A });
  t.same(await status(), { rotationRequired: false, rotationRecommended: false, daysUntilRequired: 90, lastRotatedAt: saved.json().lastUpdated, thresholds },
    'fresh credentials: 90 days to go');

  await app.inject({ method: 'POST', url: '/api/auth/cloud-b-credentials', headers: h, payload: B });
  const forty = new Date(Date.now() - 40 * DAY_MS);
  await raw.updateOne({ orgId: s.orgId, provider: 'cloud_a' }, { $set: { lastUpdated: forty } });
  t.same(await status(), { rotationRequired: false, rotationRecommended: true, daysUntilRequired: 50, lastRotatedAt: forty.toISOString(), thresholds },
    '40 days old (beside a fresh one): rotation recommended, 50 days until required');

  const ninetyFive = new Date(Date.now() - 95 * DAY_MS);
  await raw.updateOne({ orgId: s.orgId, provider: 'cloud_b' }, { $set: { lastUpdated: ninetyFive } });
  t.same(await status(), { rotationRequired: true, rotationRecommended: true, daysUntilRequired: 0, lastRotatedAt: ninetyFive.toISOString(), thresholds },
    '95 days old: rotation required');

  await app.inject({ method: 'POST', url: '/api/auth/cloud-b-credentials', headers: h, payload: B });
  const after = await status();
  t.equal(after.rotationRequired, false, 'saving the stale credential again rotates it');
  t.equal(after.lastRotatedAt, forty.toISOString(), 'and the next oldest decides');
});
