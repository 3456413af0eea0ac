// Guardrails: CRUD with rules checked at write time, deploy/undeploy to the organization's
// repository configs; evaluations of plans (stored, counted from the stored results, violations
// emitted as guardrail.violated), approvals and break-glass bypass are evaluations.ts. No HTTP here.
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { AppError, conflict, notFound } from '../../core/errors.ts';
import { namedChanges } from '../../core/db.ts';
import { acquireLock } from '../../core/redis.ts';
import { pageCount, pageWindow } from '../../core/schemas.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import type { Enforcement } from './plan.ts';
import type { Evaluator } from './evaluator.ts';
import { ruleProblems, type Rule } from './policy-rules.ts';
import { TEMPLATES } from './templates.ts';
import type { Guardrail, GuardrailStatus, GuardrailStore } from './store.ts';
import type { CreateGuardrail, UpdateGuardrail } from './schemas.ts';
import { createEvaluations } from './evaluations.ts';

function checkRules(rules: readonly Rule[]) {
  const problems = ruleProblems(rules);
  if (problems.length) throw new AppError('validation_failed', { message: problems[0].message, details: problems });
}

/** deployedTo changes are read-modify-write: one at a time per guardrail (the database's updates are not atomic with their reads). */
async function withLock<T>(ctx: AppContext, id: string, work: () => Promise<T>): Promise<T> {
  const release = await acquireLock(ctx.redis.main, `guardrail-lock:${id}`, {
    ttlMs: 10_000, waitMs: 5_000,
    busy: () => conflict('The guardrail is being changed by another request; try again'),
    down: () => new AppError('store_unavailable', { message: 'Guardrail deployment is unavailable; try again shortly' }),
  });
  try { return await work(); } finally { await release(); }
}

export function createGuardrailService(ctx: AppContext, store: GuardrailStore, repos: Pick<RepoConfigService, 'configsOf'>, evaluator: Pick<Evaluator, 'evaluate'>) {
  async function load(orgId: string, id: string) {
    const g = await store.get(orgId, id);
    if (!g) throw notFound('Guardrail');
    return g;
  }
  async function views(orgId: string, rows: Guardrail[]) {
    const counts = await store.counts(orgId, rows.map((g) => g._id));
    return rows.map((g) => {
      const c = counts.get(g._id);
      return {
        _id: g._id, name: g.name, description: g.description, enforcement: g.enforcement, status: g.status,
        rules: g.rules, deployedTo: g.deployedTo, evaluationCount: c?.evaluations ?? 0, violationCount: c?.violations ?? 0,
        createdAt: g.createdAt.toISOString(), updatedAt: g.updatedAt.toISOString(),
      };
    });
  }
  const view = async (orgId: string, g: Guardrail) => (await views(orgId, [g]))[0];

  /** The given ids that are not repository configs of the organization: a 400 naming them. */
  async function checkRepositories(orgId: string, ids: string[]) {
    const known = new Set((await repos.configsOf(orgId, ids)).map((c) => c._id));
    const unknown = ids.filter((id) => !known.has(id));
    if (unknown.length) {
      throw new AppError('validation_failed', {
        message: `repositoryIds: ${unknown.join(', ')} ${unknown.length === 1 ? 'is not a repository config' : 'are not repository configs'} of this organization`,
        details: unknown.map((id) => ({ path: `body/repositoryIds/${ids.indexOf(id)}`, message: `${id} is not a repository config of this organization` })),
      });
    }
  }
  const evaluations = createEvaluations(ctx, store, repos, evaluator);

  return {
    templates: () => ({ templates: TEMPLATES.map((t) => ({ ...t })) }),

    async list(orgId: string, q: { status?: GuardrailStatus; enforcement?: Enforcement; page: number; limit: number }) {
      const { skip, limit } = pageWindow(q);
      const { rows, total } = await store.list(orgId, q, skip, limit);
      return { guardrails: await views(orgId, rows), total, page: q.page, pages: pageCount(total, q.limit) };
    },

    async create(orgId: string, input: CreateGuardrail) {
      checkRules(input.rules);
      const now = new Date();
      const g: Guardrail = {
        _id: newId(), orgId, name: input.name, description: input.description ?? '', enforcement: input.enforcement,
        status: input.status ?? 'active', rules: input.rules, deployedTo: [], createdAt: now, updatedAt: now,
      };
      await store.insert(g);
      return view(orgId, g);
    },

    async get(orgId: string, id: string) {
      const g = await load(orgId, id);
      const rows = await store.history(orgId, id);
      const statuses = await store.statuses(orgId, rows.map((r) => r.evaluationId));
      return {
        ...(await view(orgId, g)),
        evaluations: rows.map((r) => ({
          evaluationId: r.evaluationId, repositoryId: r.repositoryId, decision: r.decision,
          status: statuses.get(r.evaluationId) ?? r.decision, violationCount: r.violationCount, createdAt: r.createdAt.toISOString(),
        })),
      };
    },

    async update(orgId: string, id: string, input: UpdateGuardrail) {
      const g = await load(orgId, id);
      if (input.rules) checkRules(input.rules);
      const set = namedChanges({ name: input.name, description: input.description, enforcement: input.enforcement, status: input.status, rules: input.rules, updatedAt: new Date() });
      await store.update(orgId, id, set);
      return view(orgId, { ...g, ...set });
    },

    async remove(orgId: string, id: string) {
      // The guardrail holds its deployments, so deleting it removes it from every repository.
      if (!(await store.remove(orgId, id))) throw notFound('Guardrail');
      await store.removeResultsOf(orgId, id);
    },

    async deploy(orgId: string, id: string, repositoryIds: string[]) {
      await load(orgId, id);
      await checkRepositories(orgId, repositoryIds);
      return withLock(ctx, id, async () => {
        const g = await load(orgId, id);
        const deployedTo = [...new Set([...g.deployedTo, ...repositoryIds])];
        await store.update(orgId, id, { deployedTo, updatedAt: new Date() });
        return { message: `Guardrail deployed to ${deployedTo.length} ${deployedTo.length === 1 ? 'repository' : 'repositories'}`, deployedTo };
      });
    },

    async undeploy(orgId: string, id: string, repositoryIds: string[]) {
      await load(orgId, id);
      await checkRepositories(orgId, repositoryIds);
      return withLock(ctx, id, async () => {
        const g = await load(orgId, id);
        const gone = new Set(repositoryIds);
        const deployedTo = g.deployedTo.filter((r) => !gone.has(r));
        await store.update(orgId, id, { deployedTo, updatedAt: new Date() });
        return { message: `Guardrail removed from ${g.deployedTo.length - deployedTo.length} ${g.deployedTo.length - deployedTo.length === 1 ? 'repository' : 'repositories'}`, deployedTo };
      });
    },

    /** A repository config was deleted: no guardrail stays deployed to it. */
    forgetRepository: (orgId: string, repositoryId: string) => store.forgetRepository(orgId, repositoryId),

    evaluate: evaluations.evaluate,
    evaluation: evaluations.evaluation,
    decide: evaluations.decide,
    bypass: evaluations.bypass,
    removeOrg: (orgId: string) => store.removeOrg(orgId),
  };
}
export type GuardrailService = ReturnType<typeof createGuardrailService>;

