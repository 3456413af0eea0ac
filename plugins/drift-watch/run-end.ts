// The end of a run's scan: the run's events, the watch's counts, the audit entry and the
// `watch.drift_detected` notification (never while snoozed). Once per run, whatever calls it
// (the scan's bus event, or the run's start finding its scan already over).
import { createHash } from 'node:crypto';
import type { AppContext } from '../../core/context.ts';
import type { Drift } from '../drifts/types.ts';
import { isoDay } from '../drifts/trend.ts';
import { RUN_JOB, type WatchDeps } from './watch-jobs.ts';
import type { EventType, Watch, WatchEvent, WatchFilters, WatchRun } from './store.ts';

/** A watch.drift_detected event names at most this many drifts; newDriftCount is complete. */
const EVENT_DRIFTS = 100;

const eventId = (runId: string, type: EventType, driftId: string | null) =>
  createHash('sha256').update(`${runId}|${type}|${driftId ?? ''}`).digest('hex').slice(0, 24);

const matches = (f: WatchFilters, d: Pick<Drift, 'severity' | 'resourceType'>) =>
  (!f.severity?.length || f.severity.includes(d.severity)) && (!f.resourceType?.length || f.resourceType.includes(d.resourceType));

export type RunOutcome = { status: 'completed' } | { status: 'failed'; error: string };

export function createRunEnd(ctx: AppContext, d: WatchDeps) {
  const { store } = d;

  async function auditCheck(run: WatchRun, w: Watch | null, action: string, details: Record<string, unknown>) {
    await ctx.audit.write({
      orgId: run.orgId, action, userId: null, actorKind: 'system', method: 'JOB', route: RUN_JOB,
      resourceType: 'drift-watch', resourceId: run.watchId, statusCode: 200,
      details: { watchName: w?.name, scanId: run.scanId, ...details }, ipAddress: '', userAgent: null,
    });
  }

  /** A failed scan is no pass: no event, the watch says it failed. */
  async function failed(run: WatchRun, w: Watch | null, error: string, now: Date) {
    if (w) await store.update(w.orgId, w._id, { lastRunStatus: 'failed', lastError: error, lastScanId: run.scanId, updatedAt: now });
    await store.endRun(run.orgId, run._id, { status: 'failed', completedAt: now, error });
    await auditCheck(run, w, 'drift_watch.check_failed', { error });
  }

  async function completed(run: WatchRun, w: Watch | null, now: Date) {
    const repositoryId = w?.repositoryId ?? (await d.scans.get(run.orgId, run.scanId)).repositoryConfig;
    const filters = w?.filters ?? {};
    const result = await d.drifts.scanOutcome(run.orgId, repositoryId, run.scanId);
    const detected = result.reported.filter((x) => !x.accepted && x.status !== 'resolved' && matches(filters, x));
    const resolved = result.resolved.filter((x) => matches(filters, x));
    const open = result.open.filter((x) => !x.accepted && x.status !== 'ignored' && matches(filters, x as Drift));
    const base = { orgId: run.orgId, watchId: run.watchId, watchName: w?.name ?? '', repositoryId, runId: run._id, scanId: run.scanId, createdAt: now, day: isoDay(now) };
    const event = (type: EventType, x: Drift | null, resolveMs: number | null = null): WatchEvent => ({
      ...base, _id: eventId(run._id, type, x?._id ?? null), type, driftId: x?._id ?? null, resourceAddress: x?.resourceAddress ?? null,
      resourceType: x?.resourceType ?? null, severity: x?.severity ?? null, resolveMs,
    });
    const rows = [
      ...detected.map((x) => event('drift_detected', x)),
      ...resolved.map((x) => event('drift_resolved', x, x.resolvedAt ? Math.max(0, x.resolvedAt.getTime() - x.detectedAt.getTime()) : null)),
      ...(open.length === 0 ? [event('check_passed', null)] : []),
    ];
    await store.insertEvents(rows);
    await store.endRun(run.orgId, run._id, { status: 'completed', completedAt: now, detected: detected.length, resolved: resolved.length });
    if (!w) return;
    const after = await store.update(w.orgId, w._id, {
      driftCount: open.length, lastRunStatus: open.length ? 'drift' : 'passed', lastError: null, lastScanId: run.scanId, updatedAt: now,
    });
    await auditCheck(run, w, 'drift_watch.check_completed', { detected: detected.length, resolved: resolved.length, driftCount: open.length });
    const current = after ?? w;
    const snoozed = current.status === 'snoozed' && (!current.snoozedUntil || current.snoozedUntil.getTime() > now.getTime());
    const notify = !snoozed && (current.notifyOn === 'all' || (current.notifyOn === 'drift' && detected.length > 0));
    if (notify) {
      await ctx.bus.emit('watch.drift_detected', run.orgId, {
        watchId: w._id, watchName: current.name, repositoryId, scanId: run.scanId,
        newDriftCount: detected.length, driftCount: open.length, driftIds: detected.slice(0, EVENT_DRIFTS).map((x) => x._id),
      });
    }
  }

  /** The end of a run's scan: events, counts, notification. Once per run, whatever calls it. */
  async function endRun(run: WatchRun, outcome: RunOutcome, now = new Date()) {
    if (run.status !== 'running') return;
    await ctx.once.runOnce(`watch-run:${run._id}:end`, run.orgId, async () => {
      const w = await store.get(run.orgId, run.watchId);
      if (outcome.status === 'failed') await failed(run, w, outcome.error, now);
      else await completed(run, w, now);
    });
  }

  return { endRun };
}
