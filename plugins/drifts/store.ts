// The only file that touches `drifts`; declares its indexes.
//
// Index design (every query here is covered; DESIGN.md):
// - The list and /query filters always carry status and severityRank as equality ($in over
//   every value when the caller gives no filter), so one index family serves every mix of
//   filters: [orgId, (repositoryConfig), (resourceType), status, severityRank, <sort>, _id].
//   The four prefixes are: none, repositoryConfig, resourceType, both. Sorting by status
//   or severity is served by the same indexes (they are equality fields), with detectedAt
//   and _id breaking ties.
// - `openKey` is "open" while a drift is open (detected, acknowledged, ignored) and
//   "resolved:<scan or drift id>" after: the unique index on
//   (orgId, repositoryConfig, openKey, resourceAddress) makes a second open record of the
//   same resource impossible, even when two scans of one config complete together.
import { bulkWriteInChunks, type CollectionSpec, type Database, type IndexSpec } from '../../core/db.ts';
import type { AnyBulkWriteOperation, Document, Filter } from 'mongodb';

export const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const SEVERITY_RANK: Record<Severity, number> = { critical: 4, high: 3, medium: 2, low: 1 };
export const DRIFT_STATUSES = ['detected', 'acknowledged', 'resolved', 'ignored'] as const;
export type DriftStatus = (typeof DRIFT_STATUSES)[number];
export const CHANGE_TYPES = ['changed', 'added', 'removed'] as const;
export type ChangeType = (typeof CHANGE_TYPES)[number];
export const OPEN = 'open';

/** `source`: 'rules' when written from the severity rule table, else the AI provider that wrote it (absent on older records). */
export interface AiAnalysis { summary: string; riskLevel: string; recommendation: string; source?: 'rules' | 'provider_a' | 'provider_b' }
export const PROVIDERS = ['cloud_a', 'cloud_b', 'cloud_c'] as const;
/**
 * Where the resource lives and is declared, and the rule that rated it, as the executor
 * reported them (runner-agent/src/engine where.ts). Each is null when unknown, and absent on
 * records stored before they existed (the view gives null).
 */
export interface DriftPlacement {
  ruleId: string | null;
  resourceId: string | null;
  provider: (typeof PROVIDERS)[number] | null;
  location: string | null;
  account: string | null;
  /** '' for the root module. */
  module: string | null;
  declaredIn: { file: string; line: number } | null;
  /** The engine's own reader, or the provider's refresh-only plan (never null: absent reads 'native'). */
  comparedBy: 'native' | 'provider';
}
export interface Drift extends Partial<DriftPlacement> {
  _id: string;
  orgId: string;
  repositoryConfig: string;
  repositoryName: string;
  /** The scan that first detected it. */
  scan: string;
  /** The latest scan that found it. */
  lastScan: string;
  resourceType: string;
  resourceAddress: string;
  severity: Severity;
  severityRank: number;
  status: DriftStatus;
  changeType: ChangeType;
  diff: Record<string, unknown>;
  aiAnalysis: AiAnalysis | null;
  openKey: string;
  detectedAt: Date;
  /** UTC day (YYYY-MM-DD) of detectedAt and of resolvedAt: the trends group on these (no date operators on the embedded database). */
  day: string;
  lastSeenAt: Date;
  resolvedAt: Date | null;
  resolvedDay: string | null;
  resolvedBy: 'scan' | 'user' | null;
  statusChangedAt: Date | null;
  feedback: { rating: number; comment: string | null; userId: string; at: Date } | null;
  updatedAt: Date;
  /** The commit the latest scan that found it read. */
  commit?: string | null;
  /**
   * The accepted baseline (Drift Watch accept): who accepted the drift, when, and the diff they
   * accepted. While a scan reports the same diff the drift is not reported again; a different
   * diff clears this and reports the drift again (plugins/scans/record.ts). Absent: never accepted.
   */
  accepted?: DriftAcceptance | null;
  /** The latest scan that reported this drift again after its accepted diff changed. */
  redetectedScan?: string | null;
  /** Absent on records stored before cause attribution and noise suppression (read as null, false). */
  cause?: DriftCause | null;
  causeReason?: CauseReason | null;
  suppressed?: boolean;
  suppressedReason?: string | null;
}
export interface DriftAcceptance { by: string; at: Date; diff: Record<string, unknown> }
/** The most likely change event behind a drift (plugins/cloud-events attributes it when the drift is recorded). */
export interface DriftCause {
  eventId: string; eventName: string; eventTime: Date; actor: string | null; actorType: string | null;
  sourceIPAddress: string | null; userAgent: string | null;
}
export const CAUSE_REASONS = ['no_events_received', 'no_matching_event'] as const;
export type CauseReason = (typeof CAUSE_REASONS)[number];
/** What a scan's result adds to a drift besides its diff: its cause and whether learned noise suppresses it. */
export interface DriftAnnotation {
  cause: DriftCause | null;
  causeReason: CauseReason | null;
  suppressed: boolean;
  /** The noise rule(s) that suppress it: `noise:<resourceType>:<attribute>`. */
  suppressedReason: string | null;
}

