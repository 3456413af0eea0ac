// The `drifts` collection's indexes and the reads (and user edits) of the drift routes; the
// writes of a drift's life are in lifecycle-store.ts, over the same collection and indexes.
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
import type { Database, IndexSpec } from '../../core/db.ts';
import type { SortedSpec } from '../../core/ferret-gin.ts';
import type { Document, WithId } from 'mongodb';
import { driftFilter, escapeRegex, PLACE_FILTERS, type DriftFilter } from './drift-filter.ts';
import type { AiAnalysis, Drift, DriftHistoryRow, DriftStatus } from './types.ts';

const HISTORY_FIELDS = { repositoryConfig: 1, resourceType: 1, resourceAddress: 1, severityRank: 1, detectedAt: 1, resolvedAt: 1, diff: 1, commit: 1 } as const;

const PREFIXES: Record<string, 1>[] = [{}, { repositoryConfig: 1 }, { resourceType: 1 }, { repositoryConfig: 1, resourceType: 1 }];
const familyOf = (prefixes: Record<string, 1>[]): IndexSpec[] => prefixes.flatMap((p) => [
  { key: { orgId: 1, ...p, status: 1, severityRank: 1, detectedAt: -1, _id: -1 } },
  { key: { orgId: 1, ...p, status: 1, severityRank: 1, resourceAddress: 1, _id: -1 } },
  ...(p.resourceType ? [] : [{ key: { orgId: 1, ...p, status: 1, severityRank: 1, resourceType: 1, _id: -1 } } as IndexSpec]),
]);
const placeCombos = [['resourceId', 'location'], ['resourceId', 'ruleId'], ['location', 'ruleId'], ['resourceId', 'location', 'ruleId']];
const queryIndexes: IndexSpec[] = [
  ...familyOf(PREFIXES),
  ...PLACE_FILTERS.flatMap((f) => familyOf([{ [f]: 1 }, { repositoryConfig: 1, [f]: 1 }])),
  ...placeCombos.flatMap((c) => ([{}, { repositoryConfig: 1 }] as Record<string, 1>[]).map((p): IndexSpec => ({
    key: { orgId: 1, ...p, ...Object.fromEntries(c.map((f) => [f, 1])), status: 1, severityRank: 1, detectedAt: -1, _id: -1 },
  }))),
];

