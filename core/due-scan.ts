// Scheduled things that fall due by the thousand (issue 36): instead of one Agenda job per thing,
// whose lock is a findOneAndUpdate the embedded database evaluates over every job record in its
// own process (not atomic either: the same job locked twice), each thing's record carries the
// minute it is next due (`dueMinute`, null when it is not scheduled), and every process that runs
// jobs sweeps the due minutes: an equality read per minute (served by an index on the embedded
// database too; a range, an `$or` or a sort is not), keyset pages on _id within the minute, one
// bulk claim per page (core/once.ts: `<kind>:<id>:<minute>` under the unique key, before any
// work), the won ones run with bounded concurrency, then one bulk write moves each record to its
// next due minute.
//
// Nothing due waits for a rare catch-up (issue 36): each sweep reads the last RECENT_MINUTES by
// equality, and also every minute since the last sweep this process finished (its watermark),
// by equality too. A sweep that took long (a thousand runs, a busy machine) therefore leaves no
// minute unread: the next one, a poll later, reads the minutes that passed meanwhile. The range
// catch-up (every record due before the recent minutes; a read of the whole collection on the
// embedded database, which serves no range from an index) is left for what no watermark covers:
// a process's first sweep (every process was down) or a gap longer than MAX_GAP_MINUTES, and a
// run that failed for longer than the recent minutes (every CATCH_UP_MS).
import { CronExpressionParser } from 'cron-parser';
import type { Collection, Filter } from 'mongodb';
import type { FastifyBaseLogger } from 'fastify';
import type { Once } from './once.ts';
import { slotKey } from './once.ts';

/** The fields a record swept here carries (its collection declares an index { dueMinute: 1, _id: 1 }). */
export interface DueRecord { _id: string; orgId: string; dueMinute?: number | null }

export interface DueScanOptions<T extends DueRecord> {
  /** The claim's kind: `watch`, `scheduled-scan`. */
  kind: string;
  collection: Collection<T>;
  once: Once;
  /** The record's cron (UTC), or null when it is not scheduled any more. */
  cronOf(record: T): string | null;
  /** Runs one occurrence; `slot` is its due minute. Throwing leaves the record where it is (retried next sweep). */
  run(record: T, slot: Date): Promise<void>;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Occurrences run at once per process and kind (default 5: see below), records read per page (default 200). */
  concurrency?: number;
  page?: number;
}

const MINUTE = 60_000;
/** Minutes behind now read by equality on every sweep; older ones only by the catch-up read. */
const RECENT_MINUTES = 3;
/** How often a process reads overdue records by range anyway (failed runs beyond the recent minutes). */
export const CATCH_UP_MS = 10 * MINUTE;
/** Minutes past the watermark read one by one (equality); a longer gap is read by the range catch-up instead. */
const MAX_GAP_MINUTES = 360;
/** A claimed occurrence whose record is still on its minute this long after: its holder died; move the record on. */
const STALE_MS = 2 * MINUTE;

/** The first minute strictly after `after` on which `cron` fires (UTC); null for an unreadable cron. */
export function nextDueMinute(cron: string, after: Date): number | null {
  try {
    return Math.floor(CronExpressionParser.parse(cron, { tz: 'UTC', currentDate: after }).next().toDate().getTime() / MINUTE);
  } catch {
    return null;
  }
}

