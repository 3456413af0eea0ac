// Admin routes: platform admins only; statistics, users (never a hash or token field), health
// with the workers, usage analytics from request metrics without personal data.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { admin } from './admin-session.ts';

t.test('admin routes: access, dashboard, users, health, analytics', async (t) => {
  const { app, ctx, services } = await buildTestApp(t);
  const user = await register(app, `alice-${Date.now()}@example.com`);
  const boss = await admin(app, services, `boss-${Date.now()}@example.com`);
  const get = (url: string, token?: string) => app.inject({ method: 'GET', url, headers: token ? bearer(token) : {} });

  t.equal((await get('/api/admin/dashboard')).statusCode, 401, 'no token: 401');
  const denied = await get('/api/admin/dashboard', user.token);
  t.equal(denied.statusCode, 403, 'a user without the platform admin role: 403');
  t.equal(denied.json().error.code, 'forbidden');
  const cli = (await app.inject({ method: 'POST', url: '/api/auth/cli-tokens', headers: bearer(boss.token), payload: { name: 'x', scopes: ['scans:read'], allRepositories: true } })).json().token;
  t.equal((await get('/api/admin/dashboard', cli)).statusCode, 403, "an admin's CLI token does not carry the role");

  // Some data in alice's organization.
  const config = (await app.inject({ method: 'POST', url: '/api/repo-configs', headers: bearer(user.token), payload: { repositoryName: 'acme/infra', branch: 'main', provider: 'cloud_a' } })).json().data;
  await app.inject({ method: 'POST', url: `/api/scans/trigger/${config._id}`, headers: bearer(user.token) });
  await app.inject({ method: 'POST', url: '/api/runners', headers: bearer(user.token), payload: { name: 'r1' } });

  const dash = await get('/api/admin/dashboard', boss.token);
  t.equal(dash.statusCode, 200);
  t.match(dash.json(), { success: true, data: { totalUsers: 2, totalScans: 1, totalDrifts: 0, totalRepositories: 1, activeRunners: 0 } });
  t.equal(dash.json().data.activeUsers, 2, 'both users made authenticated requests today');

  const users = await get('/api/admin/users?limit=1', boss.token);
  t.equal(users.statusCode, 200);
  t.match(users.json(), { success: true, pagination: { page: 1, limit: 1, total: 2, pages: 2 } });
  t.equal(users.json().data.length, 1);
  const found = (await get('/api/admin/users?search=ALICE', boss.token)).json();
  t.equal(found.pagination.total, 1, 'search is a case-insensitive substring of the email');
  t.match(found.data[0], { _id: user.userId, email: user.email, role: 'user', repoConfigCount: 1, scanCount: 1 });
  t.ok('lastLoginAt' in found.data[0] && 'createdAt' in found.data[0]);
  const bossRow = (await get(`/api/admin/users?search=${encodeURIComponent('boss-')}`, boss.token)).json().data[0];
  t.ok(bossRow.lastLoginAt, 'lastLoginAt set at login');
  t.notMatch(JSON.stringify(found), /password|hash|token/i, 'no password hash or token field');
  t.equal((await get('/api/admin/users?search=a.b*', boss.token)).json().pagination.total, 0, 'search text is literal, not a pattern');
  t.equal((await get('/api/admin/users?limit=500', boss.token)).statusCode, 400, 'limit at most 100');

  const health = (await get('/api/admin/health', boss.token)).json().data;
  // A probe slower than 1.5 s reads as down (a loaded test machine): the shape, not the verdict.
  t.match(health, { status: /^(ok|degraded)$/, database: { status: /^(up|down)$/ }, redis: { status: /^(up|down)$/ }, workers: { scheduler: 'stopped' } });
  t.type(health.uptime, 'number');
  const execute = health.workers.jobs.find((j: { name: string }) => j.name === 'scans.execute');
  t.match(execute, { defined: true }, 'each defined job is listed');
  t.ok(execute.due + execute.running + execute.scheduled >= 1, 'the triggered scan has its execute job');

  const behavior = (await get('/api/admin/behavior-analytics?days=7', boss.token)).json().data;
  t.equal(behavior.days.length, 7);
  const today = behavior.days[6];
  t.equal(today.activeUsers, 2);
  t.ok(today.requests >= 8, `requests counted (${today.requests})`);
  t.ok(today.clientErrors >= 3, 'the 401/403/400 answers are client errors');
  const repoFeature = behavior.features.find((f: { feature: string }) => f.feature === 'repo-configs');
  t.same(repoFeature, { feature: 'repo-configs', requests: 1, byPlan: { free: 1 } }, 'features by plan');
  const nav = (await get('/api/admin/navigation-analytics', boss.token)).json().data;
  const listUsers = nav.routes.find((r: { route: string }) => r.route === 'listAdminUsers');
  t.match(listUsers, { feature: 'admin', byPlan: { none: listUsers.requests } });
  t.ok(listUsers.byStatus['400'] >= 1 && listUsers.byStatus['200'] >= 4);
  t.ok(nav.byPlan.free.some((r: { route: string }) => r.route === 'triggerScan'), 'most used routes per plan');
  const stored = JSON.stringify(await ctx.redis.main.hgetall(`usage:${today.day}`));
  t.notOk(stored.includes(user.userId) || stored.includes(user.email) || stored.includes(config._id), 'no user id, email or record id is stored');
});

