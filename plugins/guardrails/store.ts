// The only file that touches `guardrails`, `guardrail_evaluations` and `guardrail_results`;
// declares their indexes. One result row per (evaluation, guardrail): the guardrail's history
// and its evaluationCount / violationCount are read from these rows, never kept as counters.
import type { CollectionSpec, Database, Changes } from '../../core/db.ts';
import type { Decision, Enforcement, GuardrailResult } from './plan.ts';
import type { Rule } from './policy-rules.ts';

export type GuardrailStatus = 'active' | 'inactive';
export interface Guardrail {
  _id: string; orgId: string; name: string; description: string; enforcement: Enforcement; status: GuardrailStatus;
  rules: Rule[]; deployedTo: string[]; createdAt: Date; updatedAt: Date;
}
export type EvaluationStatus = 'allowed' | 'blocked' | 'pending' | 'approved' | 'rejected' | 'bypassed';
export interface Actor { userId: string | null; kind: string; email?: string }
export interface Evaluation {
  _id: string; orgId: string; repositoryId: string; decision: Decision; status: EvaluationStatus;
  resourceChanges: number; evaluated: number; results: GuardrailResult[]; requestedBy: Actor;
  reviewedBy: Actor | null; reviewedAt: Date | null; comment: string | null; createdAt: Date;
}
export interface ResultRow { _id: string; orgId: string; guardrailId: string; evaluationId: string; repositoryId: string; decision: Decision; violationCount: number; createdAt: Date }

export const GUARDRAILS: CollectionSpec = {
  name: 'guardrails', owner: 'plugins/guardrails',
  indexes: [
    { key: { orgId: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, status: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, enforcement: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, status: 1, enforcement: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, deployedTo: 1, status: 1 } },
    { key: { orgId: 1, deployedTo: 1 } },
  ],
};
export const EVALUATIONS: CollectionSpec = { name: 'guardrail_evaluations', owner: 'plugins/guardrails', indexes: [{ key: { orgId: 1, createdAt: -1 } }] };
export const RESULTS: CollectionSpec = {
  name: 'guardrail_results', owner: 'plugins/guardrails',
  indexes: [{ key: { orgId: 1, guardrailId: 1, createdAt: -1, _id: -1 } }, { key: { orgId: 1, evaluationId: 1 } }],
};

/** How many past evaluations a guardrail's detail shows. */
export const HISTORY = 20;

export function createGuardrailStore(db: Database) {
  const guardrails = db.collection<Guardrail>(GUARDRAILS);
  const evaluations = db.collection<Evaluation>(EVALUATIONS);
  const results = db.collection<ResultRow>(RESULTS);
  const listFilter = (orgId: string, f: { status?: GuardrailStatus; enforcement?: Enforcement }) =>
    ({ orgId, ...(f.status ? { status: f.status } : {}), ...(f.enforcement ? { enforcement: f.enforcement } : {}) });

  return {
    insert: async (g: Guardrail) => { await guardrails.insertOne(g); },
    get: (orgId: string, id: string) => guardrails.findOne({ _id: id, orgId }),
    async list(orgId: string, f: { status?: GuardrailStatus; enforcement?: Enforcement }, skip: number, limit: number) {
      const filter = listFilter(orgId, f);
      const [rows, total] = await Promise.all([
        guardrails.find(filter).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit).toArray(),
        guardrails.countDocuments(filter),
      ]);
      return { rows, total };
    },
    update: async (orgId: string, id: string, set: Changes<Guardrail>) => (await guardrails.updateOne({ _id: id, orgId }, { $set: set })).matchedCount > 0,
    remove: async (orgId: string, id: string) => (await guardrails.deleteOne({ _id: id, orgId })).deletedCount > 0,
    /** Active guardrails deployed to one repository config. */
    deployedTo: (orgId: string, repositoryId: string) => guardrails.find({ orgId, deployedTo: repositoryId, status: 'active' }).limit(1000).toArray(),
    /** A deleted repository config leaves every guardrail's deployedTo. */
    forgetRepository: async (orgId: string, repositoryId: string) => {
      await guardrails.updateMany({ orgId, deployedTo: repositoryId }, { $pull: { deployedTo: repositoryId } });
    },

    insertEvaluation: async (e: Evaluation, rows: ResultRow[]) => {
      // Rows first: an evaluation is only ever read through its own record, so a crash between
      // the two leaves rows of an evaluation nobody sees rather than an evaluation uncounted.
      if (rows.length) await results.insertMany(rows);
      await evaluations.insertOne(e);
    },
    evaluation: (orgId: string, id: string) => evaluations.findOne({ _id: id, orgId }),
    setEvaluation: async (orgId: string, id: string, set: Changes<Evaluation>) => { await evaluations.updateOne({ _id: id, orgId }, { $set: set }); },
    history: (orgId: string, guardrailId: string) => results.find({ orgId, guardrailId }).sort({ createdAt: -1, _id: -1 }).limit(HISTORY).toArray(),
    /** Status of some evaluations (the history shows approvals and bypasses). */
    statuses: async (orgId: string, ids: string[]) => new Map((await evaluations.find({ _id: { $in: ids }, orgId }, { projection: { status: 1 } }).toArray()).map((e) => [e._id, e.status])),
    /**
     * evaluationCount and violationCount of some guardrails, from their result rows. Grouped by
     * (guardrail, violation count) and multiplied here: FerretDB 1.24 answers 0 for a $sum of a
     * field (only $sum: 1 counts), and the distinct violation counts of a guardrail are few.
     */
    async counts(orgId: string, guardrailIds: string[]) {
      const out = new Map<string, { evaluations: number; violations: number }>();
      if (!guardrailIds.length) return out;
      const rows = await results.aggregate<{ _id: { g: string; v: number }; n: number }>([
        { $match: { orgId, guardrailId: { $in: guardrailIds } } },
        { $group: { _id: { g: '$guardrailId', v: '$violationCount' }, n: { $sum: 1 } } },
      ]).toArray();
      for (const { _id, n } of rows) {
        const c = out.get(_id.g) ?? { evaluations: 0, violations: 0 };
        out.set(_id.g, { evaluations: c.evaluations + n, violations: c.violations + n * _id.v });
      }
      return out;
    },
    removeResultsOf: async (orgId: string, guardrailId: string) => { await results.deleteMany({ orgId, guardrailId }); },
    removeOrg: async (orgId: string) => {
      await Promise.all([guardrails.deleteMany({ orgId }), evaluations.deleteMany({ orgId }), results.deleteMany({ orgId })]);
    },
  };
}
export type GuardrailStore = ReturnType<typeof createGuardrailStore>;
