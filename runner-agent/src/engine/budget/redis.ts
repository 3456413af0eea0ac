// The token buckets kept in Redis, so every service process and the built-in executor draw from
// the same bucket per (cloud account, service), and a halving by one is seen by all. One Lua
// script per call (atomic, Redis's own clock: processes on different hosts agree on time); it is
// bucket.ts's takeStep/throttleStep written again, the tests drive both. While Redis does not
// answer, the process falls back to its own buckets (a scan is never failed for the budget).
import { MemoryBucketStore, HALVING_GAP_MS, IDLE_MS, MIN_FACTOR, RECOVERY, RECOVERY_STEP_MS, type BucketStore, type Rate } from './bucket.ts';

/** The one ioredis call used (the runner need not depend on ioredis). */
export interface EvalClient {
  eval(script: string, numKeys: number, ...args: (string | number)[]): Promise<unknown>;
}

// ARGV: op ('take' | 'throttled'), perSecond, burst. Returns the wait in ms (take) or 0.
const SCRIPT = `
local op = ARGV[1]
local rate = tonumber(ARGV[2])
local burst = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local h = redis.call('HMGET', KEYS[1], 'tokens', 'at', 'factor', 'halvedAt')
local factor = tonumber(h[3]) or 1
local halvedAt = tonumber(h[4]) or 0
local f = 1
if factor < 1 then
  local quiet = math.floor(math.max(0, now - halvedAt) / ${RECOVERY_STEP_MS})
  f = math.min(1, factor * ${RECOVERY} ^ quiet)
end
local perSecond = rate * f
local cap = math.max(1, burst * f)
local tokens = tonumber(h[1]) or math.max(1, burst)
local at = tonumber(h[2]) or now
tokens = math.min(cap, tokens + math.max(0, now - at) * perSecond / 1000)
local wait = 0
if op == 'take' then
  tokens = tokens - 1
  if tokens < 0 then wait = math.ceil(-tokens * 1000 / perSecond) end
else
  tokens = math.min(tokens, 0)
  if not (halvedAt > 0 and now - halvedAt < ${HALVING_GAP_MS}) then
    factor = math.max(${MIN_FACTOR}, f / 2)
    halvedAt = now
  end
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now, 'factor', tostring(factor), 'halvedAt', halvedAt)
redis.call('PEXPIRE', KEYS[1], ${IDLE_MS})
return wait`;

export class RedisBucketStore implements BucketStore {
  private readonly redis: EvalClient;
  private readonly fallback = new MemoryBucketStore();
  private readonly onError?: (err: Error) => void;

  /** `onError` hears each Redis failure (the call then draws from this process's bucket). */
  constructor(redis: EvalClient, opts: { onError?: (err: Error) => void } = {}) {
    this.redis = redis;
    this.onError = opts.onError;
  }

  async take(key: string, rate: Rate): Promise<number> {
    try {
      return Number(await this.redis.eval(SCRIPT, 1, `apibudget:${key}`, 'take', rate.perSecond, rate.burst));
    } catch (e) {
      this.onError?.(e as Error);
      return this.fallback.take(key, rate);
    }
  }

  async throttled(key: string, rate: Rate): Promise<void> {
    try {
      await this.redis.eval(SCRIPT, 1, `apibudget:${key}`, 'throttled', rate.perSecond, rate.burst);
    } catch (e) {
      this.onError?.(e as Error);
      await this.fallback.throttled(key, rate);
    }
  }
}
