// The only file that touches `scans`; declares its indexes. Every list is scoped by orgId
// and, for a CLI token limited to some repositories, by repositoryConfig $in those ids
// (equality for the index check, so the same indexes serve both).
import type { ScanStats } from './schemas.ts';
import type { CollectionSpec, Database, Changes } from '../../core/db.ts';
import type { Collection, Document, Filter } from 'mongodb';

export const SCAN_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];
export const FINAL: readonly ScanStatus[] = ['completed', 'failed', 'cancelled'];

export interface ScanTrigger { eventId: string; resourceIds: string[]; addresses: string[] }

/** Who holds the scan's claim (lease.ts): its generation, holder (null: handed back) and last sign of life. */
export interface ScanLease { gen: number; holder: string | null; at: Date }

export interface Scan {
  _id: string;
  orgId: string;
  repositoryConfig: string;
  repositoryName: string;
  branch: string;
  status: ScanStatus;
  triggeredBy: 'manual' | 'schedule' | 'event';
  /**
   * A targeted re-check (triggeredBy event, plugins/cloud-events): the change event that queued
   * it, the resource ids it touched and the addresses read. Only those addresses are read,
   * compared and recorded (record.ts). Absent or null: a scan of the whole config.
   */
  trigger?: ScanTrigger | null;
  /** The user who triggered a manual scan. */
  triggeredByUser: string | null;
  driftCount: number;
  newDrifts: number;
  resolvedDrifts: number;
  error: string | null;
  /** A completed scan's coverage (schemas.ts ScanStats); absent before completion and on older records. */
  stats?: ScanStats | null;
  createdAt: Date;
  /** UTC day of createdAt: the Free plan's scans-per-day count. */
  day: string;
  startedAt: Date | null;
  completedAt: Date | null;
  /** The claim's lease (lease.ts); absent until first claimed. */
  lease?: ScanLease | null;
}

export const SCANS: CollectionSpec = {
  name: 'scans', owner: 'plugins/scans',
  indexes: [
    { key: { orgId: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, status: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, repositoryConfig: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, repositoryConfig: 1, status: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, day: 1 } },
    // Scans by status across organizations (admin scheduler status, the metrics gauge).
    { key: { status: 1, createdAt: 1 } },
  ],
};

/**
 * The executor's signs of life, one record per scan (_id = scan id), apart from the scan: on the
 * embedded database an update writes the whole document back, so a renewal written into the scan
 * could put back `running` over a cancel landing between its read and its write (the cancel
 * fault test lost its cancel that way under load).
 */
export const SCAN_LEASE_BEATS: CollectionSpec = { name: 'scan_lease_beats', owner: 'plugins/scans', indexes: [{ key: { orgId: 1 } }] };
interface LeaseBeat { _id: string; orgId: string; gen: number; at: Date }

/** Records per organization for several organizations, in one aggregation (the admin user list). */
async function countPerOrg<T extends Document>(col: Collection<T>, orgIds: string[]): Promise<Map<string, number>> {
  if (!orgIds.length) return new Map();
  const rows = await col.aggregate<{ _id: string; n: number }>([{ $match: { orgId: { $in: orgIds } } }, { $group: { _id: '$orgId', n: { $sum: 1 } } }]).toArray();
  return new Map(rows.map((r) => [r._id, r.n]));
}


export interface ScanFilter { status?: ScanStatus; repositoryConfig?: readonly string[] }

function filterOf(orgId: string, f: ScanFilter): Filter<Scan> {
  const filter: Filter<Scan> = { orgId };
  if (f.repositoryConfig) filter.repositoryConfig = f.repositoryConfig.length === 1 ? f.repositoryConfig[0] : { $in: [...f.repositoryConfig] };
  if (f.status) filter.status = f.status;
  return filter;
}
const NEWEST = { createdAt: -1, _id: -1 } as const;

