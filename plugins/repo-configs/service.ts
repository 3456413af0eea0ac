// Repository configs: validation (cron with a real parser), plan limits that hold under
// concurrency (slots, see store.ts), the default workspace, the Agenda schedule that creates
// due scans, and the cascade on delete (scans and drifts). No HTTP here.
import { CronExpressionParser } from 'cron-parser';
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { AppError, badRequest, notFound } from '../../core/errors.ts';
import { PLAN_LIMITS, planLabel } from '../../core/plans.ts';
import type { DriftStore } from '../drifts/store.ts';
import type { ScanStore } from '../scans/store.ts';
import { ensureDefaultWorkspace } from '../workspaces/service.ts';
import type { WorkspaceStore } from '../workspaces/store.ts';
import type { ProjectStore } from '../projects/store.ts';
import { assertAllowed, repositoryDenied, type RepoScope } from './access.ts';
import { REPOSITORY_URL_HINT, REPOSITORY_URL_SECRET, repositoryUrlKind, repositoryUrlSecret, type RepoConfig, type RepoConfigStore } from './store.ts';
import type { CreateRepoConfig, UpdateRepoConfig } from './schemas.ts';
import { repoPathProblem, statePathProblem } from '../../runner-agent/src/engine/paths.ts';

/** Agenda job that creates a scheduled scan (defined by the scans plugin). */
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
  repositoryUrl: c.repositoryUrl ?? null, runnerLabels: c.runnerLabels ?? [], statePath: c.statePath ?? null, status: c.status,
  lastScanAt: c.lastScanAt?.toISOString() ?? null, lastScanStatus: c.lastScanStatus,
  createdAt: c.createdAt.toISOString(), updatedAt: c.updatedAt.toISOString(),
});

