// The exactly-once primitive of DESIGN.md. On the embedded database an update is not
// atomic with its filter, so a step that must happen once is decided by an insert keyed
// by a unique index (here the _id of `once_keys`): exactly one concurrent caller wins,
// the others see a duplicate key. The winner then updates its record.
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { CollectionSpec, Database } from './db.ts';
import { insertUnlessDuplicate } from './db.ts';
import { AppError } from './errors.ts';

export const ONCE_KEYS: CollectionSpec = { name: 'once_keys', owner: 'core/once', indexes: [{ key: { orgId: 1, at: 1 } }, { key: { at: 1 } }] };

/** Agenda job that forgets claims older than anything they still guard (core/app.ts). */
export const ONCE_PURGE_JOB = 'core.once-purge';

/**
 * How long a durable claim is kept. Every key guards something with a shorter life: a refresh
 * token (REFRESH_TOKEN_TTL), an account deletion (DELETION_GRACE_DAYS), a scan (final within
 * SCAN_TIMEOUT_MINUTES, and its own status guards it after that), a scheduled tick (a minute),
 * a reset token (an hour). Two days more for clock skew and a late job.
 */
export function onceKeepMs(cfg: { REFRESH_TOKEN_TTL: number; DELETION_GRACE_DAYS: number }): number {
  const day = 86_400_000;
  return Math.max(cfg.REFRESH_TOKEN_TTL * 1000, cfg.DELETION_GRACE_DAYS * day, 7 * day) + 2 * day;
}

/**
 * The one claim key of a scheduled thing's occurrence: `<kind>:<id>:<minute of the due slot>`
 * (a watch's run `watch:`, a cron config's scan `scheduled-scan:`). The slot comes from the
 * schedule (the occurrence the job was locked for, core/scheduler.ts `dueAt`), never from the
 * clock of the process that runs it, and is claimed before any work.
 */
export function slotKey(kind: string, id: string, slot: Date): string {
  return `${kind}:${id}:${Math.floor(slot.getTime() / 60_000)}`;
}

interface OnceKey { _id: string; at: Date; orgId?: string }

export interface ClaimOptions {
  /**
   * A claim older than this may be taken over: its holder is presumed dead (a crash between
   * the claim and the work it guards). Only for work that is safe to repeat.
   */
  staleAfterMs?: number;
}

export interface Once {
  /** True for exactly one caller per key, ever (durable, in the database). */
  claim(key: string, orgId?: string, options?: ClaimOptions): Promise<boolean>;
  /** Claims one occurrence of a scheduled thing (slotKey): true for exactly one caller, before any of its work. */
  claimSlot(kind: string, id: string, slot: Date, orgId?: string): Promise<boolean>;
  /** claim() for many keys in one insert: per entry, whether this caller won it (the due scan claims a page of occurrences at once). */
  claimAll(entries: { key: string; orgId?: string }[]): Promise<boolean[]>;
  /** Gives a claim back, so the guarded step can be tried again (its holder failed before finishing). */
  release(key: string): Promise<void>;
  /**
   * Claims the key and runs `work`, the step it guards. When `work` fails the claim is given
   * back and the error rethrown, so the caller's retry can do the step. `{won: false}`: another
   * caller holds the claim, and nothing ran.
   */
  runOnce<T>(key: string, orgId: string | undefined, work: () => Promise<T>, options?: ClaimOptions): Promise<{ won: false } | { won: true; value: T }>;
  /** True for exactly one caller per key within ttlMs (Redis SET NX); throws 503 if Redis is down. */
  claimFor(key: string, ttlMs: number): Promise<boolean>;
  /** Removes the durable claims of one organization (organization deletion). */
  forgetOrg(orgId: string): Promise<void>;
  /** Removes claims made before `cutoff`; answers how many. */
  purgeBefore(cutoff: Date): Promise<number>;
}

export function createOnce(db: Database, redis: Redis, log?: Pick<FastifyBaseLogger, 'error'>): Once {
  const keys = db.collection<OnceKey>(ONCE_KEYS);
  const once: Once = {
    async claim(key, orgId, options) {
      const insert = () => insertUnlessDuplicate(keys, { _id: key, at: new Date(), orgId });
      if (await insert()) return true;
      if (!options?.staleAfterMs) return false;
      const held = await keys.findOne({ _id: key });
      if (!held) return insert(); // given back meanwhile
      if (held.at.getTime() >= Date.now() - options.staleAfterMs) return false;
      // One taker per stale claim: a delete-then-insert let two win on FerretDB, whose delete is
      // not atomic with its filter (one taker deleted the claim another had just made). The
      // takeover is itself a unique key, named after the claim it replaces.
      if (!(await insertUnlessDuplicate(keys, { _id: `${key}#taken-over@${held.at.getTime()}`, at: new Date(), orgId }))) return false;
      await keys.updateOne({ _id: key }, { $set: { at: new Date() } });
      return true;
    },
    claimSlot: (kind, id, slot, orgId) => once.claim(slotKey(kind, id, slot), orgId),
    async claimAll(entries) {
      if (!entries.length) return [];
      const won = entries.map(() => true);
      try {
        await keys.insertMany(entries.map((e) => ({ _id: e.key, at: new Date(), orgId: e.orgId })), { ordered: false });
      } catch (err) {
        // Unordered: every other key was inserted; the duplicates are the keys someone else holds.
        const list = (err as { writeErrors?: unknown }).writeErrors;
        const failed = (Array.isArray(list) ? list : list ? [list] : []) as { index: number; code?: number; err?: { code?: number } }[];
        if (!failed.length || failed.some((e) => (e.code ?? e.err?.code) !== 11000)) throw err;
        for (const f of failed) won[f.index] = false;
      }
      return won;
    },
    async release(key) {
      await keys.deleteOne({ _id: key });
    },
    async runOnce(key, orgId, work, options) {
      if (!(await once.claim(key, orgId, options))) return { won: false };
      try {
        return { won: true, value: await work() };
      } catch (err) {
        await once.release(key).catch((releaseErr: unknown) => log?.error({ err: releaseErr, key }, 'could not give back a claim whose work failed; it holds until taken over as stale'));
        throw err;
      }
    },
    async claimFor(key, ttlMs) {
      try {
        return (await redis.set(`once:${key}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
      } catch {
        throw new AppError('store_unavailable', { message: 'Replay protection is unavailable; try again shortly' });
      }
    },
    async forgetOrg(orgId) {
      await keys.deleteMany({ orgId });
    },
    async purgeBefore(cutoff) {
      return (await keys.deleteMany({ at: { $lt: cutoff } })).deletedCount;
    },
  };
  return once;
}
