// An organization's audit log: shape, filters, pages, commands per page, and its CSV export.
import t from 'tap';
import type { AuditEntry } from '../../../core/audit.ts';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { addMember, auditEntry as entry, DAY } from './helper.ts';

t.test('organization audit log: shape, filters, pages, newest first', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const orgId = owner.orgId;
  const m = await addMember(b, orgId, 'member');
  // Real entries from requests, then a bulk of seeded ones at known times.
  await app.inject({ method: 'PUT', url: `/api/orgs/${orgId}/members/${m.userId}`, headers: { ...bearer(owner.token), 'user-agent': 'audit-test' }, payload: { role: 'viewer' } });
  await ctx.audit.flush();
  const logs = ctx.db.db.collection<AuditEntry>('audit_logs');
  const base = Date.now() - 10 * DAY;
  await logs.insertMany(Array.from({ length: 60 }, (_, i) => entry(orgId, {
    action: i % 2 ? 'member.invited' : 'org.updated', userId: i % 3 ? owner.userId : m.userId, actorName: 'x@example.com', timestamp: new Date(base + i * 60_000),
  })));
  const other = await register(app);
  await logs.insertOne(entry(other.orgId, { action: 'member.invited', timestamp: new Date(base) }));
  const get = (qs = '', token = owner.token) => app.inject({ method: 'GET', url: `/api/orgs/${orgId}/audit-logs${qs}`, headers: bearer(token) });

  const first = await get();
  t.equal(first.statusCode, 200);
  const body = first.json();
  t.same(Object.keys(body).sort(), ['logs', 'page', 'pages', 'total']);
  t.equal(body.logs.length, 50, 'default limit 50');
  t.ok(body.total >= 61, 'total counts every entry of the organization');
  t.equal(body.pages, Math.ceil(body.total / 50));
  const real = body.logs[0];
  t.same(Object.keys(real).sort(), ['_id', 'action', 'actor', 'ip', 'metadata', 'target', 'timestamp']);
  t.match(real, {
    action: 'member.role_changed',
    actor: { userId: owner.userId, username: owner.email.split('@')[0] },
    target: { type: 'member', id: m.userId },
    metadata: { from: 'member', to: 'viewer', statusCode: 200, method: 'PUT', route: '/api/orgs/:orgId/members/:userId', body: { role: 'viewer' }, userAgent: 'audit-test' },
  }, 'newest first, with actor name, target and metadata');
  t.ok(real.ip && Date.parse(real.timestamp), 'ip and timestamp');
  const times = body.logs.map((l: { timestamp: string }) => Date.parse(l.timestamp));
  t.same(times, [...times].sort((a, b) => b - a), 'sorted newest first');

  const page2 = (await get('?page=2')).json();
  t.equal(page2.page, 2);
  t.notOk(page2.logs.some((l: { _id: string }) => body.logs.some((f: { _id: string }) => f._id === l._id)), 'pages do not overlap');

  const invited = (await get('?action=member.invited&limit=100')).json();
  t.equal(invited.total, 30, 'action filter');
  t.ok(invited.logs.every((l: { action: string }) => l.action === 'member.invited'));
  const byActor = (await get(`?actorId=${m.userId}&limit=100`)).json();
  t.equal(byActor.total, 20, 'actorId filter');
  const both = (await get(`?actorId=${m.userId}&action=org.updated&limit=100`)).json();
  t.equal(both.total, 10, 'action and actorId together');
  const from = new Date(base + 10 * 60_000).toISOString();
  const to = new Date(base + 19 * 60_000).toISOString();
  const window = (await get(`?from=${from}&to=${to}&limit=100`)).json();
  t.equal(window.total, 10, 'from and to, both inclusive');
  t.equal((await get(`?from=${to}&to=${from}`)).statusCode, 400, 'from after to: 400');
  t.equal((await get('?from=yesterday')).statusCode, 400, 'not ISO 8601: 400');
  t.equal((await get('?limit=101')).statusCode, 400, 'limit above 100: 400');
  t.notOk((await get('?limit=100&page=1')).json().logs.some((l: { _id: string }) => l._id === undefined), 'well formed');
  const seeded = (await get('?action=org.updated&limit=1')).json().logs[0];
  t.same(seeded.actor, { userId: owner.userId, username: owner.email.split('@')[0] }, "the actor's current name");
  const byMember = (await get(`?actorId=${m.userId}&limit=1`)).json().logs[0];
  t.same(byMember.actor, { userId: m.userId, username: m.email.split('@')[0] });
  t.equal((await get('', m.token)).statusCode, 403, 'a member (no org:admin): 403');

  // Database commands per page do not grow with the page size.
  await get('?limit=5');
  let before = ctx.db.commandCount();
  await get('?limit=5');
  const small = ctx.db.commandCount() - before;
  before = ctx.db.commandCount();
  await get('?limit=100');
  const large = ctx.db.commandCount() - before;
  t.equal(large, small, `commands per request: ${small} for 5 entries, ${large} for 100`);
  t.ok(small <= 3, 'entries, count and actor names');
});

