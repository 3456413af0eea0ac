// TypeBox schemas of the Drift Watch routes (SPEC "Drift Watch"), with their Static<> types
// beside them, and the views that turn stored records into their wire shape.
import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp, pageFields } from '../../core/schemas.ts';
import { Severity } from '../drifts/schemas.ts';
import {
  EVENT_TYPES, INTERVALS, NOTIFY_ON, PERIODS, RUN_OUTCOMES, SNOOZE_DURATIONS, WATCH_STATUSES,
  type Watch, type WatchEvent, type WatchTemplate,
} from './store.ts';

const Name = Type.String({ minLength: 1, maxLength: 200 });
export const WatchFilters = Type.Object({
  severity: Type.Optional(Type.Array(Severity, { maxItems: 4, uniqueItems: true, description: 'Only drifts of these severities' })),
  resourceType: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), { maxItems: 50, uniqueItems: true, description: 'Only drifts of these resource types' })),
}, { additionalProperties: false, description: 'Which drifts the watch reports (events, driftCount); empty: every drift' });

/** The create fields other than name and repositoryId: what a template's config and a run's overrides hold. */
const settings = {
  workspace: Type.Optional(Type.String({ minLength: 1, maxLength: 100, default: 'default' })),
  interval: Type.Enum(INTERVALS),
  notifyOn: Type.Optional(Type.Enum(NOTIFY_ON, { default: 'drift', description: 'drift: runs that find new drift; all: every completed run; none: never' })),
  filters: Type.Optional(WatchFilters),
};
export const CreateWatch = Type.Object({ name: Name, repositoryId: Id, ...settings }, { additionalProperties: false });
export type CreateWatch = Static<typeof CreateWatch>;
/** The create fields, each optional, without defaults (only the fields given change). */
const CreateFields = Type.Object({
  name: Type.Optional(Name), repositoryId: Type.Optional(Id),
  workspace: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), interval: Type.Optional(Type.Enum(INTERVALS)),
  notifyOn: Type.Optional(Type.Enum(NOTIFY_ON)), filters: Type.Optional(WatchFilters),
}, { additionalProperties: false });
export const UpdateWatch = Type.Object({
  ...CreateFields.properties,
  status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('paused')], { description: 'paused stops the runs; active resumes them (and ends a snooze)' })),
}, { additionalProperties: false, minProperties: 1 });
export type UpdateWatch = Static<typeof UpdateWatch>;
export const BulkUpdate = Type.Object({
  ids: Type.Array(Id, { minItems: 1, maxItems: 100, uniqueItems: true }),
  updates: Type.Object(CreateFields.properties, { additionalProperties: false, minProperties: 1, description: 'Create fields only' }),
}, { additionalProperties: false });
export type BulkUpdate = Static<typeof BulkUpdate>;
export const SnoozeBody = Type.Object({
  duration: Type.Enum(SNOOZE_DURATIONS),
  reason: Type.Optional(Type.String({ maxLength: 500 })),
}, { additionalProperties: false });

export const WatchQuery = Type.Object({
  status: Type.Optional(Type.Enum(WATCH_STATUSES)),
  repositoryId: Type.Optional(Id),
  ...pageFields(),
});
export const EventQuery = Type.Object({
  watchId: Type.Optional(Id),
  type: Type.Optional(Type.Enum(EVENT_TYPES)),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or after (ISO 8601)' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or before (ISO 8601)' })),
  ...pageFields(),
});
export const AnalyticsQuery = Type.Object({ period: Type.Enum(PERIODS, { default: '30d' }) });

export const TemplateConfig = Type.Object({
  workspace: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })), interval: Type.Optional(Type.Enum(INTERVALS)),
  notifyOn: Type.Optional(Type.Enum(NOTIFY_ON)), filters: Type.Optional(WatchFilters),
}, { additionalProperties: false, description: 'Watch settings: workspace, interval, notifyOn, filters' });
export const CreateTemplate = Type.Object({
  name: Name, description: Type.Optional(Type.String({ maxLength: 1000 })), config: TemplateConfig,
}, { additionalProperties: false });
export type CreateTemplate = Static<typeof CreateTemplate>;
export const RunTemplate = Type.Object({
  name: Name, repositoryId: Id, overrides: Type.Optional(TemplateConfig),
}, { additionalProperties: false });
export type RunTemplate = Static<typeof RunTemplate>;

