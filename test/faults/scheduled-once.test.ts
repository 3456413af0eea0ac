// Scheduled things run once per due occurrence, whatever the processes' clocks (docs/faults.md),
// two apps on ONE database racing on purpose:
// - cron-scheduled configs (swept by due minute, core/due-scan.ts): 210 configs due in the same
//   minute (two pages of the sweep), both processes sweep it twice each at once while a job of the
//   old kind and the admin run start one of them too; then the next occurrence, then a stalled
//   sweep arriving late: every config scanned once per occurrence, none twice, none never.
// - a cron-scheduled config with an Agenda job of the old kind (made before the due scan): both
//   processes lock the same due job record (the duplicate lock Agenda's findOneAndUpdate allows
//   on the embedded database, forced here by clearing the lock between the two) and run it as
//   Agenda does (Job.run), one of them late: it waited in its process's queue past the schedule's
//   next fire time. Before issue 36 each named the occurrence from its own clock: two scans.
// - a Drift Watch (swept by due minute, core/due-scan.ts): both processes sweep its minute at once,
//   twice each, while a job of the old kind runs the same occurrence; a stalled sweep comes late.
// One scan per occurrence in both.
import t, { type Test } from 'tap';
import { Job, type Agenda } from 'agenda';
import { CronExpressionParser } from 'cron-parser';
import { randomBytes } from 'node:crypto';
import { buildTestApp, register, bearer } from '../helper.ts';
import { cronOf } from '../../plugins/drift-watch/service.ts';
import { SCHEDULED_SCAN_JOB } from '../../plugins/repo-configs/service.ts';

// The processes' clock: Date moved by `offset` ms (Agenda, cron-parser and the handlers read it).
const RealDate = Date;
let offset = 0;
class ShiftedDate extends RealDate {
  constructor(...args: unknown[]) {
    if (args.length === 0) super(RealDate.now() + offset);
    else super(...(args as [number]));
  }
  static override now() { return RealDate.now() + offset; }
}
globalThis.Date = ShiftedDate as DateConstructor;
t.teardown(() => { globalThis.Date = RealDate; });

/** Runs `fn` with the clock set to `at`. */
async function atClock<T>(at: Date, fn: () => Promise<T>): Promise<T> {
  offset = at.getTime() - RealDate.now();
  try { return await fn(); } finally { offset = 0; }
}

/** What one process's job loop does with a due job: lock it (the backend query Agenda uses), then run it. */
async function lock(agenda: Agenda, name: string, now: Date) {
  const attrs = await agenda.db.getNextJobToRun(name, new Date(now.getTime() + 1000), new Date(now.getTime() - 600_000), now, {});
  if (!attrs) throw new Error(`no due ${name} job to lock`);
  return new Job(agenda, attrs, true);
}