export function createScanStore(db: Database) {
  const col = db.collection<Scan>(SCANS);
  const beats = db.collection<LeaseBeat>(SCAN_LEASE_BEATS);
  return {
    async page(orgId: string, f: ScanFilter, skip: number, limit: number) {
      const filter = filterOf(orgId, f);
      const [rows, total] = await Promise.all([col.find(filter).sort(NEWEST).skip(skip).limit(limit).toArray(), col.countDocuments(filter)]);
      return { rows, total };
    },
    latest: (orgId: string, repositoryConfig: string) => col.find({ orgId, repositoryConfig }).sort(NEWEST).limit(1).next(),
    recent: (orgId: string, f: ScanFilter, limit: number) => col.find(filterOf(orgId, f)).sort(NEWEST).limit(limit).toArray(),
    /** The first `limit` in creation order: the queue runners take pending scans from. */
    oldest: (orgId: string, f: ScanFilter, limit: number) => col.find(filterOf(orgId, f)).sort({ createdAt: 1, _id: 1 }).limit(limit).toArray(),
    get: (orgId: string, id: string) => col.findOne({ _id: id, orgId }),
    insert: async (doc: Scan) => { await col.insertOne(doc); },
    async update(orgId: string, id: string, set: Changes<Scan>) {
      await col.updateOne({ _id: id, orgId }, { $set: set });
    },
    count: (orgId: string, f: ScanFilter = {}) => col.countDocuments(filterOf(orgId, f)),
    countDay: (orgId: string, day: string) => col.countDocuments({ orgId, day }),
    /** Completed scans created since `since`: their config and completion time (predictions). */
    completedSince: (orgId: string, since: Date) =>
      col.find({ orgId, status: 'completed', createdAt: { $gte: since } }, { projection: { repositoryConfig: 1, completedAt: 1 } }).toArray(),
    /** The lease holder's sign of life, kept beside the scan (SCAN_LEASE_BEATS), never written into it. */
    async renewLease(orgId: string, id: string, gen: number, at: Date) {
      await beats.replaceOne({ _id: id }, { orgId, gen, at }, { upsert: true });
    },
    /** The last sign of life of each of these scans' holders (the lease sweep). */
    async beatsOf(ids: string[]): Promise<Map<string, { gen: number; at: Date }>> {
      if (!ids.length) return new Map();
      const rows = await beats.find({ _id: { $in: ids } }).toArray();
      return new Map(rows.map((b) => [b._id, { gen: b.gen, at: b.at }]));
    },
    /**
     * Pending scans of the organization (or of one config) in creation order after `after`
     * (keyset: the runners' queue, read a page at a time however many there are).
     */
    pendingAfter(orgId: string, after: Pick<Scan, 'createdAt' | '_id'> | null, limit: number, repositoryConfig?: string) {
      const filter: Filter<Scan> = { orgId, status: 'pending', ...(repositoryConfig ? { repositoryConfig } : {}) };
      if (after) filter.createdAt = { $gte: after.createdAt };
      return col.find(filter).sort({ createdAt: 1, _id: 1 }).limit(limit).toArray()
        .then((rows) => (after ? rows.filter((r) => r.createdAt > after.createdAt || r._id > after._id) : rows));
    },
    async remove(orgId: string, id: string) {
      await beats.deleteOne({ _id: id, orgId });
      return (await col.deleteOne({ _id: id, orgId })).deletedCount > 0;
    },
    removeByConfig: (orgId: string, repositoryConfig: string) => col.deleteMany({ orgId, repositoryConfig }),
    async removeOrg(orgId: string) {
      await beats.deleteMany({ orgId });
      await col.deleteMany({ orgId });
    },
    // --- platform-wide reads (admin routes, metrics)
    countAll: () => col.estimatedDocumentCount(),
    countPerOrg: (orgIds: string[]) => countPerOrg(col, orgIds),
    countWithStatus: (status: ScanStatus) => col.countDocuments({ status }),
    /** Scans in this status, every organization, in creation order after `after` (the lease sweep). */
    withStatusAfter(status: ScanStatus, after: Pick<Scan, 'createdAt' | '_id'> | null, limit: number) {
      const filter: Filter<Scan> = { status };
      if (after) filter.createdAt = { $gte: after.createdAt };
      return col.find(filter, { projection: { _id: 1, orgId: 1, status: 1, lease: 1, createdAt: 1, repositoryConfig: 1 } }).sort({ createdAt: 1 }).limit(limit).toArray()
        .then((rows) => (after ? rows.filter((r) => r.createdAt > after.createdAt || r._id > after._id) : rows));
    },
  };
}
export type ScanStore = ReturnType<typeof createScanStore>;
