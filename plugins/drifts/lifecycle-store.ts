// The writes of a drift's life (reconcile.ts: a scan's result; Drift Watch's accepted
// baseline) and the reads that decide them, over the same `drifts` collection and indexes as
// store.ts. A handful of statements whatever the number of drifts; each scoped to the
// organization, and to the open records (openKey) it means to change.
import { bulkWriteInChunks, type Database } from '../../core/db.ts';
import type { AnyBulkWriteOperation } from 'mongodb';
import { DRIFTS } from './store.ts';
import { OPEN, type Drift, type DriftAcceptance } from './types.ts';

const PLACEMENT_PROJECTION = { ruleId: 1, resourceId: 1, provider: 1, location: 1, account: 1, module: 1, declaredIn: 1, comparedBy: 1 } as const;

export function createLifecycleStore(db: Database) {
  const col = db.collection<Drift>(DRIFTS);
  return {
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
    /** The records one scan resolved (openKey `resolved:<scanId>`): a retried result counts them again. */
    resolvedByScan: (orgId: string, repositoryConfig: string, scanId: string) =>
      col.find({ orgId, repositoryConfig, openKey: `resolved:${scanId}` }, { projection: { _id: 1, resourceAddress: 1, severity: 1, suppressed: 1 } }).toArray(),
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
  };
}
export type LifecycleStore = ReturnType<typeof createLifecycleStore>;
