// The only file that touches `managed_resources`: the managed resource instances of each
// repository config's states, as the last completed scan that carried an inventory read them
// (runner-agent/src/engine/inventory.ts). Cloud Discovery classifies a resource as managed when
// its id is here.
//
// A replace costs a fixed number of commands whatever the inventory's size: one read of the
// config's rows, one insertMany for new addresses (and those whose resource changed, after one
// deleteMany of their old rows), one deleteMany for addresses gone. Unchanged rows are not
// written at all: `scanId`/`seenAt` name the scan that recorded the row as it is (an updateMany
// of every kept row cost about 90 s at 10,000 rows on FerretDB, which does not push `$in` down).
import type { CollectionSpec, Database } from '../../core/db.ts';
import { newId } from '../../core/crypto.ts';
import type { InventoryItem } from './schemas.ts';

export interface ManagedResource {
  _id: string;
  orgId: string;
  repositoryConfigId: string;
  address: string;
  type: string;
  resourceId: string | null;
  region: string | null;
  account: string | null;
  /** The scan that recorded the row as it is (an unchanged row keeps the scan that first saw it). */
  scanId: string;
  seenAt: Date;
}

export const MANAGED_RESOURCES: CollectionSpec = {
  name: 'managed_resources', owner: 'plugins/scans',
  indexes: [
    { key: { orgId: 1, repositoryConfigId: 1, address: 1 }, unique: true },
    { key: { orgId: 1, resourceId: 1 } },
  ],
};

const same = (a: ManagedResource, b: InventoryItem) =>
  a.type === b.type && a.resourceId === b.resourceId && a.region === b.region && a.account === b.account;

export function createManagedStore(db: Database) {
  const col = db.collection<ManagedResource>(MANAGED_RESOURCES);

  /** insertMany; rows a concurrent replace of the same config inserted first (unique index) are skipped. */
  async function insert(rows: ManagedResource[]) {
    if (!rows.length) return;
    try {
      await col.insertMany(rows, { ordered: false });
    } catch (err) {
      const writeErrors = (err as { writeErrors?: unknown }).writeErrors;
      if (!writeErrors) throw err;
      const list = (Array.isArray(writeErrors) ? writeErrors : [writeErrors]) as { code?: number; err?: { code?: number } }[];
      if (list.some((e) => (e.code ?? e.err?.code) !== 11000)) throw err;
    }
  }

  return {
    /** The config's rows become exactly `items` (one row per address, the last wins). */
    async replace(orgId: string, repositoryConfigId: string, scanId: string, items: InventoryItem[], now: Date) {
      const wanted = new Map(items.map((i) => [i.address, i]));
      const stored = await col.find({ orgId, repositoryConfigId }).toArray();
      const keep: string[] = [];
      const drop: string[] = [];
      for (const row of stored) {
        const item = wanted.get(row.address);
        if (item && same(row, item)) { keep.push(row._id); wanted.delete(row.address); } else drop.push(row._id);
      }
      if (drop.length) await col.deleteMany({ orgId, _id: { $in: drop } });
      await insert([...wanted.values()].map((i) => ({
        _id: newId(), orgId, repositoryConfigId, address: i.address, type: i.type, resourceId: i.resourceId,
        region: i.region, account: i.account, scanId, seenAt: now,
      })));
      return { inserted: wanted.size, removed: drop.length, kept: keep.length };
    },
    /** Rows whose resource id is one of `ids`. */
    byResourceIds: (orgId: string, ids: string[]) =>
      col.find({ orgId, resourceId: { $in: ids } }, { projection: { repositoryConfigId: 1, address: 1, type: 1, region: 1, resourceId: 1 } }).toArray(),
    /** Every resource id the organization's states manage, streamed (one cursor). */
    ids: (orgId: string) => col.find({ orgId }, { projection: { _id: 0, resourceId: 1 } }),
    ofConfig: (orgId: string, repositoryConfigId: string) => col.find({ orgId, repositoryConfigId }).sort({ address: 1 }).toArray(),
    removeByConfig: (orgId: string, repositoryConfigId: string) => col.deleteMany({ orgId, repositoryConfigId }),
    async removeOrg(orgId: string) {
      await col.deleteMany({ orgId });
    },
  };
}
export type ManagedStore = ReturnType<typeof createManagedStore>;
