// Redis connections: one for commands, one subscriber for cache invalidation.
// Commands fail fast while Redis is down (no offline queue), so guards can decide
// between failing open and failing closed instead of hanging.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

export interface RedisPair { main: Redis; sub: Redis; ping(): Promise<number>; close(): Promise<void> }

export async function connectRedis(url: string, keyPrefix: string): Promise<RedisPair> {
  const common = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (times: number) => Math.min(times * 200, 2000),
    lazyConnect: true,
  };
  const main = new Redis(url, { ...common, keyPrefix });
  // Subscriptions must survive reconnects; the offline queue lets SUBSCRIBE wait for them.
  const sub = new Redis(url, { ...common, enableOfflineQueue: true, maxRetriesPerRequest: null });
  main.on('error', () => {}); // reported by /health and by the guards that need Redis
  sub.on('error', () => {});
  await Promise.all([main.connect(), sub.connect()]);
  return {
    main,
    sub,
    async ping() {
      const started = performance.now();
      await main.ping();
      return performance.now() - started;
    },
    async close() {
      main.disconnect();
      sub.disconnect();
    },
  };
}

// Hands out the next number of a sequence, never below `atLeast`: concurrent callers each get
// their own (the database cannot make read-max-then-insert atomic, DESIGN.md).
const NEXT_IN_SEQUENCE = `local current = tonumber(redis.call('GET', KEYS[1]) or '-1')
local floor = tonumber(ARGV[1])
if current < floor then redis.call('SET', KEYS[1], floor) return floor end
return redis.call('INCR', KEYS[1])`;

/** The position a new record takes in its organization's list (nextInSequence below). */
export type NextOrder = (orgId: string, atLeast: number) => Promise<number>;

/**
 * The next position of an ordered list (workspaces, widgets): `atLeast` is one past the highest
 * stored position. Two concurrent creates get different positions; while Redis is down, `atLeast`.
 */
export async function nextInSequence(redis: Redis, key: string, atLeast: number): Promise<number> {
  try {
    return Number(await redis.eval(NEXT_IN_SEQUENCE, 1, `sequence:${key}`, atLeast));
  } catch {
    return atLeast;
  }
}

export interface LockOptions {
  /** The lock expires by itself after this long (a holder that died never blocks for good). */
  ttlMs: number;
  /** How long to wait for it before giving up with `busy()`. */
  waitMs: number;
  busy: () => Error;
  /** Redis did not answer. */
  down: () => Error;
}

const RELEASE_IF_HELD = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * A short lock (SET NX PX with a random token), for read-decide-write sequences the embedded
 * database cannot make atomic (DESIGN.md: only unique indexes hold under concurrency). Resolves
 * with the release function, which deletes the key only while this holder still has it.
 */
export async function acquireLock(redis: Redis, key: string, o: LockOptions): Promise<() => Promise<void>> {
  const token = randomBytes(12).toString('hex');
  const deadline = Date.now() + o.waitMs;
  for (;;) {
    let won: string | null;
    try {
      won = await redis.set(key, token, 'PX', o.ttlMs, 'NX');
    } catch {
      throw o.down();
    }
    if (won === 'OK') break;
    if (Date.now() > deadline) throw o.busy();
    await new Promise((r) => setTimeout(r, 5 + Math.random() * 20));
  }
  return async () => {
    await redis.eval(RELEASE_IF_HELD, 1, key, token).catch(() => undefined);
  };
}
