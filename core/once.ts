// The exactly-once primitive of DESIGN.md. On the embedded database an update is not
// atomic with its filter, so a step that must happen once is decided by an insert keyed
// by a unique index (here the _id of `once_keys`): exactly one concurrent caller wins,
// the others see a duplicate key. The winner then updates its record.
import type { Redis } from 'ioredis';
import type { CollectionSpec, Database } from './db.ts';
import { isDuplicateKey } from './db.ts';
import { AppError } from './errors.ts';

export const ONCE_KEYS: CollectionSpec = { name: 'once_keys', owner: 'core/once', indexes: [{ key: { orgId: 1, at: 1 } }] };

interface OnceKey { _id: string; at: Date; orgId?: string }

export interface Once {
  /** True for exactly one caller per key, ever (durable, in the database). */
  claim(key: string, orgId?: string): Promise<boolean>;
  /** True for exactly one caller per key within ttlMs (Redis SET NX); throws 503 if Redis is down. */
  claimFor(key: string, ttlMs: number): Promise<boolean>;
  /** Removes the durable claims of one organization (organization deletion). */
  forgetOrg(orgId: string): Promise<void>;
}

export function createOnce(db: Database, redis: Redis): Once {
  const keys = db.collection<OnceKey>(ONCE_KEYS);
  return {
    async claim(key, orgId) {
      try {
        await keys.insertOne({ _id: key, at: new Date(), orgId });
        return true;
      } catch (err) {
        if (isDuplicateKey(err)) return false;
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
  };
}
