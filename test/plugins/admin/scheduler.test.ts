// Admin scheduler routes: status, run once per tick under the quota, fix; both actions audited.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { admin } from './admin-session.ts';
import { SCHEDULED_SCAN_JOB } from '../../../plugins/repo-configs/service.ts';

t.test('scheduler: status, run once per tick under the quota, fix, audited', async (t) => {
  const { app, ctx, services } = await buildTestApp(t);
  const user = await register(app);
  const boss = await admin(app, services, `boss2-${Date.now()}@example.com`);
  const call = (method: 'GET' | 'POST', url: string) => app.inject({ method, url, headers: bearer(boss.token) });
  const make = async (name: string) => (await app.inject({ method: 'POST', url: '/api/repo-configs', headers: bearer(user.token), payload: { repositoryName: name, branch: 'main', provider: 'cloud_a', scheduleCron: '*/5 * * * *' } })).json().data;
  await ctx.tenancy.setPlan(user.orgId, 'team');
  const a = await make('acme/a');
  const b = await make('acme/b');

  const status = (await call('GET', '/api/admin/scheduler/status')).json().data;
  t.match(status, { running: false, pendingScans: 0, scheduledRepos: 2 });
  const firstDue = Math.min(...(await ctx.db.db.collection('repo_configs').find({ _id: { $in: [a._id, b._id] } }).toArray()).map((c) => c.dueMinute * 60_000));
  t.ok(Date.parse(status.nextRun) > Date.now() && Date.parse(status.nextRun) === firstDue, 'nextRun is the earliest due minute of a scheduled config');

  const run = await call('POST', '/api/admin/scheduler/run');
  t.equal(run.statusCode, 200);
  t.match(run.json().data, { checked: 2, skipped: 0 });
  t.same(run.json().data.started.map((s: { repositoryConfig: string }) => s.repositoryConfig).sort(), [a._id, b._id].sort());
  const again = (await call('POST', '/api/admin/scheduler/run')).json().data;
  t.match(again, { checked: 2, started: [], skipped: 2 }, 'the same tick never gets a second scan');
  t.equal((await call('GET', '/api/admin/scheduler/status')).json().data.pendingScans, 2);
  const scans = (await app.inject({ method: 'GET', url: '/api/scans', headers: bearer(user.token) })).json().data;
  t.ok(scans.every((s: { triggeredBy: string }) => s.triggeredBy === 'schedule'));

  // Break the schedule: a loses its due minute (a config stored before the due scan), and two
  // Agenda jobs of the old kind are left: one of b (the due minute schedules it already), one of no config.
  const jobs = ctx.db.db.collection('agenda_jobs');
  const configs = ctx.db.db.collection('repo_configs');
  await configs.updateOne({ _id: a._id }, { $unset: { dueMinute: '' } });
  const old = (data: Record<string, string>) => ctx.scheduler.agenda.create(SCHEDULED_SCAN_JOB, data).repeatEvery('*/5 * * * *', { timezone: 'UTC', skipImmediate: true }).save();
  await old({ orgId: user.orgId, repoConfigId: b._id });
  await old({ orgId: user.orgId, repoConfigId: 'f'.repeat(24) });
  const fixed = (await call('POST', '/api/admin/scheduler/fix')).json().data;
  t.same(fixed.created.map((c: { repositoryConfig: string }) => c.repositoryConfig), [a._id], 'the config without a due minute gets one');
  t.same(fixed.removed.map((r: { reason: string }) => r.reason).sort(), ['duplicate', 'no-schedule'], 'the old jobs go');
  t.equal(await jobs.countDocuments({ name: SCHEDULED_SCAN_JOB }), 0, 'no Agenda job per config');
  t.equal(((await configs.findOne({ _id: a._id }))!.dueMinute * 60_000) % 300_000, 0, 'a is due at its next fire');
  t.same((await call('POST', '/api/admin/scheduler/fix')).json().data, { created: [], removed: [] }, 'a second fix changes nothing');

  // Under the quota: on Free (3 scans a day) a new tick of 2 configs after 2 scans starts 1.
  await ctx.tenancy.setPlan(user.orgId, 'free');
  await ctx.once.purgeBefore(new Date(Date.now() + 60_000));
  const limited = (await call('POST', '/api/admin/scheduler/run')).json().data;
  t.equal(limited.started.length, 1, "the organization's daily scan limit holds");

  await ctx.audit.flush();
  const trail = await ctx.db.db.collection('audit_logs').find({ orgId: null, action: { $in: ['admin.scheduler_run', 'admin.scheduler_fixed'] } }).toArray();
  t.equal(trail.filter((e) => e.action === 'admin.scheduler_run').length, 3, 'each run is audited');
  t.ok(trail.every((e) => e.orgId === null && e.userId === boss.userId), 'in the platform trail, with the admin as actor');
  // Two fixes are audited (the second changed nothing); the store returns them in no set order.
  const fixes = trail.filter((e) => e.action === 'admin.scheduler_fixed');
  t.equal(fixes.length, 2, 'each fix is audited');
  t.ok(fixes.some((e) => e.details.created.length === 1 && e.details.created[0].repositoryConfig === a._id), 'the first fix names the config it scheduled');
});

