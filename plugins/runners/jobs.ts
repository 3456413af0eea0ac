// Scan jobs for self-hosted runners: claiming (POST /jobs), status reports (POST
// /jobs/status), and failing the jobs of runners that went away.
//
// Exactly once (DESIGN.md): findOneAndUpdate is not atomic on the embedded database, so a
// claim is ctx.once.claim(`runner-claim:<scanId>`), an insert keyed by a unique index. Of any
// number of runners polling at once, one wins a scan; the winner then writes runner_jobs and
// moves the scan to running. A poll reads the organization's configs once (few: plan limits),
// the oldest pending scans of those whose labels this runner carries (index {orgId,
// repositoryConfig, status, createdAt}), and which of them are already held.
import type { AppContext } from '../../core/context.ts';
import { badRequest, notFound } from '../../core/errors.ts';
import { createRepoConfigStore } from '../repo-configs/store.ts';
import { createScanStore, type Scan } from '../scans/store.ts';
import type { ScanResults } from '../scans/record.ts';
import { labelsMatch, scanInputOrFail, toReportedDrifts, type ScanJobInput } from '../executor/scan-job.ts';
import type { DetectedDrift } from '../../runner-agent/src/engine/index.ts';
import type { Runner, RunnerStore } from './store.ts';
import type { JobStore } from './jobs-store.ts';
import type { JobStatusBody } from './schemas.ts';

/** Pending scans one poll looks at, oldest first: enough to get past those other runners are claiming. */
const CANDIDATES = 200;

export function createJobService(ctx: AppContext, runners: RunnerStore, jobs: JobStore, invalidate: (runner: Runner) => Promise<void>) {
  const scans = createScanStore(ctx.db);
  const configs = createRepoConfigStore(ctx.db);
  const endpoint = ctx.config.DRIFT_CLOUD_A_ENDPOINT;
  const results = () => {
    const r = ctx.services.scanResults as ScanResults | undefined;
    if (!r) throw new Error('runners: the scans plugin (ctx.services.scanResults) is not enabled');
    return r;
  };

  /** Claim order: the oldest first (fairness), then the rest at random so concurrent pollers spread out. */
  function order(list: Scan[]): Scan[] {
    const [first, ...rest] = list;
    for (let i = rest.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [rest[i], rest[j]] = [rest[j], rest[i]];
    }
    return first ? [first, ...rest] : [];
  }

  const jobOf = (scan: Scan, input: ScanJobInput) => ({
    _id: scan._id, type: 'scan' as const, repositoryConfig: scan.repositoryConfig, repositoryName: scan.repositoryName, branch: scan.branch, scan: input,
  });

  /**
   * An agent polls only when it runs nothing and has delivered every report, so a job it still
   * holds here is one whose claim answer never reached it (a dropped connection, a restarted
   * service): the same job is handed out again rather than left running until the timeout.
   */
  async function redeliver(runner: Runner) {
    for (const held of await jobs.held([runner._id])) {
      const scan = await scans.get(runner.orgId, held._id);
      const config = scan?.status === 'running' ? await configs.get(runner.orgId, scan.repositoryConfig) : null;
      if (scan && config) {
        const input = await scanInputOrFail(ctx, results(), config, scan._id, endpoint);
        if (input) return jobOf(scan, input);
      }
      await jobs.finish(runner.orgId, [held._id], 'lost');
    }
    return null;
  }

  async function claim(runner: Runner) {
    const again = await redeliver(runner);
    if (again) return again;
    const byId = new Map((await configs.list(runner.orgId)).filter((c) => labelsMatch(c, runner.labels)).map((c) => [c._id, c]));
    if (!byId.size) return null;
    const eligible = await scans.oldest(runner.orgId, { status: 'pending', repositoryConfig: [...byId.keys()] }, CANDIDATES);
    if (!eligible.length) return null;
    const taken = await jobs.taken(eligible.map((s) => s._id));

    for (const scan of order(eligible.filter((s) => !taken.has(s._id)))) {
      if (!(await ctx.once.claim(`runner-claim:${scan._id}`, runner.orgId))) continue;
      await jobs.insert({ _id: scan._id, orgId: runner.orgId, runnerId: runner._id, state: 'running', claimedAt: new Date(), finishedAt: null });
      const config = byId.get(scan.repositoryConfig)!;
      const input = await scanInputOrFail(ctx, results(), config, scan._id, endpoint);
      if (!input) {
        // Nothing a runner could do with it: the scan failed here, and the poll goes on.
        await jobs.finish(runner.orgId, [scan._id], 'lost');
        continue;
      }
      const started = await results().recordScanResult(runner.orgId, scan._id, { status: 'running' });
      if (started.scan.status !== 'running') {
        await jobs.finish(runner.orgId, [scan._id], 'lost'); // cancelled or timed out since the read
        continue;
      }
      // A claim is a sign of life too: without lastHeartbeat the offline sweep would never see this runner.
      await runners.col.updateOne({ _id: runner._id }, { $set: { status: 'busy', lastHeartbeat: new Date() } });
      await invalidate(runner);
      return jobOf(scan, input);
    }
    return null;
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
      const done = await jobs.countDone(runner._id);
      await runners.col.updateOne({ _id: runner._id }, { $set: { jobsCompleted: done, status: 'online', lastHeartbeat: new Date() } });
      await invalidate(runner);
    }
    const r = results();
    let outcome;
    if (body.status === 'running') {
      outcome = await r.recordScanResult(runner.orgId, job._id, { status: 'running' });
    } else if (body.status === 'completed') {
      const drifts = body.result!.drifts as DetectedDrift[];
      outcome = await r.recordScanResult(runner.orgId, job._id, { status: 'completed', drifts: toReportedDrifts(drifts) });
    } else {
      const error = (body.error?.trim() || 'The runner reported a failure without a message').slice(0, 2000);
      outcome = await r.recordScanResult(runner.orgId, job._id, { status: 'failed', error });
    }
    return { jobId: job._id, status: outcome.scan.status, changed: outcome.changed };
  }

  /** The scans held by runners that went offline (or were deleted) fail, saying which runner; a deleted runner's job records are removed. */
  async function failHeld(gone: Pick<Runner, '_id' | 'name'>[], why: 'went offline' | 'was deleted') {
    if (!gone.length) return 0;
    const held = await jobs.held(gone.map((r) => r._id));
    const names = new Map(gone.map((r) => [r._id, r.name]));
    for (const job of held) {
      const error = `Runner ${names.get(job.runnerId)} ${why} while running the scan; trigger the scan again`;
      await results().recordScanResult(job.orgId, job._id, { status: 'failed', error }).catch((err: Error) => {
        if ((err as { statusCode?: number }).statusCode !== 404) throw err; // a deleted scan has nothing to fail
      });
    }
    for (const [orgId, ids] of groupBy(held)) await jobs.finish(orgId, ids, 'lost');
    // A deleted runner's job records go with it (its scans are final now, nothing reads them).
    if (why === 'was deleted') for (const r of gone) await jobs.removeRunner(r._id);
    return held.length;
  }

  return { claim, report, failHeld };
}

function groupBy(held: { orgId: string; _id: string }[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const j of held) out.set(j.orgId, [...(out.get(j.orgId) ?? []), j._id]);
  return out;
}
export type JobService = ReturnType<typeof createJobService>;
