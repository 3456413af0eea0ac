// Guardrails: CRUD with rules checked at write time, deploy/undeploy to the organization's
// repository configs, evaluation of plans (stored, counted from the stored results, violations
// emitted as guardrail.violated), approvals of pending evaluations and break-glass bypass
// (guardrail.bypassed). No HTTP here.
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { AppError, conflict, notFound } from '../../core/errors.ts';
import { storableKeys, namedChanges, type Changes } from '../../core/db.ts';
import { acquireLock } from '../../core/redis.ts';
import { pageCount, pageWindow } from '../../core/schemas.ts';
import type { Principal } from '../../core/guards/principal.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import type { GuardrailResult, PlanDocument, Enforcement } from './plan.ts';
import type { Evaluator } from './evaluator.ts';
import { ruleProblems, type Rule } from './policy-rules.ts';
import { TEMPLATES } from './templates.ts';
import type { Actor, Evaluation, Guardrail, GuardrailStatus, GuardrailStore, ResultRow } from './store.ts';
import type { CreateGuardrail, UpdateGuardrail } from './schemas.ts';

/** Violations a guardrail.violated event lists (the catalogue's bound); violationCount gives the whole. */
const EVENT_VIOLATIONS = 100;

const actorOf = (p: Principal): Actor => ({ userId: p.userId ?? null, kind: p.kind, ...(p.email ? { email: p.email } : {}) });
const actorView = (a: Actor | null) => (a ? { userId: a.userId, kind: a.kind } : null);

/** The reverse of storableKeys: stored violations show the keys the plan had. */
function originalKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(originalKeys);
  if (!value || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/\uFF0E/g, '.').replace(/^\uFF04/, '$'), originalKeys(v)]));
}

export const evaluationView = (e: Evaluation) => ({
  _id: e._id, repositoryId: e.repositoryId, decision: e.decision, status: e.status,
  approvalId: e.decision === 'pending' ? e._id : null,
  resourceChanges: e.resourceChanges, evaluated: e.evaluated, results: e.results,
  requestedBy: actorView(e.requestedBy)!, reviewedBy: actorView(e.reviewedBy), reviewedAt: e.reviewedAt?.toISOString() ?? null,
  comment: e.comment, createdAt: e.createdAt.toISOString(),
});

