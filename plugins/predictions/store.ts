// The only file that touches the predictions collections; declares their indexes.
//  predictions        one record per managed resource per learn run (`runId`); the lists read
//                     the organization's current run, sorted by risk. Older runs are kept (the
//                     newest KEEP_RUNS) so their high-risk calls can be checked against the drifts
//                     that followed, and their seen/action/feedback used as labels.
//  prediction_models  one per organization (_id = orgId): the model, its validation, and the
//                     summaries the read routes answer from (insights, patterns, dashboard,
//                     metrics), written once per learn run.
//  prediction_learns  the learn run in progress (_id = orgId): the unique _id makes one run per
//                     organization at a time; concurrent POST /learn calls read the holder.
import { insertUnlessDuplicate, type CollectionSpec, type Database } from '../../core/db.ts';
import type { ChangeClass } from './features.ts';
import type { DashboardView, InsightsView, PatternList } from './schemas.ts';

export interface Prediction {
  _id: string;
  orgId: string;
  runId: string;
  resourceType: string;
  resourceAddress: string;
  repositoryConfig: string;
  riskScore: number;
  /** P(drift within the horizon), unrounded. */
  probability: number;
  confidence: number;
  predictedDriftType: ChangeClass;
  basis: 'model' | 'base_rate';
  highRisk: boolean;
  /** Raw feature values the model saw (empty for base-rate predictions). */
  features: Record<string, number>;
  shapValues: Record<string, number>;
  baseValue: number;
  /** The model's output in log-odds: baseValue + Σ shapValues. */
  output: number;
  previousRiskScore: number | null;
  createdAt: Date;
  horizonEndsAt: Date;
  seenAt: Date | null;
  seenBy: string | null;
  action: { action: string; at: Date; by: string | null; scanId: string | null } | null;
  feedback: { accurate: boolean; comment: string | null; at: Date; by: string | null } | null;
  /** True once seen, acted on or given feedback: the next learn reads these (labels from feedback and ignore). */
  touched: boolean;
}

export interface LearnLock { _id: string; orgId: string; runId: string; status: 'queued' | 'running'; trigger: 'manual' | 'schedule'; queuedAt: Date; startedAt: Date | null }

/** What a learn run leaves for the read routes (learn.ts), each part in its route's response type. */
export interface ModelSummary {
  model?: Record<string, unknown>;
  insights?: InsightsView;
  patterns?: PatternList;
  dashboard?: DashboardView;
  metrics?: unknown;
}

export interface ModelDoc {
  _id: string;
  orgId: string;
  /** Organizations the nightly learn visits (any that learned or had a scan complete). */
  active: true;
  status: 'untrained' | 'insufficient_data' | 'trained';
  runId: string | null;
  trainedAt: Date | null;
  summary: ModelSummary;
  runs: { runId: string; at: Date; count: number; evaluated: boolean }[];
  aucHistory: { trainedAt: Date; auc: number | null }[];
  /** The last learn run's failure, cleared by the next success. */
  lastError?: string | null;
  updatedAt: Date;
}

const RISK = { riskScore: -1, _id: -1 } as const;
export const PREDICTIONS: CollectionSpec = {
  name: 'predictions', owner: 'plugins/predictions',
  indexes: [
    { key: { orgId: 1, runId: 1, riskScore: -1, _id: -1 } },
    { key: { orgId: 1, runId: 1, highRisk: 1, riskScore: -1, _id: -1 } },
    { key: { orgId: 1, runId: 1, repositoryConfig: 1, riskScore: -1, _id: -1 } },
    { key: { orgId: 1, touched: 1, runId: 1 } },
  ],
};
export const PREDICTION_MODELS: CollectionSpec = { name: 'prediction_models', owner: 'plugins/predictions', indexes: [{ key: { active: 1 } }] };
export const PREDICTION_LEARNS: CollectionSpec = { name: 'prediction_learns', owner: 'plugins/predictions', indexes: [] };

