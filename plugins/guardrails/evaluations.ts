// Plan evaluations (docs/guardrails.md "Evaluations"): a plan evaluated against the guardrails
// deployed to a repository config, stored with its results, and reviewed once (approve,
// reject, or the break-glass bypass). A CLI token's repositories are held by the engine
// (manifest: repositories {body: 'repositoryId'}).
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { AppError, conflict, notFound } from '../../core/errors.ts';
import { storableKeys, type Changes } from '../../core/db.ts';
import type { Principal } from '../../core/guards/principal.ts';
import type { RepoConfigService } from '../repo-configs/service.ts';
import type { GuardrailResult, PlanDocument } from './plan.ts';
import type { Evaluator } from './evaluator.ts';
import type { Actor, Evaluation, GuardrailStore, ResultRow } from './store.ts';

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

export function createEvaluations(ctx: AppContext, store: GuardrailStore, repos: Pick<RepoConfigService, 'configsOf'>, evaluator: Pick<Evaluator, 'evaluate'>) {
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

  };
}
