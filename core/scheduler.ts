// Background and scheduled jobs: Agenda on the same MongoDB. Agenda locks with
// findOneAndUpdate, which the embedded database does not make atomic (DESIGN.md), so a job
// may run twice when several processes share a database: every handler is idempotent and
// guards its one-time work with the exactly-once primitive.
//
// A repeating job's handler is told which occurrence it runs (`dueAt`): the due time of the
// record as it was locked. Agenda's run() overwrites nextRunAt and lastRunAt with the running
// process's clock before the handler starts, so a claim named from the clock differs between
// two processes that locked the same occurrence and ran it either side of a fire time (a
// duplicate that waited in one process's queue): two runs of one occurrence (issue 36).
import { Agenda, type Job } from 'agenda';
import { MongoBackend } from '@agendajs/mongo-backend';
import { ObjectId, type Db } from 'mongodb';
import type { CollectionSpec } from './db.ts';
import { createJobStates, type JobState } from './job-states.ts';

export type { JobState } from './job-states.ts';

export const AGENDA_JOBS: CollectionSpec = { name: 'agenda_jobs', owner: 'core/scheduler', indexes: [], unchecked: true };

/** dueAt: the occurrence this run is for (see above); name a once-per-occurrence claim after it (core/once.ts slotKey). */
export type JobHandler<T> = (data: T, job: Job, dueAt: Date) => Promise<void>;

export interface Scheduler {
  agenda: Agenda;
  /** lockLimit: at most this many jobs of the name locked by this process at once (Agenda otherwise locks every due job before running one). */
  define<T>(name: string, handler: JobHandler<T>, opts?: { concurrency?: number; lockLimit?: number }): void;
  now<T extends object>(name: string, data: T): Promise<void>;
  at<T extends object>(when: Date, name: string, data: T): Promise<void>;
  every<T extends object>(interval: string, name: string, data?: T): Promise<void>;
  cancel(query: { name: string; data?: Record<string, unknown> }): Promise<void>;
  /**
   * Runs `fn` every `everyMs` in this process while its job loop runs (start() to stop()), never
   * two at once; `fn` is told whether this is the first run since start. For sweeps that every
   * process does itself (core/due-scan.ts), where one Agenda job per thing would not keep up.
   */
  loop(name: string, everyMs: number, fn: (first: boolean) => Promise<void>): void;
  /** How often the job loop polls (the due scans sweep as often). */
  pollMs: number;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Whether this process runs the job loop. */
  running(): boolean;
  /** Jobs due now and not locked by a worker, per job name (the queue depth metric). */
  queueDepth(): Promise<{ name: string; due: number }[]>;
  /** The stored jobs of one name (at most `limit`), as the admin routes read them. */
  jobsNamed(name: string, limit: number): Promise<StoredJob[]>;
  /** Per job name: runs due, running (locked) and planned later, and the latest run, finish and failure (admin health). */
  states(): Promise<JobState[]>;
  /** Removes jobs by id (orphans of a schedule); how many went. */
  removeJobs(ids: string[]): Promise<number>;
}


/** A job as Agenda stores it (the fields read here). */
export interface StoredJob { id: string; name: string; data: Record<string, unknown>; nextRunAt: Date | null; lastRunAt: Date | null; lockedAt: Date | null; repeatInterval: string | null }

