// Redis connections: one for commands, one subscriber for cache invalidation.
// Commands fail fast while Redis is down (no offline queue), so guards can decide
// between failing open and failing closed instead of hanging.
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
