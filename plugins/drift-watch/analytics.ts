// The watch event log and what it adds up to: the paged events, the summary counts, and the
// per-day analytics with the most drifting resources and watches.
import { pageCount } from '../../core/schemas.ts';
import { isoDay } from '../drifts/trend.ts';
import { DAY, HOUR } from './watch-jobs.ts';
import { eventView } from './schemas.ts';
import type { EventType, Period, WatchStore } from './store.ts';

const PERIOD_DAYS: Record<Period, number> = { '7d': 7, '30d': 30, '90d': 90 };
const TOP = 10;

export function createWatchAnalytics(store: WatchStore) {
  return {
    async events(orgId: string, q: { watchId?: string; type?: EventType; from?: string; to?: string; page: number; limit: number }) {
      const filter = { watchId: q.watchId, type: q.type, from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined };
      const { rows, total } = await store.eventPage(orgId, filter, (q.page - 1) * q.limit, q.limit);
      return { events: rows.map(eventView), total, page: q.page, pages: pageCount(total, q.limit) };
    },
    async summary(orgId: string) {
      const [byType, activeWatches, snoozedWatches] = await Promise.all([store.countByType(orgId), store.countStatus(orgId, 'active'), store.countStatus(orgId, 'snoozed')]);
      const n = (t: EventType) => byType.find((g) => g._id === t)?.n ?? 0;
      return {
        totalEvents: byType.reduce((a, g) => a + g.n, 0), driftDetected: n('drift_detected'), driftResolved: n('drift_resolved'),
        checksPassed: n('check_passed'), activeWatches, snoozedWatches,
      };
    },
    async analytics(orgId: string, period: Period, now = new Date()) {
      const count = PERIOD_DAYS[period];
      const days = [...Array(count).keys()].map((i) => isoDay(new Date(now.getTime() - (count - 1 - i) * DAY)));
      const since = days[0];
      const [byDay, resources, watches] = await Promise.all([store.byDay(orgId, since), store.detectedBy(orgId, since, 'resource'), store.detectedBy(orgId, since, 'watch')]);
      const per = new Map(days.map((day) => [day, { day, detected: 0, resolved: 0, checksPassed: 0 }]));
      let resolveMs = 0;
      for (const g of byDay) {
        const row = per.get(g._id.day);
        if (!row) continue;
        if (g._id.type === 'drift_detected') row.detected += g.n;
        if (g._id.type === 'drift_resolved') { row.resolved += g.n; resolveMs += g.resolveMs; }
        if (g._id.type === 'check_passed') row.checksPassed += g.n;
      }
      const rows = [...per.values()];
      const totals = rows.reduce((a, r) => ({ detected: a.detected + r.detected, resolved: a.resolved + r.resolved, checksPassed: a.checksPassed + r.checksPassed }), { detected: 0, resolved: 0, checksPassed: 0 });
      const top = <T extends { n: number }>(list: T[], key: (x: T) => string) => list.sort((a, b) => b.n - a.n || key(a).localeCompare(key(b))).slice(0, TOP);
      const topWatches = top(watches, (x) => x._id.watchId);
      // Current names of the watches still there; a deleted one keeps the name its events carry.
      const names = new Map((await store.names(orgId, topWatches.map((x) => x._id.watchId))).map((x) => [x._id, x.name]));
      return {
        period, from: since, to: days[days.length - 1], days: rows, totals,
        meanTimeToResolveHours: totals.resolved ? Math.round((resolveMs / totals.resolved / HOUR) * 100) / 100 : null,
        mostDriftingResources: top(resources, (x) => x._id.resourceAddress).map((x) => ({ resourceAddress: x._id.resourceAddress, resourceType: x._id.resourceType ?? null, detections: x.n })),
        mostDriftingWatches: topWatches.map((x) => ({ watchId: x._id.watchId, name: names.get(x._id.watchId) ?? x._id.watchName, detections: x.n })),
      };
    },
  };
}
