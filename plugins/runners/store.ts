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
    col,
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
    /** Online or busy runners not heard from since `cutoff`. */
    stale: (cutoff: Date) => col.find({ status: { $in: ['online', 'busy'] }, lastHeartbeat: { $lt: cutoff } }, { projection: { _id: 1, orgId: 1, name: 1, tokenHash: 1 } }).toArray(),
    markOffline: (ids: string[]) => col.updateMany({ _id: { $in: ids } }, { $set: { status: 'offline' } }),
  };
}
export type RunnerStore = ReturnType<typeof createRunnerStore>;
