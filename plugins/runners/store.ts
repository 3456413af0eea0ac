// The only file that touches `runners`; declares its indexes.
import type { CollectionSpec, Database, Changes } from '../../core/db.ts';

export const RUNNER_STATUSES = ['online', 'busy', 'offline'] as const;
export type RunnerStatus = (typeof RUNNER_STATUSES)[number];

export interface Runner {
  _id: string;
  orgId: string;
  name: string;
  labels: string[];
  status: RunnerStatus;
  version: string | null;
  lastHeartbeat: Date | null;
  jobsCompleted: number;
  systemInfo: Record<string, unknown> | null;
  /** The plan binary the latest heartbeat named; null: none; absent on runners that never said. */
  providerPlans?: { binary: 'terraform' | 'tofu'; version: string } | null;
  /** SHA-256 of the `rn_` token; the token itself is shown once. */
  tokenHash: string;
  tokenPrefix: string;
  /**
   * The token sealed (AES-256-GCM, bound to this runner), for GET /:runnerId/setup-info only:
   * the spec's setup data includes the token. Authentication uses the hash. Absent on runners
   * created before setup data was kept (their setup-info says to regenerate).
   */
  tokenSealed?: string;
  createdAt: Date;
  createdBy: string | null;
}

export const RUNNERS: CollectionSpec = {
  name: 'runners', owner: 'plugins/runners',
  indexes: [
    { key: { tokenHash: 1 }, unique: true },
    { key: { orgId: 1, createdAt: 1 } },
    { key: { status: 1, lastHeartbeat: 1 } },
  ],
};

export function createRunnerStore(db: Database) {
  const col = db.collection<Runner>(RUNNERS);
  return {
    insert: (runner: Runner) => col.insertOne(runner),
    list: (orgId: string, skip: number, limit: number) => col.find({ orgId }).sort({ createdAt: 1 }).skip(skip).limit(limit).toArray(),
    count: (orgId: string) => col.countDocuments({ orgId }),
    get: (orgId: string, id: string) => col.findOne({ _id: id, orgId }),
    byTokenHash: (tokenHash: string) => col.findOne({ tokenHash }),
    async update(orgId: string, id: string, set: Changes<Runner>) {
      return col.findOneAndUpdate({ _id: id, orgId }, { $set: set }, { returnDocument: 'after' });
    },
    remove: (orgId: string, id: string) => col.findOneAndDelete({ _id: id, orgId }),
    removeOrg: (orgId: string) => col.deleteMany({ orgId }),
    /** Runners in these states, every organization (admin dashboard, metrics). */
    countWithStatus: (statuses: Runner['status'][]) => col.countDocuments({ status: statuses.length === 1 ? statuses[0] : { $in: statuses } }),
    /** Online or busy runners not heard from since `cutoff`. */
    stale: (cutoff: Date) => col.find({ status: { $in: ['online', 'busy'] }, lastHeartbeat: { $lt: cutoff } }, { projection: { _id: 1, orgId: 1, name: 1, tokenHash: 1 } }).toArray(),
    /** Runners of one organization gone silent (the offline sweep). */
    markOffline: (orgId: string, ids: string[]) => col.updateMany({ _id: { $in: ids }, orgId }, { $set: { status: 'offline' } }),
    /** A heartbeat that changed something (status, version, or the throttle window passed). */
    async recordHeartbeat(orgId: string, id: string, set: Pick<Runner, 'status' | 'lastHeartbeat'> & Partial<Pick<Runner, 'version' | 'systemInfo' | 'providerPlans'>>) {
      await col.updateOne({ _id: id, orgId }, { $set: set });
    },
    /** The runner took a job: busy, and a sign of life (without lastHeartbeat the offline sweep would never see it). */
    async markBusy(orgId: string, id: string, at: Date) {
      await col.updateOne({ _id: id, orgId }, { $set: { status: 'busy', lastHeartbeat: at } });
    },
    /** The runner finished a job: its count (recomputed from the job records), online again. */
    async recordJobDone(orgId: string, id: string, jobsCompleted: number, at: Date) {
      await col.updateOne({ _id: id, orgId }, { $set: { jobsCompleted, status: 'online', lastHeartbeat: at } });
    },
  };
}
export type RunnerStore = ReturnType<typeof createRunnerStore>;