/**
 * iacPaths and statePath name places inside the repository (statePath may be s3://bucket/key
 * instead): the built-in executor runs on the service's host, and a path out of the checkout
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

interface Deps { configs: RepoConfigStore; scans: ScanStore; drifts: DriftStore; workspaces: WorkspaceStore; projects: ProjectStore }

export function createRepoConfigService(ctx: AppContext, d: Deps) {
  async function load(orgId: string, id: string, scope: RepoScope) {
    const c = await d.configs.get(orgId, id);
    if (!c) throw notFound('Repository config');
    assertAllowed(scope, id);
    return c;
  }

  async function checkRefs(orgId: string, input: { workspaceId?: string; projectId?: string | null; repositoryUrl?: string | null }) {
    const url = input.repositoryUrl?.trim();
    if (url && !repositoryUrlKind(url)) throw badRequest(`repositoryUrl ${REPOSITORY_URL_HINT}`, { repositoryUrl: input.repositoryUrl });
    // The refused value is not echoed back: it holds a secret.
    if (url && repositoryUrlSecret(url)) throw badRequest(REPOSITORY_URL_SECRET);
    if (input.workspaceId && !(await d.workspaces.get(orgId, input.workspaceId))) throw badRequest('workspaceId names no workspace of this organization');
    if (input.projectId && !(await d.projects.get(orgId, input.projectId))) throw badRequest('projectId names no project of this organization');
  }

  /** A free repository slot under the plan's limit, or a refusal naming the limit. */
  async function slotFor(orgId: string, id: string): Promise<string> {
    const org = await ctx.tenancy.org(orgId);
    if (!org) throw notFound('Organization');
    const limit = PLAN_LIMITS[org.plan].repositories;
    if (limit === null) return id;
    const taken = new Set(await d.configs.slots(orgId));
    const free = taken.size < limit ? [...Array(limit).keys()].map(String).find((s) => !taken.has(s)) : undefined;
    if (free === undefined) {
      throw new AppError('plan_limit', {
        status: 403,
        message: `The ${planLabel(org.plan)} plan allows ${limit} ${limit === 1 ? 'repository' : 'repositories'}; delete one or upgrade to add more`,
        details: { limit, plan: org.plan, used: taken.size },
      });
    }
    return free;
  }

  /** Creates, moves or removes the config's Agenda job: one job per config (unique on its id). */
  async function schedule(orgId: string, id: string, cron: string | null) {
    if (!cron) {
      await ctx.scheduler.cancel({ name: SCHEDULED_SCAN_JOB, data: { repoConfigId: id } });
      return;
    }
    await ctx.scheduler.agenda.create(SCHEDULED_SCAN_JOB, { orgId, repoConfigId: id })
      .repeatEvery(cron, { timezone: 'UTC', skipImmediate: true })
      .unique({ name: SCHEDULED_SCAN_JOB, 'data.repoConfigId': id })
      .save();
  }

  async function nextRun(id: string): Promise<string | null> {
    const { jobs } = await ctx.scheduler.agenda.queryJobs({ name: SCHEDULED_SCAN_JOB, data: { repoConfigId: id } } as never);
    const at = jobs[0]?.nextRunAt;
    return at ? new Date(at).toISOString() : null;
  }

  return {
    load,
    async list(orgId: string, scope: RepoScope) {
      return (await d.configs.list(orgId, scope)).map(configView);
    },
    get: async (orgId: string, id: string, scope: RepoScope) => configView(await load(orgId, id, scope)),
    async editView(orgId: string, id: string, scope: RepoScope) {
      const c = await load(orgId, id, scope);
      return { ...configView(c), nextScheduledAt: c.scheduleCron ? await nextRun(id) : null };
    },
    async create(orgId: string, input: CreateRepoConfig, scope: RepoScope) {
      // A token limited to some repositories cannot add one it would not be allowed to see.
      if (scope) throw repositoryDenied();
      const scheduleCron = input.scheduleCron ? checkCron(input.scheduleCron) : null;
      checkPaths(input);
      await checkRefs(orgId, input);
      const workspaceId = input.workspaceId ?? await ensureDefaultWorkspace(d.workspaces, orgId);
      const now = new Date();
      const id = newId();
      const base = {
        _id: id, orgId, repositoryName: input.repositoryName, branch: input.branch, iacPaths: input.iacPaths ?? [],
        provider: input.provider, scheduleCron, workspaceId, projectId: input.projectId ?? null,
        repositoryUrl: input.repositoryUrl?.trim() || null, runnerLabels: input.runnerLabels ?? [], statePath: input.statePath?.trim() || null,
        status: 'active' as const,
        lastScanAt: null, lastScanStatus: null, createdAt: now, updatedAt: now,
      };
      // Two attempts: a concurrent create may take the slot we picked; the second read sees it.
      for (let attempt = 0; attempt < 3; attempt++) {
        const doc: RepoConfig = { ...base, slot: await slotFor(orgId, id) };
        if (await d.configs.insert(doc)) {
          await schedule(orgId, id, scheduleCron);
          return configView(doc);
        }
      }
      throw new AppError('conflict', { message: 'Too many concurrent repository config creations; try again' });
    },
    async update(orgId: string, id: string, input: UpdateRepoConfig, scope: RepoScope) {
      const before = await load(orgId, id, scope);
      const set: Partial<RepoConfig> = { updatedAt: new Date() };
      for (const k of ['repositoryName', 'branch', 'iacPaths', 'provider', 'workspaceId', 'projectId', 'runnerLabels'] as const) {
        if (input[k] !== undefined) (set as Record<string, unknown>)[k] = input[k];
      }
      for (const k of ['repositoryUrl', 'statePath'] as const) {
        if (input[k] !== undefined) set[k] = input[k]?.trim() || null;
      }
      if (input.scheduleCron !== undefined) set.scheduleCron = input.scheduleCron ? checkCron(input.scheduleCron) : null;
      checkPaths(input, before);
      await checkRefs(orgId, input);
      await d.configs.update(orgId, id, set);
      if (set.scheduleCron !== undefined && set.scheduleCron !== before.scheduleCron) await schedule(orgId, id, set.scheduleCron);
      return configView(await load(orgId, id, scope));
    },
    async remove(orgId: string, id: string, scope: RepoScope) {
      await load(orgId, id, scope);
      // Schedule, drifts and scans first, the config last: a crash part way leaves the
      // config in place, and deleting it again finishes the job.
      await schedule(orgId, id, null);
      await d.drifts.removeByConfig(orgId, id);
      await d.scans.removeByConfig(orgId, id);
      await d.configs.remove(orgId, id);
      return { message: 'Repository config deleted with its scans and drifts' };
    },
    async stats(orgId: string, id: string, scope: RepoScope) {
      const c = await load(orgId, id, scope);
      const [totalScans, totalDrifts, resolvedDrifts] = await Promise.all([
        d.scans.count(orgId, { repositoryConfig: [id] }),
        d.drifts.countByConfig(orgId, id),
        d.drifts.countByConfig(orgId, id, 'resolved'),
      ]);
      return { totalScans, totalDrifts, resolvedDrifts, openDrifts: totalDrifts - resolvedDrifts, lastScanAt: c.lastScanAt?.toISOString() ?? null, lastScanStatus: c.lastScanStatus };
    },
  };
}
export type RepoConfigService = ReturnType<typeof createRepoConfigService>;
