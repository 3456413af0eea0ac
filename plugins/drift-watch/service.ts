// Drift Watch: watches of a repository config that scan it at an interval, snooze, the accepted
// baseline, the event log and its analytics, and templates. No HTTP here. The service composes
// one module per concern:
//   watch-jobs.ts       the run and snooze jobs, the cron of an interval, what the modules are given
//   watches.ts          create, read, change, snooze, remove a watch; the accepted baseline
//   runs.ts             a watch's run job: the tick claimed once per fire time, the scheduled scan
//   run-end.ts          the end of a run's scan: events, counts, audit, `watch.drift_detected`
//   analytics.ts        the event log, its summary and analytics
//   watch-templates.ts  watch templates and running one
//
// A run (one Agenda job per active watch, repeating on a cron of its interval): the tick is named
// by the cron's fire time and claimed once (`watch:<id>:<minute>`), so two processes running the
// same tick start one scan. The scan goes through the scans service as any scheduled scan does
// (the built-in executor or a runner takes it; the scans-per-day quota applies), and the run is
// recorded under the scan's id (unique). When the scan ends (bus: scan.completed / scan.failed)
// the run's events are written once (`watch-run:<runId>:end`), the watch's lastRun, driftCount
// and lastRunStatus updated, and notifyOn decides whether `watch.drift_detected` is emitted
// (never while snoozed). The notifications plugin turns that event into in-app notifications.
import type { AppContext } from '../../core/context.ts';
import { createWatchAnalytics } from './analytics.ts';
import type { WatchDeps } from './watch-jobs.ts';
import { createRunEnd } from './run-end.ts';
import { createWatchRuns } from './runs.ts';
import { createWatchTemplates } from './watch-templates.ts';
import { createWatches } from './watches.ts';

export { RUN_JOB, SNOOZE_JOB, SNOOZE_MS, cronOf } from './watch-jobs.ts';

export function createWatchService(ctx: AppContext, d: WatchDeps) {
  const { endRun } = createRunEnd(ctx, d);
  const runs = createWatchRuns(ctx, d, endRun);
  const { insertWatch, ...watches } = createWatches(ctx, d, runs.schedule);
  return {
    ...runs,
    ...watches,
    ...createWatchAnalytics(d.store),
    ...createWatchTemplates(d.store, insertWatch),
    removeOrg: (orgId: string) => d.store.removeOrg(orgId),
  };
}
export type WatchService = ReturnType<typeof createWatchService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { 'drift-watch': WatchService }
}
