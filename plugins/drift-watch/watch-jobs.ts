// The jobs of Drift Watch and the times they run on: one run job per active watch, repeating on
// the cron of its interval, and one snooze-expiry job per snooze. Shared by the run and the
// watch modules (no module of the plugin imports the service that composes them).
import type { Interval, SnoozeDuration } from './store.ts';
import type { DriftService } from '../drifts/service.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import type { ScanService } from '../scans/service.ts';
import type { WatchStore } from './store.ts';

export const RUN_JOB = 'drift-watch.run';
export const SNOOZE_JOB = 'drift-watch.snooze-expiry';
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const SNOOZE_MS: Record<SnoozeDuration, number> = { '1h': HOUR, '6h': 6 * HOUR, '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY };

/**
 * The cron of an interval, in UTC. The minute comes from the watch's id, so an organization's
 * watches spread over the hour instead of all scanning at minute 0.
 */
export function cronOf(id: string, interval: Interval): string {
  const minute = parseInt(id.slice(-6), 16) % 60;
  const hours = { '1h': '*', '6h': '*/6', '12h': '*/12', '24h': '0' }[interval];
  return `${minute} ${hours} * * *`;
}

/** What the Drift Watch modules are given: its store and the services of the plugins it needs. */
export interface WatchDeps {
  store: WatchStore;
  drifts: DriftService;
  scans: ScanService;
  configs: Pick<RepoConfigService, 'find'>;
}