export type PredictionChange = Partial<Pick<Prediction, 'seenAt' | 'seenBy' | 'action' | 'feedback' | 'touched'>>;

export function createPredictionStore(db: Database) {
  const preds = db.collection<Prediction>(PREDICTIONS);
  const models = db.collection<ModelDoc>(PREDICTION_MODELS);
  const learns = db.collection<LearnLock>(PREDICTION_LEARNS);
  return {
    get: (orgId: string, id: string) => preds.findOne({ _id: id, orgId }),
    /** A page, riskiest first; the total only when asked (the paged list), one command less otherwise. */
    async page(orgId: string, runId: string, f: { highRisk?: boolean; repositoryConfig?: string }, skip: number, limit: number, withTotal = true) {
      const filter = { orgId, runId, ...(f.highRisk ? { highRisk: true } : {}), ...(f.repositoryConfig ? { repositoryConfig: f.repositoryConfig } : {}) };
      const [rows, total] = await Promise.all([preds.find(filter).sort(RISK).skip(skip).limit(limit).toArray(), withTotal ? preds.countDocuments(filter) : Promise.resolve(null)]);
      return { rows, total };
    },
    /** One run's predictions, only the fields the learn run compares with what happened. */
    ofRun: (orgId: string, runId: string) => preds.find({ orgId, runId }, { projection: { repositoryConfig: 1, resourceAddress: 1, highRisk: 1, riskScore: 1 } }).toArray(),
    touched: (orgId: string) => preds.find({ orgId, touched: true }).toArray(),
    async insertMany(rows: Prediction[]) {
      for (let i = 0; i < rows.length; i += 1000) await preds.insertMany(rows.slice(i, i + 1000), { ordered: false });
    },
    async update(orgId: string, id: string, set: PredictionChange) {
      return preds.findOneAndUpdate({ _id: id, orgId }, { $set: set }, { returnDocument: 'after' });
    },
    /** Removes the predictions of runs no longer kept (touched ones stay: they are training data). */
    async removeRuns(orgId: string, runIds: string[]) {
      if (!runIds.length) return;
      await preds.deleteMany({ orgId, runId: { $in: runIds }, touched: false });
    },
    model: (orgId: string) => models.findOne({ _id: orgId }),
    async saveModel(orgId: string, set: Partial<Omit<ModelDoc, '_id' | 'orgId'>>) {
      await models.updateOne({ _id: orgId }, { $set: { ...set, orgId, active: true, updatedAt: new Date() } }, { upsert: true });
    },
    /** Marks an organization for the nightly learn (its first scan, or a learn request). */
    async markActive(orgId: string) {
      await insertUnlessDuplicate(models, {
        _id: orgId, orgId, active: true, status: 'untrained', runId: null, trainedAt: null, summary: {}, runs: [], aucHistory: [], updatedAt: new Date(),
      });
    },
    activeOrgs: async (limit: number) => (await models.find({ active: true }, { projection: { _id: 1 } }).limit(limit).toArray()).map((m) => m._id),
    /** Takes the organization's learn slot; false when a run holds it. */
    claimLearn: (lock: LearnLock) => insertUnlessDuplicate(learns, lock),
    learning: (orgId: string) => learns.findOne({ _id: orgId }),
    async setLearning(orgId: string, runId: string, set: Partial<Pick<LearnLock, 'status' | 'startedAt'>>) {
      await learns.updateOne({ _id: orgId, runId }, { $set: set });
    },
    async releaseLearn(orgId: string, runId: string) {
      await learns.deleteOne({ _id: orgId, runId });
    },
    async removeOrg(orgId: string) {
      await preds.deleteMany({ orgId });
      await learns.deleteOne({ _id: orgId });
      await models.deleteOne({ _id: orgId });
    },
  };
}
export type PredictionStore = ReturnType<typeof createPredictionStore>;
