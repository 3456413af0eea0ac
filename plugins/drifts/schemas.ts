// TypeBox schemas of the drift routes, with their Static<> types beside them, and the
// view that turns a stored drift into its wire shape.
import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp, pageFields, PagedList } from '../../core/schemas.ts';
import { CAUSE_REASONS, CHANGE_TYPES, DRIFT_STATUSES, PROVIDERS, SEVERITIES, SORT_FIELDS, type Drift, type DriftCause, type DriftPlacement } from './types.ts';

export const Severity = Type.Enum(SEVERITIES);
export const DriftStatus = Type.Enum(DRIFT_STATUSES);
export const ChangeType = Type.Enum(CHANGE_TYPES);

export const AiAnalysis = Type.Object({
  summary: Type.String(), riskLevel: Type.String(), recommendation: Type.String(),
  source: Type.Optional(Type.Union([Type.Literal('rules'), Type.Literal('provider_a'), Type.Literal('provider_b')], { description: "'rules': written from the severity rule table (no AI key); else the AI provider that wrote it" })),
});
export const Provider = Type.Enum(PROVIDERS);
/** The resource block in the scanned commit; null for a module from outside the repository. */
export const DeclaredIn = Type.Object({
  file: Type.String({ minLength: 1, maxLength: 1000, description: 'Relative to the repository root' }),
  line: Type.Integer({ minimum: 1, description: '1-based line of the resource block' }),
});

const ComparedBy = Type.Union([Type.Literal('native'), Type.Literal('provider')], {
  description: "How the scan compared the resource: native, the engine's own reader; provider, the provider's refresh-only plan (tofu/terraform). Records and reports from before hybrid scans: native",
});
/** Where a drifted resource lives and is declared, the rule that rated it (null when unknown), and how it was compared. */
const placementFields = {
  ruleId: Nullable(Type.String({ maxLength: 100, description: 'The severity rule that matched (GET /api/drifts/rules)' })),
  resourceId: Nullable(Type.String({ maxLength: 2048, description: "The cloud's own id: instance or security group id, bucket name, role name or ARN, ARM id, self link" })),
  provider: Nullable(Provider),
  location: Nullable(Type.String({ maxLength: 100, description: 'AWS region, Azure location, Google region or zone' })),
  account: Nullable(Type.String({ maxLength: 100, description: 'AWS account id, Azure subscription id, Google project' })),
  module: Nullable(Type.String({ maxLength: 1000, description: 'Module path of the address (module.a.module.b), "" for the root module' })),
  declaredIn: Nullable(DeclaredIn),
  comparedBy: ComparedBy,
};
/** The same fields as an executor reports them: each optional, so an older runner that sends none still reports. */
export const ReportedPlacement = {
  ruleId: Type.Optional(placementFields.ruleId), resourceId: Type.Optional(placementFields.resourceId),
  provider: Type.Optional(placementFields.provider), location: Type.Optional(placementFields.location),
  account: Type.Optional(placementFields.account), module: Type.Optional(placementFields.module),
  declaredIn: Type.Optional(placementFields.declaredIn), comparedBy: Type.Optional(placementFields.comparedBy),
  commit: Type.Optional(Nullable(Type.String({ pattern: '^[0-9a-f]{7,64}$', description: 'The commit scanned' }))),
};
/** One drift as an executor reports it. */
export const ReportedDrift = Type.Object({
  resourceType: Type.String({ minLength: 1, maxLength: 200 }),
  resourceAddress: Type.String({ minLength: 1, maxLength: 1000 }),
  severity: Severity,
  changeType: Type.Optional(ChangeType),
  diff: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  aiAnalysis: Type.Optional(AiAnalysis),
  ...ReportedPlacement,
});
export type ReportedDrift = Static<typeof ReportedDrift>;
/** The change event most likely behind a drift (plugins/cloud-events; docs/cloud-events.md). */
export const CauseView = Type.Object({
  eventId: Type.String({ description: 'CloudTrail eventID' }),
  eventName: Type.String(),
  eventTime: Timestamp,
  actor: Nullable(Type.String({ description: "The caller's identity ARN" })),
  actorType: Nullable(Type.String({ description: 'userIdentity.type: IAMUser, AssumedRole, Root, AWSService...' })),
  sourceIPAddress: Nullable(Type.String()),
  userAgent: Nullable(Type.String()),
});
export const causeView = (c: DriftCause) => ({ ...c, eventTime: c.eventTime.toISOString() });