export const DRIFTS: SortedSpec = {
  name: 'drifts', owner: 'plugins/drifts',
  // On the embedded FerretDB: PostgreSQL indexes in the default list order (and its reverse) and
  // the severity order, so a page of those walks an index (core/ferret-gin.ts); other sorts are
  // served by the GIN equality indexes and a sort of the matches.
  pgSorts: [{ detectedAt: -1, _id: -1 }, { severityRank: -1, detectedAt: -1, _id: -1 }],
  pgInline: true,
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

/** What the CSV export reads: no diff or analysis, so each batch stays small. */
const EXPORT_FIELDS = Object.fromEntries(['resourceType', 'resourceAddress', 'severity', 'status', 'changeType', 'repositoryName', 'repositoryConfig',
  'scan', 'detectedAt', 'lastSeenAt', 'resolvedAt', 'resolvedBy', 'ruleId', 'resourceId', 'location', 'account', 'declaredIn', 'cause', 'suppressed'].map((f) => [f, 1]));

export function createDriftStore(db: Database) {
  const col = db.collection<Drift>(DRIFTS);
  return {
    async page(orgId: string, f: DriftFilter, sort: Record<string, 1 | -1>, skip: number, limit: number) {
      const filter = driftFilter(orgId, f);
      // The embedded FerretDB sorts and counts every match in its own process (100,000 drifts: many
      // seconds); its PostgreSQL answers the page's documents and the count (core/ferret-reads.ts).
      const pushed = db.pushdown ? await db.pushdown.page(DRIFTS.name, filter, sort, skip, limit) : null;
      if (pushed) return { rows: pushed.docs as unknown as WithId<Drift>[], total: pushed.total };
      const [rows, total] = await Promise.all([
        col.find(filter).sort(sort).skip(skip).limit(limit).toArray(),
        col.countDocuments(filter),
      ]);
      return { rows, total };
    },
    count: (orgId: string, f: DriftFilter) => col.countDocuments(driftFilter(orgId, f)),
    /** Every drift of every organization (admin dashboard), from collection metadata. */
    countAll: () => col.estimatedDocumentCount(),
    /**
     * Every match in the sort's order, for the streamed CSV export, read as it is consumed. On the
     * embedded FerretDB from a PostgreSQL cursor (core/ferret-reads.ts `rows`): FerretDB's own
     * cursor sorts every match before its first batch (100,000 drifts: seconds to the first byte).
     */
    async *exportRows(orgId: string, f: DriftFilter, sort: Record<string, 1 | -1>): AsyncGenerator<Drift> {
      const pushed = db.pushdown ? await db.pushdown.rows(DRIFTS.name, driftFilter(orgId, f), sort, 1000) : null;
      if (pushed) {
        for await (const batch of pushed) yield* batch as unknown as Drift[];
        return;
      }
      yield* col.find(driftFilter(orgId, f), { projection: EXPORT_FIELDS }).sort(sort).batchSize(1000);
    },
    get: (orgId: string, id: string) => col.findOne({ _id: id, orgId }),
    byScan: (orgId: string, scanId: string, limit: number) =>
      col.find({ orgId, $or: [{ scan: scanId }, { lastScan: scanId }], suppressed: { $ne: true } }).sort({ detectedAt: -1, _id: -1 }).limit(limit).toArray(),
    /** Counts grouped by one or two fields, over the filter's matches. */
    async group(orgId: string, f: DriftFilter, by: Record<string, string>) {
      const pushed = db.pushdown ? await db.pushdown.group(DRIFTS.name, driftFilter(orgId, f), by) : null;
      if (pushed) return pushed as { _id: Record<string, string>; n: number }[];
      return col.aggregate<{ _id: Record<string, string>; n: number }>([
        { $match: driftFilter(orgId, f) },
        { $group: { _id: by, n: { $sum: 1 } } },
      ]).toArray();
    },
    /** Per-day counts of detections (day) or resolutions (resolvedDay) from `since` on. */
    async trend(orgId: string, field: 'day' | 'resolvedDay', since: string, repositoryConfig?: readonly string[]) {
      const match: Document = { orgId, [field]: { $gte: since }, suppressed: { $ne: true } };
      if (repositoryConfig) match.repositoryConfig = { $in: [...repositoryConfig] };
      const pushed = db.pushdown ? await db.pushdown.group(DRIFTS.name, match, { v: `$${field}` }) : null;
      if (pushed) return pushed.map((r) => ({ _id: r._id.v as string, n: r.n }));
      return col.aggregate<{ _id: string; n: number }>([{ $match: match }, { $group: { _id: `$${field}`, n: { $sum: 1 } } }]).toArray();
    },
    /** Distinct values of a field starting with a prefix, most frequent first. */
    async distinctPrefix(orgId: string, field: string, prefix: string, limit: number, repositoryConfig?: readonly string[]) {
      const match: Document = { orgId };
      if (repositoryConfig) match.repositoryConfig = { $in: [...repositoryConfig] };
      if (prefix) match[field] = { $regex: `^${escapeRegex(prefix)}`, $options: 'i' };
      // Ordered here rather than by a $sort stage: the groups are few (distinct values), and
      // the engine's index check reads any $sort of a pipeline as a sort on the collection.
      const pushed = db.pushdown ? await db.pushdown.group(DRIFTS.name, match, { v: `$${field}` }) : null;
      const rows = pushed ? pushed.map((r) => ({ _id: r._id.v as string, n: r.n }))
        : await col.aggregate<{ _id: string; n: number }>([{ $match: match }, { $group: { _id: `$${field}`, n: { $sum: 1 } } }]).toArray();
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
