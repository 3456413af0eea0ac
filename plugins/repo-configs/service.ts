// Repository configs: validation (cron with a real parser), the default workspace, the due minute
// of the scheduled scan (swept by the scans plugin), and the cascade on delete (scans and drifts). No HTTP here.
import { CronExpressionParser } from 'cron-parser';
import { nextDueMinute } from '../../core/due-scan.ts';
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import type { WorkspaceService } from '../workspaces/service.ts';
import type { ProjectService } from '../projects/service.ts';
import type { RepoScope } from '../../core/guards/repositories.ts';
import { pageOf, pageWindow, type Page } from '../../core/schemas.ts';
import { REPOSITORY_URL_HINT, REPOSITORY_URL_SECRET, repositoryUrlKind, repositoryUrlSecret, type RepoConfig, type RepoConfigStore } from './store.ts';
import type { CreateRepoConfig, UpdateRepoConfig } from './schemas.ts';
import { repoPathProblem, statePathProblem } from '../../runner-agent/src/engine/index.ts';

/** Agenda job that created a scheduled scan before the due scan (one per config): kept defined by the scans plugin for jobs locked before a process's first sweep removed them. */
export const SCHEDULED_SCAN_JOB = 'scans.scheduled';

/** Five fields, evaluated in UTC; cron-parser also accepts a seconds field, which would let a config scan every second. */
export function checkCron(expr: string): string {
  const trimmed = expr.trim().replace(/\s+/g, ' ');
  if (trimmed.split(' ').length !== 5) throw badRequest('scheduleCron must have five fields: minute hour day-of-month month day-of-week', { scheduleCron: expr });
  try {
    CronExpressionParser.parse(trimmed, { tz: 'UTC' });
  } catch (err) {
    throw badRequest(`scheduleCron is not a valid cron expression: ${(err as Error).message}`, { scheduleCron: expr });
  }
  return trimmed;
}

export const configView = (c: RepoConfig) => ({
  _id: c._id, repositoryName: c.repositoryName, branch: c.branch, iacPaths: c.iacPaths, provider: c.provider,
  scheduleCron: c.scheduleCron, workspaceId: c.workspaceId, projectId: c.projectId,
  // Configs stored before these fields existed read as unset.
  repositoryUrl: c.repositoryUrl ?? null, runnerLabels: c.runnerLabels ?? [], statePath: c.statePath ?? null,
  comparison: c.comparison ?? 'auto', status: c.status,
  lastScanAt: c.lastScanAt?.toISOString() ?? null, lastScanStatus: c.lastScanStatus,
  createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(),
});

/**
 * iacPaths and statePath name places inside the repository (statePath may be s3://bucket/key,
 * gs://bucket/object or azblob://account/container/blob instead): the built-in executor runs on the service's host, and a path out of the checkout
 * would read its files (issue #10). The engine applies the same rules (paths.ts) to configs
 * stored before this check. On update, a statePath is checked against the iacPaths it will be
 * read from, given or stored. A 400 like the schema's: validation_failed, details naming the field.
 */
export function checkPaths(input: { iacPaths?: string[]; statePath?: string | null }, stored?: Pick<RepoConfig, 'iacPaths' | 'statePath'>) {
  if (input.iacPaths === undefined && input.statePath === undefined) return;
  const refuse = (field: string, message: string) =>
    new AppError('validation_failed', { message, details: [{ path: `body/${field}`, message }] });
  for (const [i, p] of (input.iacPaths ?? []).entries()) {
    const problem = repoPathProblem(p);
    if (problem) throw refuse(`iacPaths/${i}`, `iacPaths[${i}] "${p}" ${problem}`);
  }
  const statePath = input.statePath !== undefined ? input.statePath?.trim() : stored?.statePath;
  const problem = statePath ? statePathProblem(statePath, input.iacPaths ?? stored?.iacPaths ?? []) : undefined;
  if (problem) throw refuse('statePath', `statePath "${statePath}" ${problem}`);
}

interface Deps { configs: RepoConfigStore; workspaces: Pick<WorkspaceService, 'find' | 'defaultId'>; projects: Pick<ProjectService, 'find'> }

/** What a config's stats count of the records other plugins keep about it (scans, drifts). */
export interface ConfigCounts { totalScans?: number; totalDrifts?: number; resolvedDrifts?: number }
/** Runs when a config is deleted, before the config itself: removes what other plugins keep about it. */
export type OnRemove = (orgId: string, configId: string) => Promise<void>;
/** Told of every config update, with the record before and after (scans re-route waiting scans on a runnerLabels change). */
export type OnUpdate = (before: RepoConfig, after: RepoConfig) => Promise<void>;

