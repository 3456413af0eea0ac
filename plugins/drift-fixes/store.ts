// The only file that touches `drift_fixes`: the current fix of a drift (one per drift), its
// approval and its pull request. Unique (orgId, driftId).
import type { CollectionSpec, Database } from '../../core/db.ts';

export interface FixFile { path: string; content: string }
export interface DriftFix {
  _id: string;
  orgId: string;
  driftId: string;
  /** Hash of the drift's diff and commit the fix was computed for: an approval holds only for it. */
  diffHash: string;
  strategy: 'accept' | 'revert';
  fixCode: string;
  explanation: string;
  exact: string[];
  advice: { attribute: string; text: string }[];
  /** The files as the fix leaves them (the pull request commits these). */
  files: FixFile[];
  commit: string | null;
  repositoryName: string;
  generatedAt: Date;
  generatedBy: string | null;
  approvedBy: string | null;
  approvedAt: Date | null;
  pr: { prUrl: string; prNumber: number; branch: string } | null;
}

export const DRIFT_FIXES: CollectionSpec = { name: 'drift_fixes', owner: 'plugins/drift-fixes', indexes: [{ key: { orgId: 1, driftId: 1 }, unique: true }] };

export function createFixStore(db: Database) {
  const col = db.collection<DriftFix>(DRIFT_FIXES);
  return {
    get: (orgId: string, driftId: string) => col.findOne({ orgId, driftId }),
    /** The drift's fix replaced by a new one (approval and pull request go with the old one unless kept). */
    async put(fix: DriftFix) {
      const { _id, ...set } = fix;
      await col.updateOne({ orgId: fix.orgId, driftId: fix.driftId }, { $set: set, $setOnInsert: { _id } }, { upsert: true });
    },
    async approve(orgId: string, driftId: string, userId: string, at: Date) {
      await col.updateOne({ orgId, driftId }, { $set: { approvedBy: userId, approvedAt: at } });
    },
    async setPr(orgId: string, driftId: string, pr: NonNullable<DriftFix['pr']>) {
      await col.updateOne({ orgId, driftId }, { $set: { pr } });
    },
    removeOrg: async (orgId: string) => { await col.deleteMany({ orgId }); },
  };
}
export type FixStore = ReturnType<typeof createFixStore>;