/** A drift as the predictions plugin's learn run reads it (store.eachSince). */
export type DriftHistoryRow = Pick<Drift, '_id' | 'repositoryConfig' | 'resourceType' | 'resourceAddress' | 'severityRank' | 'detectedAt' | 'resolvedAt' | 'diff'> & { commit?: string | null };
const HISTORY_FIELDS = { repositoryConfig: 1, resourceType: 1, resourceAddress: 1, severityRank: 1, detectedAt: 1, resolvedAt: 1, diff: 1, commit: 1 } as const;

export const SORT_FIELDS = ['detectedAt', 'severity', 'status', 'resourceType', 'resourceAddress'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

const PREFIXES: Record<string, 1>[] = [{}, { repositoryConfig: 1 }, { resourceType: 1 }, { repositoryConfig: 1, resourceType: 1 }];
const familyOf = (prefixes: Record<string, 1>[]): IndexSpec[] => prefixes.flatMap((p) => [
  { key: { orgId: 1, ...p, status: 1, severityRank: 1, detectedAt: -1, _id: -1 } },
  { key: { orgId: 1, ...p, status: 1, severityRank: 1, resourceAddress: 1, _id: -1 } },
  ...(p.resourceType ? [] : [{ key: { orgId: 1, ...p, status: 1, severityRank: 1, resourceType: 1, _id: -1 } } as IndexSpec]),
]);
/**
 * resourceId, location and ruleId: each alone, or with a repository (a filter or a CLI token's
 * repositories), under every sort; two or three of them together under the default sort
 * (severity and status sorts are served too: they are equality fields). Not indexed as such:
 * one of them with resourceType, or several with an address or type sort.
 */
export const PLACE_FILTERS = ['resourceId', 'location', 'ruleId'] as const;
const placeCombos = [['resourceId', 'location'], ['resourceId', 'ruleId'], ['location', 'ruleId'], ['resourceId', 'location', 'ruleId']];
const queryIndexes: IndexSpec[] = [
  ...familyOf(PREFIXES),
  ...PLACE_FILTERS.flatMap((f) => familyOf([{ [f]: 1 }, { repositoryConfig: 1, [f]: 1 }])),
  ...placeCombos.flatMap((c) => ([{}, { repositoryConfig: 1 }] as Record<string, 1>[]).map((p): IndexSpec => ({
    key: { orgId: 1, ...p, ...Object.fromEntries(c.map((f) => [f, 1])), status: 1, severityRank: 1, detectedAt: -1, _id: -1 },
  }))),
];

export const DRIFTS: CollectionSpec = {
  name: 'drifts', owner: 'plugins/drifts',
  indexes: [
    ...queryIndexes,
    { key: { orgId: 1, repositoryConfig: 1, openKey: 1, resourceAddress: 1 }, unique: true },
    { key: { orgId: 1, scan: 1, detectedAt: -1, _id: -1 } },
    { key: { orgId: 1, lastScan: 1, detectedAt: -1, _id: -1 } },
    { key: { orgId: 1, day: 1 } },
    { key: { orgId: 1, resolvedDay: 1 } },
    { key: { orgId: 1, redetectedScan: 1 } },
  ],
};

/** Filters of the list, /query, export and widgets; ids already restricted to what the caller may see. */
export interface DriftFilter {
  status?: DriftStatus[];
  severity?: Severity[];
  resourceType?: string;
  /** Config ids: one (a filter), several (a CLI token's repositories), or undefined (all). */
  repositoryConfig?: readonly string[];
  q?: string;
  resourceId?: string;
  location?: string;
  ruleId?: string;
  /** Substring of the cause's actor (identity ARN), case-insensitive. */
  actor?: string;
  /** Include drifts suppressed as learned noise (left out by default). */
  suppressed?: boolean;
}

const escapeRegex = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function driftFilter(orgId: string, f: DriftFilter): Filter<Drift> {
  const filter: Filter<Drift> = { orgId };
  if (f.repositoryConfig) filter.repositoryConfig = f.repositoryConfig.length === 1 ? f.repositoryConfig[0] : { $in: [...f.repositoryConfig] };
  if (f.resourceType) filter.resourceType = f.resourceType;
  for (const k of PLACE_FILTERS) if (f[k]) filter[k] = f[k];
  // Always present, so the same index family serves every combination (see above).
  filter.status = { $in: [...(f.status?.length ? f.status : DRIFT_STATUSES)] };
  filter.severityRank = { $in: (f.severity?.length ? f.severity : SEVERITIES).map((s) => SEVERITY_RANK[s]) };
  if (f.q) {
    const rx = { $regex: escapeRegex(f.q), $options: 'i' };
    filter.$or = [{ resourceAddress: rx }, { resourceType: rx }];
  }
  // Both are conditions over the rows an index family above selects, never equality keys: a
  // suppressed drift is rare, and an actor is a substring.
  if (f.actor) filter['cause.actor'] = { $regex: escapeRegex(f.actor), $options: 'i' };
  if (!f.suppressed) filter.suppressed = { $ne: true };
  return filter;
}

export function driftSort(sort: string | undefined): Record<string, 1 | -1> {
  const desc = Boolean(sort?.startsWith('-'));
  const field = (sort?.replace(/^-/, '') || 'detectedAt') as SortField;
  const dir = desc ? -1 : 1;
  if (!sort) return { detectedAt: -1, _id: -1 };
  switch (field) {
    case 'detectedAt': return { detectedAt: dir, _id: dir };
    case 'severity': return { severityRank: dir, detectedAt: -1, _id: -1 };
    case 'status': return { status: dir, detectedAt: -1, _id: -1 };
    default: return { [field]: dir, _id: dir === 1 ? -1 : 1 } as Record<string, 1 | -1>;
  }
}

/** What the CSV export reads: no diff or analysis, so each batch stays small. */
const EXPORT_FIELDS = Object.fromEntries(['resourceType', 'resourceAddress', 'severity', 'status', 'changeType', 'repositoryName', 'repositoryConfig',
  'scan', 'detectedAt', 'lastSeenAt', 'resolvedAt', 'resolvedBy', 'ruleId', 'resourceId', 'location', 'account', 'declaredIn', 'cause', 'suppressed'].map((f) => [f, 1]));

const PLACEMENT_PROJECTION = { ruleId: 1, resourceId: 1, provider: 1, location: 1, account: 1, module: 1, declaredIn: 1, comparedBy: 1 } as const;

export function createDriftStore(db: Database) {
  const col = db.collection<Drift>(DRIFTS);
  return {
    async page(orgId: string, f: DriftFilter, sort: Record<string, 1 | -1>, skip: number, limit: number) {
      const filter = driftFilter(orgId, f);
      const [rows, total] = await Promise.all([
        col.find(filter).sort(sort).skip(skip).limit(limit).toArray(),
        col.countDocuments(filter),
      ]);
      return { rows, total };
    },
    count: (orgId: string, f: DriftFilter) => col.countDocuments(driftFilter(orgId, f)),
    /** Every drift of every organization (admin dashboard), from collection metadata. */
    countAll: () => col.estimatedDocumentCount(),
    /** A cursor over every match, for the streamed CSV export. */
    cursor: (orgId: string, f: DriftFilter, sort: Record<string, 1 | -1>) =>
      col.find(driftFilter(orgId, f), { projection: EXPORT_FIELDS }).sort(sort).batchSize(1000),
    get: (orgId: string, id: string) => col.findOne({ _id: id, orgId }),
    byScan: (orgId: string, scanId: string, limit: number) =>
      col.find({ orgId, $or: [{ scan: scanId }, { lastScan: scanId }], suppressed: { $ne: true } }).sort({ detectedAt: -1, _id: -1 }).limit(limit).toArray(),
    /** Counts grouped by one or two fields, over the filter's matches. */
    group(orgId: string, f: DriftFilter, by: Record<string, string>) {
      return col.aggregate<{ _id: Record<string, string>; n: number }>([
        { $match: driftFilter(orgId, f) },
        { $group: { _id: by, n: { $sum: 1 } } },
      ]).toArray();
    },
    /** Per-day counts of detections (day) or resolutions (resolvedDay) from `since` on. */
    trend(orgId: string, field: 'day' | 'resolvedDay', since: string, repositoryConfig?: readonly string[]) {
      const match: Document = { orgId, [field]: { $gte: since }, suppressed: { $ne: true } };
      if (repositoryConfig) match.repositoryConfig = { $in: [...repositoryConfig] };
      return col.aggregate<{ _id: string; n: number }>([{ $match: match }, { $group: { _id: `$${field}`, n: { $sum: 1 } } }]).toArray();
    },
    /** Distinct values of a field starting with a prefix, most frequent first. */
    async distinctPrefix(orgId: string, field: string, prefix: string, limit: number, repositoryConfig?: readonly string[]) {
      const match: Document = { orgId };
      if (repositoryConfig) match.repositoryConfig = { $in: [...repositoryConfig] };
      if (prefix) match[field] = { $regex: `^${escapeRegex(prefix)}`, $options: 'i' };
      // Ordered here rather than by a $sort stage: the groups are few (distinct values), and
      // the engine's index check reads any $sort of a pipeline as a sort on the collection.
      const rows = await col.aggregate<{ _id: string; n: number }>([{ $match: match }, { $group: { _id: `$${field}`, n: { $sum: 1 } } }]).toArray();
      return rows.sort((a, b) => b.n - a.n || String(a._id).localeCompare(String(b._id))).slice(0, limit);
    },
    async setStatus(orgId: string, id: string, from: readonly DriftStatus[], set: Partial<Drift>) {
      return col.findOneAndUpdate({ _id: id, orgId, status: { $in: [...from] } }, { $set: set }, { returnDocument: 'after' });
    },
    async setAiAnalysis(orgId: string, id: string, aiAnalysis: AiAnalysis, at: Date) {
      return (await col.updateOne({ _id: id, orgId }, { $set: { aiAnalysis, updatedAt: at } })).matchedCount > 0;
    },
    async setFeedback(orgId: string, id: string, feedback: Drift['feedback'], at: Date) {
      return (await col.updateOne({ _id: id, orgId }, { $set: { feedback, updatedAt: at } })).matchedCount > 0;
    },
    // --- result recording (scans plugin): a handful of statements whatever the number of drifts
    /** The open drifts of one config, projected to what the comparison needs. */
    openOf: (orgId: string, repositoryConfig: string) =>
      // One round trip for any realistic N: the projected documents are small (the diff, to see whether it changed).
      col.find({ orgId, repositoryConfig, openKey: OPEN }, { projection: { _id: 1, resourceAddress: 1, status: 1, severity: 1, changeType: 1, lastScan: 1, scan: 1, resourceType: 1, diff: 1, accepted: 1, redetectedScan: 1, suppressed: 1, ...PLACEMENT_PROJECTION } }).batchSize(50_000).toArray(),
    /** Inserts what it can; returns the addresses that hit the open-record unique index (a concurrent scan of the same config inserted them). */
    async insertNew(orgId: string, docs: Drift[]): Promise<string[]> {
      if (!docs.length) return [];
      if (docs.some((doc) => doc.orgId !== orgId)) throw new Error('drifts.insertNew: a drift of another organization');
      try {
        await col.insertMany(docs, { ordered: false });
        return [];
      } catch (err) {
        const writeErrors = (err as { writeErrors?: { code?: number; index: number; err?: { index: number; code?: number } }[] }).writeErrors;
        if (!writeErrors) throw err;
        const list = Array.isArray(writeErrors) ? writeErrors : [writeErrors];
        if (list.some((e) => (e.code ?? e.err?.code) !== 11000)) throw err;
        return list.map((e) => docs[e.index ?? e.err!.index].resourceAddress);
      }
    },
    /** Open drifts of a config, named by address, found again by a scan (those a concurrent scan inserted first). */
    async seenAgainByAddress(orgId: string, repositoryConfig: string, addresses: string[], set: Pick<Drift, 'lastScan' | 'lastSeenAt' | 'updatedAt'>) {
      await col.updateMany({ orgId, repositoryConfig, openKey: OPEN, resourceAddress: { $in: addresses } }, { $set: set });
    },
    /** Open drifts of a config found again unchanged: one statement for a group sharing severity, changeType and commit. */
    async seenAgain(orgId: string, repositoryConfig: string, ids: string[], set: Pick<Drift, 'lastScan' | 'lastSeenAt' | 'severity' | 'severityRank' | 'changeType' | 'commit' | 'updatedAt' | 'suppressed' | 'suppressedReason'>) {
      await col.updateMany({ orgId, repositoryConfig, openKey: OPEN, _id: { $in: ids } }, { $set: set });
    },
    /** Open drifts found again with a new diff or placement: one bulk write, a statement each. */
    rewrite: (orgId: string, rows: { id: string; set: Partial<Drift> }[]) =>
      bulkWriteInChunks(col, rows.map(({ id, set }): AnyBulkWriteOperation<Drift> => ({ updateOne: { filter: { _id: id, orgId, openKey: OPEN }, update: { $set: set } } }))),
    /** Open drifts of a config a scan did not find (ignored ones stay): resolved by that scan. */
    async resolveMissing(orgId: string, repositoryConfig: string, ids: string[], scanId: string, at: Date, day: string) {
      await col.updateMany({ orgId, repositoryConfig, openKey: OPEN, _id: { $in: ids }, status: { $nin: ['ignored'] } }, {
        $set: { status: 'resolved', resolvedAt: at, resolvedDay: day, resolvedBy: 'scan', openKey: `resolved:${scanId}`, statusChangedAt: at, updatedAt: at },
      });
    },
    // --- Drift Watch: the baseline and what one scan changed
    /** Marks open drifts accepted, each with its own diff: one bulk write, a statement each. */
    accept: (orgId: string, rows: { id: string; accepted: DriftAcceptance }[]) =>
      bulkWriteInChunks(col, rows.map(({ id, accepted }): AnyBulkWriteOperation<Drift> => ({ updateOne: { filter: { _id: id, orgId, openKey: OPEN }, update: { $set: { accepted, updatedAt: accepted.at } } } }))),
    /** Drifts one scan detected first, and those it reported again after their accepted diff changed. */
    async reportedBy(orgId: string, scanId: string) {
      const [first, again] = await Promise.all([
        col.find({ orgId, scan: scanId }).sort({ detectedAt: -1, _id: -1 }).toArray(),
        col.find({ orgId, redetectedScan: scanId }).toArray(),
      ]);
      const seen = new Set(first.map((d) => d._id));
      return [...first, ...again.filter((d) => !seen.has(d._id))];
    },
    /** Drifts of a config one scan resolved (their openKey names the scan). */
    resolvedBy: (orgId: string, repositoryConfig: string, scanId: string) =>
      col.find({ orgId, repositoryConfig, openKey: `resolved:${scanId}` }).toArray(),
    removeByScan: (orgId: string, scanId: string) => col.deleteMany({ orgId, scan: scanId }),
    removeByConfig: (orgId: string, repositoryConfig: string) => col.deleteMany({ orgId, repositoryConfig }),
    /**
     * Every drift of the organization detected on or after `sinceDay` (UTC day), the fields a
     * risk model learns from, handed to `fn` in batches as the cursor reads them (predictions).
     */
    async eachSince(orgId: string, sinceDay: string, fn: (rows: DriftHistoryRow[]) => void, batch = 2000) {
      const cursor = col.find({ orgId, day: { $gte: sinceDay } }, { projection: HISTORY_FIELDS, batchSize: batch });
      let rows: DriftHistoryRow[] = [];
      for await (const d of cursor) {
        rows.push(d as DriftHistoryRow);
        if (rows.length >= batch) { fn(rows); rows = []; }
      }
      if (rows.length) fn(rows);
    },
    countByConfig: (orgId: string, repositoryConfig: string, status?: DriftStatus) =>
      col.countDocuments(status ? { orgId, repositoryConfig, status, suppressed: { $ne: true } } : { orgId, repositoryConfig, suppressed: { $ne: true } }),
    countOrg: (orgId: string, status?: DriftStatus) => col.countDocuments(status ? { orgId, status } : { orgId }),
    async removeOrg(orgId: string) {
      await col.deleteMany({ orgId });
    },
  };
}
export type DriftStore = ReturnType<typeof createDriftStore>;
