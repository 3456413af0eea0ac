// Plan limits (SPEC "Limits": plan limits), counted by the plugins that own what is counted
// and enforced by the engine: a manifest entry with `limit` passes this module's take() before
// its handler, GET /api/auth/quota reads usage() from the same meters, and jobs that create
// counted records outside a request (scheduled scans) call within().
//
// Exact under concurrency on the embedded database, where only unique keys hold (DESIGN.md):
// - a limit whose plugin defines its own `take` uses it (scans per day: the day's numbered
//   exactly-once keys, which a deleted scan does not give back);
// - every other limit serializes the creations of one organization and limit behind a Redis
//   lock (SET NX with a token and an expiry), counts the records under it, and keeps it until
//   the handler has written. Numbered slots were not enough here: after a downgrade the
//   records kept from the higher plan hold no slot of the lower one, and only a count sees them.
// Records over the limit after a downgrade stay as they are: only adding one is refused.
import type { Redis } from 'ioredis';
import { acquireLock } from './redis.ts';
import { AppError } from './errors.ts';
import { LIMIT_NAMES, PLAN_LIMITS, limitMessage, type LimitName, type Plan } from './plans.ts';
import type { RouteSpec } from './manifest.ts';
import type { Tenancy } from './tenancy/index.ts';

/** What an exact claim holds until the creation it guards is done. */
export interface Hold {
  /** The creation succeeded: keep what was taken (a lock is let go). */
  commit(): Promise<void>;
  /** The creation failed: give back what was taken. */
  abort(): Promise<void>;
}

export interface Meter {
  /** How many counted records the organization has (summed over every plugin that counts this limit). */
  used(orgId: string): Promise<number>;
  /**
   * Whether the request adds a counted record; absent: every request to a route with this
   * limit adds one. An upsert that replaces a record adds none (credentials saved again).
   */
  adds?(orgId: string, request: LimitedRequest): Promise<boolean>;
  /**
   * A claim of its own, for limits that count something other than live records (scans started
   * today): a Hold when one of `allowed` is free, else null. At most one plugin defines it per limit.
   */
  take?(orgId: string, allowed: number): Promise<Hold | null>;
}

/** The request a route with `limit` is about to serve, as its plugin's meter sees it (validated). */
export interface LimitedRequest { route: RouteSpec; params: Readonly<Record<string, string>>; body: unknown }

export interface Usage { plan: Plan; limits: Record<LimitName, number | null>; used: Record<LimitName, number> }

export interface Limits {
  /** A plugin's meter for one limit (ctx.defineMeter, which names the plugin). */
  define(plugin: string, name: LimitName, meter: Meter): void;
  /** Whether a plugin defined a meter for this limit (the loader checks every `limit` route). */
  has(plugin: string, name: LimitName): boolean;
  /** The organization's plan, its limits and the usage of every limit. */
  usage(orgId: string): Promise<Usage>;
  /**
   * A hold on one more record of `name`, or 403 plan_limit naming the limit. `plugin` and
   * `request`: the route's, so that plugin's meter decides whether the request adds one.
   */
  take(orgId: string, name: LimitName, request?: { plugin: string; request: LimitedRequest }): Promise<Hold>;
  /** take(), then `work`, committing when it succeeds and giving the claim back when it fails. */
  within<T>(orgId: string, name: LimitName, work: () => Promise<T>): Promise<T>;
}

const FREE: Hold = { commit: async () => undefined, abort: async () => undefined };
/** Longer than any creation takes; a crashed holder blocks its organization's creations this long at most. */
const LOCK_MS = 30_000;
/** How long a creation waits for the one before it. */
const WAIT_MS = 10_000;

export const limitReached = (name: LimitName, plan: Plan, allowed: number, used: number) =>
  new AppError('plan_limit', { message: limitMessage(name, plan, allowed), details: { limit: name, plan, allowed, used } });

export function createLimits(redis: Redis, tenancy: Tenancy): Limits {
  const meters = new Map<LimitName, Map<string, Meter>>(LIMIT_NAMES.map((n) => [n, new Map()]));
  const used = async (orgId: string, name: LimitName) => {
    const counts = await Promise.all([...meters.get(name)!.values()].map((m) => m.used(orgId)));
    return counts.reduce((a, b) => a + b, 0);
  };
  const planOf = async (orgId: string) => {
    const org = await tenancy.org(orgId);
    if (!org) throw new AppError('not_found', { message: 'Organization not found' });
    return org.plan;
  };

  async function lock(orgId: string, name: LimitName): Promise<Hold> {
    const release = await acquireLock(redis, `limit-lock:${name}:${orgId}`, {
      ttlMs: LOCK_MS, waitMs: WAIT_MS,
      busy: () => new AppError('conflict', { message: 'Too many concurrent creations in this organization; try again' }),
      down: () => new AppError('store_unavailable', { message: 'Plan limits cannot be checked right now; try again shortly' }),
    });
    return { commit: release, abort: release };
  }

  const limits: Limits = {
    define(plugin, name, meter) {
      const byPlugin = meters.get(name)!;
      if (byPlugin.has(plugin)) throw new Error(`plugins/${plugin}: defines the "${name}" meter twice`);
      const taker = [...byPlugin.entries()].find(([, m]) => m.take);
      if (meter.take && taker) throw new Error(`plugins/${plugin}: the "${name}" limit already has its take from plugins/${taker[0]}`);
      byPlugin.set(plugin, meter);
    },
    has: (plugin, name) => meters.get(name)?.has(plugin) ?? false,
    async usage(orgId) {
      const plan = await planOf(orgId);
      const counts = await Promise.all(LIMIT_NAMES.map((n) => used(orgId, n)));
      return { plan, limits: { ...PLAN_LIMITS[plan] }, used: Object.fromEntries(LIMIT_NAMES.map((n, i) => [n, counts[i]])) as Record<LimitName, number> };
    },
    async take(orgId, name, request) {
      const plan = await planOf(orgId);
      const allowed = PLAN_LIMITS[plan][name];
      if (allowed === null) return FREE;
      const own = [...meters.get(name)!.values()].find((m) => m.take);
      if (own?.take) {
        const hold = await own.take(orgId, allowed);
        // Refused: every claim of the day is taken, so at least `allowed` were used, whatever the
        // records say (a deleted scan keeps its claim; concurrent ones are not stored yet).
        if (!hold) throw limitReached(name, plan, allowed, Math.max(allowed, await used(orgId, name)));
        return hold;
      }
      const hold = await lock(orgId, name);
      try {
        const adds = request ? meters.get(name)!.get(request.plugin)?.adds : undefined;
        // A request that replaces a record (adds none) is allowed over the limit; it still holds
        // the lock, so a creation racing it is counted after it.
        if (adds && !(await adds(orgId, request!.request))) return hold;
        const count = await used(orgId, name);
        if (count >= allowed) throw limitReached(name, plan, allowed, count);
        return hold;
      } catch (err) {
        await hold.abort();
        throw err;
      }
    },
    async within(orgId, name, work) {
      const hold = await limits.take(orgId, name);
      let value;
      try {
        value = await work();
      } catch (err) {
        await hold.abort();
        throw err;
      }
      await hold.commit();
      return value;
    },
  };
  return limits;
}