function checkRules(rules: readonly Rule[]) {
  const problems = ruleProblems(rules);
  if (problems.length) throw new AppError('validation_failed', { message: problems[0].message, details: problems });
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
  /** deployedTo changes are read-modify-write: one at a time per guardrail (the database's updates are not atomic with their reads). */
  async function withLock<T>(id: string, work: () => Promise<T>): Promise<T> {
    const release = await acquireLock(ctx.redis.main, `guardrail-lock:${id}`, {
      ttlMs: 10_000, waitMs: 5_000,
      busy: () => conflict('The guardrail is being changed by another request; try again'),
      down: () => new AppError('store_unavailable', { message: 'Guardrail deployment is unavailable; try again shortly' }),
    });
    try { return await work(); } finally { await release(); }
  }

  async function loadEvaluation(orgId: string, id: string) {
    const e = await store.evaluation(orgId, id);
    if (!e) throw notFound('Evaluation');
    return { ...e, results: originalKeys(e.results) as GuardrailResult[] };
  }
  /** One review per evaluation: the first approve, reject or bypass wins (a unique key), the others get 409. */
  async function review(orgId: string, e: Evaluation, set: Changes<Evaluation>) {
    if (!(await ctx.once.claim(`guardrail-review:${e._id}`, orgId))) throw conflict('This evaluation was already reviewed');
    await store.setEvaluation(orgId, e._id, set);
    return evaluationView({ ...e, ...set });
  }

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
      return withLock(id, async () => {
        const g = await load(orgId, id);
        const deployedTo = [...new Set([...g.deployedTo, ...repositoryIds])];
        await store.update(orgId, id, { deployedTo, updatedAt: new Date() });
        return { message: `Guardrail deployed to ${deployedTo.length} ${deployedTo.length === 1 ? 'repository' : 'repositories'}`, deployedTo };
      });
    },

    async undeploy(orgId: string, id: string, repositoryIds: string[]) {
      await load(orgId, id);
      await checkRepositories(orgId, repositoryIds);
      return withLock(id, async () => {
        const g = await load(orgId, id);
        const gone = new Set(repositoryIds);
        const deployedTo = g.deployedTo.filter((r) => !gone.has(r));
        await store.update(orgId, id, { deployedTo, updatedAt: new Date() });
        return { message: `Guardrail removed from ${g.deployedTo.length - deployedTo.length} ${g.deployedTo.length - deployedTo.length === 1 ? 'repository' : 'repositories'}`, deployedTo };
      });
    },

    /** A repository config was deleted: no guardrail stays deployed to it. */
    forgetRepository: (orgId: string, repositoryId: string) => store.forgetRepository(orgId, repositoryId),

    /** A CLI token's repositories were checked by the engine (manifest: repositories {body: 'repositoryId'}). */
    async evaluate(orgId: string, principal: Principal, input: { repositoryId: string; plan: PlanDocument }) {
      if (!(await repos.configsOf(orgId, [input.repositoryId])).length) throw notFound('Repository config');
      const guardrails = await store.deployedTo(orgId, input.repositoryId);
      // In a worker thread with a time limit (evaluator.ts): a slow plan never holds other requests.
      const result = await evaluator.evaluate(orgId, input.plan, guardrails);
      const now = new Date();
      const e: Evaluation = {
        _id: newId(), orgId, repositoryId: input.repositoryId, decision: result.decision, status: result.decision,
        resourceChanges: result.resourceChanges, evaluated: result.evaluated, results: result.results,
        requestedBy: actorOf(principal), reviewedBy: null, reviewedAt: null, comment: null, createdAt: now,
      };
      const rows: ResultRow[] = result.results.map((r) => ({
        _id: newId(), orgId, guardrailId: r.guardrailId, evaluationId: e._id, repositoryId: e.repositoryId,
        decision: r.decision, violationCount: r.violationCount, createdAt: now,
      }));
      await store.insertEvaluation({ ...e, results: storableKeys(e.results) as GuardrailResult[] }, rows);
      for (const r of result.results.filter((x) => x.violationCount > 0)) {
        await ctx.bus.emit('guardrail.violated', orgId, {
          evaluationId: e._id, guardrailId: r.guardrailId, guardrailName: r.name, enforcement: r.enforcement,
          repositoryId: e.repositoryId, decision: r.decision, violationCount: r.violationCount,
          violations: r.violations.slice(0, EVENT_VIOLATIONS).map((v) => ({ address: v.address, resourceType: v.resourceType, attribute: v.attribute, operator: v.operator })),
        });
      }
      return evaluationView(e);
    },

    evaluation: async (orgId: string, id: string) => evaluationView(await loadEvaluation(orgId, id)),

    async decide(orgId: string, principal: Principal, id: string, verdict: 'approved' | 'rejected', comment?: string) {
      const e = await loadEvaluation(orgId, id);
      if (e.status !== 'pending') throw conflict(`Only a pending evaluation can be ${verdict}; this one is ${e.status}`);
      if (e.requestedBy.userId && e.requestedBy.userId === principal.userId) {
        throw new AppError('permission_denied', { message: 'An evaluation is approved or rejected by a member other than its requester' });
      }
      return review(orgId, e, { status: verdict, reviewedBy: actorOf(principal), reviewedAt: new Date(), comment: comment ?? null });
    },

    async bypass(orgId: string, principal: Principal, id: string, reason: string) {
      const e = await loadEvaluation(orgId, id);
      if (e.status !== 'blocked' && e.status !== 'pending') throw conflict(`Only a blocked or pending evaluation can be bypassed; this one is ${e.status}`);
      const out = await review(orgId, e, { status: 'bypassed', reviewedBy: actorOf(principal), reviewedAt: new Date(), comment: reason });
      const guardrailIds = e.results.filter((r) => r.decision !== 'allowed').map((r) => r.guardrailId);
      await ctx.bus.emit('guardrail.bypassed', orgId, {
        evaluationId: e._id, repositoryId: e.repositoryId, guardrailIds, reason,
        bypassedBy: { id: principal.userId ?? '', ...(principal.email ? { email: principal.email } : {}) },
      });
      return { ...out, audit: { evaluationId: e._id, repositoryId: e.repositoryId, guardrailIds, reason } };
    },

    removeOrg: (orgId: string) => store.removeOrg(orgId),
  };
}
export type GuardrailService = ReturnType<typeof createGuardrailService>;

