// The lease sweep (lease.ts): a scan leased but not started within LEASE_MS, or running in a
// built-in executor that stopped renewing its lease (its process died), goes back to pending and
// to the executor's queue again. Scans held by runners are the runners plugin's: a runner's lease
// lives as long as it heart-beats, and its offline sweep hands them back (execution.handBack).
// And a label change re-routes the config's waiting scans (reroute).
import type { AppContext } from '../../core/context.ts';
import type { RepoConfig } from '../repo-configs/types.ts';
import { executorHolder, LEASE_MS } from './lease.ts';
import type { Execution } from './execution.ts';
import { isForRunners } from './scan-job.ts';
import type { Scan, ScanStore } from './store.ts';
import { EXECUTE_JOB } from './triggers.ts';

export const LEASE_SWEEP_JOB = 'scans.sweep-leases';
/** Scans read per page by the sweep (keyset pages, across organizations). */
const PAGE = 500;

/**
 * Whether the lease has lapsed: taken and not started, or the executor's not renewed, for
 * LEASE_MS. `beat`: the holder's last renewal of this generation (store.ts SCAN_LEASE_BEATS).
 */
function lapsed(scan: Pick<Scan, 'status' | 'lease'>, now: number, beat?: { gen: number; at: Date }): boolean {
  const lease = scan.lease;
  if (!lease?.holder) return false;
  const lastSign = beat && beat.gen === lease.gen && beat.at > lease.at ? beat.at : lease.at;
  if (now - lastSign.getTime() < LEASE_MS) return false;
  return scan.status === 'pending' || lease.holder === executorHolder;
}

export function createSweep(ctx: AppContext, scans: ScanStore, execution: Pick<Execution, 'handBack'>) {
  return {
    /** Hands back every lapsed lease; answers how many scans went back to pending. */
    async sweepLeases(now = new Date()): Promise<number> {
      let back = 0;
      for (const status of ['pending', 'running'] as const) {
        let after: Scan | null = null;
        for (;;) {
          const page: Scan[] = await scans.withStatusAfter(status, after, PAGE);
          if (!page.length) break;
          after = page[page.length - 1];
          const candidates = page.filter((s) => lapsed(s, now.getTime()));
          const beats = await scans.beatsOf(candidates.map((s) => s._id));
          for (const scan of candidates.filter((s) => lapsed(s, now.getTime(), beats.get(s._id)))) {
            if (await execution.handBack(scan.orgId, scan._id, scan.lease!.gen)) back++;
          }
        }
      }
      if (back) ctx.log.warn({ scans: back }, 'scans whose holder stopped showing life went back to pending');
      return back;
    },

    /**
     * A config's runnerLabels changed: its waiting scans are offered to whoever takes them now.
     * Runners read labels at each poll; the built-in executor only looks when its job runs, so
     * a scan whose config no longer names labels gets its job again.
     */
    async reroute(before: RepoConfig, after: RepoConfig) {
      if (JSON.stringify(before.runnerLabels ?? []) === JSON.stringify(after.runnerLabels ?? []) || isForRunners(after)) return 0;
      let n = 0;
      let last: Scan | null = null;
      for (;;) {
        const page: Scan[] = await scans.pendingAfter(after.orgId, last, PAGE, after._id);
        if (!page.length) return n;
        last = page[page.length - 1];
        for (const s of page) {
          await ctx.scheduler.now(EXECUTE_JOB, { orgId: s.orgId, scanId: s._id });
          n++;
        }
      }
    },
  };
}
