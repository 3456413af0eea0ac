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
    taken: (orgId, scanIds) => jobs.taken(orgId, scanIds),
    hold: (orgId, runnerId, scanId) => jobs.insert({ _id: scanId, orgId, runnerId, state: 'running', claimedAt: new Date(), finishedAt: null }),
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
      const job = await execution.redeliver(runner.orgId, held._id);
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

  /** The agent's report; idempotent. Only the runner holding the job may report on it (else 404). */
  async function report(runner: Runner, body: JobStatusBody) {
    const job = await jobs.get(runner.orgId, body.jobId);
    if (!job || job.runnerId !== runner._id) throw notFound('Job');
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
      outcome = await execution.recordChecked(runner.orgId, job._id, { status: 'running' });
    } else if (body.status === 'completed') {
      outcome = await execution.recordChecked(runner.orgId, job._id, {
        status: 'completed', drifts: body.result!.drifts as DetectedDrift[], ...(body.result!.inventory ? { inventory: body.result!.inventory } : {}),
        // What the runner's engine did not compare; a runner older than it sends none (stats then null).
        ...withStats(scanStatsOf(body.result!.resourcesScanned, body.result!.stats)),
      });
    } else {
      const error = (body.error?.trim() || 'The runner reported a failure without a message').slice(0, 2000);
      outcome = await execution.recordChecked(runner.orgId, job._id, { status: 'failed', error });
    }
    return { jobId: job._id, status: outcome.scan.status, changed: outcome.changed };
  }

  /** The scans held by runners that went offline (or were deleted) fail, saying which runner; a deleted runner's job records are removed. */
  async function failHeld(gone: Pick<Runner, '_id' | 'orgId' | 'name'>[], why: 'went offline' | 'was deleted') {
    if (!gone.length) return 0;
    const names = new Map(gone.map((r) => [r._id, r.name]));
    let count = 0;
    for (const [orgId, runnerIds] of groupBy(gone.map((r) => ({ orgId: r.orgId, _id: r._id })))) {
      const held = await jobs.held(orgId, runnerIds);
      count += held.length;
      for (const job of held) {
        const error = `Runner ${names.get(job.runnerId)} ${why} while running the scan; trigger the scan again`;
        await execution.record(orgId, job._id, { status: 'failed', error }).catch((err: Error) => {
          if ((err as { statusCode?: number }).statusCode !== 404) throw err; // a deleted scan has nothing to fail
        });
      }
      if (held.length) await jobs.finish(orgId, held.map((j) => j._id), 'lost');
      // A deleted runner's job records go with it (its scans are final now, nothing reads them).
      if (why === 'was deleted') for (const id of runnerIds) await jobs.removeRunner(orgId, id);
    }
    return count;
  }

  return { claim, report, failHeld };
}

function groupBy(rows: { orgId: string; _id: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const j of rows) out.set(j.orgId, [...(out.get(j.orgId) ?? []), j._id]);
  return out;
}
export type JobService = ReturnType<typeof createJobService>;
