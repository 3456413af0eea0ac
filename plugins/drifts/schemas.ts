// TypeBox schemas of the drift routes, with their Static<> types beside them, and the
// view that turns a stored drift into its wire shape.
import { Type, type Static } from 'typebox';
import { Id, Nullable, Timestamp, pageFields } from '../../core/schemas.ts';
import { CHANGE_TYPES, DRIFT_STATUSES, SEVERITIES, SORT_FIELDS, type Drift } from './store.ts';

export const Severity = Type.Enum(SEVERITIES);
export const DriftStatus = Type.Enum(DRIFT_STATUSES);
export const ChangeType = Type.Enum(CHANGE_TYPES);

export const AiAnalysis = Type.Object({ summary: Type.String(), riskLevel: Type.String(), recommendation: Type.String() });
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
});
export type DriftView = Static<typeof DriftView>;

export function driftView(d: Drift): DriftView {
  return {
    _id: d._id, resourceType: d.resourceType, resourceAddress: d.resourceAddress, severity: d.severity, status: d.status,
    changeType: d.changeType, scan: d.scan, lastScan: d.lastScan, repositoryConfig: d.repositoryConfig, repositoryName: d.repositoryName,
    detectedAt: d.detectedAt.toISOString(), lastSeenAt: d.lastSeenAt.toISOString(), resolvedAt: d.resolvedAt?.toISOString() ?? null,
    resolvedBy: d.resolvedBy, diff: d.diff ?? {}, aiAnalysis: d.aiAnalysis ?? null,
    feedback: d.feedback ? { rating: d.feedback.rating, comment: d.feedback.comment, at: d.feedback.at.toISOString() } : null,
  };
}

/** One value or a comma-separated list: status=detected,acknowledged. */
const listOf = (values: readonly string[]) => Type.String({ pattern: `^(${values.join('|')})(,(${values.join('|')}))*$`, description: `One or more (comma-separated) of ${values.join(', ')}` });
const Page = pageFields();

export const ListQuery = Type.Object({ ...Page, status: Type.Optional(listOf(DRIFT_STATUSES)), severity: Type.Optional(listOf(SEVERITIES)) });
const sortValues = SORT_FIELDS.flatMap((f) => [f, `-${f}`]);
export const Filters = {
  q: Type.Optional(Type.String({ maxLength: 200, description: 'Free text over resourceAddress and resourceType (case-insensitive)' })),
  status: Type.Optional(listOf(DRIFT_STATUSES)),
  severity: Type.Optional(listOf(SEVERITIES)),
  resourceType: Type.Optional(Type.String({ maxLength: 200 })),
  repositoryConfigId: Type.Optional(Id),
  sort: Type.Optional(Type.Enum(sortValues, { description: `One of ${SORT_FIELDS.join(', ')}; prefix - for descending. Default -detectedAt` })),
};
export const QueryQuery = Type.Object({ ...Page, ...Filters });
export type QueryQuery = Static<typeof QueryQuery>;
export const ExportQuery = Type.Object({ ...Filters, token: Type.Optional(Type.String({ description: 'Download token (POST /api/auth/download-token)' })) });

export const Pagination = Type.Object({ page: Type.Integer(), limit: Type.Integer(), total: Type.Integer(), pages: Type.Integer() });
export const DriftPage = Type.Object({ success: Type.Literal(true), data: Type.Array(DriftView), pagination: Pagination });

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

export const DriftIdParams = Type.Object({ driftId: Id });
export const ScanIdParams = Type.Object({ scanId: Id });
export const ConfigIdParams = Type.Object({ repositoryConfigId: Id });
export const SetStatusBody = Type.Object({ status: Type.Union([Type.Literal('acknowledged'), Type.Literal('resolved'), Type.Literal('ignored')]) }, { additionalProperties: false });
export const FeedbackBody = Type.Object({
  rating: Type.Integer({ minimum: 1, maximum: 5 }),
  comment: Type.Optional(Type.String({ maxLength: 2000 })),
}, { additionalProperties: false });
export const Message = Type.Object({ message: Type.String() });