export const DriftView = Type.Object({
  _id: Type.String(),
  resourceType: Type.String(),
  resourceAddress: Type.String(),
  severity: Severity,
  status: DriftStatus,
  changeType: ChangeType,
  scan: Type.String({ description: 'The scan that first detected the drift' }),
  lastScan: Type.String({ description: 'The latest scan that found it' }),
  repositoryConfig: Type.String(),
  repositoryName: Type.String(),
  detectedAt: Timestamp,
  lastSeenAt: Timestamp,
  resolvedAt: Nullable(Timestamp),
  resolvedBy: Nullable(Type.Union([Type.Literal('scan'), Type.Literal('user')])),
  diff: Type.Record(Type.String(), Type.Unknown()),
  aiAnalysis: Nullable(AiAnalysis),
  feedback: Nullable(Type.Object({ rating: Type.Integer(), comment: Nullable(Type.String()), at: Timestamp })),
  ...placementFields,
  commit: Nullable(Type.String({ description: 'The commit the latest scan that found it read' })),
  accepted: Nullable(Type.Object({
    by: Type.String({ description: 'User id of who accepted it' }), at: Timestamp,
    diff: Type.Record(Type.String(), Type.Unknown(), { description: 'The diff accepted: the drift is reported again only when a scan finds another' }),
  }, { description: 'Accepted baseline (Drift Watch accept); null when not accepted' })),
  cause: Nullable(CauseView),
  causeReason: Nullable(Type.Enum(CAUSE_REASONS, { description: 'Why cause is null: the organization sent no change events in the window, or none touched the resource' })),
  suppressed: Type.Boolean({ description: 'Learned noise: left out of default lists, counts, dashboards, notifications and webhooks' }),
  suppressedReason: Nullable(Type.String({ description: 'The noise rule(s): noise:<resourceType>:<attribute>' })),
});
export type DriftView = Static<typeof DriftView>;

/** Stored placement fields; a record written before they existed reads as null (comparedBy: native). */
export const placementView = (d: Partial<DriftPlacement>): DriftPlacement => ({
  ruleId: d.ruleId ?? null, resourceId: d.resourceId ?? null, provider: d.provider ?? null, location: d.location ?? null,
  account: d.account ?? null, module: d.module ?? null, declaredIn: d.declaredIn ?? null, comparedBy: d.comparedBy ?? 'native',
});

export function driftView(d: Drift): DriftView {
  return {
    _id: d._id, resourceType: d.resourceType, resourceAddress: d.resourceAddress, severity: d.severity, status: d.status,
    changeType: d.changeType, scan: d.scan, lastScan: d.lastScan, repositoryConfig: d.repositoryConfig, repositoryName: d.repositoryName,
    detectedAt: d.detectedAt.toISOString(), lastSeenAt: d.lastSeenAt.toISOString(), resolvedAt: d.resolvedAt?.toISOString() ?? null,
    resolvedBy: d.resolvedBy, diff: d.diff ?? {}, aiAnalysis: d.aiAnalysis ?? null,
    feedback: d.feedback ? { rating: d.feedback.rating, comment: d.feedback.comment, at: d.feedback.at.toISOString() } : null,
    ...placementView(d), commit: d.commit ?? null,
    accepted: d.accepted ? { by: d.accepted.by, at: d.accepted.at.toISOString(), diff: d.accepted.diff } : null,
    cause: d.cause ? causeView(d.cause) : null, causeReason: d.causeReason ?? null,
    suppressed: d.suppressed === true, suppressedReason: d.suppressedReason ?? null,
  };
}

/** One value or a comma-separated list: status=detected,acknowledged. */
const listOf = (values: readonly string[]) => Type.String({ pattern: `^(${values.join('|')})(,(${values.join('|')}))*$`, description: `One or more (comma-separated) of ${values.join(', ')}` });
const Page = pageFields();

