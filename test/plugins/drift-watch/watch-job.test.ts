// The Agenda wiring: a watch's job, once due, runs the watch (a scan of its config, here failing
// for want of a repository URL: the watch records a failed run), and the snooze-expiry job ends
// a snooze.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { RUN_JOB, SNOOZE_JOB } from '../../../plugins/drift-watch/service.ts';

t.test('the run job and the snooze-expiry job', async (t) => {
  const { app, ctx } = await buildTestApp(t, { runJobs: true });
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

  // Due now, as at its next fire time.
  await jobs.updateOne({ name: RUN_JOB, 'data.watchId': watch._id }, { $set: { nextRunAt: new Date() } });
  await until('the run to end', async () => (await api('GET', `/api/drift-watch/${watch._id}`)).lastRunStatus === 'failed');
  const after = await api('GET', `/api/drift-watch/${watch._id}`);
  t.match(after, { lastRunStatus: 'failed', lastError: /repositoryUrl is not set/ }, 'the job ran the watch; its scan failed and the run says so');
  const scan = (await api('GET', `/api/scans/${after.lastScanId}`)).data;
  t.match(scan, { triggeredBy: 'schedule', status: 'failed' }, 'through a scheduled scan of the config');
  t.equal((await api('GET', '/api/drift-watch/events')).total, 0, 'a failed run writes no event');

  await api('POST', `/api/drift-watch/${watch._id}/snooze`, { duration: '1h' });
  await jobs.updateOne({ name: SNOOZE_JOB, 'data.watchId': watch._id }, { $set: { nextRunAt: new Date() } });
  await ctx.db.db.collection('drift_watches').updateOne({ _id: watch._id }, { $set: { snoozedUntil: new Date(Date.now() - 1000) } });
  await until('the snooze to end', async () => (await api('GET', `/api/drift-watch/${watch._id}`)).status === 'active');
  t.pass('the expiry job ended the snooze');
});
