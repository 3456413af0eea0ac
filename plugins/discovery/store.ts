// The only file touching Cloud Discovery's collections: discovery scans and the resources they
// found. (Cloud accounts are the stored credentials: the credentials and projects plugins count
// the cloudAccounts plan limit when they are saved.)
//
// One scan of an account at a time: a running scan holds `activeKey` = orgId:cloudAccountId
// under a unique index, so a second insert fails (409) whatever the timing; a final scan's
// activeKey is its own id.
//
// Recording a scan's resources costs a fixed number of commands whatever their number: one read
// of the account's records, one deleteMany + one insertMany for new and changed records (a
// changed record keeps its _id), one updateMany for the unchanged, one for those gone.
import { newId } from '../../core/crypto.ts';
import type { CollectionSpec, Database, Changes } from '../../core/db.ts';

export const SCAN_STATUSES = ['running', 'completed', 'failed'] as const;
export type DiscoveryStatus = (typeof SCAN_STATUSES)[number];
export const IAC_STATUSES = ['managed', 'orphan', 'ignored'] as const;
export type IacStatus = (typeof IAC_STATUSES)[number];

export interface DiscoveryScan {
  _id: string;
  orgId: string;
  cloudAccountId: string;
  accountName: string;
  regions: string[];
  resourceTypes: string[];
  status: DiscoveryStatus;
  activeKey: string;
  resourcesFound: number;
  orphansFound: number;
  /** Seconds. */
  duration: number | null;
  progress: { regionsDone: number; regionsTotal: number };
  sdkCalls: number | null;
  error: string | null;
  triggeredBy: string | null;
  startedAt: Date;
  completedAt: Date | null;
}

export interface DiscoveredResource {
  _id: string;
  orgId: string;
  cloudAccountId: string;
  resourceType: string;
  service: string;
  /** The cloud's id as the type's reader and `terraform import` take it. */
  resourceId: string;
  region: string;
  attributes: Record<string, unknown>;
  /** managed | orphan from the states, or ignored (userIgnored). */
  iacStatus: IacStatus;
  userIgnored: boolean;
  /** Filled when answered (scans.managedBy), stored empty. */
  managedBy: { repositoryConfigId: string; address: string }[];
  estimatedMonthlyCost: number;
  /** Gone from the cloud at the last scan that looked for it. */
  missing: boolean;
  firstSeenAt: Date;
  lastSeenAt: Date;
  lastScanId: string;
  validation: { valid: boolean | null; message: string | null; lastValidated: Date } | null;
}


export const DISCOVERY_SCANS: CollectionSpec = {
  name: 'discovery_scans', owner: 'plugins/discovery',
  indexes: [
    { key: { activeKey: 1 }, unique: true },
    { key: { orgId: 1, startedAt: -1, _id: -1 } },
    { key: { orgId: 1, status: 1, startedAt: -1, _id: -1 } },
    { key: { orgId: 1, cloudAccountId: 1, startedAt: -1, _id: -1 } },
    { key: { orgId: 1, cloudAccountId: 1, status: 1, startedAt: -1, _id: -1 } },
  ],
};
export const DISCOVERED_RESOURCES: CollectionSpec = {
  name: 'discovered_resources', owner: 'plugins/discovery',
  indexes: [
    { key: { orgId: 1, cloudAccountId: 1, resourceType: 1, resourceId: 1 }, unique: true },
    { key: { orgId: 1, missing: 1 } },
    { key: { orgId: 1, cloudAccountId: 1, missing: 1 } },
    { key: { orgId: 1, resourceType: 1, missing: 1 } },
  ],
};

const NEWEST = { startedAt: -1, _id: -1 } as const;
export const activeKeyOf = (orgId: string, cloudAccountId: string) => `${orgId}:${cloudAccountId}`;
const isDuplicate = (err: unknown) => (err as { code?: number }).code === 11000;

export interface ScanFilter { status?: DiscoveryStatus; cloudAccountId?: string }
export interface Found { resourceType: string; service: string; resourceId: string; region: string; attributes: Record<string, unknown>; estimatedMonthlyCost: number }

