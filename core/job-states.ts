// The per-name job states of the admin health report, read from a bounded set of records however
// many past jobs Agenda keeps (issue 36, point 5). Agenda keeps every finished one-time job (a
// scan's execute and timeout jobs, deliveries, checks): reading them all made the report read
// 20,000 records. The embedded FerretDB decides only top-level equality and `$ne` on a scalar in
// PostgreSQL (DESIGN.md); `nextRunAt: null` is not pushed down, so "finished" cannot be asked of
// Agenda's own fields. Instead:
//   - when a one-time job completes for good (no next run), this process marks its record
//     `finished: true`; the live read asks `finished: {$ne: true}`, which PostgreSQL decides;
//   - the latest run, finish and failure of each job name are kept with the completions in
//     `job_runs`, one record per job name;
//   - a finished one-time record without the mark (written before this, or its process died
//     between Agenda's save and the mark) is read once, folded into job_runs and marked.
import type { Agenda, Job } from 'agenda';
import { ObjectId, type Db, type Document } from 'mongodb';
import type { CollectionSpec } from './db.ts';

/** One record per job name (its _id): far fewer than any index would help, so never checked. */
export const JOB_RUNS: CollectionSpec = { name: 'job_runs', owner: 'core/scheduler', indexes: [], unchecked: true };

export interface JobState {
  name: string; defined: boolean; due: number; running: number; scheduled: number;
  lastRunAt: Date | null; lastFinishedAt: Date | null; lastFailedAt: Date | null; lastFailReason: string | null;
}

/** Most live job records one report reads (scheduled, due or running; finished ones are never read). */
export const MAX_LIVE_JOBS = 20_000;
const PROJECTION = { name: 1, nextRunAt: 1, lockedAt: 1, lastRunAt: 1, lastFinishedAt: 1, failedAt: 1, failReason: 1, disabled: 1, repeatInterval: 1 };

interface Run { lastRunAt?: Date | null; lastFinishedAt?: Date | null; failedAt?: Date | null; failReason?: unknown }
const isDate = (d: unknown): d is Date => d instanceof Date;
const reason = (r: unknown) => (typeof r === 'string' ? r.slice(0, 500) : null);

export function createJobStates(agenda: Agenda, db: Db, jobsCollection: string) {
  const jobs = db.collection(jobsCollection);
  const runs = db.collection<{ _id: string } & Document>(JOB_RUNS.name);

  /** Folds one run into its name's record: each time only moves forward ($max). */
  async function record(name: string, r: Run, failed: boolean) {
    const max: Record<string, Date> = {};
    if (isDate(r.lastRunAt)) max.lastRunAt = r.lastRunAt;
    if (isDate(r.lastFinishedAt)) max.lastFinishedAt = r.lastFinishedAt;
    if (failed && isDate(r.failedAt)) max.lastFailedAt = r.failedAt;
    if (!Object.keys(max).length) return;
    // Two first completions of one name may both upsert: the loser's duplicate key is retried as an update.
    const upsert = () => runs.updateOne({ _id: name }, { $max: max }, { upsert: true });
    await upsert().catch((err) => { if ((err as { code?: number }).code === 11000) return upsert(); throw err; });
    if (max.lastFailedAt) await runs.updateOne({ _id: name, lastFailedAt: r.failedAt as Date }, { $set: { lastFailReason: reason(r.failReason) } });
  }

  const finishedForGood = (j: Document) => !j.nextRunAt && !j.lockedAt && !j.repeatInterval;

  // 'complete' comes after Agenda saved the run's outcome (success or failure) and unlocked it.
  agenda.on('complete', (job: Job) => {
    const a = job.attrs;
    void (async () => {
      // failedAt stays on the record after a later success: it is this run's only if not older than the run.
      await record(a.name, a, isDate(a.failedAt) && isDate(a.lastRunAt) && a.failedAt >= a.lastRunAt);
      // Agenda's job attributes carry the id as text; the record's _id is an ObjectId.
      if (a._id && finishedForGood(a)) await jobs.updateOne({ _id: new ObjectId(String(a._id)) }, { $set: { finished: true } });
    })().catch(() => undefined); // a missed mark is healed by the next report (see above)
  });

  return {
    async states(): Promise<JobState[]> {
      const now = Date.now();
      const [live, named] = await Promise.all([
        jobs.find({ finished: { $ne: true } }, { projection: PROJECTION }).limit(MAX_LIVE_JOBS).toArray(),
        runs.find({}).toArray(),
      ]);
      const by = new Map<string, JobState>();
      const blank = (name: string, defined: boolean): JobState => ({ name, defined, due: 0, running: 0, scheduled: 0, lastRunAt: null, lastFinishedAt: null, lastFailedAt: null, lastFailReason: null });
      const stateOf = (name: string) => by.get(name) ?? by.set(name, blank(name, false)).get(name)!;
      const later = (a: Date | null, b: unknown) => (isDate(b) && (!a || b > a) ? b : a);
      const fold = (s: JobState, r: { lastRunAt?: unknown; lastFinishedAt?: unknown; failedAt?: unknown; failReason?: unknown }) => {
        s.lastRunAt = later(s.lastRunAt, r.lastRunAt);
        s.lastFinishedAt = later(s.lastFinishedAt, r.lastFinishedAt);
        if (isDate(r.failedAt) && (!s.lastFailedAt || r.failedAt > s.lastFailedAt)) {
          s.lastFailedAt = r.failedAt;
          s.lastFailReason = reason(r.failReason);
        }
      };
      for (const name of Object.keys(agenda.definitions)) by.set(name, blank(name, true));
      for (const r of named) fold(stateOf(r._id), { lastRunAt: r.lastRunAt, lastFinishedAt: r.lastFinishedAt, failedAt: r.lastFailedAt, failReason: r.lastFailReason });
      const unmarked: Document[] = [];
      for (const j of live) {
        const s = stateOf(j.name);
        if (j.lockedAt) s.running++;
        else if (j.nextRunAt && !j.disabled) (j.nextRunAt.getTime() <= now ? s.due++ : s.scheduled++);
        fold(s, { lastRunAt: j.lastRunAt, lastFinishedAt: j.lastFinishedAt, failedAt: j.failedAt, failReason: j.failReason });
        if (finishedForGood(j)) unmarked.push(j);
      }
      if (unmarked.length) await heal(unmarked);
      return [...by.values()].sort((a, b) => a.name.localeCompare(b.name));
    },
  };

  /** Records and marks finished one-time jobs that carry no mark yet, so the next report skips them. */
  async function heal(rows: Document[]) {
    const latest = new Map<string, Run>();
    for (const j of rows) {
      const r = latest.get(j.name) ?? {};
      for (const k of ['lastRunAt', 'lastFinishedAt'] as const) if (isDate(j[k]) && (!isDate(r[k]) || j[k] > r[k])) r[k] = j[k];
      if (isDate(j.failedAt) && (!isDate(r.failedAt) || j.failedAt > r.failedAt)) Object.assign(r, { failedAt: j.failedAt, failReason: j.failReason });
      latest.set(j.name, r);
    }
    for (const [name, r] of latest) await record(name, r, true).catch(() => undefined);
    // The filter FerretDB pushes down is `finished $ne true`: this reads the live set again, never the past.
    await jobs.updateMany({ finished: { $ne: true }, nextRunAt: null, lockedAt: null, repeatInterval: null }, { $set: { finished: true } }).catch(() => undefined);
  }
}