t.test('two processes, one database: one scan per due occurrence, a late duplicate included', async (t) => {
  const name = `t_sched_once_${randomBytes(3).toString('hex')}`;
  const env = { MONGODB_DB: name, REDIS_KEY_PREFIX: `${name}:` };
  const a = await buildTestApp(t, { env });
  const b = await buildTestApp(t, { env });
  const owner = await register(a.app);
  await a.ctx.tenancy.setPlan(owner.orgId, 'team');
  const jobs = a.ctx.db.db.collection('agenda_jobs');
  const scans = a.ctx.db.db.collection('scans');

  async function race(t: Test, jobName: string, match: Record<string, unknown>, cron: string, configId: string, period: number, before = 0, from = new Date()) {
    // The occurrence: the cron's next fire time (after `from`), the job's due time as Agenda stores it.
    const due = CronExpressionParser.parse(cron, { tz: 'UTC', currentDate: from }).next().toDate();
    await jobs.updateOne({ name: jobName, ...match }, { $set: { nextRunAt: due, lockedAt: null } });
    const first = await atClock(new RealDate(due.getTime() + 1000), () => lock(a.ctx.scheduler.agenda, jobName, new Date()));
    // The lock is not atomic with its filter on the embedded database: the second process's
    // lock matched the same record (forced: the first lock is cleared before the second reads).
    await jobs.updateOne({ name: jobName, ...match }, { $set: { lockedAt: null } });
    const second = await atClock(new RealDate(due.getTime() + 1500), () => lock(b.ctx.scheduler.agenda, jobName, new Date()));
    await atClock(new RealDate(due.getTime() + 2000), () => first.run());
    // The duplicate waited in its process's queue past the next fire time.
    await atClock(new RealDate(due.getTime() + period + 2000), () => second.run());
    const made = (await scans.find({ orgId: owner.orgId, repositoryConfig: configId }).toArray()).filter((s) => s.triggeredBy === 'schedule').length - before;
    t.equal(made, 1, `one scan for the occurrence (${made} made)`);
  }

  const cfg = await a.app.inject({ method: 'POST', url: '/api/repo-configs', headers: bearer(owner.token),
    payload: { repositoryName: 'acme/cron', branch: 'main', provider: 'cloud_a', scheduleCron: '*/5 * * * *' } });
  t.equal(cfg.statusCode, 201, 'a cron-scheduled config');
  const configId = cfg.json().data._id as string;

  await t.test('210 cron configs due in one minute: two processes sweep it at once, with an old job and the admin run', async (t) => {
    const configs = a.ctx.db.db.collection('repo_configs');
    const base = await configs.findOne({ _id: configId as never });
    const ids = Array.from({ length: 210 }, () => randomBytes(12).toString('hex'));
    // Copies of the config written straight to the database (creating 210 through the API is the routes' test).
    await configs.insertMany(ids.map((id, i) => ({ ...base, _id: id, slot: id, repositoryName: `acme/cron-${i}` })) as never[]);
    const slot = CronExpressionParser.parse('*/5 * * * *', { tz: 'UTC' }).next().toDate();
    await configs.updateMany({ _id: { $in: [configId, ...ids] } } as never, { $set: { dueMinute: slot.getTime() / 60_000 } });
    const all = [configId, ...ids];
    const perConfig = async () => {
      // By the scans' index (orgId, repositoryConfig); the trigger is checked here.
      const rows = await scans.find({ orgId: owner.orgId, repositoryConfig: { $in: all } }, { projection: { repositoryConfig: 1, triggeredBy: 1 } }).toArray();
      const n = new Map<string, number>();
      for (const r of rows) if (r.triggeredBy === 'schedule') n.set(r.repositoryConfig, (n.get(r.repositoryConfig) ?? 0) + 1);
      return all.map((id) => n.get(id) ?? 0);
    };
    const sweep = (app: typeof a) => app.services.scans!.sweepScheduled();
    const ran = await atClock(new RealDate(slot.getTime() + 1000), () => Promise.all([sweep(a), sweep(b), sweep(a), sweep(b),
      b.services.scans!.runScheduled(owner.orgId, ids[7], slot), a.services.scans!.runScheduled(owner.orgId, ids[205], new RealDate(slot.getTime() + 30_000))]));
    let n = await perConfig();
    t.same([n.filter((x) => x > 1).length, n.filter((x) => x === 0).length], [0, 0], `0 twice, 0 never (sweeps ran ${ran.slice(0, 4).join(', ')}; the old job and the admin run ${ran.slice(4).map(Boolean).join(', ')})`);
    const next = new RealDate(slot.getTime() + 5 * 60_000);
    const dues = (await configs.find({ _id: { $in: all } } as never).toArray()).map((c) => c.dueMinute);
    t.ok(dues.every((m) => m === next.getTime() / 60_000), 'every config is due at its next fire');
    // The next occurrence, swept by both at once again.
    await atClock(new RealDate(next.getTime() + 1000), () => Promise.all([sweep(a), sweep(b), sweep(b)]));
    n = await perConfig();
    t.same([n.filter((x) => x > 2).length, n.filter((x) => x < 2).length], [0, 0], 'the next occurrence: each config once more');
    // A sweep from a process stalled past both (its watermark is two occurrences old): nothing more.
    await atClock(new RealDate(next.getTime() + 4 * 60_000), () => sweep(a));
    n = await perConfig();
    t.ok(n.every((x) => x === 2), 'a late sweep starts nothing');
    // The configs go back to one (the old job's race below counts scans of configId alone).
    await configs.deleteMany({ _id: { $in: ids } } as never);
    await configs.updateOne({ _id: configId as never }, { $set: { dueMinute: null } });
  });

  await t.test('a cron-scheduled config with an Agenda job of the old kind', async (t) => {
    await a.ctx.scheduler.agenda.create(SCHEDULED_SCAN_JOB, { orgId: owner.orgId, repoConfigId: configId })
      .repeatEvery('*/5 * * * *', { timezone: 'UTC', skipImmediate: true }).save();
    const before = (await scans.find({ orgId: owner.orgId, repositoryConfig: configId }).toArray()).filter((s) => s.triggeredBy === 'schedule').length;
    await race(t, SCHEDULED_SCAN_JOB, { 'data.repoConfigId': configId }, '*/5 * * * *', configId, 5 * 60_000, before,
      new Date(Date.now() + 20 * 60_000)); // an occurrence the sweeps above did not run
  });

  const watched = await a.app.inject({ method: 'POST', url: '/api/repo-configs', headers: bearer(owner.token),
    payload: { repositoryName: 'acme/watched', branch: 'main', provider: 'cloud_a' } });
  const watchedId = watched.json().data._id as string;
  const w = await a.app.inject({ method: 'POST', url: '/api/drift-watch', headers: bearer(owner.token), payload: { name: 'Hourly', repositoryId: watchedId, interval: '1h' } });
  t.equal(w.statusCode, 201, 'a watch');
  const watchId = w.json()._id as string;

  await t.test('a Drift Watch: both processes sweep its due minute at once, and a job of the old kind runs the occurrence too', async (t) => {
    // Watches are swept by due minute (no Agenda job each); one made before that still has its job.
    const slot = CronExpressionParser.parse(cronOf(watchId, '1h'), { tz: 'UTC' }).next().toDate();
    await a.ctx.db.db.collection('drift_watches').updateOne({ _id: watchId as never }, { $set: { dueMinute: slot.getTime() / 60_000 } });
    const sweep = (app: typeof a) => app.services['drift-watch']!.sweepDue();
    const made = async () => (await scans.find({ orgId: owner.orgId, repositoryConfig: watchedId }).toArray()).filter((s) => s.triggeredBy === 'schedule').length;
    const dueMinute = async () => (await a.ctx.db.db.collection('drift_watches').findOne({ _id: watchId as never }))?.dueMinute;
    // One clock for each race (atClock moves the clock of this one process the two apps share).
    const ran = await atClock(new RealDate(slot.getTime() + 1000), () => Promise.all([sweep(a), sweep(b), sweep(a), sweep(b)]));
    t.equal(ran.reduce((x, y) => x + y, 0), 1, `one of four concurrent sweeps ran the occurrence (${ran.join(', ')})`);
    t.equal(await made(), 1, 'one scan');
    const next = new Date(slot.getTime() + 3_600_000);
    t.equal(await dueMinute(), next.getTime() / 60_000, 'the watch is due at its next fire time');
    // The next occurrence: the sweeps race a job of the old kind locked for it.
    const again = await atClock(new RealDate(next.getTime() + 1000), () => Promise.all([sweep(a), sweep(b),
      b.services['drift-watch']!.tick(owner.orgId, watchId, next)]));
    t.equal(await made(), 2, `one more scan for it (sweeps ran ${again.slice(0, 2).join(', ')}; the old job ${JSON.stringify(again[2])})`);
    // A sweep long after (its process was stalled): the record has moved on.
    await atClock(new RealDate(next.getTime() + 3 * 60_000), () => sweep(b));
    t.equal(await made(), 2, 'a late sweep starts nothing');
  });
});