export const WatchView = Type.Object({
  _id: Type.String(), name: Type.String(), repositoryId: Type.String(), workspace: Type.String(),
  status: Type.Enum(WATCH_STATUSES), interval: Type.Enum(INTERVALS), notifyOn: Type.Enum(NOTIFY_ON), filters: WatchFilters,
  snoozedUntil: Nullable(Timestamp), snoozeReason: Nullable(Type.String()),
  lastRun: Nullable(Timestamp), lastRunStatus: Nullable(Type.Enum(RUN_OUTCOMES)),
  lastScanId: Nullable(Type.String()), lastError: Nullable(Type.String()),
  driftCount: Type.Integer(), createdAt: Timestamp, updatedAt: Timestamp,
});
export type WatchView = Static<typeof WatchView>;
export const WatchList = Type.Object({ watches: Type.Array(WatchView), total: Type.Integer(), page: Type.Integer(), pages: Type.Integer() });

export const EventView = Type.Object({
  _id: Type.String(), watchId: Type.String(), watchName: Type.String(), repositoryId: Type.String(), scanId: Type.String(),
  type: Type.Enum(EVENT_TYPES), driftId: Nullable(Type.String()), resourceAddress: Nullable(Type.String()),
  resourceType: Nullable(Type.String()), severity: Nullable(Severity), createdAt: Timestamp,
});
export const EventList = Type.Object({ events: Type.Array(EventView), total: Type.Integer(), page: Type.Integer(), pages: Type.Integer() });
export const Summary = Type.Object({
  totalEvents: Type.Integer(), driftDetected: Type.Integer(), driftResolved: Type.Integer(), checksPassed: Type.Integer(),
  activeWatches: Type.Integer(), snoozedWatches: Type.Integer(),
});
export const Analytics = Type.Object({
  period: Type.Enum(PERIODS),
  from: Type.String({ description: 'First UTC day of the period (YYYY-MM-DD)' }),
  to: Type.String({ description: 'Last UTC day (today)' }),
  days: Type.Array(Type.Object({ day: Type.String(), detected: Type.Integer(), resolved: Type.Integer(), checksPassed: Type.Integer() })),
  totals: Type.Object({ detected: Type.Integer(), resolved: Type.Integer(), checksPassed: Type.Integer() }),
  meanTimeToResolveHours: Nullable(Type.Number({ description: 'Mean of (resolved - detected) over drifts resolved in the period; null when none was' })),
  mostDriftingResources: Type.Array(Type.Object({ resourceAddress: Type.String(), resourceType: Nullable(Type.String()), detections: Type.Integer() })),
  mostDriftingWatches: Type.Array(Type.Object({ watchId: Type.String(), name: Type.String(), detections: Type.Integer() })),
});
export const AcceptResult = Type.Object({ message: Type.String(), accepted: Type.Integer({ description: 'Drifts marked accepted' }) });
export const BulkResult = Type.Object({ updated: Type.Integer({ description: "The caller's organization's watches among ids" }) });

export const TemplateView = Type.Object({
  _id: Type.String(), name: Type.String(), description: Nullable(Type.String()), config: Type.Record(Type.String(), Type.Unknown()), createdAt: Timestamp,
});
export const TemplateList = Type.Object({ templates: Type.Array(TemplateView) });

export const watchView = (w: Watch): WatchView => ({
  _id: w._id, name: w.name, repositoryId: w.repositoryId, workspace: w.workspace, status: w.status, interval: w.interval,
  notifyOn: w.notifyOn, filters: w.filters ?? {}, snoozedUntil: w.snoozedUntil, snoozeReason: w.snoozeReason,
  lastRun: w.lastRun, lastRunStatus: w.lastRunStatus, lastScanId: w.lastScanId, lastError: w.lastError,
  driftCount: w.driftCount, createdAt: w.createdAt, updatedAt: w.updatedAt,
});
export const eventView = (e: WatchEvent) => ({
  _id: e._id, watchId: e.watchId, watchName: e.watchName, repositoryId: e.repositoryId, scanId: e.scanId, type: e.type,
  driftId: e.driftId, resourceAddress: e.resourceAddress, resourceType: e.resourceType, severity: e.severity, createdAt: e.createdAt,
});
export const templateView = (t: WatchTemplate) => ({ _id: t._id, name: t.name, description: t.description, config: t.config, createdAt: t.createdAt });
