import t from 'tap';
import { cronTickAtOrBefore } from '../../../plugins/scans/service.ts';
import { world } from '../../fixtures/world.ts';
import { SCHEDULED_SCAN_JOB } from '../../../plugins/repo-configs/service.ts';

const jobsOf = (w: Awaited<ReturnType<typeof world>>, id: string) =>
  w.ctx.db.db.collection('agenda_jobs').find({ name: SCHEDULED_SCAN_JOB, 'data.repoConfigId': id }).toArray();

t.test('scheduleCron: validated, scheduled, moved, removed', async (t) => {
  const w = await world(t);
  for (const cron of ['not a cron', '61 * * * *', '* * * * * *', '0 0 32 * *']) {
    const res = await w.api('POST', '/api/repo-configs', { repositoryName: 'a/b', branch: 'main', provider: 'cloud_a', scheduleCron: cron });
    t.equal(res.status, 400, `"${cron}" is refused with 400`);
    t.match(res.body.error.message, /scheduleCron/, 'naming the field');
  }
  const id = await w.config('acme/cron', { scheduleCron: '0 3 * * *' });
  let jobs = await jobsOf(w, id);
  t.equal(jobs.length, 1, 'one Agenda job for the config');
  t.equal(jobs[0].repeatInterval, '0 3 * * *', 'repeating on the cron');
  t.equal(new Date(jobs[0].nextRunAt).getUTCHours(), 3, 'next run at 03:00 UTC');
  const edit = await w.api('GET', `/api/repo-configs/${id}/edit`);
  t.equal(new Date(edit.body.data.nextScheduledAt).getUTCHours(), 3, 'edit view shows the next run');

  await w.api('PUT', `/api/repo-configs/${id}`, { scheduleCron: '30 5 * * 1' });
  jobs = await jobsOf(w, id);
  t.equal(jobs.length, 1, 'changing the cron keeps one job');
  t.equal(jobs[0].repeatInterval, '30 5 * * 1', 'moved to the new cron');

  const other = await w.config('acme/other', { scheduleCron: '*/15 * * * *' });
  t.equal((await jobsOf(w, other)).length, 1, 'each config has its own job');
  t.equal((await jobsOf(w, id)).length, 1, 'without replacing the first one');

  await w.api('PUT', `/api/repo-configs/${id}`, { scheduleCron: null });
  t.equal((await jobsOf(w, id)).length, 0, 'removing the cron removes the job');
  await w.api('DELETE', `/api/repo-configs/${other}`);
  t.equal((await jobsOf(w, other)).length, 0, 'deleting the config removes its job');
});

t.test('the scheduled job creates a scan triggeredBy schedule, once per tick', async (t) => {
  const w = await world(t);
  const id = await w.config('acme/cron', { scheduleCron: '0 * * * *' });
  const tick = new Date();
  const runs = await Promise.all([1, 2, 3].map(() => w.scans.runScheduled(w.owner.orgId, id, tick)));
  const made = runs.filter(Boolean);
  t.equal(made.length, 1, 'three processes running the same tick make one scan');
  t.match(made[0], { status: 'pending', triggeredBy: 'schedule', repositoryConfig: id });
  // Two processes run the 10:00 tick, one at 10:00:59.9 and one late at 10:01:00.2: still one tick.
  const every2 = await w.config('acme/cron2', { scheduleCron: '*/2 * * * *' });
  const late = await Promise.all([new Date('2026-11-22T10:00:59.900Z'), new Date('2026-11-22T10:01:00.200Z')].map((at) => w.scans.runScheduled(w.owner.orgId, every2, at)));
  t.equal(late.filter(Boolean).length, 1, 'runs either side of a minute boundary name the same cron tick');
  t.same([cronTickAtOrBefore('*/2 * * * *', new Date('2026-11-22T10:02:00.000Z')), cronTickAtOrBefore('0 * * * *', new Date('2026-11-22T10:59:00Z'))],
    [new Date('2026-11-22T10:02:00.000Z'), new Date('2026-11-22T10:00:00.000Z')], 'a tick exactly at the run counts; otherwise the previous one');
});
