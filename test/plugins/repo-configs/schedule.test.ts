import t from 'tap';
import { cronTickAtOrBefore } from '../../../plugins/scans/service.ts';
import { world } from '../../fixtures/world.ts';
import { SCHEDULED_SCAN_JOB } from '../../../plugins/repo-configs/service.ts';

const MINUTE = 60_000;
/** The config's due minute as a date (null: not scheduled), as the due scan reads it. */
const dueOf = async (w: Awaited<ReturnType<typeof world>>, id: string) => {
  const c = await w.ctx.db.db.collection('repo_configs').findOne({ _id: id as never });
  return c?.dueMinute == null ? null : new Date(c.dueMinute * MINUTE);
};

t.test('scheduleCron: validated, scheduled by due minute (no Agenda job), moved, removed', async (t) => {
  const w = await world(t);
  for (const cron of ['not a cron', '61 * * * *', '* * * * * *', '0 0 32 * *']) {
    const res = await w.api('POST', '/api/repo-configs', { repositoryName: 'a/b', branch: 'main', provider: 'cloud_a', scheduleCron: cron });
    t.equal(res.status, 400, `"${cron}" is refused with 400`);
    t.match(res.body.error.message, /scheduleCron/, 'naming the field');
  }
  const id = await w.config('acme/cron', { scheduleCron: '0 3 * * *' });
  const due = await dueOf(w, id);
  t.ok(due && due.getUTCHours() === 3 && due.getUTCMinutes() === 0 && due.getTime() > Date.now(), 'due at the next 03:00 UTC');
  t.equal(await w.ctx.db.db.collection('agenda_jobs').countDocuments({ name: SCHEDULED_SCAN_JOB, 'data.repoConfigId': id }), 0, 'no Agenda job for it');
  const edit = await w.api('GET', `/api/repo-configs/${id}/edit`);
  t.equal(edit.body.data.nextScheduledAt, due!.toISOString(), 'edit view shows the next run');

  await w.api('PUT', `/api/repo-configs/${id}`, { scheduleCron: '30 5 * * 1' });
  const moved = await dueOf(w, id);
  t.ok(moved && moved.getUTCDay() === 1 && moved.getUTCHours() === 5 && moved.getUTCMinutes() === 30, 'moved to the new cron (Monday 05:30)');
  await w.api('PUT', `/api/repo-configs/${id}`, { branch: 'dev' });
  t.same(await dueOf(w, id), moved, 'another change keeps the due minute');

  const other = await w.config('acme/other', { scheduleCron: '*/15 * * * *' });
  t.equal((await dueOf(w, other))!.getUTCMinutes() % 15, 0, 'each config has its own due minute');
  t.same(await dueOf(w, id), moved, 'without moving the first one');

  await w.api('PUT', `/api/repo-configs/${id}`, { scheduleCron: null });
  t.equal(await dueOf(w, id), null, 'removing the cron unschedules it');
  t.equal((await w.api('GET', `/api/repo-configs/${id}/edit`)).body.data.nextScheduledAt, null, 'the edit view says so');
  await w.api('DELETE', `/api/repo-configs/${other}`);
  t.equal(await w.ctx.db.db.collection('repo_configs').countDocuments({ _id: other as never }), 0, 'a deleted config takes its schedule with it');
});

t.test('a config stored before the due scan: its first sweep gives it a due minute and removes its Agenda job', async (t) => {
  const w = await world(t);
  const id = await w.config('acme/old', { scheduleCron: '*/10 * * * *' });
  const configs = w.ctx.db.db.collection('repo_configs');
  await configs.updateOne({ _id: id as never }, { $unset: { dueMinute: '' } });
  await w.ctx.scheduler.agenda.create(SCHEDULED_SCAN_JOB, { orgId: w.owner.orgId, repoConfigId: id }).repeatEvery('*/10 * * * *', { timezone: 'UTC', skipImmediate: true }).save();
  await w.scans.migrateScheduled();
  t.equal((await dueOf(w, id))!.getUTCMinutes() % 10, 0, 'due at its next fire');
  t.equal(await w.ctx.db.db.collection('agenda_jobs').countDocuments({ name: SCHEDULED_SCAN_JOB }), 0, 'the old job is gone');
});

t.test('the due scan: one scan per config and due minute, moved to its next fire', async (t) => {
  const w = await world(t);
  const id = await w.config('acme/sweep', { scheduleCron: '*/5 * * * *' });
  const slot = (await dueOf(w, id))!;
  const at = new Date(slot.getTime() + 1000);
  t.equal(await w.scans.sweepScheduled(new Date(slot.getTime() - MINUTE)), 0, 'nothing before its minute');
  t.equal(await w.scans.sweepScheduled(at), 1, 'its minute: one scan');
  t.equal(await w.scans.sweepScheduled(at), 0, 'the same minute again: none');
  t.same(await dueOf(w, id), new Date(slot.getTime() + 5 * MINUTE), 'due at the next fire');
  const scans = await w.ctx.db.db.collection('scans').find({ orgId: w.owner.orgId, repositoryConfig: id }).toArray();
  t.match(scans, [{ triggeredBy: 'schedule', status: 'pending' }], 'a scheduled scan');
});

t.test('a sweep that ran long: the next one reads every minute since, by equality (no wait for the range catch-up)', async (t) => {
  const w = await world(t);
  const id = await w.config('acme/busy', { scheduleCron: '*/5 * * * *' });
  const slot = (await dueOf(w, id))!;
  // This process's last sweep started a minute before the slot; the next starts six minutes
  // after it (every process was busy): the slot is older than the last three minutes.
  t.equal(await w.scans.sweepScheduled(new Date(slot.getTime() - MINUTE)), 0, 'not due yet');
  t.equal(await w.scans.sweepScheduled(new Date(slot.getTime() + 6 * MINUTE), false), 1, 'the next sweep runs it, without a range read');
  t.same(await dueOf(w, id), new Date(slot.getTime() + 10 * MINUTE), 'and moves it to the first fire after now');
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
