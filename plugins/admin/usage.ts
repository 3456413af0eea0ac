// The platform's own usage, from the request metrics the engine reports after each response
// (ctx.metrics.onRequest): per UTC day, requests per route id, feature (plugin), plan and
// status, and a hashed daily marker per authenticated user. Nothing else of a request is kept
// (no path parameter, body, address or user id). Counted in memory and added to Redis every
// FLUSH_MS (and before every analytics answer and at shutdown), so a request costs a map update.
import type { RequestFacts } from '../../core/metrics.ts';
import { dailyMarker, type UsageRow, type UsageStore } from './store.ts';

export const FLUSH_MS = 10_000;
const isoDay = (d: Date) => d.toISOString().slice(0, 10);

/** The `days` UTC days ending today, oldest first. */
export function lastDays(days: number, now = new Date()): string[] {
  const out: string[] = [];
  for (let i = days - 1; i >= 0; i--) out.push(isoDay(new Date(now.getTime() - i * 86_400_000)));
  return out;
}

export function createUsage(store: UsageStore, log: { warn(obj: object, msg: string): void }) {
  let counts = new Map<string, Map<string, number>>();
  let markers = new Map<string, Set<string>>();
  let flushing: Promise<void> = Promise.resolve();

  function observe(f: RequestFacts) {
    // Engine routes (/health, /metrics, /docs) and unmatched paths are not features of the product.
    if (!f.plugin) return;
    const day = new Date().toISOString().slice(0, 10);
    let fields = counts.get(day);
    if (!fields) counts.set(day, (fields = new Map()));
    const field = `${f.routeId}|${f.plugin}|${f.plan ?? 'none'}|${f.status}`;
    fields.set(field, (fields.get(field) ?? 0) + 1);
    if (f.userId) {
      let set = markers.get(day);
      if (!set) markers.set(day, (set = new Set()));
      // Hashed at flush, not here: a request costs a set insert.
      set.add(f.userId);
    }
  }

  /** Adds what was counted since the last flush; on failure the counts are kept for the next one. */
  function flush(): Promise<void> {
    flushing = flushing.then(async () => {
      if (!counts.size && !markers.size) return;
      const c = counts;
      const m = new Map([...markers].map(([day, ids]) => [day, new Set([...ids].map((id) => dailyMarker(day, id)))]));
      counts = new Map();
      markers = new Map();
      try {
        await store.add(c, m);
      } catch (err) {
        log.warn({ err }, 'usage analytics not saved; kept for the next flush');
        for (const [day, fields] of c) for (const [k, n] of fields) {
          let mine = counts.get(day);
          if (!mine) counts.set(day, (mine = new Map()));
          mine.set(k, (mine.get(k) ?? 0) + n);
        }
        for (const [day, set] of m) {
          let mine = markers.get(day);
          if (!mine) markers.set(day, (mine = new Set()));
          for (const x of set) mine.add(x);
        }
      }
    });
    return flushing;
  }

  const add = (into: Record<string, number>, key: string, n: number) => { into[key] = (into[key] ?? 0) + n; };

  return {
    observe,
    flush,
    async behavior(days: number) {
      await flush();
      const range = lastDays(days);
      const [rows, active] = await Promise.all([store.rows(range), store.active(range)]);
      const features = new Map<string, { feature: string; requests: number; byPlan: Record<string, number> }>();
      const perDay = range.map((day, i) => {
        let requests = 0, clientErrors = 0, serverErrors = 0;
        for (const r of rows.get(day) ?? []) {
          requests += r.count;
          if (r.status >= 500) serverErrors += r.count;
          else if (r.status >= 400) clientErrors += r.count;
          const f = features.get(r.feature) ?? { feature: r.feature, requests: 0, byPlan: {} };
          f.requests += r.count;
          add(f.byPlan, r.plan, r.count);
          features.set(r.feature, f);
        }
        return { day, activeUsers: active.perDay[i], requests, clientErrors, serverErrors };
      });
      return {
        from: range[0], to: range[range.length - 1], activeUsers: active.total, days: perDay,
        features: [...features.values()].sort((a, b) => b.requests - a.requests || a.feature.localeCompare(b.feature)),
      };
    },
    async navigation(days: number, top = 20) {
      await flush();
      const range = lastDays(days);
      const rows = await store.rows(range);
      const routes = new Map<string, { route: string; feature: string; requests: number; byPlan: Record<string, number>; byStatus: Record<string, number> }>();
      const plans = new Map<string, Map<string, number>>();
      for (const r of [...rows.values()].flat() as UsageRow[]) {
        const x = routes.get(r.route) ?? { route: r.route, feature: r.feature, requests: 0, byPlan: {}, byStatus: {} };
        x.requests += r.count;
        add(x.byPlan, r.plan, r.count);
        add(x.byStatus, String(r.status), r.count);
        routes.set(r.route, x);
        const p = plans.get(r.plan) ?? new Map<string, number>();
        p.set(r.route, (p.get(r.route) ?? 0) + r.count);
        plans.set(r.plan, p);
      }
      const byCount = <T extends { requests: number; route: string }>(a: T, b: T) => b.requests - a.requests || a.route.localeCompare(b.route);
      return {
        from: range[0], to: range[range.length - 1],
        routes: [...routes.values()].sort(byCount).slice(0, top),
        byPlan: Object.fromEntries([...plans].sort(([a], [b]) => a.localeCompare(b)).map(([plan, m]) =>
          [plan, [...m].map(([route, requests]) => ({ route, requests })).sort(byCount).slice(0, top)])),
      };
    },
    /** Distinct users active in the last `days` days (the dashboard's activeUsers). */
    async activeUsers(days: number) {
      await flush();
      return (await store.active(lastDays(days))).total;
    },
  };
}
export type Usage = ReturnType<typeof createUsage>;