t.test('CSV export: Team plan, streams the same query, escapes formulas', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const orgId = owner.orgId;
  const url = `/api/orgs/${orgId}/audit-logs/export`;
  const free = await app.inject({ method: 'GET', url, headers: bearer(owner.token) });
  t.equal(free.statusCode, 403, 'Free plan: 403');
  t.equal(free.json().error.code, 'plan_required');
  await ctx.tenancy.setPlan(orgId, 'team');

  const logs = ctx.db.db.collection<AuditEntry>('audit_logs');
  await ctx.audit.flush();
  await logs.deleteMany({ orgId });
  const base = Date.now() - DAY;
  await logs.insertMany(Array.from({ length: 1203 }, (_, i) => entry(orgId, {
    action: i % 2 ? 'member.invited' : 'org.updated', userId: owner.userId, timestamp: new Date(base + i * 1000),
    details: { target: { type: 'member', id: `u${i}` }, note: i === 0 ? '=HYPERLINK("http://evil")' : 'ok, "quoted"' },
  })));

  const res = await app.inject({ method: 'GET', url, headers: bearer(owner.token) });
  t.equal(res.statusCode, 200);
  t.match(res.headers['content-type'], /^text\/csv/);
  t.match(res.headers['content-disposition'], new RegExp(`attachment; filename="audit-logs-${orgId}-\\d{4}-\\d{2}-\\d{2}\\.csv"`));
  const lines = res.body.trim().split('\n');
  t.equal(lines[0], 'timestamp,action,actorUserId,actorUsername,targetType,targetId,ip,statusCode,metadata', 'header row');
  t.equal(lines.length, 1 + 1203, 'one row per entry, across several cursor batches');
  t.match(lines[1], new RegExp(`^${new Date(base + 1202 * 1000).toISOString()},org.updated,${owner.userId},${owner.email.split('@')[0]},member,u1202,10.0.0.1,200,`), 'newest first, with actor name and target');
  t.match(lines[1], /"ok, \\""quoted\\"""/, 'quotes and commas escaped');
  t.notOk(res.body.includes(',"=HYPERLINK') || res.body.includes(',=HYPERLINK'), 'no cell starts with a formula');

  const filtered = await app.inject({ method: 'GET', url: `${url}?action=org.updated&from=${new Date(base + 1000 * 1000).toISOString()}`, headers: bearer(owner.token) });
  const rows = filtered.body.trim().split('\n').slice(1);
  t.equal(rows.length, 102, 'the same filters as the list');
  t.ok(rows.every((r) => r.split(',')[1] === 'org.updated'));
  t.equal((await app.inject({ method: 'GET', url: `${url}?from=2030-01-01T00:00:00Z&to=2020-01-01T00:00:00Z`, headers: bearer(owner.token) })).statusCode, 400, 'bad window: 400 before streaming');
});
