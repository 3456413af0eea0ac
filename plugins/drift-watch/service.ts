// Drift Watch: watches of a repository config that scan it at an interval, snooze, the accepted
// baseline, the event log and its analytics, and templates. No HTTP here.
//
// A run (one Agenda job per active watch, repeating on a cron of its interval): the tick is named
// by the cron's fire time and claimed once (`watch:<id>:<minute>`), so two processes running the
// same tick start one scan. The scan goes through the scans service as any scheduled scan does
// (the built-in executor or a runner takes it; the scans-per-day quota applies), and the run is
// recorded under the scan's id (unique). When the scan ends (bus: scan.completed / scan.failed)
// the run's events are written once (`watch-run:<runId>:end`), the watch's lastRun, driftCount
// and lastRunStatus updated, and notifyOn decides whether `watch.drift_detected` is emitted
// (never while snoozed). The notifications plugin turns that event into in-app notifications.
import { createHash } from 'node:crypto';
import { Value } from 'typebox/value';
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { AppError, badRequest, conflict, notFound } from '../../core/errors.ts';
import { pageCount } from '../../core/schemas.ts';
import type { DomainEvent } from '../../core/events.ts';
import type { DriftService } from '../drifts/service.ts';
import type { Drift } from '../drifts/types.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import { cronTickAtOrBefore, type ScanService } from '../scans/service.ts';
import { isoDay } from '../drifts/trend.ts';
import {
  CreateWatch, eventView, templateView, watchView,
  type BulkUpdate, type CreateTemplate, type RunTemplate, type UpdateWatch,
} from './schemas.ts';
import type { Interval, Period, SnoozeDuration, Watch, WatchEvent, WatchFilters, WatchRun, WatchStore, EventType } from './store.ts';

export const RUN_JOB = 'drift-watch.run';
export const SNOOZE_JOB = 'drift-watch.snooze-expiry';
/** A watch.drift_detected event names at most this many drifts; newDriftCount is complete. */
const EVENT_DRIFTS = 100;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
export const SNOOZE_MS: Record<SnoozeDuration, number> = { '1h': HOUR, '6h': 6 * HOUR, '24h': DAY, '7d': 7 * DAY, '30d': 30 * DAY };
const PERIOD_DAYS: Record<Period, number> = { '7d': 7, '30d': 30, '90d': 90 };
const TOP = 10;
/** The fields of a create body that PATCH and bulk-update may change. */
const CREATE_FIELDS = ['name', 'repositoryId', 'workspace', 'interval', 'notifyOn', 'filters'] as const;

/**
 * The cron of an interval, in UTC. The minute comes from the watch's id, so an organization's
 * watches spread over the hour instead of all scanning at minute 0.
 */
export function cronOf(id: string, interval: Interval): string {
  const minute = parseInt(id.slice(-6), 16) % 60;
  const hours = { '1h': '*', '6h': '*/6', '12h': '*/12', '24h': '0' }[interval];
  return `${minute} ${hours} * * *`;
}

const eventId = (runId: string, type: EventType, driftId: string | null) =>
  createHash('sha256').update(`${runId}|${type}|${driftId ?? ''}`).digest('hex').slice(0, 24);

const matches = (f: WatchFilters, d: Pick<Drift, 'severity' | 'resourceType'>) =>
  (!f.severity?.length || f.severity.includes(d.severity)) && (!f.resourceType?.length || f.resourceType.includes(d.resourceType));

interface Deps {
  store: WatchStore;
  drifts: DriftService;
  scans: ScanService;
  configs: Pick<RepoConfigService, 'find'>;
}