// The config's scheduled scan: no Agenda job per config (each lock read every job record on the
// embedded database and was not atomic: issue 36) but the minute its cron next fires
// (`dueMinute`), swept by every process running jobs (core/due-scan.ts, the scans plugin).
/** The minute a config's scheduled scan is next due: the cron's first fire after `now`; null without a schedule. */
export function dueMinuteOf(c: Pick<RepoConfig, 'scheduleCron' | 'status'>, now = new Date()): number | null {
  return c.scheduleCron && c.status === 'active' ? nextDueMinute(c.scheduleCron, now) : null;
}

export function createRepoConfigService(ctx: AppContext, d: Deps) {
  // Attached by the plugins that keep records of a config (scans attaches drifts' then its own):
  // repo-configs never imports them.
  const removeHooks: OnRemove[] = [];
  const updateHooks: OnUpdate[] = [];
  const statsContributors: ((orgId: string, configId: string) => Promise<ConfigCounts>)[] = [];
  /** (Re)schedules a config: its next due minute from its stored cron (idempotent). */
  const schedule = (c: Pick<RepoConfig, '_id' | 'scheduleCron' | 'status'>) => d.configs.setDue([{ _id: c._id, dueMinute: dueMinuteOf(c) }]);

  async function load(orgId: string, id: string) {
    const c = await d.configs.get(orgId, id);
    if (!c) throw notFound('Repository config');
    return c;
  }

  async function checkRefs(orgId: string, input: { workspaceId?: string; projectId?: string | null; repositoryUrl?: string | null }) {
    const url = input.repositoryUrl?.trim();
    if (url && !repositoryUrlKind(url)) throw badRequest(`repositoryUrl ${REPOSITORY_URL_HINT}`, { repositoryUrl: input.repositoryUrl });
    // The refused value is not echoed back: it holds a secret.
    if (url && repositoryUrlSecret(url)) throw badRequest(REPOSITORY_URL_SECRET);
    if (input.workspaceId && !(await d.workspaces.find(orgId, input.workspaceId))) throw badRequest('workspaceId names no workspace of this organization');
    if (input.projectId && !(await d.projects.find(orgId, input.projectId))) throw badRequest('projectId names no project of this organization');
  }


  return {
    // --- for the plugins that need repo-configs
    /** Runs `fn` when a config is deleted, in registration order, before the config goes. */
    onRemove(fn: OnRemove) { removeHooks.push(fn); },
    /** Runs `fn` after a config is updated. */
    onUpdate(fn: OnUpdate) { updateHooks.push(fn); },
    /** Adds counts to GET /:id/stats. */
    addStats(fn: (orgId: string, configId: string) => Promise<ConfigCounts>) { statsContributors.push(fn); },
    /** A config of the organization, or null. */
    find: (orgId: string, id: string) => d.configs.get(orgId, id),
    /** The organization's configs (or those of the given ids), newest first. */
    configsOf: (orgId: string, ids?: readonly string[]) => d.configs.list(orgId, ids),
    countActive: (orgId: string) => d.configs.countActive(orgId),
    /** Platform-wide reads and the schedule repair, for the admin routes. */
    platform: {
      count: () => d.configs.countAll(),
      countPerOrg: (orgIds: string[]) => d.configs.countPerOrg(orgIds),
      scheduled: (limit: number) => d.configs.scheduled(limit),
      countScheduled: () => d.configs.countScheduled(),
      /** Sets the config's due minute from its cron (idempotent). */
      reschedule: (id: string, cron: string) => schedule({ _id: id, scheduleCron: cron, status: 'active' }),
      /** The earliest due minute of any config (admin status). */
      firstDue: () => d.configs.firstDue(),
    },
    /** The scheduled-scan due scan's view of the collection, and the move of configs stored before it (scans plugin). */
    due: {
      collection: d.configs.configs,
      /**
       * After a scheduled scan of `slot` started outside the due scan (the admin run, an old job):
       * a config still due on that minute moves to its next fire now, rather than when the due
       * scan finds the claim stale.
       */
      moveOn: (c: RepoConfig, slot: Date, now = new Date()) =>
        d.configs.moveDue(c._id, Math.floor(slot.getTime() / 60_000), dueMinuteOf(c, slot > now ? slot : now)),
      /** Configs without a due minute get one, and the Agenda jobs that ran them go (once per process start). */
      async migrate() {
        await ctx.scheduler.cancel({ name: SCHEDULED_SCAN_JOB });
        for (;;) {
          const rows = await d.configs.unscheduled(500);
          if (!rows.length) return;
          await d.configs.setDue(rows.map((c) => ({ _id: c._id, dueMinute: dueMinuteOf(c) })));
          if (rows.length < 500) return;
        }
      },
    },
    /** The latest scan of a config, as its list shows it. */
    recordScan: (orgId: string, id: string, at: Date, status: string) => d.configs.recordScan(orgId, id, at, status),

    // --- routes
    /** A page of the configs, newest first; `repositories`: a CLI token's configs (undefined: every config of the organization). */
    async list(orgId: string, repositories: RepoScope, q: Page) {
      const { rows, total } = await d.configs.page(orgId, repositories, pageWindow(q));
      return pageOf(rows.map(configView), q, total);
    },
    get: async (orgId: string, id: string) => configView(await load(orgId, id)),
    async editView(orgId: string, id: string) {
      const c = await load(orgId, id);
      const due = c.scheduleCron ? (c.dueMinute ?? dueMinuteOf(c)) : null;
      return { ...configView(c), nextScheduledAt: due == null ? null : new Date(due * 60_000).toISOString() };
    },
    /**
     * A token limited to some repositories cannot add one (manifest repositories: 'unlimited');
     * the plan's repository limit is the engine's (manifest limit: 'repositories').
     */
    async create(orgId: string, input: CreateRepoConfig) {
      const scheduleCron = input.scheduleCron ? checkCron(input.scheduleCron) : null;
      checkPaths(input);
      await checkRefs(orgId, input);
      const workspaceId = input.workspaceId ?? await d.workspaces.defaultId(orgId);
      const now = new Date();
      const id = newId();
      const base = {
        _id: id, orgId, repositoryName: input.repositoryName, branch: input.branch, iacPaths: input.iacPaths ?? [],
        provider: input.provider, scheduleCron, workspaceId, projectId: input.projectId ?? null,
        repositoryUrl: input.repositoryUrl?.trim() || null, runnerLabels: input.runnerLabels ?? [], statePath: input.statePath?.trim() || null,
        comparison: input.comparison ?? 'auto', status: 'active' as const,
        lastScanAt: null, lastScanStatus: null, createdAt: now, updatedAt: now,
      };
      // slot: the config's own id (see store.ts).
      const doc: RepoConfig = { ...base, slot: id, dueMinute: dueMinuteOf(base, now) };
      await d.configs.insert(doc);
      return configView(doc);
    },
    async update(orgId: string, id: string, input: UpdateRepoConfig) {
      const before = await load(orgId, id);
      const set: Partial<RepoConfig> = { updatedAt: new Date() };
      for (const k of ['repositoryName', 'branch', 'iacPaths', 'provider', 'workspaceId', 'projectId', 'runnerLabels', 'comparison'] as const) {
        if (input[k] !== undefined) (set as Record<string, unknown>)[k] = input[k];
      }
      for (const k of ['repositoryUrl', 'statePath'] as const) {
        if (input[k] !== undefined) set[k] = input[k]?.trim() || null;
      }
      if (input.scheduleCron !== undefined) set.scheduleCron = input.scheduleCron ? checkCron(input.scheduleCron) : null;
      // A changed cron moves the due minute (null: no schedule) in the same write.
      if (set.scheduleCron !== undefined && set.scheduleCron !== before.scheduleCron) set.dueMinute = dueMinuteOf({ ...before, scheduleCron: set.scheduleCron });
      checkPaths(input, before);
      await checkRefs(orgId, input);
      await d.configs.update(orgId, id, set);
      const after = await load(orgId, id);
      for (const fn of updateHooks) await fn(before, after);
      return configView(after);
    },
    async remove(orgId: string, id: string) {
      await load(orgId, id);
      // Schedule, drifts and scans first (the attached hooks), the config last: a crash part
      // way leaves the config in place, and deleting it again finishes the job.
      await d.configs.setDue([{ _id: id, dueMinute: null }]);
      for (const fn of removeHooks) await fn(orgId, id);
      await d.configs.remove(orgId, id);
      return { message: 'Repository config deleted with its scans and drifts' };
    },
    async stats(orgId: string, id: string) {
      const c = await load(orgId, id);
      const counts: ConfigCounts = Object.assign({}, ...(await Promise.all(statsContributors.map((fn) => fn(orgId, id)))));
      const { totalScans = 0, totalDrifts = 0, resolvedDrifts = 0 } = counts;
      return { totalScans, totalDrifts, resolvedDrifts, openDrifts: totalDrifts - resolvedDrifts, lastScanAt: c.lastScanAt?.toISOString() ?? null, lastScanStatus: c.lastScanStatus };
    },
  };
}
export type RepoConfigService = ReturnType<typeof createRepoConfigService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { 'repo-configs': RepoConfigService }
}
