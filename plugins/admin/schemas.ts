// TypeBox schemas of the admin routes (SPEC "Admin", "Other resources": admin fields).
import { Type, type Static } from 'typebox';
import { Nullable, pageFields, Timestamp, PagedList } from '../../core/schemas.ts';

export const Dashboard = Type.Object({
  totalUsers: Type.Integer(),
  activeUsers: Type.Integer({ description: 'Distinct users with an authenticated request in the last 30 UTC days, today included (HyperLogLog estimate, about 1% error)' }),
  totalScans: Type.Integer(), totalDrifts: Type.Integer(), totalRepositories: Type.Integer(),
  activeRunners: Type.Integer({ description: 'Runners online or busy' }),
});

export const UsersQuery = Type.Object({
  ...pageFields(20, 100),
  search: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Case-insensitive substring of the email or name' })),
});
export type UsersQuery = Static<typeof UsersQuery>;
export const AdminUser = Type.Object({
  _id: Type.String(), email: Type.String(), name: Nullable(Type.String()), role: Type.String(), createdAt: Timestamp,
  lastLoginAt: Nullable(Timestamp),
  repoConfigCount: Type.Integer({ description: 'Repository configs of the organizations the user belongs to' }),
  scanCount: Type.Integer({ description: 'Scans of the organizations the user belongs to' }),
});
export const UserPage = PagedList(AdminUser);

const Probe = Type.Object({ status: Type.Union([Type.Literal('up'), Type.Literal('down')]), latency: Nullable(Type.Number({ description: 'milliseconds' })) });
export const WorkerState = Type.Object({
  name: Type.String({ description: 'Agenda job name' }),
  defined: Type.Boolean({ description: 'A handler for it is defined in this process' }),
  due: Type.Integer({ description: 'Runs due and not taken by a worker' }),
  running: Type.Integer({ description: 'Runs locked by a worker now' }),
  scheduled: Type.Integer({ description: 'Runs planned later' }),
  lastRunAt: Nullable(Timestamp), lastFinishedAt: Nullable(Timestamp), lastFailedAt: Nullable(Timestamp), lastFailReason: Nullable(Type.String()),
});
export const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Probe, redis: Probe,
  uptime: Type.Integer({ description: 'seconds' }),
  workers: Type.Object({
    scheduler: Type.Union([Type.Literal('running'), Type.Literal('stopped')], { description: 'This process runs the job loop' }),
    jobs: Type.Array(WorkerState),
  }),
});

export const SchedulerStatus = Type.Object({
  running: Type.Boolean({ description: 'This process runs the job loop' }),
  nextRun: Nullable(Timestamp),
  pendingScans: Type.Integer(),
  scheduledRepos: Type.Integer({ description: 'Repository configs with a scheduleCron' }),
});
export const SchedulerRun = Type.Object({
  checked: Type.Integer({ description: 'Configs with a schedule' }),
  started: Type.Array(Type.Object({ scanId: Type.String(), repositoryConfig: Type.String(), orgId: Type.String() })),
  skipped: Type.Integer({ description: "Configs whose current tick already has its scan, or whose organization is at its daily scan limit" }),
});
export const SchedulerFix = Type.Object({
  created: Type.Array(Type.Object({ repositoryConfig: Type.String(), orgId: Type.String(), scheduleCron: Type.String() })),
  removed: Type.Array(Type.Object({ jobId: Type.String(), repositoryConfig: Nullable(Type.String()), reason: Type.Union([Type.Literal('no-schedule'), Type.Literal('duplicate')]) })),
});

export const AnalyticsQuery = Type.Object({ days: Type.Integer({ minimum: 1, maximum: 90, default: 30, description: 'UTC days, today included' }) });
export type AnalyticsQuery = Static<typeof AnalyticsQuery>;
const Counts = Type.Record(Type.String(), Type.Integer());
export const BehaviorAnalytics = Type.Object({
  from: Type.String(), to: Type.String(),
  activeUsers: Type.Integer({ description: 'Distinct users over the whole period (estimate)' }),
  days: Type.Array(Type.Object({ day: Type.String(), activeUsers: Type.Integer(), requests: Type.Integer(), clientErrors: Type.Integer(), serverErrors: Type.Integer() })),
  features: Type.Array(Type.Object({ feature: Type.String({ description: 'plugin' }), requests: Type.Integer(), byPlan: Counts })),
});
export const NavigationAnalytics = Type.Object({
  from: Type.String(), to: Type.String(),
  routes: Type.Array(Type.Object({ route: Type.String({ description: 'route id (operationId)' }), feature: Type.String(), requests: Type.Integer(), byPlan: Counts, byStatus: Counts })),
  byPlan: Type.Record(Type.String(), Type.Array(Type.Object({ route: Type.String(), requests: Type.Integer() }))),
});