export function createDiscoveryStore(db: Database) {
  const scans = db.collection<DiscoveryScan>(DISCOVERY_SCANS);
  const resources = db.collection<DiscoveredResource>(DISCOVERED_RESOURCES);
  const scanFilter = (orgId: string, f: ScanFilter) => ({ orgId, ...(f.cloudAccountId ? { cloudAccountId: f.cloudAccountId } : {}), ...(f.status ? { status: f.status } : {}) });
  const live = (orgId: string, cloudAccountId?: string) => ({ orgId, ...(cloudAccountId ? { cloudAccountId } : {}), missing: false });

  return {
    /** False when a scan of the account is running (the unique activeKey). */
    async insertScan(scan: DiscoveryScan): Promise<boolean> {
      try { await scans.insertOne(scan); return true; } catch (err) { if (isDuplicate(err)) return false; throw err; }
    },
    getScan: (orgId: string, id: string) => scans.findOne({ _id: id, orgId }),
    runningScan: (orgId: string, cloudAccountId: string) => scans.findOne({ activeKey: activeKeyOf(orgId, cloudAccountId) }),
    async updateScan(orgId: string, id: string, set: Changes<DiscoveryScan>) {
      await scans.updateOne({ _id: id, orgId }, { $set: set });
    },
    /** Moves a running scan to its final state (once: the filter names the running state). */
    async finishScan(orgId: string, id: string, set: Changes<DiscoveryScan>): Promise<boolean> {
      const r = await scans.updateOne({ _id: id, orgId, status: 'running' }, { $set: { ...set, activeKey: id } });
      return r.modifiedCount > 0;
    },
    async pageScans(orgId: string, f: ScanFilter, skip: number, limit: number) {
      const filter = scanFilter(orgId, f);
      const [rows, total] = await Promise.all([scans.find(filter).sort(NEWEST).skip(skip).limit(limit).toArray(), scans.countDocuments(filter)]);
      return { rows, total };
    },

    getResource: (orgId: string, id: string) => resources.findOne({ _id: id, orgId }),
    async updateResource(orgId: string, id: string, set: Changes<DiscoveredResource>) {
      await resources.updateOne({ _id: id, orgId }, { $set: set });
    },
    /** The account's records, as one scan compares them with what it found. */
    accountResources: (orgId: string, cloudAccountId: string) =>
      resources.find({ orgId, cloudAccountId }, { projection: { _id: 1, resourceType: 1, resourceId: 1, attributes: 1, region: 1, estimatedMonthlyCost: 1, missing: 1, firstSeenAt: 1, userIgnored: 1, validation: 1 } }).toArray(),
    /** Records the scan found (new or changed), the unchanged ones touched, those not found marked missing; `types`: the types the scan listed. */
    async recordFound(orgId: string, cloudAccountId: string, scanId: string, found: Found[], types: string[], regions: string[], now: Date) {
      const stored = await resources.find({ orgId, cloudAccountId }, { projection: { attributes: 1, resourceType: 1, resourceId: 1, region: 1, estimatedMonthlyCost: 1, missing: 1, firstSeenAt: 1, userIgnored: 1, validation: 1 } }).toArray();
      const byKey = new Map(stored.map((r) => [`${r.resourceType}|${r.resourceId}`, r]));
      const fresh: DiscoveredResource[] = [];
      const same: string[] = [];
      const seen = new Set<string>();
      for (const f of found) {
        const key = `${f.resourceType}|${f.resourceId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const old = byKey.get(key);
        if (old && !old.missing && old.region === f.region && old.estimatedMonthlyCost === f.estimatedMonthlyCost && JSON.stringify(old.attributes) === JSON.stringify(f.attributes)) {
          same.push(old._id);
          continue;
        }
        fresh.push({
          _id: old?._id ?? newId(), orgId, cloudAccountId, resourceType: f.resourceType, service: f.service, resourceId: f.resourceId, region: f.region,
          attributes: f.attributes, iacStatus: 'orphan', userIgnored: old?.userIgnored ?? false, managedBy: [], estimatedMonthlyCost: f.estimatedMonthlyCost,
          missing: false, firstSeenAt: old?.firstSeenAt ?? now, lastSeenAt: now, lastScanId: scanId,
          // A changed resource's earlier validation no longer holds.
          validation: null,
        });
      }
      const rewrite = fresh.filter((r) => byKey.has(`${r.resourceType}|${r.resourceId}`)).map((r) => r._id);
      if (rewrite.length) await resources.deleteMany({ orgId, _id: { $in: rewrite } });
      if (fresh.length) {
        try { await resources.insertMany(fresh, { ordered: false }); } catch (err) {
          const list = (err as { writeErrors?: unknown }).writeErrors;
          const errors = (Array.isArray(list) ? list : list ? [list] : []) as { code?: number; err?: { code?: number } }[];
          if (!errors.length || errors.some((e) => (e.code ?? e.err?.code) !== 11000)) throw err;
        }
      }
      if (same.length) await resources.updateMany({ orgId, _id: { $in: same } }, { $set: { lastSeenAt: now, lastScanId: scanId } });
      // Not found where this scan looked (its types and regions; global types live in us-east-1).
      const gone = stored.filter((r) => !r.missing && !seen.has(`${r.resourceType}|${r.resourceId}`) && types.includes(r.resourceType) && (regions.includes('*') || regions.includes(r.region) || r.region === 'us-east-1' || GLOBAL_TYPES.has(r.resourceType)))
        .map((r) => r._id);
      if (gone.length) await resources.updateMany({ orgId, _id: { $in: gone } }, { $set: { missing: true, lastScanId: scanId } });
      return { written: fresh.length, unchanged: same.length, missing: gone.length };
    },
    /** Every live record's id and resource id, to classify them. */
    classifyRows: (orgId: string) => resources.find(live(orgId), { projection: { _id: 1, resourceId: 1, userIgnored: 1, iacStatus: 1 } }).toArray(),
    async setStatus(orgId: string, ids: string[], iacStatus: IacStatus) {
      if (ids.length) await resources.updateMany({ orgId, _id: { $in: ids } }, { $set: { iacStatus } });
    },
    /** Live records for the dashboard and costs (no attributes). */
    summaryRows: (orgId: string, cloudAccountId?: string) =>
      resources.find(live(orgId, cloudAccountId), { projection: { _id: 0, service: 1, region: 1, iacStatus: 1, estimatedMonthlyCost: 1 } }).toArray(),
    liveOfType: (orgId: string, resourceType: string) => resources.find({ orgId, resourceType, missing: false }).toArray(),
    /** The live records of the account whose resource id is among `ids` (references in generated HCL). */
    byResourceIds: (orgId: string, cloudAccountId: string, ids: string[]) =>
      resources.find({ orgId, cloudAccountId, resourceType: { $in: [...REFERENCE_TYPES] }, resourceId: { $in: ids } }, { projection: { resourceType: 1, resourceId: 1 } }).toArray(),

    async removeOrg(orgId: string) {
      await Promise.all([scans.deleteMany({ orgId }), resources.deleteMany({ orgId })]);
    },
  };
}
export type DiscoveryStore = ReturnType<typeof createDiscoveryStore>;
export const GLOBAL_TYPES = new Set(['aws_iam_role', 'aws_iam_policy', 'aws_iam_user', 'aws_s3_bucket']);
/** Types other resources refer to by id (written as references in generated HCL). */
export const REFERENCE_TYPES = new Set(['aws_vpc', 'aws_subnet', 'aws_security_group', 'aws_instance', 'aws_iam_role', 'aws_route_table', 'aws_internet_gateway',
  'aws_nat_gateway', 'aws_network_interface', 'aws_eip', 'aws_iam_user', 'aws_iam_policy', 'aws_kms_key', 'aws_ecs_cluster', 'aws_lb', 'aws_lb_target_group',
  'aws_route53_zone', 'aws_s3_bucket']);
