// The only file that touches `runner_jobs`: which runner holds which scan. A record is
// written once the scan's lease (plugins/scans/lease.ts) is won, keyed by the scan id, so a
// scan has at most one holder: a scan handed back and claimed again replaces its old holder's
// record, whose reports then find no job of theirs (404). jobs/status and the offline sweep read it.
import type { CollectionSpec, Database } from '../../core/db.ts';

export const JOB_STATES = ['running', 'completed', 'failed', 'cancelled', 'lost'] as const;
export type JobState = (typeof JOB_STATES)[number];
/** States a runner still holds the scan in (the sweep fails them when it goes offline). */
export const HELD: readonly JobState[] = ['running'];

export interface RunnerJob {
  /** The scan id (the job's id as the agent sees it). */
  _id: string;
  orgId: string;
  runnerId: string;
  state: JobState;
  claimedAt: Date;
  finishedAt: Date | null;
  /** The scan's lease generation the runner holds it under (plugins/scans/lease.ts); its reports carry it. Absent on older records. */
  gen?: number;
}

export const RUNNER_JOBS: CollectionSpec = {
  name: 'runner_jobs', owner: 'plugins/runners',
  indexes: [
    // jobs held by runners (sweep), and a runner's finished jobs (jobsCompleted is recomputed from them)
    { key: { orgId: 1, runnerId: 1, state: 1 } },
    { key: { orgId: 1, claimedAt: 1 } },
  ],
};

export function createJobStore(db: Database) {
  const col = db.collection<RunnerJob>(RUNNER_JOBS);
  return {
    /** The runner now holds the scan: replaces the record of any earlier holder (the lease decided who holds it). */
    async hold(job: RunnerJob) { await col.replaceOne({ _id: job._id, orgId: job.orgId }, job, { upsert: true }); },
    get: (orgId: string, scanId: string) => col.findOne({ _id: scanId, orgId }),
    /** The scans these runners of the organization still hold. */
    held: (orgId: string, runnerIds: string[]) => col.find({ runnerId: { $in: runnerIds }, orgId, state: { $in: [...HELD] } }).toArray(),
    async finish(orgId: string, scanIds: string[], state: JobState) {
      await col.updateMany({ _id: { $in: scanIds }, orgId }, { $set: { state, finishedAt: new Date() } });
    },
    /** Undoes insert(): the step after the claim failed, and the claim was given back. */
    async remove(orgId: string, scanId: string) { await col.deleteOne({ _id: scanId, orgId }); },
    /** Jobs the runner saw to an end itself (completed or failed): the runner's jobsCompleted. */
    countDone: (orgId: string, runnerId: string) => col.countDocuments({ runnerId, orgId, state: { $in: ['completed', 'failed'] } }),
    removeOrg: (orgId: string) => col.deleteMany({ orgId }),
    removeRunner: (orgId: string, runnerId: string) => col.deleteMany({ runnerId, orgId }),
  };
}
export type JobStore = ReturnType<typeof createJobStore>;