export function createDueScan<T extends DueRecord>(o: DueScanOptions<T>) {
  const concurrency = o.concurrency ?? 5;
  const pageSize = o.page ?? 200;
  const col = o.collection as unknown as Collection<DueRecord>;

  /**
   * Moves records off their due minute: each to the first fire after max(its slot, now). One
   * updateMany per (slot, next minute) pair, run one after another, never one bulk of updateOne:
   * FerretDB 1.24 keeps every statement of an update command holding a PostgreSQL connection
   * until the command ends (msg_update.go defers each statement's close in the loop), so a bulk
   * of 90 or more statements took the whole pool and hung the database for every client (the
   * 200 + 200 bench and the fault test did; core/db.ts BULK_STATEMENTS). An updateMany holds two
   * connections at a time, and one command per group needs fewer commands than bulkWriteInChunks.
   */
  async function advance(rows: T[], now: Date) {
    const groups = new Map<string, { slot: number; next: number | null; ids: string[] }>();
    for (const r of rows) {
      const cron = o.cronOf(r);
      const slot = r.dueMinute ?? 0;
      const at = new Date(slot * MINUTE);
      const next = cron ? nextDueMinute(cron, at > now ? at : now) : null;
      const key = `${slot}:${next}`;
      const g = groups.get(key) ?? { slot, next, ids: [] };
      g.ids.push(r._id);
      groups.set(key, g);
    }
    // The slot stays in the filter: a record moved meanwhile (its schedule changed) is left alone.
    for (const g of groups.values()) {
      await col.updateMany({ dueMinute: g.slot, _id: { $in: g.ids } } as Filter<DueRecord>, { $set: { dueMinute: g.next } });
    }
  }

  /** One page of due records: claim them at once, run the won ones, move them on. Answers how many ran. */
  async function handle(rows: T[], now: Date): Promise<number> {
    const won = await o.once.claimAll(rows.map((r) => ({ key: slotKey(o.kind, r._id, new Date(r.dueMinute! * MINUTE)), orgId: r.orgId })));
    const mine = rows.filter((_, i) => won[i]);
    const done: T[] = [];
    for (let i = 0; i < mine.length; i += concurrency) {
      await Promise.all(mine.slice(i, i + concurrency).map(async (r) => {
        try {
          await o.run(r, new Date(r.dueMinute! * MINUTE));
          done.push(r);
        } catch (err) {
          o.log.error({ err, kind: o.kind, id: r._id }, 'a scheduled run failed; its record stays due and the next sweep tries again');
        }
      }));
    }
    // Another process's claim: it moves the record on; unless it died holding it (stale).
    const stale = rows.filter((r, i) => !won[i] && r.dueMinute! * MINUTE < now.getTime() - STALE_MS);
    await advance([...done, ...stale], now);
    return done.length;
  }

  /** Reads one filter's due records in keyset pages on _id and handles each page. */
  async function drain(filter: Filter<DueRecord>, now: Date): Promise<number> {
    let ran = 0;
    let after = '';
    for (;;) {
      // The page in the first batch: FerretDB keeps a PostgreSQL connection for an open cursor
      // until its getMore, and with every driver connection busy waiting for one of those, the
      // embedded database stopped answering (the 200 + 200 bench, two processes: 90 connections idle).
      const rows = await col.find({ ...filter, ...(after ? { _id: { $gt: after } } : {}) }).sort({ _id: 1 }).limit(pageSize).batchSize(pageSize).toArray() as unknown as T[];
      if (!rows.length) return ran;
      ran += await handle(rows, now);
      after = rows[rows.length - 1]._id;
      if (rows.length < pageSize) return ran;
    }
  }

  /** The minute the last finished sweep of this process started in (its watermark); null before the first. */
  let swept: number | null = null;
  /** When this process last read overdue records by range. */
  let rangeAt = -Infinity;

  return {
    /**
     * One sweep at `now`: by equality, the minutes since this process's watermark and the last
     * few; without a usable watermark, or with `catchUp` (by default: CATCH_UP_MS since the last),
     * every record due before them by a range read. Answers how many occurrences this process ran.
     */
    async sweep(now = new Date(), catchUp?: boolean): Promise<number> {
      const m = Math.floor(now.getTime() / MINUTE);
      const from = swept === null ? m - RECENT_MINUTES : Math.min(m - RECENT_MINUTES, swept + 1);
      const gapTooLong = swept === null || m - from > MAX_GAP_MINUTES;
      let ran = 0;
      if (gapTooLong || (catchUp ?? now.getTime() - rangeAt >= CATCH_UP_MS)) {
        ran += await drain({ dueMinute: { $lt: m - RECENT_MINUTES } } as Filter<DueRecord>, now);
        rangeAt = now.getTime();
      }
      for (let k = gapTooLong ? m - RECENT_MINUTES : from; k <= m; k++) ran += await drain({ dueMinute: k } as Filter<DueRecord>, now);
      // Only a sweep that read everything moves the watermark (a failed one is read again).
      swept = swept === null ? m : Math.max(swept, m);
      return ran;
    },
  };
}
export type DueScan = ReturnType<typeof createDueScan>;

/**
 * Runs a due scan on every job poll of this process: the first run moves records of the old kind
 * (one Agenda job each) over, then sweeps; a failed sweep is logged and the next one tries again.
 */
export function sweepEveryPoll(
  scheduler: { loop(name: string, everyMs: number, fn: (first: boolean) => Promise<void>): void; pollMs: number },
  log: Pick<FastifyBaseLogger, 'error'>,
  name: string,
  steps: { migrate(): Promise<unknown>; sweep(now: Date): Promise<unknown> },
): void {
  scheduler.loop(name, scheduler.pollMs, async (first) => {
    try {
      if (first) await steps.migrate();
      await steps.sweep(new Date());
    } catch (err) {
      log.error({ err, loop: name }, 'a due scan failed; the next sweep tries again');
    }
  });
}