export function createWatchService(ctx: AppContext, d: Deps) {
  const { store } = d;

  async function load(orgId: string, id: string) {
    const w = await store.get(orgId, id);
    if (!w) throw notFound('Watch');
    return w;
  }
  /** repositoryId must name a repository config of the organization: unknown or another's is 404. */
  async function mustBeConfig(orgId: string, repositoryId: string) {
    if (!(await d.configs.find(orgId, repositoryId))) throw notFound('Repository config');
  }

  /** One job per watch (unique on its id), repeating on its interval's cron; none while paused. */
  async function schedule(w: Pick<Watch, '_id' | 'orgId' | 'interval' | 'status'>) {
    if (w.status === 'paused') {
      await ctx.scheduler.cancel({ name: RUN_JOB, data: { watchId: w._id } });
      return;
    }
    await ctx.scheduler.agenda.create(RUN_JOB, { orgId: w.orgId, watchId: w._id })
      .repeatEvery(cronOf(w._id, w.interval), { timezone: 'UTC', skipImmediate: true })
      .unique({ name: RUN_JOB, 'data.watchId': w._id })
      .save();
  }

  async function insertWatch(orgId: string, userId: string | null, input: CreateWatch) {
    await mustBeConfig(orgId, input.repositoryId);
    const now = new Date();
    const w: Watch = {
      _id: newId(), orgId, name: input.name, repositoryId: input.repositoryId, workspace: input.workspace ?? 'default',
      status: 'active', interval: input.interval, notifyOn: input.notifyOn ?? 'drift', filters: input.filters ?? {},
      snoozedUntil: null, snoozeReason: null, lastRun: null, lastRunStatus: null, lastScanId: null, lastError: null,
      driftCount: 0, createdBy: userId, createdAt: now, updatedAt: now,
    };
    await store.insert(w);
    await schedule(w);
    return watchView(w);
  }

  /** Ends a snooze whose time has come (the expiry job, and a run or read finding it over). */
  async function expireSnooze(orgId: string, id: string, now = new Date()) {
    const w = await store.get(orgId, id);
    if (!w || w.status !== 'snoozed' || !w.snoozedUntil || w.snoozedUntil.getTime() > now.getTime()) return w;
    return store.update(orgId, id, { status: 'active', snoozedUntil: null, snoozeReason: null, updatedAt: now });
  }

  const failRun = (w: Watch, at: Date, error: string) =>
    store.update(w.orgId, w._id, { lastRun: at, lastRunStatus: 'failed', lastError: error, updatedAt: at });

  async function auditCheck(run: WatchRun, w: Watch | null, action: string, details: Record<string, unknown>) {
    await ctx.audit.write({
      orgId: run.orgId, action, userId: null, actorKind: 'system', method: 'JOB', route: RUN_JOB,
      resourceType: 'drift-watch', resourceId: run.watchId, statusCode: 200,
      details: { watchName: w?.name, scanId: run.scanId, ...details }, ipAddress: '', userAgent: null,
    });
  }

  /** The end of a run's scan: events, counts, notification. Once per run, whatever calls it. */
  async function endRun(run: WatchRun, outcome: { status: 'completed' } | { status: 'failed'; error: string }, now = new Date()) {
    if (run.status !== 'running') return;
    await ctx.once.runOnce(`watch-run:${run._id}:end`, run.orgId, async () => {
      const w = await store.get(run.orgId, run.watchId);
      if (outcome.status === 'failed') {
        // A failed scan is no pass: no event, the watch says it failed.
        if (w) await store.update(w.orgId, w._id, { lastRunStatus: 'failed', lastError: outcome.error, lastScanId: run.scanId, updatedAt: now });
        await store.endRun(run.orgId, run._id, { status: 'failed', completedAt: now, error: outcome.error });
        await auditCheck(run, w, 'drift_watch.check_failed', { error: outcome.error });
        return;
      }
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
    });
  }

  async function onScanEvent(event: DomainEvent<'scan.completed'> | DomainEvent<'scan.failed'>) {
    // Runs start scheduled scans only: a manual scan's end costs no read here.
    if (event.data.triggeredBy && event.data.triggeredBy !== 'schedule') return;
    const run = await store.runOfScan(event.orgId, event.data.scanId);
    if (!run) return;
    await endRun(run, event.type === 'scan.failed' ? { status: 'failed', error: (event as DomainEvent<'scan.failed'>).data.error } : { status: 'completed' });
  }

  /**
   * The run job. `at`: when Agenda ran it; the tick is the cron's fire time at or before it, so
   * processes running the same tick on either side of a minute boundary name the same one.
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
    const watch = w;
    const claimed = await ctx.once.runOnce(`watch:${watchId}:${Math.floor(fireTime.getTime() / 60_000)}`, orgId, () => start(watch, fireTime));
    return claimed.won ? { ran: true as const, ...claimed.value } : { ran: false as const, reason: 'claimed' };
  }

  /** Starts the run's scan (under the scans-per-day quota, as any scheduled scan) and records the run. */
  async function start(w: Watch, fireTime: Date) {
    const now = new Date();
    let scanId: string;
    try {
      scanId = (await ctx.limits.within(w.orgId, 'scansPerDay', () => d.scans.trigger(w.orgId, w.repositoryId, null, 'schedule')))._id;
    } catch (err) {
      const code = (err as AppError).code;
      if (code !== 'plan_limit' && code !== 'not_found') throw err;
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

  return {
    schedule,
    tick,
    expireSnooze,
    onScanEvent,
    /** The repository config is deleted: its watches go (their jobs stop at their next tick). */
    async removeOfRepository(orgId: string, repositoryId: string) {
      for (const w of await store.ofRepository(orgId, repositoryId)) await this.remove(orgId, w._id);
    },

    async list(orgId: string, q: { status?: Watch['status']; repositoryId?: string; page: number; limit: number }) {
      const { rows, total } = await store.page(orgId, { status: q.status, repositoryId: q.repositoryId }, (q.page - 1) * q.limit, q.limit);
      return { watches: rows.map(watchView), total, page: q.page, pages: pageCount(total, q.limit) };
    },
    get: async (orgId: string, id: string) => watchView(await load(orgId, id)),
    create: (orgId: string, userId: string | null, input: CreateWatch) => insertWatch(orgId, userId, input),

    async update(orgId: string, id: string, input: UpdateWatch) {
      const w = await load(orgId, id);
      if (input.repositoryId && input.repositoryId !== w.repositoryId) await mustBeConfig(orgId, input.repositoryId);
      const now = new Date();
      const set: Partial<Watch> = { updatedAt: now };
      for (const k of CREATE_FIELDS) {
        if (input[k] !== undefined) (set as Record<string, unknown>)[k] = input[k];
      }
      if (input.status) Object.assign(set, { status: input.status, snoozedUntil: null, snoozeReason: null });
      if (Object.keys(set).length === 1) throw badRequest(`Give at least one of ${CREATE_FIELDS.join(', ')}, status`);
      const after = await store.update(orgId, id, set);
      if (!after) throw notFound('Watch');
      if (input.interval !== undefined || input.status !== undefined) await schedule(after);
      return watchView(after);
    },

    async remove(orgId: string, id: string) {
      if (!(await store.remove(orgId, id))) throw notFound('Watch');
      await ctx.scheduler.cancel({ name: RUN_JOB, data: { watchId: id } });
      await ctx.scheduler.cancel({ name: SNOOZE_JOB, data: { watchId: id } });
      await store.removeWatchRuns(orgId, id);
    },

    async bulkUpdate(orgId: string, input: BulkUpdate) {
      const u = input.updates;
      const fields = Object.fromEntries(CREATE_FIELDS.filter((k) => u[k] !== undefined).map((k) => [k, u[k]]));
      // Other fields were stripped (engine-wide); what is left must change something.
      if (!Object.keys(fields).length) throw badRequest(`updates must hold at least one of ${CREATE_FIELDS.join(', ')}`);
      if (u.repositoryId) await mustBeConfig(orgId, u.repositoryId);
      const set = { ...fields, updatedAt: new Date() } as Partial<Watch>;
      const updated = await store.updateMany(orgId, input.ids, set);
      if (u.interval) for (const w of await store.some(orgId, input.ids)) await schedule(w);
      return { updated };
    },

    async snooze(orgId: string, id: string, input: { duration: SnoozeDuration; reason?: string }, now = new Date()) {
      await load(orgId, id);
      const snoozedUntil = new Date(now.getTime() + SNOOZE_MS[input.duration]);
      const after = await store.update(orgId, id, { status: 'snoozed', snoozedUntil, snoozeReason: input.reason ?? null, updatedAt: now });
      if (!after) throw notFound('Watch');
      // Runs go on while snoozed (a paused watch snoozed resumes running, silently).
      await schedule(after);
      await ctx.scheduler.at(snoozedUntil, SNOOZE_JOB, { orgId, watchId: id });
      return watchView(after);
    },
    async unsnooze(orgId: string, id: string, now = new Date()) {
      const w = await load(orgId, id);
      if (w.status !== 'snoozed') throw conflict(`Only a snoozed watch can be unsnoozed; this one is ${w.status}`);
      const after = await store.update(orgId, id, { status: 'active', snoozedUntil: null, snoozeReason: null, updatedAt: now });
      if (!after) throw notFound('Watch');
      return watchView(after);
    },

    /** The drifts open on the watch's repository become its accepted baseline (status unchanged). */
    async accept(orgId: string, id: string, userId: string) {
      const w = await load(orgId, id);
      const accepted = await d.drifts.acceptOpen(orgId, w.repositoryId, userId);
      await store.update(orgId, id, { driftCount: 0, updatedAt: new Date() });
      return { message: `${accepted} ${accepted === 1 ? 'drift' : 'drifts'} accepted as the baseline`, accepted, audit: { watchId: id, repositoryId: w.repositoryId, accepted } };
    },

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

    listTemplates: async (orgId: string) => ({ templates: (await store.listTemplates(orgId)).map(templateView) }),
    async createTemplate(orgId: string, input: CreateTemplate) {
      const tpl = { _id: newId(), orgId, name: input.name, description: input.description ?? null, config: input.config as Record<string, unknown>, createdAt: new Date() };
      await store.insertTemplate(tpl);
      return templateView(tpl);
    },
    async removeTemplate(orgId: string, id: string) {
      if (!(await store.removeTemplate(orgId, id))) throw notFound('Template');
    },
    /** A new watch from the template's config with `overrides` over it, checked as a create body is. */
    async runTemplate(orgId: string, userId: string | null, id: string, input: RunTemplate) {
      const tpl = await store.template(orgId, id);
      if (!tpl) throw notFound('Template');
      const body = Value.Default(CreateWatch, { ...tpl.config, ...(input.overrides ?? {}), name: input.name, repositoryId: input.repositoryId }) as CreateWatch;
      if (!Value.Check(CreateWatch, body)) {
        const errors = [...Value.Errors(CreateWatch, body)].map((e) => ({ path: e.instancePath || '/', message: e.message }));
        throw new AppError('validation_failed', { message: `The template's config with the overrides is not a valid watch: ${errors[0]?.path} ${errors[0]?.message}`, details: errors });
      }
      return { ...(await insertWatch(orgId, userId, body)), audit: { templateId: id } };
    },
    removeOrg: (orgId: string) => store.removeOrg(orgId),
  };
}
export type WatchService = ReturnType<typeof createWatchService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { 'drift-watch': WatchService }
}
