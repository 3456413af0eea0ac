// The admin scheduler routes: the state of the scheduled-scan jobs, running every due scheduled
// scan now, and repairing the jobs. A scheduled scan is the scans plugin's runScheduled: one per
// config and cron tick (an exactly-once key), under the organization's scans-per-day limit, so
// running it again, or alongside the job itself, never makes a second scan of the same tick.
import type { AppContext } from '../../core/context.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import { SCHEDULED_SCAN_JOB } from '../repo-configs/service.ts';
import type { ScanService } from '../scans/service.ts';

/** Most configs and jobs one call reads (a platform with more runs the route again after fixing). */
export const MAX_SCHEDULED = 10_000;

export function createAdminScheduler(ctx: AppContext, configs: RepoConfigService, scans: ScanService) {
  return {
    async status() {
      const [jobs, pendingScans, scheduledRepos] = await Promise.all([
        ctx.scheduler.jobsNamed(SCHEDULED_SCAN_JOB, MAX_SCHEDULED),
        scans.platform.countWithStatus('pending'),
        configs.platform.countScheduled(),
      ]);
      const next = jobs.map((j) => j.nextRunAt?.getTime()).filter((t): t is number => t !== undefined).sort((a, b) => a - b)[0];
      return { running: ctx.scheduler.running(), nextRun: next === undefined ? null : new Date(next).toISOString(), pendingScans, scheduledRepos };
    },

    /** Each config's current cron tick gets its scan now if it has none yet. */
    async runDue(now = new Date()) {
      const scheduled = await configs.platform.scheduled(MAX_SCHEDULED);
      const started: { scanId: string; repositoryConfig: string; orgId: string }[] = [];
      for (const c of scheduled) {
        const scan = await scans.runScheduled(c.orgId, c._id, now);
        if (scan) started.push({ scanId: scan._id, repositoryConfig: c._id, orgId: c.orgId });
      }
      return { checked: scheduled.length, started, skipped: scheduled.length - started.length };
    },

    /** Creates the job of every scheduled config without one; removes jobs of no scheduled config and duplicates. */
    async fix() {
      const [scheduled, jobs] = await Promise.all([configs.platform.scheduled(MAX_SCHEDULED), ctx.scheduler.jobsNamed(SCHEDULED_SCAN_JOB, MAX_SCHEDULED)]);
      const byConfig = new Map(scheduled.map((c) => [c._id, c]));
      const kept = new Set<string>();
      const removed: { jobId: string; repositoryConfig: string | null; reason: 'no-schedule' | 'duplicate' }[] = [];
      for (const j of jobs) {
        const id = typeof j.data.repoConfigId === 'string' ? j.data.repoConfigId : null;
        if (!id || !byConfig.has(id)) removed.push({ jobId: j.id, repositoryConfig: id, reason: 'no-schedule' });
        else if (kept.has(id)) removed.push({ jobId: j.id, repositoryConfig: id, reason: 'duplicate' });
        else kept.add(id);
      }
      await ctx.scheduler.removeJobs(removed.map((r) => r.jobId));
      const created: { repositoryConfig: string; orgId: string; scheduleCron: string }[] = [];
      for (const c of scheduled) {
        if (kept.has(c._id) || !c.scheduleCron) continue;
        await configs.platform.reschedule(c.orgId, c._id, c.scheduleCron);
        created.push({ repositoryConfig: c._id, orgId: c.orgId, scheduleCron: c.scheduleCron });
      }
      return { created, removed };
    },
  };
}