const sortValues = SORT_FIELDS.flatMap((f) => [f, `-${f}`]);
const placeFilters = {
  resourceId: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, description: "The cloud's id of the resource, exactly" })),
  location: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Region, location or zone, exactly' })),
  ruleId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Severity rule id, exactly (GET /api/drifts/rules)' })),
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: "Substring of the cause's actor (identity ARN), case-insensitive" })),
  suppressed: Type.Optional(Type.Boolean({ description: 'true: drifts suppressed as learned noise are listed too (each with suppressed true); default false leaves them out' })),
};
export const ListQuery = Type.Object({ ...Page, status: Type.Optional(listOf(DRIFT_STATUSES)), severity: Type.Optional(listOf(SEVERITIES)), ...placeFilters });
export const Filters = {
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Free text over resourceAddress and resourceType (case-insensitive)' })),
  status: Type.Optional(listOf(DRIFT_STATUSES)),
  severity: Type.Optional(listOf(SEVERITIES)),
  resourceType: Type.Optional(Type.String({ maxLength: 200 })),
  repositoryConfigId: Type.Optional(Id),
  ...placeFilters,
  sort: Type.Optional(Type.Enum(sortValues, { description: `One of ${SORT_FIELDS.join(', ')}; prefix - for descending. Default -detectedAt` })),
};
/** Every filter of /query, /aggregations and /export (the store filter is built from it: service.ts toFilter). */
export const FilterQuery = Type.Object(Filters);
export type FilterQuery = Static<typeof FilterQuery>;
export type ListQuery = Static<typeof ListQuery>;
export const QueryQuery = Type.Object({ ...Page, ...Filters });
export type QueryQuery = Static<typeof QueryQuery>;
export const ExportQuery = Type.Object({ ...Filters, token: Type.Optional(Type.String({ description: 'Download token (POST /api/auth/download-token)' })) });

export const DriftPage = PagedList(DriftView);

export const BySeverity = Type.Object({ critical: Type.Integer(), high: Type.Integer(), medium: Type.Integer(), low: Type.Integer() });
export const TrendPoint = Type.Object({ date: Type.String({ description: 'UTC day YYYY-MM-DD' }), detected: Type.Integer(), resolved: Type.Integer() });
export const Aggregations = Type.Object({
  total: Type.Integer(),
  bySeverity: BySeverity,
  byStatus: Type.Record(Type.String(), Type.Integer()),
  byResourceType: Type.Record(Type.String(), Type.Integer()),
  trend: Type.Array(TrendPoint),
});

export const AUTOCOMPLETE_FIELDS = ['resourceType', 'resourceAddress', 'repositoryName', 'severity', 'status', 'changeType'] as const;
export const AutocompleteQuery = Type.Object({
  field: Type.Enum(AUTOCOMPLETE_FIELDS),
  prefix: Type.Optional(Type.String({ maxLength: 200 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 10 })),
});
export const Suggestions = Type.Object({
  fields: Type.Array(Type.String()),
  sortFields: Type.Array(Type.String()),
  statuses: Type.Array(Type.String()),
  severities: Type.Array(Type.String()),
  resourceTypes: Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() })),
  repositories: Type.Array(Type.Object({ value: Type.String(), count: Type.Integer() })),
});

export const RepoStatistics = Type.Object({
  repositoryConfigId: Type.String(),
  total: Type.Integer(),
  open: Type.Integer(),
  bySeverity: BySeverity,
  byStatus: Type.Record(Type.String(), Type.Integer()),
  resolved: Type.Integer(),
  resolvedByScan: Type.Integer(),
  resolvedByUser: Type.Integer(),
  resolutionRate: Type.Number({ description: 'resolved / total, 0 when there are none' }),
  resolutionRateBySeverity: Type.Object({ critical: Type.Number(), high: Type.Number(), medium: Type.Number(), low: Type.Number() }),
});

export const SeverityRuleView = Type.Object({
  id: Type.String(),
  severity: Severity,
  description: Type.String(),
  resourceTypes: Type.Array(Type.String(), { description: 'Globs; [] = every type' }),
  attributes: Type.Array(Type.String(), { description: 'Attribute globs of the diff; [] = any' }),
  changeTypes: Type.Array(Type.String()),
  condition: Type.String({ description: 'When the rule matches, in words' }),
  rationale: Type.String({ description: 'Why it gets its severity' }),
});

export const DriftIdParams = Type.Object({ driftId: Id });
export const ScanIdParams = Type.Object({ scanId: Id });
export const ConfigIdParams = Type.Object({ repositoryConfigId: Id });
export const SetStatusBody = Type.Object({ status: Type.Union([Type.Literal('acknowledged'), Type.Literal('resolved'), Type.Literal('ignored')]) }, { additionalProperties: false });
export const FeedbackBody = Type.Object({
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: Type.Optional(Type.String({ maxLength: 2000 })),
}, { additionalProperties: false });
export const Message = Type.Object({ message: Type.String() });
