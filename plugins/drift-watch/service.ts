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
// A run: each active watch carries the minute it is next due on the cron of its interval
// (`dueMinute`); every process running jobs sweeps the due minutes (core/due-scan.ts: equality
// reads, keyset pages, one bulk claim of `watch:<id>:<minute>` per page before any work), so two
// processes sweeping the same minute start one scan. The scan goes through the scans service as any scheduled scan does
// (the built-in executor or a runner takes it; the scans-per-day quota applies), and the run is
// recorded under the scan's id (unique). When the scan ends (bus: scan.completed / scan.failed)
// the run's events are written once (`watch-run:<runId>:end`), the watch's lastRun, driftCount
// and lastRunStatus updated, and notifyOn decides whether `watch.drift_detected` is emitted
// (never while snoozed). The notifications plugin turns that event into in-app notifications.
import type { AppContext } from '../../core/context.ts';
import { createWatchAnalytics } from './analytics.ts';
import { createDueScan } from '../../core/due-scan.ts';
import { cronOf, type WatchDeps } from './watch-jobs.ts';
import type { Watch } from './store.ts';
import { createRunEnd } from './run-end.ts';
import { createWatchRuns } from './runs.ts';
import { createWatchTemplates } from './watch-templates.ts';
import { createWatches } from './watches.ts';

export { RUN_JOB, SNOOZE_JOB, SNOOZE_MS, cronOf } from './watch-jobs.ts';

export function createWatchService(ctx: AppContext, d: WatchDeps) {
  const { endRun } = createRunEnd(ctx, d);
  const runs = createWatchRuns(ctx, d, endRun);
  const { insertWatch, ...watches } = createWatches(ctx, d, runs.schedule);
  const due = createDueScan<Watch>({
    kind: 'watch', collection: d.store.watches, once: ctx.once, log: ctx.log,
    cronOf: (w) => (w.status === 'paused' ? null : cronOf(w._id, w.interval)),
    run: (w, slot) => runs.runDue(w, slot),
  });
  return {
    ...runs,
    /** One sweep of the due minutes (the job loop's, index.ts; tests race it across processes). */
    sweepDue: (now?: Date, catchUp?: boolean) => due.sweep(now, catchUp),
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
