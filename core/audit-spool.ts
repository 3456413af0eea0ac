// Audit entries the database did not take wait in Redis and are written again (issue #10:
// a failed audit write is retried from a durable place, never lost quietly). Each entry keeps
// its _id, so writing one twice (two processes draining at once) is a duplicate key, not a
// second entry (the insert function passed in treats it as written); an entry leaves the list only after it is written (LREM of exactly its text),
// so a process dying mid-drain loses nothing. If Redis is down too, the entry goes to the
// error log in full and is counted.
import type { Redis } from 'ioredis';
import { BSON } from 'mongodb';

const LIST = 'audit:retry';
const BATCH = 100;
export const AUDIT_DRAIN_MS = 15_000;

export interface AuditSpoolStats { spooled: number; written: number; lost: number }

export interface AuditSpool {
  /** Keeps an entry the database refused or could not be reached for. */
  keep(entry: object, err: unknown): Promise<void>;
  /** Writes waiting entries, oldest first, until the list is empty or the database fails again. */
  drain(): Promise<number>;
  /** Since this process started: entries kept, written again, and lost (Redis down as well). */
  stats(): AuditSpoolStats;
  stop(): void;
}

type Log = { error(obj: object, msg: string): void; warn(obj: object, msg: string): void };

export function createAuditSpool(redis: Redis, insert: (entry: object) => Promise<unknown>, log: Log): AuditSpool {
  const stats: AuditSpoolStats = { spooled: 0, written: 0, lost: 0 };
  let draining: Promise<number> | null = null;

  async function drainOnce(): Promise<number> {
    let written = 0;
    for (;;) {
      const batch = await redis.lrange(LIST, -BATCH, -1).catch(() => [] as string[]);
      if (!batch.length) return written;
      for (const text of batch.reverse()) {
        try {
          await insert(BSON.EJSON.parse(text, { relaxed: false }) as object);
        } catch {
          return written; // the database is still unreachable: try again later
        }
        if ((await redis.lrem(LIST, 1, text).catch(() => -1)) < 0) return written;
        written++;
        stats.written++;
      }
    }
  }

  const timer = setInterval(() => { void spool.drain(); }, AUDIT_DRAIN_MS);
  timer.unref();

  const spool: AuditSpool = {
    async keep(entry, err) {
      try {
        await redis.lpush(LIST, BSON.EJSON.stringify(entry, { relaxed: false }));
        stats.spooled++;
        log.warn({ err, entry: (entry as { _id?: unknown })._id }, 'audit write failed; the entry waits in Redis and is written again');
      } catch (redisErr) {
        stats.lost++;
        log.error({ err, redisErr, entry }, 'audit write failed and Redis could not keep the entry: it is only in this log');
      }
    },
    drain() {
      draining ??= drainOnce().finally(() => { draining = null; });
      return draining;
    },
    stats: () => ({ ...stats }),
    stop: () => clearInterval(timer),
  };
  return spool;
}
