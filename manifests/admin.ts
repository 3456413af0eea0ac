// Admin (SPEC "Admin"): B plus the platform admin role (`platformAdmin`: anyone else 403, no
// token 401; CLI tokens never carry the role). Platform-wide, no organization context. The two
// actions are audited under curated names to the platform trail, with what they changed.
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import {
  AnalyticsQuery, BehaviorAnalytics, Dashboard, Health, NavigationAnalytics, SchedulerFix, SchedulerRun, SchedulerStatus, UserPage, UsersQuery,
} from '../plugins/admin/schemas.ts';

const admin = { auth: 'bearer', platformAdmin: true } as const satisfies Partial<RouteSpec>;
const platformTrail = () => null;

export default defineManifest({
  plugin: 'admin',
  prefix: '/api/admin',
  reply: 'envelope',
  description: 'Platform administration: statistics, users, health, the scan scheduler, usage analytics',
  routes: [
    { id: 'getAdminDashboard', method: 'GET', url: '/dashboard', ...admin, summary: 'Platform statistics; activeUsers: distinct users with an authenticated request in the last 30 UTC days',
      response: { 200: Dashboard }, raises: ['conflict', 'not_found'], handler: 'dashboard' },
    { id: 'listAdminUsers', method: 'GET', url: '/users', ...admin, reply: 'named',
      summary: 'Users, newest first, with lastLoginAt and the repository configs and scans of their organizations; search: email or name contains (case-insensitive)',
      query: UsersQuery, response: { 200: UserPage }, raises: ['not_found'], handler: 'users' },
    { id: 'getAdminHealth', method: 'GET', url: '/health', ...admin, summary: 'Database and Redis status and latency (ms), uptime (s), the job loop and each background job',
      response: { 200: Health }, raises: ['not_found'], handler: 'health' },
    { id: 'getSchedulerStatus', method: 'GET', url: '/scheduler/status', ...admin, summary: 'Whether this process runs jobs, the next scheduled scan, pending scans, configs with a schedule',
      response: { 200: SchedulerStatus }, raises: ['not_found'], handler: 'schedulerStatus' },
    { id: 'runScheduler', method: 'POST', url: '/scheduler/run', ...admin,
      audit: { action: 'admin.scheduler_run', org: platformTrail, details: (r: { checked: number; started: unknown[]; skipped: number }) => ({ checked: r.checked, started: r.started.length, skipped: r.skipped }) },
      summary: "Starts now the scan of each scheduled config's current cron tick that has none yet, under each organization's daily scan limit; running it again starts nothing new",
      response: { 200: SchedulerRun }, raises: ['conflict', 'not_found', 'plan_limit'], handler: 'schedulerRun' },
    { id: 'fixScheduler', method: 'POST', url: '/scheduler/fix', ...admin,
      audit: { action: 'admin.scheduler_fixed', org: platformTrail, details: (r: { created: unknown[]; removed: unknown[] }) => ({ created: r.created, removed: r.removed }) },
      summary: 'Recreates the schedule job of every config with a scheduleCron and no job; removes jobs of no scheduled config and duplicates; answers what changed',
      response: { 200: SchedulerFix }, raises: ['not_found'], handler: 'schedulerFix' },
    { id: 'getBehaviorAnalytics', method: 'GET', url: '/behavior-analytics', ...admin,
      summary: 'Active users and requests per UTC day, requests per feature (plugin) and plan, over `days` days',
      query: AnalyticsQuery, response: { 200: BehaviorAnalytics }, raises: ['conflict', 'not_found'], handler: 'behavior' },
    { id: 'getNavigationAnalytics', method: 'GET', url: '/navigation-analytics', ...admin,
      summary: 'Most used routes (by id) with their plans and statuses, and the most used per plan, over `days` days',
      query: AnalyticsQuery, response: { 200: NavigationAnalytics }, raises: ['conflict', 'not_found'], handler: 'navigation' },
  ],
});
