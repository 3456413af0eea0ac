// The spec's named rate limits on Redis (SPEC "Limits"). Each limit says what it counts
// by and whether it fails open or closed when Redis is unreachable.
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.ts';

interface LimitSpec { points: number; seconds: number; by: 'ip' | 'user' | 'org' | 'runner'; failClosed: boolean }

export const RATE_LIMITS = {
  auth: { points: 50, seconds: 15 * 60, by: 'ip', failClosed: false },
  scan: { points: 10, seconds: 60, by: 'org', failClosed: false },
  strict: { points: 5, seconds: 60 * 60, by: 'user', failClosed: false },
  runner: { points: 120, seconds: 60, by: 'runner', failClosed: false },
  credentials: { points: 60, seconds: 60 * 60, by: 'user', failClosed: true },
  // Cloud change events (plugins/cloud-events): batches of up to 100 records per organization.
  'cloud-events': { points: 600, seconds: 60, by: 'org', failClosed: false },
} as const satisfies Record<string, LimitSpec>;
export type RateLimitName = keyof typeof RATE_LIMITS;
export const RATE_LIMIT_NAMES = Object.keys(RATE_LIMITS) as RateLimitName[];

export type RateLimitGuard = (name: RateLimitName, req: FastifyRequest, reply: FastifyReply) => Promise<void>;

export function createRateLimiter(redis: Redis, log: { warn(obj: object, msg: string): void }): RateLimitGuard {
  const limiters = Object.fromEntries(RATE_LIMIT_NAMES.map((name) => [name, new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `rl:${name}`,
    points: RATE_LIMITS[name].points,
    duration: RATE_LIMITS[name].seconds,
    rejectIfRedisNotReady: true,
  })])) as Record<RateLimitName, RateLimiterRedis>;

  return async function rateLimit(name, req, reply) {
    const spec: LimitSpec = RATE_LIMITS[name];
    const key = limitKey(spec.by, req);
    setPolicy(reply, spec);
    try {
      const res = await limiters[name].consume(key);
      setHeaders(reply, spec, res);
    } catch (err) {
      if (err instanceof RateLimiterRes) {
        setHeaders(reply, spec, err);
        const retryAfter = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        throw new AppError('rate_limited', {
          message: `Too many requests; retry in ${retryAfter} seconds`,
          headers: { 'retry-after': String(retryAfter) },
        });
      }
      if (spec.failClosed) throw new AppError('store_unavailable', { message: 'Rate limiter unavailable; try again shortly' });
      // Fail open: a Redis outage must not lock everyone out of sign-in and scans.
      log.warn({ limit: name, err: (err as Error).message }, 'rate limiter unavailable; allowing request');
    }
  };
}

function limitKey(by: LimitSpec['by'], req: FastifyRequest): string {
  const p = req.principal;
  if (by === 'runner' && p?.runnerId) return `runner:${p.runnerId}`;
  if (by === 'org' && req.org) return `org:${req.org.id}`;
  if ((by === 'user' || by === 'org') && p?.userId) return `user:${p.userId}`;
  return `ip:${req.ip}`;
}

function setPolicy(reply: FastifyReply, spec: LimitSpec) {
  reply.header('ratelimit-policy', `${spec.points};w=${spec.seconds}`);
}

function setHeaders(reply: FastifyReply, spec: LimitSpec, res: RateLimiterRes) {
  reply.header('ratelimit-limit', spec.points);
  reply.header('ratelimit-remaining', Math.max(0, res.remainingPoints));
  reply.header('ratelimit-reset', Math.ceil(res.msBeforeNext / 1000));
}

/**
 * The same named limits outside a request (a scan a job starts for an organization): one point
 * of the key the guard would use (`org:<id>`), in the same Redis bucket. Answers 0 when allowed,
 * else the milliseconds until a point frees. Fails open like the guard (a Redis outage allows).
 */
export function createLimitConsumer(redis: Redis) {
  const limiters = new Map<RateLimitName, RateLimiterRedis>();
  return async function consume(name: RateLimitName, orgId: string): Promise<number> {
    const spec = RATE_LIMITS[name];
    if (!limiters.has(name)) {
      limiters.set(name, new RateLimiterRedis({ storeClient: redis, keyPrefix: `rl:${name}`, points: spec.points, duration: spec.seconds, rejectIfRedisNotReady: true }));
    }
    try {
      await limiters.get(name)!.consume(`org:${orgId}`);
      return 0;
    } catch (err) {
      if (err instanceof RateLimiterRes) return Math.max(1000, err.msBeforeNext);
      return 0;
    }
  };
}
