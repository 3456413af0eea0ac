// GET /api/admin/health reads a bounded number of job records however many past jobs Agenda keeps
// (issue 36, point 5): finished one-time jobs are marked when they complete (or healed once, when
// an older record has no mark) and never read again; each name's latest run, finish and failure
// live in job_runs. Counted by the documents the agenda_jobs reads return (the driver's monitoring).
import t from 'tap';
import type { CommandSucceededEvent } from 'mongodb';
import { buildTestApp, bearer } from '../../helper.ts';
import { admin } from './admin-session.ts';

t.test('admin health: job states from a bounded read, the same at 60 and 600 past jobs', async (t) => {
  const { app, ctx, services } = await buildTestApp(t);
  const boss = await admin(app, services, `boss-${Date.now()}@example.com`);
  const jobs = ctx.db.db.collection('agenda_jobs');
  const hour = 3_600_000;
  const t0 = Date.now() - 48 * hour;
  // Past one-time jobs as Agenda leaves them: no next run, unlocked; the newest failed.
  const past = (from: number, n: number) => Array.from({ length: n }, (_, i) => ({
    name: 's4.past', type: 'normal', priority: 0, data: { i: from + i }, nextRunAt: null, lockedAt: null,
    lastRunAt: new Date(t0 + (from + i) * 1000), lastFinishedAt: new Date(t0 + (from + i) * 1000 + 10),
    ...(from + i === 599 ? { failedAt: new Date(t0 + (from + i) * 1000 + 10), failReason: 'boom', failCount: 1 } : {}),
  }));
  await jobs.insertMany([
    ...past(0, 60),
    { name: 's4.live', type: 'normal', priority: 0, data: {}, nextRunAt: new Date(Date.now() - 1000), lockedAt: null },
    { name: 's4.live', type: 'normal', priority: 0, data: {}, nextRunAt: new Date(Date.now() + hour), lockedAt: null },
    { name: 's4.live', type: 'normal', priority: 0, data: {}, nextRunAt: new Date(Date.now() - 5000), lockedAt: new Date() },
  ] as never[]);

  let returned = 0;
  const count = (e: CommandSucceededEvent) => {
    const r = e.reply as { cursor?: { ns?: string; firstBatch?: unknown[]; nextBatch?: unknown[] } };
    if (r.cursor?.ns?.endsWith('.agenda_jobs')) returned += (r.cursor.firstBatch ?? r.cursor.nextBatch ?? []).length;
  };
  ctx.db.client.on('commandSucceeded', count);
  t.teardown(() => { ctx.db.client.off('commandSucceeded', count); });
  const health = async () => {
    returned = 0;
    const res = await app.inject({ method: 'GET', url: '/api/admin/health', headers: bearer(boss.token) });
    t.equal(res.statusCode, 200);
    return { jobs: res.json().data.workers.jobs as { name: string }[], read: returned };
  };
  const named = (list: { name: string; lastFinishedAt?: string | null }[], name: string) => list.find((j) => j.name === name);
  const live = await jobs.countDocuments({ finished: { $ne: true } });

  const first = await health();
  t.match(named(first.jobs, 's4.past'), { defined: false, due: 0, running: 0, scheduled: 0, lastRunAt: new Date(t0 + 59_000).toISOString() });
  t.match(named(first.jobs, 's4.live'), { due: 1, running: 1, scheduled: 1 });
  t.ok(first.read >= 60, `the first report reads the unmarked past jobs once (${first.read})`);
  const second = await health();
  t.same(second.jobs, first.jobs, 'the same states once the past jobs are marked');
  t.equal(second.read, live - 60, `then only the live jobs are read (${second.read})`);

  // Ten times the history: the read stays the same; the latest finish and failure still show.
  await jobs.insertMany(past(60, 540).map((j) => ({ ...j, finished: true })) as never[]);
  await ctx.db.db.collection('job_runs').updateOne({ _id: 's4.past' as never }, { $max: { lastRunAt: new Date(t0 + 599_000), lastFinishedAt: new Date(t0 + 599_010), lastFailedAt: new Date(t0 + 599_010) } });
  await ctx.db.db.collection('job_runs').updateOne({ _id: 's4.past' as never }, { $set: { lastFailReason: 'boom' } });
  const big = await health();
  t.equal(big.read, second.read, `600 past jobs: ${big.read} records read, as at 60`);
  t.match(named(big.jobs, 's4.past'), { lastFinishedAt: new Date(t0 + 599_010).toISOString(), lastFailedAt: new Date(t0 + 599_010).toISOString(), lastFailReason: 'boom' });

  // A one-time job that runs through Agenda is recorded and marked by its completion.
  ctx.scheduler.define('s4.probe', async (data: { fail?: boolean }) => { if (data.fail) throw new Error('probe failed'); });
  for (const fail of [false, true]) {
    const job = ctx.scheduler.agenda.create('s4.probe', { fail });
    await job.save();
    const done = new Promise<void>((resolve) => ctx.scheduler.agenda.once('complete:s4.probe', () => resolve()));
    await job.run().catch(() => undefined);
    await done;
  }
  // The one that succeeded is deleted (core/scheduler.ts removeOnComplete); the failed one stays, marked.
  const probed = async () => {
    const state = async () => ({ kept: await jobs.countDocuments({ name: 's4.probe' }), marked: await jobs.countDocuments({ name: 's4.probe', finished: true }) });
    for (let i = 0; i < 50; i++) {
      const now = await state();
      if (now.kept === 1 && now.marked === 1) return now;
      await new Promise((r) => setTimeout(r, 100));
    }
    return state();
  };
  t.same(await probed(), { kept: 1, marked: 1 }, 'the succeeded probe job is deleted, the failed one is kept and marked finished');
  const after = await health();
  t.equal(after.read, second.read, 'and are not read by the report');
  t.match(named(after.jobs, 's4.probe'), { defined: true, due: 0, running: 0, lastFailReason: 'probe failed' });
  t.ok(named(after.jobs, 's4.probe')?.lastFinishedAt, 'its last finish is kept in job_runs');
});
