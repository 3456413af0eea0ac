// The admin routes' domain: platform statistics, the user list, health with the background
// workers, and (scheduler.ts, usage.ts) the scheduler and usage analytics. Platform-wide reads
// go through each owning plugin's service; no other plugin's collection is touched here.
import type { AppContext } from '../../core/context.ts';
import { healthReport } from '../../core/health.ts';
import { pageCount } from '../../core/schemas.ts';
import type { AuthService } from '../auth/service.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import type { ScanService } from '../scans/service.ts';
import type { DriftService } from '../drifts/service.ts';
import type { RunnerService } from '../runners/service.ts';
import type { Usage } from './usage.ts';
import type { UsersQuery } from './schemas.ts';

/** The dashboard's activeUsers window (docs/admin.md). */
export const ACTIVE_DAYS = 30;

interface Deps { auth: AuthService; configs: RepoConfigService; scans: ScanService; drifts: DriftService; runners: RunnerService; usage: Usage }

export function createAdminService(ctx: AppContext, d: Deps) {
  return {
    async dashboard() {
      const [totalUsers, activeUsers, totalScans, totalDrifts, totalRepositories, activeRunners] = await Promise.all([
        d.auth.adminUsers.count(), d.usage.activeUsers(ACTIVE_DAYS), d.scans.platform.count(), d.drifts.countAll(),
        d.configs.platform.count(), d.runners.countActive(),
      ]);
      return { totalUsers, activeUsers, totalScans, totalDrifts, totalRepositories, activeRunners };
    },

    /** One page of users with their counts: three commands for the page, whatever its size. */
    async users(q: UsersQuery) {
      const { rows, total } = await d.auth.adminUsers.page(q.search, (q.page - 1) * q.limit, q.limit);
      const memberships = await ctx.tenancy.membershipsOfUsers(rows.map((u) => u._id));
      const orgIds = [...new Set(memberships.map((m) => m.orgId))];
      const [configs, scans] = await Promise.all([d.configs.platform.countPerOrg(orgIds), d.scans.platform.countPerOrg(orgIds)]);
      const sum = (userId: string, counts: Map<string, number>) =>
        memberships.filter((m) => m.userId === userId).reduce((n, m) => n + (counts.get(m.orgId) ?? 0), 0);
      return {
        success: true as const,
        data: rows.map((u) => ({
          _id: u._id, email: u.email, name: u.name ?? null, role: u.role, createdAt: u.createdAt, lastLoginAt: u.lastLoginAt ?? null,
          repoConfigCount: sum(u._id, configs), scanCount: sum(u._id, scans),
        })),
        pagination: { page: q.page, limit: q.limit, total, pages: pageCount(total, q.limit) },
      };
    },

    async health() {
      const [{ body }, jobs] = await Promise.all([healthReport(ctx.db, ctx.redis), ctx.scheduler.states().catch(() => [])]);
      return {
        status: body.status as 'ok' | 'degraded',
        database: { status: body.database.status, latency: body.database.latency },
        redis: { status: body.redis.status, latency: body.redis.latency },
        uptime: body.uptime,
        workers: { scheduler: ctx.scheduler.running() ? 'running' as const : 'stopped' as const, jobs },
      };
    },
  };
}
