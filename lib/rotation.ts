// The route-walking contract tests (test/contract) and the fuzz run (scripts/fuzz.ts) call every
// route of every plugin, and they grow with each plugin. A run takes one of ROTATION_BUCKETS
// buckets of routes (a route's bucket is a hash of its id, so it stays put as routes are added);
// the bucket turns with the UTC day, so any ROTATION_BUCKETS consecutive days cover every route.
// Every route is taken on Sundays, with CI_FULL=1, and when CONTRACT_SEED=all; CONTRACT_SEED=<n>
// replays bucket n mod ROTATION_BUCKETS.
import { createHash } from 'node:crypto';

export const ROTATION_BUCKETS = 4;

export interface RouteSample {
  /** The bucket this run takes, or null for every route. */
  bucket: number | null;
  takes(routeId: string): boolean;
  /** One line for the test output: what ran and how to run the rest. */
  describe: string;
}

export const bucketOf = (routeId: string): number =>
  createHash('sha256').update(routeId).digest().readUInt32BE(0) % ROTATION_BUCKETS;

export function routeSample(env: NodeJS.ProcessEnv = process.env, now = new Date()): RouteSample {
  const seed = env.CONTRACT_SEED;
  const full = env.CI_FULL === '1' || seed === 'all' || (seed === undefined && now.getUTCDay() === 0);
  if (full) return { bucket: null, takes: () => true, describe: 'every route (CI_FULL=1, CONTRACT_SEED=all or Sunday)' };
  const n = seed !== undefined && /^\d+$/.test(seed) ? Number(seed) : Math.floor(now.getTime() / 86_400_000);
  const bucket = n % ROTATION_BUCKETS;
  return {
    bucket,
    takes: (routeId) => bucketOf(routeId) === bucket,
    describe: `routes of bucket ${bucket} of ${ROTATION_BUCKETS} (CONTRACT_SEED=${bucket} replays it; CI_FULL=1 takes every route)`,
  };
}
