// Scan jobs for self-hosted runners: claiming (POST /jobs), status reports (POST
// /jobs/status), and failing the jobs of runners that went away. Claiming, the scan's input
// and recording the result are the scans plugin's execution module (one for the built-in
// executor and runners); this file keeps which runner holds which scan (runner_jobs).
import { badRequest, notFound } from '../../core/errors.ts';
import { scanStatsOf, type Execution, type RunnerHolds } from '../scans/execution.ts';
import type { DetectedDrift } from '../../runner-agent/src/engine/index.ts';
import type { Runner, RunnerStore } from './store.ts';
import type { JobStore } from './jobs-store.ts';
import type { JobStatusBody } from './schemas.ts';

const withStats = <T>(stats: T | undefined) => (stats ? { stats } : {});

export function createJobService(execution: Execution, runners: RunnerStore, jobs: JobStore, invalidate: (runner: Pick<Runner, 'tokenHash'>) => Promise<void>) {
  const holds: RunnerHolds = {
    hold: (orgId, runnerId, scanId, gen) => jobs.hold({ _id: scanId, orgId, runnerId, state: 'running', claimedAt: new Date(), finishedAt: null, gen }),
    lost: (orgId, scanId) => jobs.finish(orgId, [scanId], 'lost'),
    drop: (orgId, scanId) => jobs.remove(orgId, scanId),
  };

  /**
   * An agent polls only when it runs nothing and has delivered every report, so a job it still
   * holds here is one whose claim answer never reached it (a dropped connection, a restarted
   * service): the same job is handed out again rather than left running until the timeout.
   */
  async function redeliver(runner: Runner) {
    for (const held of await jobs.held(runner.orgId, [runner._id])) {
      const job = await execution.redeliver(runner.orgId, held._id, held.gen ?? 0);
      if (job) return job;
      await jobs.finish(runner.orgId, [held._id], 'lost');
    }
    return null;
  }

  async function claim(runner: Runner) {
    const again = await redeliver(runner);
    if (again) return again;
    const job = await execution.claimForRunner(runner, holds);
    if (!job) return null;
    await runners.markBusy(runner.orgId, runner._id, new Date());
    await invalidate(runner);
    return job;
  }

  /**
   * The jobs this runner holds that it should stop: cancelled, ended here, or handed to another
   * runner meanwhile. Asked on a busy runner's heartbeat (an idle one holds nothing it runs).
   */
  async function toStop(runner: Runner): Promise<string[]> {
    const stop: string[] = [];
    for (const held of await jobs.held(runner.orgId, [runner._id])) {
      if (!(await execution.renew(runner.orgId, held._id, held.gen ?? 0)).held) stop.push(held._id);
    }
    return stop;
  }

  /** The agent's report; idempotent. Only the runner holding the job may report on it (else 404). */
  async function report(runner: Runner, body: JobStatusBody) {
    const job = await jobs.get(runner.orgId, body.jobId);
    // A job handed back (its runner went silent, lease.ts) is no longer this runner's either.
    if (!job || job.runnerId !== runner._id || job.state === 'lost') throw notFound('Job');
    const gen = job.gen;
    // Without the list a completed scan would resolve every open drift of the config.
    if (body.status === 'completed' && !Array.isArray(body.result?.drifts)) throw badRequest('result.drifts is required with status completed ([] when nothing drifted)');
    if (body.status !== 'running' && job.state === 'running') {
      // Before the scan is recorded, so a reader who sees the scan finished sees it counted.
      await jobs.finish(runner.orgId, [job._id], body.status);
      // Recomputed from the records, never incremented: a repeated report cannot count twice.
      const done = await jobs.countDone(runner.orgId, runner._id);
      await runners.recordJobDone(runner.orgId, runner._id, done, new Date());
      await invalidate(runner);
    }
    // The route's schema (JobStatusBody) validated the report: recorded without a second check.
    let outcome;
    if (body.status === 'running') {
      outcome = await execution.recordChecked(runner.orgId, job._id, { status: 'running' }, gen);
    } else if (body.status === 'cancelled') {
      // The agent stopped the scan because it was told to (cancelled, or handed to another):
      // nothing to record unless the scan is somehow still this runner's, then it fails saying so.
      outcome = await execution.recordChecked(runner.orgId, job._id, { status: 'failed', error: 'The runner stopped the scan before it finished; trigger the scan again' }, gen)
        .catch(async (err: { statusCode?: number }) => {
          if (err.statusCode !== 409) throw err;
          return { scan: { status: 'running' as const }, changed: false };
        });
    } else if (body.status === 'completed') {
      outcome = await execution.recordChecked(runner.orgId, job._id, {
        status: 'completed', drifts: body.result!.drifts as DetectedDrift[], ...(body.result!.inventory ? { inventory: body.result!.inventory } : {}),
        // What the runner's engine did not compare; a runner older than it sends none (stats then null).
        ...withStats(scanStatsOf(body.result!.resourcesScanned, body.result!.stats)),
      }, gen);
    } else {
      const error = (body.error?.trim() || 'The runner reported a failure without a message').slice(0, 2000);
      outcome = await execution.recordChecked(runner.orgId, job._id, { status: 'failed', error }, gen);
    }
    return { jobId: job._id, status: outcome.scan.status, changed: outcome.changed };
  }

  /**
   * The scans held by runners that went offline (or were deleted) go back to pending, to be
   * claimed again (their leases end with the runner's heartbeats; a stale report of theirs later
   * finds no job, 404); a deleted runner's job records are removed.
   */
  async function failHeld(gone: Pick<Runner, '_id' | 'orgId' | 'name'>[], why: 'went offline' | 'was deleted') {
    if (!gone.length) return 0;
    let count = 0;
    for (const [orgId, runnerIds] of groupBy(gone.map((r) => ({ orgId: r.orgId, _id: r._id })))) {
      const held = await jobs.held(orgId, runnerIds);
      count += held.length;
      for (const job of held) {
        // Before the hand-back: from now on the runner's reports on it find no job of its own.
        await jobs.finish(orgId, [job._id], 'lost');
        await execution.handBack(orgId, job._id, job.gen ?? 0);
      }
      // A deleted runner's job records go with it (its scans went back to pending: nothing reads them).
      if (why === 'was deleted') for (const id of runnerIds) await jobs.removeRunner(orgId, id);
    }
    return count;
  }

  return { claim, report, failHeld, toStop };
}

function groupBy(rows: { orgId: string; _id: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const j of rows) out.set(j.orgId, [...(out.get(j.orgId) ?? []), j._id]);
  return out;
}
export type JobService = ReturnType<typeof createJobService>;
