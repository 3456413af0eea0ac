// The admin scheduler routes: the state of the scheduled scans (each cron config's due minute,
// swept by the scans plugin's due scan), running every due scheduled scan now, and repairing the
// schedules (a config with a cron and no due minute; Agenda jobs of the old kind). A scheduled scan is the scans plugin's runScheduled: one per
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
      const [next, pendingScans, scheduledRepos] = await Promise.all([
        configs.platform.firstDue(),
        scans.platform.countWithStatus('pending'),
        configs.platform.countScheduled(),
      ]);
      return { running: ctx.scheduler.running(), nextRun: next === null ? null : new Date(next * 60_000).toISOString(), pendingScans, scheduledRepos };
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

    /**
     * Gives every scheduled config without a due minute one; removes the Agenda jobs of the old
     * kind (one per config before the due scan): of no scheduled config (`no-schedule`), or of one
     * the due minute schedules already (`duplicate`).
     */
    async fix() {
      const [scheduled, jobs] = await Promise.all([configs.platform.scheduled(MAX_SCHEDULED), ctx.scheduler.jobsNamed(SCHEDULED_SCAN_JOB, MAX_SCHEDULED)]);
      const byConfig = new Map(scheduled.map((c) => [c._id, c]));
      const removed = jobs.map((j) => {
        const id = typeof j.data.repoConfigId === 'string' ? j.data.repoConfigId : null;
        return { jobId: j.id, repositoryConfig: id, reason: id && byConfig.has(id) ? 'duplicate' as const : 'no-schedule' as const };
      });
      await ctx.scheduler.removeJobs(removed.map((r) => r.jobId));
      const created: { repositoryConfig: string; orgId: string; scheduleCron: string }[] = [];
      for (const c of scheduled) {
        if (typeof c.dueMinute === 'number' || !c.scheduleCron) continue;
        await configs.platform.reschedule(c._id, c.scheduleCron);
        created.push({ repositoryConfig: c._id, orgId: c.orgId, scheduleCron: c.scheduleCron });
      }
      return { created, removed };
    },
  };
}
