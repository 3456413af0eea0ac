// Usage counters of the platform's own analytics, in Redis (the only storage of this plugin):
//  usage:<day>         hash, field "<route id>|<feature>|<plan>|<status>", value = requests
//  usage:active:<day>  HyperLogLog of the day's authenticated users, each added as a SHA-256 of
//                      the day and the user id: a count, never a list of who
// Each key is one UTC day (the stored day), kept 120 days. HINCRBY and PFADD are atomic, so
// counts from several service processes add up exactly.
import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

export const KEEP_DAYS = 120;
const KEEP_SECONDS = KEEP_DAYS * 24 * 3600;

export interface UsageRow { route: string; feature: string; plan: string; status: number; count: number }

/** A user's marker for one day: unlinkable across days, not reversible to the id. */
export const dailyMarker = (day: string, userId: string) => createHash('sha256').update(`${day}:${userId}`).digest('base64url').slice(0, 22);

export function createUsageStore(redis: Redis) {
  return {
    /** Adds buffered counts and markers, one round trip. */
    async add(counts: Map<string, Map<string, number>>, markers: Map<string, Set<string>>): Promise<void> {
      const p = redis.pipeline();
      for (const [day, fields] of counts) {
        for (const [field, n] of fields) p.hincrby(`usage:${day}`, field, n);
        p.expire(`usage:${day}`, KEEP_SECONDS);
      }
      for (const [day, set] of markers) {
        p.pfadd(`usage:active:${day}`, ...set);
        p.expire(`usage:active:${day}`, KEEP_SECONDS);
      }
      const results = await p.exec();
      const failed = results?.find(([err]) => err);
      if (failed) throw failed[0];
    },
    /** Every counter of these days. */
    async rows(days: string[]): Promise<Map<string, UsageRow[]>> {
      const p = redis.pipeline();
      for (const day of days) p.hgetall(`usage:${day}`);
      const results = (await p.exec()) ?? [];
      const out = new Map<string, UsageRow[]>();
      days.forEach((day, i) => {
        const [err, hash] = results[i] ?? [];
        if (err) throw err;
        out.set(day, Object.entries((hash ?? {}) as Record<string, string>).map(([field, n]) => {
          const [route, feature, plan, status] = field.split('|');
          return { route, feature, plan, status: Number(status), count: Number(n) };
        }));
      });
      return out;
    },
    /** Distinct active users of each day, and of all of them together. */
    async active(days: string[]): Promise<{ perDay: number[]; total: number }> {
      const p = redis.pipeline();
      for (const day of days) p.pfcount(`usage:active:${day}`);
      p.pfcount(...days.map((d) => `usage:active:${d}`));
      const results = (await p.exec()) ?? [];
      const values = results.map(([err, n]) => { if (err) throw err; return Number(n); });
      return { perDay: values.slice(0, days.length), total: values[days.length] ?? 0 };
    },
  };
}
export type UsageStore = ReturnType<typeof createUsageStore>;
