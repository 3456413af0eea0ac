// A watch's runs: its due minute on the cron of its interval (swept by the due scan, index.ts),
// the run of an occurrence claimed once before any work (core/once.ts slotKey,
// `watch:<id>:<minute>`) that starts a scheduled scan, and the scan's end arriving on the bus.
// Two processes sweeping the same minute, or a job of the old kind (one Agenda job per watch,
// named by the occurrence it was locked for: core/scheduler.ts dueAt) running it too, start one
// scan; the run is recorded under the scan's id (unique).
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { slotKey } from '../../core/once.ts';
import { nextDueMinute } from '../../core/due-scan.ts';
import type { AppError } from '../../core/errors.ts';
import type { DomainEvent } from '../../core/events.ts';
import { cronTickAtOrBefore } from '../scans/service.ts';
import { cronOf, RUN_JOB, type WatchDeps } from './watch-jobs.ts';
import type { RunOutcome } from './run-end.ts';
import type { Watch, WatchRun } from './store.ts';

export function createWatchRuns(ctx: AppContext, d: WatchDeps, endRun: (run: WatchRun, outcome: RunOutcome) => Promise<void>) {
  const { store } = d;

  /** The minute a watch next runs: the first fire of its interval's cron after now; none while paused. */
  const dueMinuteOf = (w: Pick<Watch, '_id' | 'interval' | 'status'>, now = new Date()) =>
    (w.status === 'paused' ? null : nextDueMinute(cronOf(w._id, w.interval), now));

  /** (Re)schedules a watch: its next due minute, read by the due scan (no Agenda job per watch: issue 36). */
  async function schedule(w: Pick<Watch, '_id' | 'orgId' | 'interval' | 'status'>) {
    await store.setDue([{ _id: w._id, dueMinute: dueMinuteOf(w) }]);
  }

  /** Watches made before the due scan get their due minute, and the Agenda jobs that ran them go (once per process start). */
  async function migrate() {
    await ctx.scheduler.cancel({ name: RUN_JOB });
    for (;;) {
      const rows = await store.unscheduled(500);
      if (!rows.length) return;
      await store.setDue(rows.map((w) => ({ _id: w._id, dueMinute: dueMinuteOf(w) })));
      if (rows.length < 500) return;
    }
  }

  /** Ends a snooze whose time has come (the expiry job, and a run or read finding it over). */
  async function expireSnooze(orgId: string, id: string, now = new Date()) {
    const w = await store.get(orgId, id);
    if (!w || w.status !== 'snoozed' || !w.snoozedUntil || w.snoozedUntil.getTime() > now.getTime()) return w;
    return store.update(orgId, id, { status: 'active', snoozedUntil: null, snoozeReason: null, updatedAt: now });
  }

  const failRun = (w: Watch, at: Date, error: string) =>
    store.update(w.orgId, w._id, { lastRun: at, lastRunStatus: 'failed', lastError: error, updatedAt: at });

  async function onScanEvent(event: DomainEvent<'scan.completed'> | DomainEvent<'scan.failed'>) {
    // Runs start scheduled scans only: a manual scan's end costs no read here.
    if (event.data.triggeredBy && event.data.triggeredBy !== 'schedule') return;
    const run = await store.runOfScan(event.orgId, event.data.scanId);
    if (!run) return;
    await endRun(run, event.type === 'scan.failed' ? { status: 'failed', error: (event as DomainEvent<'scan.failed'>).data.error } : { status: 'completed' });
  }

  /**
   * The run job. `at`: the occurrence the job was locked for (its due time, not the clock of the
   * process running it); the tick is the cron's fire time at or before it.
   */
  async function tick(orgId: string, watchId: string, at: Date) {
    let w = await store.get(orgId, watchId);
    if (!w) {
      await ctx.scheduler.cancel({ name: RUN_JOB, data: { watchId } });
      return { ran: false as const, reason: 'gone' };
    }
    if (w.status === 'snoozed') w = (await expireSnooze(orgId, watchId, at)) ?? w;
    if (w.status === 'paused') return { ran: false as const, reason: 'paused' };
    const fireTime = cronTickAtOrBefore(cronOf(w._id, w.interval), at);
    if (!(await ctx.once.claimSlot('watch', watchId, fireTime, orgId))) return { ran: false as const, reason: 'claimed' };
    return { ran: true as const, ...(await start(w, fireTime, () => ctx.once.release(slotKey('watch', watchId, fireTime)))) };
  }

  /** The due scan's run of one occurrence, already claimed (`watch:<id>:<slot>`, core/due-scan.ts). */
  async function runDue(w: Watch, slot: Date) {
    if (w.status === 'snoozed') w = (await expireSnooze(w.orgId, w._id, slot)) ?? w;
    if (w.status === 'paused') return;
    await start(w, slot, () => ctx.once.release(slotKey('watch', w._id, slot)));
  }

  /**
   * Starts the run's scan (under the scans-per-day quota, as any scheduled scan) and records the run.
   * The occurrence's claim is given back (`unclaim`) only when no scan started, so a retry can
   * start it; once a scan exists a later failure keeps the claim: a second scan would be a second run.
   */
  async function start(w: Watch, fireTime: Date, unclaim: () => Promise<void>) {
    const now = new Date();
    let scanId: string;
    try {
      scanId = (await ctx.limits.within(w.orgId, 'scansPerDay', () => d.scans.trigger(w.orgId, w.repositoryId, null, 'schedule')))._id;
    } catch (err) {
      const code = (err as AppError).code;
      if (code !== 'plan_limit' && code !== 'not_found') {
        await unclaim().catch((e: unknown) => ctx.log.error({ err: e, watchId: w._id }, 'could not give back the claim of a run whose scan did not start'));
        throw err;
      }
      const error = code === 'plan_limit' ? 'The daily scan limit of the plan is reached' : 'The repository config of this watch was deleted';
      await failRun(w, now, error);
      return { scanId: null, error };
    }
    const run: WatchRun = {
      _id: newId(), orgId: w.orgId, watchId: w._id, scanId, fireTime, status: 'running', startedAt: now, completedAt: null, error: null, detected: 0, resolved: 0,
    };
    await store.insertRun(run);
    await store.update(w.orgId, w._id, { lastRun: now, lastRunStatus: 'running', lastScanId: scanId, lastError: null, updatedAt: now });
    // The scan may have ended before the run was recorded (a fast executor): its event found no run.
    const scan = await d.scans.get(w.orgId, scanId);
    if (scan.status === 'completed') await endRun(run, { status: 'completed' });
    if (scan.status === 'failed') await endRun(run, { status: 'failed', error: scan.error ?? 'The scan failed' });
    return { scanId, error: null };
  }

  return { schedule, migrate, runDue, expireSnooze, onScanEvent, tick };
}
export type WatchRuns = ReturnType<typeof createWatchRuns>;
