// The only file that touches the Drift Watch collections; declares their indexes.
//
// - drift_watches: a handful to a few thousand per organization. Lists filter on status and
//   repositoryId (equality) and sort newest first. `dueMinute` is the minute of the next run,
//   swept across organizations by the due scan (plugins/drift-watch/index.ts).
// - drift_watch_runs: one per run that started a scan; the scan a run started names it (unique), so the end of a
//   scan (bus event) finds its run in one indexed read.
// - drift_watch_events: the event log. Each event carries its UTC `day` (YYYY-MM-DD): the
//   analytics group on it (no date operators on the embedded database). An event's _id is
//   derived from its run, type and drift, so writing a run's events again (a retry) adds none.
// - drift_watch_templates: a few per organization.
import { isDuplicateKey, type Changes, type CollectionSpec, type Database } from '../../core/db.ts';
import type { Filter } from 'mongodb';
import type { Severity } from '../drifts/types.ts';

export const WATCH_STATUSES = ['active', 'paused', 'snoozed'] as const;
export type WatchStatus = (typeof WATCH_STATUSES)[number];
export const INTERVALS = ['1h', '6h', '12h', '24h'] as const;
export type Interval = (typeof INTERVALS)[number];
export const NOTIFY_ON = ['drift', 'all', 'none'] as const;
export type NotifyOn = (typeof NOTIFY_ON)[number];
export const SNOOZE_DURATIONS = ['1h', '6h', '24h', '7d', '30d'] as const;
export type SnoozeDuration = (typeof SNOOZE_DURATIONS)[number];
export const PERIODS = ['7d', '30d', '90d'] as const;
export type Period = (typeof PERIODS)[number];
export const EVENT_TYPES = ['drift_detected', 'drift_resolved', 'check_passed'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
/** How the latest run ended: `running` until its scan ends; `failed` is never a pass. */
export const RUN_OUTCOMES = ['running', 'passed', 'drift', 'failed'] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

export interface WatchFilters { severity?: Severity[]; resourceType?: string[] }

export interface Watch {
  _id: string;
  orgId: string;
  name: string;
  repositoryId: string;
  workspace: string;
  status: WatchStatus;
  interval: Interval;
  notifyOn: NotifyOn;
  filters: WatchFilters;
  snoozedUntil: Date | null;
  snoozeReason: string | null;
  /** When the latest run started. */
  lastRun: Date | null;
  lastRunStatus: RunOutcome | null;
  lastScanId: string | null;
  lastError: string | null;
  /** Open drifts of the repository matching the filters after the latest completed run, accepted ones excepted. */
  driftCount: number;
  createdBy: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** The UTC minute (ms / 60,000) of the next run; null while paused; absent on watches made before it (the due scan sets it). */
  dueMinute?: number | null;
}

export interface WatchRun {
  _id: string;
  orgId: string;
  watchId: string;
  /** The scan the run started (a run whose scan could not start leaves no run, only the watch's lastError). */
  scanId: string;
  fireTime: Date;
  status: 'running' | 'completed' | 'failed';
  startedAt: Date;
  completedAt: Date | null;
  error: string | null;
  detected: number;
  resolved: number;
}

export interface WatchEvent {
  _id: string;
  orgId: string;
  watchId: string;
  watchName: string;
  repositoryId: string;
  runId: string;
  scanId: string;
  type: EventType;
  driftId: string | null;
  resourceAddress: string | null;
  resourceType: string | null;
  severity: Severity | null;
  /** drift_resolved: how long the drift was open (resolvedAt - detectedAt). */
  resolveMs: number | null;
  createdAt: Date;
  day: string;
}

export interface WatchTemplate {
  _id: string;
  orgId: string;
  name: string;
  description: string | null;
  config: Record<string, unknown>;
  createdAt: Date;
}

const newestFirst = { createdAt: -1, _id: -1 } as const;

export const DRIFT_WATCHES: CollectionSpec = {
  name: 'drift_watches', owner: 'plugins/drift-watch',
  indexes: [
    { key: { orgId: 1, ...newestFirst } },
    { key: { orgId: 1, status: 1, ...newestFirst } },
    { key: { orgId: 1, repositoryId: 1, ...newestFirst } },
    { key: { orgId: 1, status: 1, repositoryId: 1, ...newestFirst } },
    // The due scan (core/due-scan.ts): equality on the minute, keyset on _id.
    { key: { dueMinute: 1, _id: 1 } },
  ],
};
export const DRIFT_WATCH_RUNS: CollectionSpec = {
  name: 'drift_watch_runs', owner: 'plugins/drift-watch',
  indexes: [{ key: { orgId: 1, scanId: 1 }, unique: true }, { key: { orgId: 1, watchId: 1 } }],
};
export const DRIFT_WATCH_EVENTS: CollectionSpec = {
  name: 'drift_watch_events', owner: 'plugins/drift-watch',
  indexes: [
    { key: { orgId: 1, ...newestFirst } },
    { key: { orgId: 1, watchId: 1, ...newestFirst } },
    { key: { orgId: 1, type: 1, ...newestFirst } },
    { key: { orgId: 1, watchId: 1, type: 1, ...newestFirst } },
    { key: { orgId: 1, day: 1 } },
    { key: { orgId: 1, type: 1, day: 1 } },
  ],
};
export const DRIFT_WATCH_TEMPLATES: CollectionSpec = {
  name: 'drift_watch_templates', owner: 'plugins/drift-watch', indexes: [{ key: { orgId: 1, ...newestFirst } }],
};
/** Templates are presets: a few per organization; the list shows at most this many. */
export const MAX_TEMPLATES = 200;

export interface WatchQuery { status?: WatchStatus; repositoryId?: string }
export interface EventQuery { watchId?: string; type?: EventType; from?: Date; to?: Date }

export function createWatchStore(db: Database) {
  const watches = db.collection<Watch>(DRIFT_WATCHES);
  const runs = db.collection<WatchRun>(DRIFT_WATCH_RUNS);
  const events = db.collection<WatchEvent>(DRIFT_WATCH_EVENTS);
  const templates = db.collection<WatchTemplate>(DRIFT_WATCH_TEMPLATES);

  const watchFilter = (orgId: string, q: WatchQuery): Filter<Watch> => ({
    orgId, ...(q.status ? { status: q.status } : {}), ...(q.repositoryId ? { repositoryId: q.repositoryId } : {}),
  });
  const eventFilter = (orgId: string, q: EventQuery): Filter<WatchEvent> => {
    const f: Filter<WatchEvent> = { orgId };
    if (q.watchId) f.watchId = q.watchId;
    if (q.type) f.type = q.type;
    if (q.from || q.to) f.createdAt = { ...(q.from ? { $gte: q.from } : {}), ...(q.to ? { $lte: q.to } : {}) };
    return f;
  };

  return {
    // --- watches
    insert: async (w: Watch) => { await watches.insertOne(w); },
    get: (orgId: string, id: string) => watches.findOne({ _id: id, orgId }),
    async page(orgId: string, q: WatchQuery, skip: number, limit: number) {
      const f = watchFilter(orgId, q);
      const [rows, total] = await Promise.all([watches.find(f).sort(newestFirst).skip(skip).limit(limit).toArray(), watches.countDocuments(f)]);
      return { rows, total };
    },
    update: async (orgId: string, id: string, set: Changes<Watch>) =>
      watches.findOneAndUpdate({ _id: id, orgId }, { $set: set }, { returnDocument: 'after' }),
    /** The organization's watches among `ids` (bulk update reads them to reschedule). */
    some: (orgId: string, ids: string[]) => watches.find({ orgId, _id: { $in: ids } }).sort(newestFirst).toArray(),
    async updateMany(orgId: string, ids: string[], set: Changes<Watch>) {
      return (await watches.updateMany({ orgId, _id: { $in: ids } }, { $set: set })).matchedCount;
    },
    remove: async (orgId: string, id: string) => (await watches.deleteOne({ _id: id, orgId })).deletedCount > 0,
    ofRepository: (orgId: string, repositoryId: string) => watches.find({ orgId, repositoryId }).sort(newestFirst).toArray(),
    countStatus: (orgId: string, status: WatchStatus) => watches.countDocuments({ orgId, status }),
    names: (orgId: string, ids: string[]) => watches.find({ orgId, _id: { $in: ids } }, { projection: { name: 1 } }).sort(newestFirst).toArray(),

    /** The collection itself, for the due scan (core/due-scan.ts reads it by dueMinute across organizations). */
    watches,
    /** Watches made before the due scan, or whose due minute was never set: a page of them (a range read, once per process start). */
    unscheduled: (limit: number) => watches.find({ dueMinute: { $exists: false } }).sort({ dueMinute: 1, _id: 1 }).limit(limit).batchSize(limit).toArray(),
    async setDue(rows: { _id: string; dueMinute: number | null }[]) {
      // One updateMany per minute, one after another: a bulk of updateOne holds a PostgreSQL
      // connection per statement on FerretDB 1.24 (core/due-scan.ts advance).
      const byMinute = new Map<number | null, string[]>();
      for (const r of rows) byMinute.set(r.dueMinute, [...(byMinute.get(r.dueMinute) ?? []), r._id]);
      // A single record by _id equality (FerretDB pushes that down; not an $in).
      for (const [dueMinute, ids] of byMinute) await watches.updateMany(ids.length === 1 ? { _id: ids[0] } : { _id: { $in: ids } }, { $set: { dueMinute } });
    },

    // --- runs
    /** False when the scan already has a run (the insert is the exactly-once step). */
    async insertRun(run: WatchRun) {
      try { await runs.insertOne(run); return true; } catch (err) { if (isDuplicateKey(err)) return false; throw err; }
    },
    runOfScan: (orgId: string, scanId: string) => runs.findOne({ orgId, scanId }),
    endRun: async (orgId: string, id: string, set: Partial<WatchRun>) => { await runs.updateOne({ _id: id, orgId }, { $set: set }); },

    // --- events
    /** Inserts what is not there yet (ids are derived from run, type and drift: a retry adds nothing). */
    async insertEvents(rows: WatchEvent[]) {
      if (!rows.length) return;
      try {
        await events.insertMany(rows, { ordered: false });
      } catch (err) {
        const list = (err as { writeErrors?: { code?: number; err?: { code?: number } }[] }).writeErrors;
        const all = Array.isArray(list) ? list : list ? [list] : [];
        if (!all.length || all.some((e) => (e.code ?? e.err?.code) !== 11000)) throw err;
      }
    },
    async eventPage(orgId: string, q: EventQuery, skip: number, limit: number) {
      const f = eventFilter(orgId, q);
      const [rows, total] = await Promise.all([events.find(f).sort(newestFirst).skip(skip).limit(limit).toArray(), events.countDocuments(f)]);
      return { rows, total };
    },
    /** Events of the organization per type. */
    countByType: (orgId: string) =>
      events.aggregate<{ _id: EventType; n: number }>([{ $match: { orgId } }, { $group: { _id: '$type', n: { $sum: 1 } } }]).toArray(),
    /** Events per (type, day) from `since` on; the mean time to resolve comes with the resolutions. */
    byDay: (orgId: string, since: string) =>
      events.aggregate<{ _id: { type: EventType; day: string }; n: number; resolveMs: number }>([
        { $match: { orgId, day: { $gte: since } } },
        { $group: { _id: { type: '$type', day: '$day' }, n: { $sum: 1 }, resolveMs: { $sum: '$resolveMs' } } },
      ]).toArray(),
    /** Detections from `since` on, counted per resource or per watch (ordered by the caller: the groups are few). */
    detectedBy: (orgId: string, since: string, by: 'resource' | 'watch') =>
      events.aggregate<{ _id: Record<string, string>; n: number }>([
        { $match: { orgId, type: 'drift_detected', day: { $gte: since } } },
        { $group: { _id: by === 'resource' ? { resourceAddress: '$resourceAddress', resourceType: '$resourceType' } : { watchId: '$watchId', watchName: '$watchName' }, n: { $sum: 1 } } },
      ]).toArray(),

    // --- templates
    insertTemplate: async (tpl: WatchTemplate) => { await templates.insertOne(tpl); },
    template: (orgId: string, id: string) => templates.findOne({ _id: id, orgId }),
    listTemplates: (orgId: string) => templates.find({ orgId }).sort(newestFirst).limit(MAX_TEMPLATES).toArray(),
    removeTemplate: async (orgId: string, id: string) => (await templates.deleteOne({ _id: id, orgId })).deletedCount > 0,

    async removeOrg(orgId: string) {
      await Promise.all([watches.deleteMany({ orgId }), runs.deleteMany({ orgId }), events.deleteMany({ orgId }), templates.deleteMany({ orgId })]);
    },
    removeWatchRuns: async (orgId: string, watchId: string) => { await runs.deleteMany({ orgId, watchId }); },
  };
}
export type WatchStore = ReturnType<typeof createWatchStore>;