// processEvery is a number of milliseconds: Agenda 6 read the string '200 milliseconds' as 200 seconds.
// lockLifetimeMs: how long a claimed job stays locked to one worker. Agenda also keeps a
// timer of half of it per job run that outlives stop(), so tests use a short one.
export function createScheduler(db: Db, opts: { processEveryMs?: number; lockLifetimeMs?: number } = {}): Scheduler {
  const agenda = new Agenda({
    backend: new MongoBackend({ mongo: db, collection: AGENDA_JOBS.name }),
    processEvery: opts.processEveryMs ?? 5000,
    defaultConcurrency: 5,
    maxConcurrency: 20,
    // A one-time job that succeeded is deleted: every lock Agenda takes is evaluated over the whole
    // collection on the embedded database, so two kept records per scan made each lock slower as
    // scans accumulated (issue 36). The last run of each name stays in job_runs (core/job-states.ts).
    removeOnComplete: true,
  });
  const jobStates = createJobStates(agenda, db, AGENDA_JOBS.name);
  let started = false;
  const jobs = db.collection(AGENDA_JOBS.name);
  const dueOf = rememberOccurrences(agenda);
  const loops: { name: string; everyMs: number; fn: (first: boolean) => Promise<void>; timer?: NodeJS.Timeout; busy?: Promise<void> }[] = [];
  const startLoop = (l: (typeof loops)[number]) => {
    let first = true;
    const tick = () => {
      if (l.busy) return;
      l.busy = l.fn(first).catch((err: unknown) => { console.error(`scheduler loop ${l.name} failed`, err); }).finally(() => { l.busy = undefined; });
      first = false;
    };
    l.timer = setInterval(tick, l.everyMs);
    l.timer.unref();
    tick();
  };
  return {
    agenda,
    pollMs: opts.processEveryMs ?? 5000,
    define(name, handler, o = {}) {
      agenda.define(name, async (job: Job) => {
        const id = String(job.attrs._id);
        const dueAt = dueOf.get(id) ?? job.attrs.lastRunAt ?? new Date();
        dueOf.delete(id);
        await handler(job.attrs.data as never, job, dueAt);
      }, { concurrency: o.concurrency, lockLimit: o.lockLimit, lockLifetime: opts.lockLifetimeMs ?? 10 * 60 * 1000 });
    },
    async now(name, data) { await agenda.now(name, data); },
    async at(when, name, data) { await agenda.schedule(when, name, data); },
    async every(interval, name, data) { await agenda.every(interval, name, data); },
    async cancel(query) { await agenda.cancel(query as never); },
    loop(name, everyMs, fn) {
      const l = { name, everyMs, fn };
      loops.push(l);
      if (started) startLoop(l);
    },
    async start() {
      if (started) return;
      started = true;
      await agenda.start();
      for (const l of loops) startLoop(l);
    },
    async stop() {
      if (!started) return;
      started = false;
      for (const l of loops) clearInterval(l.timer);
      await Promise.all(loops.map((l) => l.busy));
      await agenda.stop();
      dueOf.clear();
    },
    running: () => started,
    async queueDepth() {
      const rows = await jobs.aggregate<{ _id: string; n: number }>([
        { $match: { nextRunAt: { $lte: new Date() }, lockedAt: null, disabled: { $ne: true } } },
        { $group: { _id: '$name', n: { $sum: 1 } } },
      ]).toArray();
      return rows.map((r) => ({ name: r._id, due: r.n })).sort((a, b) => a.name.localeCompare(b.name));
    },
    async jobsNamed(name, limit) {
      const rows = await jobs.find({ name }).limit(limit).toArray();
      return rows.map((j) => ({
        id: String(j._id), name: j.name, data: j.data ?? {}, nextRunAt: j.nextRunAt ?? null, lastRunAt: j.lastRunAt ?? null,
        lockedAt: j.lockedAt ?? null, repeatInterval: j.repeatInterval ?? null,
      }));
    },
    states: () => jobStates.states(),
    async removeJobs(ids) {
      if (!ids.length) return 0;
      const { deletedCount } = await jobs.deleteMany({ _id: { $in: ids.map((id) => (ObjectId.isValid(id) && id.length === 24 ? new ObjectId(id) : id)) } as never });
      return deletedCount;
    },
  };
}

type Locked = { _id?: unknown; nextRunAt?: Date | null; lastRunAt?: Date | null; lastFinishedAt?: Date | null } | undefined;

/**
 * Records, per job id, the occurrence each lock of this process stands for: the record's due
 * time; or, for a record locked again after its lock expired while it ran (its last run started
 * and never finished), the occurrence that run started for. Agenda locks through the backend's
 * getNextJobToRun only (its JobProcessor); the wrapper is on this Agenda's backend, no other.
 */
function rememberOccurrences(agenda: Agenda): Map<string, Date> {
  const dueOf = new Map<string, Date>();
  const backend = agenda.db as unknown as { getNextJobToRun: (...args: unknown[]) => Promise<Locked> };
  const lockNext = backend.getNextJobToRun.bind(backend);
  backend.getNextJobToRun = async (...args: unknown[]) => {
    const locked = await lockNext(...args);
    if (locked?._id) {
      const { nextRunAt, lastRunAt, lastFinishedAt } = locked;
      const unfinished = lastRunAt && (!lastFinishedAt || lastFinishedAt < lastRunAt) && (!nextRunAt || nextRunAt > lastRunAt);
      const due = unfinished ? lastRunAt : nextRunAt;
      if (due) dueOf.set(String(locked._id), new Date(due));
    }
    return locked;
  };
  return dueOf;
}
