// Per-day trends over the stored UTC `day` strings (the embedded database has no date
// operators in $group, DESIGN.md).
import type { DriftStore } from './store.ts';

export const isoDay = (d: Date) => d.toISOString().slice(0, 10);
const DAY_MS = 24 * 60 * 60 * 1000;
export const TREND_DAYS = 30;

/** The last `days` UTC days, oldest first, with detections and resolutions per day. */
export async function driftTrend(drifts: DriftStore, orgId: string, repos: readonly string[] | undefined, days = TREND_DAYS) {
  const now = Date.now();
  const dates = [...Array(days).keys()].map((i) => isoDay(new Date(now - (days - 1 - i) * DAY_MS)));
  const [detected, resolved] = await Promise.all([
    drifts.trend(orgId, 'day', dates[0], repos),
    drifts.trend(orgId, 'resolvedDay', dates[0], repos),
  ]);
  const d = new Map(detected.map((r) => [r._id, r.n]));
  const r = new Map(resolved.map((x) => [x._id, x.n]));
  return dates.map((date) => ({ date, detected: d.get(date) ?? 0, resolved: r.get(date) ?? 0 }));
}
