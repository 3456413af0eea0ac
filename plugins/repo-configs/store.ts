// The only file that touches `repo_configs`; declares its indexes.
// `slot` is kept from when this plugin held the repository limit itself (numbered slots "0"..
// under a unique index): configs stored then keep theirs, new ones take their own id, and the
// unique index stays so both kinds stay valid. The limit is now the engine's (core/limits.ts).
import type { CollectionSpec, Database, Changes } from '../../core/db.ts';
import type { Collection, Document } from 'mongodb';

export {
  COMPARISONS, PROVIDERS, REPOSITORY_URL_HINT, REPOSITORY_URL_SECRET, repositoryUrlKind, repositoryUrlSecret, type Provider, type RepoConfig,
} from './types.ts';
import type { RepoConfig } from './types.ts';

export const REPO_CONFIGS: CollectionSpec = {
  name: 'repo_configs', owner: 'plugins/repo-configs',
  indexes: [
    { key: { orgId: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, slot: 1 }, unique: true },
    { key: { orgId: 1, workspaceId: 1 } },
    { key: { orgId: 1, projectId: 1 } },
    { key: { orgId: 1, status: 1 } },
    // The admin scheduler routes: every config with a schedule, across organizations.
    { key: { scheduleCron: 1 } },
    // The scheduled-scan due scan (core/due-scan.ts): equality on the minute, keyset on _id.
    { key: { dueMinute: 1, _id: 1 } },
  ],
};

/** Records per organization for several organizations, in one aggregation (the admin user list). */
async function countPerOrg<T extends Document>(col: Collection<T>, orgIds: string[]): Promise<Map<string, number>> {
  if (!orgIds.length) return new Map();
  const rows = await col.aggregate<{ _id: string; n: number }>([{ $match: { orgId: { $in: orgIds } } }, { $group: { _id: '$orgId', n: { $sum: 1 } } }]).toArray();
  return new Map(rows.map((r) => [r._id, r.n]));
}


export function createRepoConfigStore(db: Database) {
  const col = db.collection<RepoConfig>(REPO_CONFIGS);
  return {
    /**
     * Every config of the organization (or of the given ids), newest first: no cap (the readers
     * that need the configs of a page of scans pass their ids; the list route reads a page).
     */
    list(orgId: string, ids?: readonly string[]) {
      const filter = ids ? { orgId, _id: { $in: [...ids] } } : { orgId };
      return col.find(filter).sort({ createdAt: -1, _id: -1 }).toArray();
    },
    /** One page of `list` and how many there are in all (GET /api/repo-configs). */
    async page(orgId: string, ids: readonly string[] | undefined, { skip, limit }: { skip: number; limit: number }) {
      const filter = ids ? { orgId, _id: { $in: [...ids] } } : { orgId };
      const [rows, total] = await Promise.all([col.find(filter).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit).toArray(), col.countDocuments(filter)]);
      return { rows, total };
    },
    get: (orgId: string, id: string) => col.findOne({ _id: id, orgId }),
    count: (orgId: string) => col.countDocuments({ orgId }),
    countActive: (orgId: string) => col.countDocuments({ orgId, status: 'active' }),
    async insert(doc: RepoConfig): Promise<void> {
      await col.insertOne(doc);
    },
    async update(orgId: string, id: string, set: Changes<RepoConfig>) {
      return (await col.updateOne({ _id: id, orgId }, { $set: set })).matchedCount > 0;
    },
    async remove(orgId: string, id: string) {
      return (await col.deleteOne({ _id: id, orgId })).deletedCount > 0;
    },
    /** repoConfigCount per workspace (or project): one aggregation over the organization's configs. */
    async countBy(orgId: string, field: 'workspaceId' | 'projectId'): Promise<Map<string, number>> {
      const rows = await col.aggregate<{ _id: string | null; n: number }>([
        { $match: { orgId } }, { $group: { _id: `$${field}`, n: { $sum: 1 } } },
      ]).toArray();
      return new Map(rows.filter((r) => r._id).map((r) => [r._id as string, r.n]));
    },
    countInWorkspace: (orgId: string, workspaceId: string) => col.countDocuments({ orgId, workspaceId }),
    countInProject: (orgId: string, projectId: string) => col.countDocuments({ orgId, projectId }),
    async moveWorkspace(orgId: string, from: string, to: string) {
      await col.updateMany({ orgId, workspaceId: from }, { $set: { workspaceId: to } });
    },
    async recordScan(orgId: string, id: string, at: Date, status: string) {
      await col.updateOne({ _id: id, orgId }, { $set: { lastScanAt: at, lastScanStatus: status } });
    },
    async removeOrg(orgId: string) {
      await col.deleteMany({ orgId });
    },
    // --- platform-wide reads (admin routes), never from a request of an organization
    countAll: () => col.estimatedDocumentCount(),
    countPerOrg: (orgIds: string[]) => countPerOrg(col, orgIds),
    /** Configs with a schedule (oldest first, at most `limit`), every organization. */
    scheduled: (limit: number) => col.find({ scheduleCron: { $type: 'string' } }, { projection: { _id: 1, orgId: 1, scheduleCron: 1, dueMinute: 1 } }).limit(limit).toArray(),
    countScheduled: () => col.countDocuments({ scheduleCron: { $type: 'string' } }),
    /** The collection itself, for the scheduled-scan due scan (reads it by dueMinute across organizations). */
    configs: col,
    /** Configs stored before the due scan (no dueMinute field): a page of them (a range read, once per process start). */
    unscheduled: (limit: number) => col.find({ dueMinute: { $exists: false } }).sort({ dueMinute: 1, _id: 1 }).limit(limit).batchSize(limit).toArray(),
    /** Sets due minutes, one bulk write. */
    async setDue(rows: { _id: string; dueMinute: number | null }[]) {
      // One updateMany per minute, one after another: a bulk of updateOne holds a PostgreSQL
      // connection per statement on FerretDB 1.24 (core/due-scan.ts advance).
      const byMinute = new Map<number | null, string[]>();
      for (const r of rows) byMinute.set(r.dueMinute, [...(byMinute.get(r.dueMinute) ?? []), r._id]);
      // A single record by _id equality (FerretDB pushes that down; not an $in).
      for (const [dueMinute, ids] of byMinute) await col.updateMany(ids.length === 1 ? { _id: ids[0] } : { _id: { $in: ids } }, { $set: { dueMinute } });
    },
    /** Moves one config from `from` to `to` unless it moved meanwhile (a scheduled scan started outside the due scan). */
    async moveDue(id: string, from: number, to: number | null) {
      await col.updateOne({ _id: id, dueMinute: from }, { $set: { dueMinute: to } });
    },
    /** The earliest due minute of any config (admin status): a range read, once per admin call. */
    firstDue: async () => (await col.find({ dueMinute: { $gte: 0 } }, { projection: { dueMinute: 1 } }).sort({ dueMinute: 1, _id: 1 }).limit(1).toArray())[0]?.dueMinute ?? null,
  };
}
export type RepoConfigStore = ReturnType<typeof createRepoConfigStore>;
