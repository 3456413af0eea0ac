// The general audit trail (GET /api/audit-logs) and retention per plan (AUDIT_RETENTION_DAYS).
import t from 'tap';
import type { AuditEntry } from '../../../core/audit.ts';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { parseRetention, RETENTION_JOB } from '../../../plugins/audit-logs/retention.ts';
import auditLogsPlugin from '../../../plugins/audit-logs/index.ts';
import type { AppContext } from '../../../core/context.ts';
import { addMember, auditEntry as entry, DAY } from './helper.ts';

t.test('GET /api/audit-logs: the general trail of the caller organization, owner/admin only', async (t) => {
  const b = await buildTestApp(t);
  const { app, ctx } = b;
  const owner = await register(app);
  const admin = await addMember(b, owner.orgId, 'admin');
  const viewer = await addMember(b, owner.orgId, 'viewer');
  await app.inject({ method: 'PUT', url: `/api/orgs/${owner.orgId}`, headers: { ...bearer(admin.token), 'user-agent': 'trail-test' }, payload: { name: 'Trail' } });
  await ctx.audit.flush();

  const res = await app.inject({ method: 'GET', url: '/api/audit-logs', headers: { ...bearer(admin.token), 'x-org-id': owner.orgId } });
  t.equal(res.statusCode, 200);
  const body = res.json();
  t.same(Object.keys(body).sort(), ['logs', 'page', 'pages', 'total']);
  const e = body.logs.find((l: { action: string }) => l.action === 'org.updated');
  t.same(Object.keys(e).sort(), ['_id', 'action', 'details', 'ipAddress', 'resourceId', 'resourceType', 'timestamp', 'userAgent', 'userId']);
  t.match(e, { userId: admin.userId, resourceType: 'orgs', resourceId: owner.orgId, userAgent: 'trail-test', details: { statusCode: 200, method: 'PUT', body: { name: 'Trail' } } });
  t.ok(e.ipAddress && e.timestamp.endsWith('Z'), 'UTC timestamp and IP');

  const byUser = (await app.inject({ method: 'GET', url: `/api/audit-logs?userId=${admin.userId}&action=org.updated`, headers: { ...bearer(owner.token) } })).json();
  t.equal(byUser.total, 1, "the owner's default organization, filtered by user and action");
  const noneYet = (await app.inject({ method: 'GET', url: `/api/audit-logs?to=${new Date(Date.now() - DAY).toISOString()}`, headers: bearer(owner.token) })).json();
  t.equal(noneYet.total, 0, 'to filter');
  t.equal((await app.inject({ method: 'GET', url: '/api/audit-logs', headers: { ...bearer(viewer.token), 'x-org-id': owner.orgId } })).statusCode, 403, 'viewer: 403');
  const own = (await app.inject({ method: 'GET', url: '/api/audit-logs', headers: bearer(viewer.token) })).json();
  t.ok(own.logs.every((l: { resourceId: string }) => l.resourceId !== owner.orgId), "without x-org-id: the viewer's own default organization, not this one");
});

t.test('retention: per plan, one statement per group, idempotent, run by the scheduled job', async (t) => {
  const b = await buildTestApp(t, { runJobs: true });
  const { app, ctx } = b;
  const orgs: Record<string, string> = {};
  for (const plan of ['free', 'pro', 'team', 'enterprise'] as const) {
    const s = await register(app);
    await ctx.tenancy.setPlan(s.orgId, plan);
    orgs[plan] = s.orgId;
  }
  const logs = ctx.db.db.collection<AuditEntry>('audit_logs');
  await ctx.audit.flush(); // the trail is written after the response: the last sign-up may still be on its way
  await logs.deleteMany({ timestamp: { $gte: new Date(0) } }); // the sign-up entries: start from none
  const ago = (days: number) => new Date(Date.now() - days * DAY);
  const keep: Record<string, number> = { free: 7, pro: 30, team: 90, enterprise: 365 };
  const seeded: AuditEntry[] = [];
  for (const [plan, days] of Object.entries(keep)) {
    seeded.push(entry(orgs[plan], { action: `${plan}.old`, timestamp: ago(days + 1) }));
    seeded.push(entry(orgs[plan], { action: `${plan}.kept`, timestamp: ago(days - 1) }));
  }
  seeded.push(entry(null, { action: 'none.old', timestamp: ago(366) }), entry(null, { action: 'none.kept', timestamp: ago(300) }));
  seeded.push(entry('deadbeefdeadbeefdeadbeef', { action: 'gone.old', timestamp: ago(400) }));
  await logs.insertMany(seeded);

  const jobs = await ctx.db.db.collection('agenda_jobs').find({ name: RETENTION_JOB }).toArray();
  t.equal(jobs.length, 1, 'the retention job is scheduled (hourly)');
  await ctx.scheduler.now(RETENTION_JOB, {});
  let left: string[] = [];
  for (let i = 0; i < 100; i++) {
    await new Promise((r) => setTimeout(r, 100));
    left = (await logs.find({ timestamp: { $gte: new Date(0) } }).toArray()).map((e) => e.action).sort();
    if (!left.some((a) => a.endsWith('.old'))) break;
  }
  t.same(left, ['enterprise.kept', 'free.kept', 'none.kept', 'pro.kept', 'team.kept'],
    'Free 7, Pro 30, Team 90, Enterprise 365 days; entries without an organization 365; deleted organizations at the longest');

  const service = b.services['audit-logs']!;
  const again = await service.purge();
  t.equal(again.deleted, 0, 'a second run deletes nothing (idempotent)');
  t.equal(again.statements, 4, 'one statement for the longest retention, one per shorter plan group');
});

t.test('AUDIT_RETENTION_DAYS: defaults, overrides, clear errors at boot', async (t) => {
  t.same(parseRetention(undefined), { days: { free: 7, pro: 30, team: 90, enterprise: 365 }, noOrgDays: 365 }, 'the spec defaults');
  t.same(parseRetention('free=14, enterprise=730,none=30'), { days: { free: 14, pro: 30, team: 90, enterprise: 730 }, noOrgDays: 30 }, 'overrides, the rest default');
  t.throws(() => parseRetention('frea=3'), /unknown plan "frea"; did you mean "free"\?/);
  t.throws(() => parseRetention('pro=0'), /AUDIT_RETENTION_DAYS pro=0 must be a whole number of days/);
  t.throws(() => parseRetention('pro=2.5'), /whole number/);
  t.throws(() => parseRetention('pro'), /must look like plan=days/);

  // The plugin reads the variable when the app builds it, before it touches anything else.
  const saved = process.env.AUDIT_RETENTION_DAYS;
  process.env.AUDIT_RETENTION_DAYS = 'team=ninety';
  try {
    t.throws(() => auditLogsPlugin.build({} as AppContext, {}), /Configuration error: AUDIT_RETENTION_DAYS team=ninety/, 'the app does not start with a bad value');
  } finally {
    if (saved === undefined) delete process.env.AUDIT_RETENTION_DAYS;
    else process.env.AUDIT_RETENTION_DAYS = saved;
  }
});
