// The job loop's wiring: a watch, once due, is run by the due scan (a scan of its config, here
// failing for want of a repository URL: the watch records a failed run) and moved to its next
// due minute; a watch of the old kind (an Agenda job, no due minute) is moved over; the
// snooze-expiry job ends a snooze.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { RUN_JOB, SNOOZE_JOB, cronOf } from '../../../plugins/drift-watch/service.ts';
import { nextDueMinute } from '../../../core/due-scan.ts';

t.test('the due scan, the move from Agenda jobs, and the snooze-expiry job', async (t) => {
  const { app, ctx, services } = await buildTestApp(t, { runJobs: true });
  const s = await register(app);
  await ctx.tenancy.setPlan(s.orgId, 'pro');
  const api = async (method: 'GET' | 'POST', url: string, payload?: object) =>
    (await app.inject({ method, url, headers: bearer(s.token), ...(payload ? { payload } : {}) })).json();
  const config = (await api('POST', '/api/repo-configs', { repositoryName: 'acme/job', branch: 'main', provider: 'cloud_a' })).data._id;
  const watch = await api('POST', '/api/drift-watch', { name: 'Job', repositoryId: config, interval: '1h' });
  const jobs = ctx.db.db.collection('agenda_jobs');
  const until = async (what: string, check: () => Promise<boolean>) => {
    for (let i = 0; i < 150; i++) { if (await check()) return; await new Promise((r) => setTimeout(r, 200)); }
    throw new Error(`timed out waiting for ${what}`);
  };

  const watches = ctx.db.db.collection('drift_watches');
  t.equal(await jobs.countDocuments({ name: RUN_JOB }), 0, 'no Agenda job per watch');
  // Due now, as at its next fire time.
  const nowMinute = Math.floor(Date.now() / 60_000);
  await watches.updateOne({ _id: watch._id }, { $set: { dueMinute: nowMinute } });
  await until('the run to end', async () => (await api('GET', `/api/drift-watch/${watch._id}`)).lastRunStatus === 'failed');
  const after = await api('GET', `/api/drift-watch/${watch._id}`);
  t.match(after, { lastRunStatus: 'failed', lastError: /repositoryUrl is not set/ }, 'the job ran the watch; its scan failed and the run says so');
  const scan = (await api('GET', `/api/scans/${after.lastScanId}`)).data;
  t.match(scan, { triggeredBy: 'schedule', status: 'failed' }, 'through a scheduled scan of the config');
  t.equal((await api('GET', '/api/drift-watch/events')).total, 0, 'a failed run writes no event');
  await until('the watch to move on', async () => ((await watches.findOne({ _id: watch._id }))?.dueMinute ?? 0) > nowMinute);
  t.equal((await watches.findOne({ _id: watch._id }))?.dueMinute, nextDueMinute(cronOf(watch._id, '1h'), new Date(nowMinute * 60_000 + 59_999)), 'then due at the next fire of its cron');

  // A watch of the old kind: an Agenda job and no due minute. The first sweep of a process moves it over.
  const old = await api('POST', '/api/drift-watch', { name: 'Old', repositoryId: config, interval: '6h' });
  await watches.updateOne({ _id: old._id }, { $unset: { dueMinute: '' } });
  await ctx.scheduler.agenda.create(RUN_JOB, { orgId: s.orgId, watchId: old._id }).repeatEvery(cronOf(old._id, '6h'), { timezone: 'UTC', skipImmediate: true }).save();
  await services['drift-watch']!.migrate();
  t.equal(await jobs.countDocuments({ name: RUN_JOB }), 0, 'its Agenda job is gone');
  t.equal((await watches.findOne({ _id: old._id }))?.dueMinute, nextDueMinute(cronOf(old._id, '6h'), new Date()), 'it is due at the next fire of its cron');

  await api('POST', `/api/drift-watch/${watch._id}/snooze`, { duration: '1h' });
  await jobs.updateOne({ name: SNOOZE_JOB, 'data.watchId': watch._id }, { $set: { nextRunAt: new Date() } });
  await ctx.db.db.collection('drift_watches').updateOne({ _id: watch._id }, { $set: { snoozedUntil: new Date(Date.now() - 1000) } });
  await until('the snooze to end', async () => (await api('GET', `/api/drift-watch/${watch._id}`)).status === 'active');
  t.pass('the expiry job ended the snooze');
});
