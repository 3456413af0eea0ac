// TypeBox schemas of the predictions routes (SPEC Prediction, Explanation, Insights, Pattern),
// with their Static types beside them.
import { Type, type Static } from 'typebox';
import { Id, Nullable, pageFields, Timestamp, PagedList } from '../../core/schemas.ts';
import type { Prediction } from './store.ts';

export const PredictionIdParams = Type.Object({ predictionId: Id });
export const RepositoryParams = Type.Object({ repositoryConfigId: Id });
export const ListQuery = Type.Object(pageFields());
export type ListQuery = Static<typeof ListQuery>;

const ChangeClass = Type.Union([Type.Literal('tags'), Type.Literal('network_exposure'), Type.Literal('encryption'), Type.Literal('size'), Type.Literal('other')], { description: 'The most likely change class of its next drift' });
export const ACTIONS = ['investigate', 'ignore', 'scan'] as const;

export const PredictionView = Type.Object({
  _id: Id,
  resourceType: Type.String(),
  resourceAddress: Type.String(),
  riskScore: Type.Integer({ minimum: 0, maximum: 100, description: 'P(drift within horizonDays) × 100, rounded; high risk at 70 or more' }),
  predictedDriftType: ChangeClass,
  confidence: Type.Number({ description: 'max(p, 1 − p) of the model; 0 for base-rate predictions (no model behind them)' }),
  repositoryConfig: Id,
  probability: Type.Number(),
  basis: Type.Union([Type.Literal('model'), Type.Literal('base_rate')], { description: "base_rate: the organization's model has insufficient_data; the score is the resource type's drift rate" }),
  highRisk: Type.Boolean(),
  previousRiskScore: Nullable(Type.Integer()),
  createdAt: Timestamp,
  horizonEndsAt: Timestamp,
  seenAt: Nullable(Timestamp),
  action: Nullable(Type.Object({ action: Type.String(), at: Timestamp, by: Nullable(Type.String()), scanId: Nullable(Type.String()) })),
  feedback: Nullable(Type.Object({ accurate: Type.Boolean(), comment: Nullable(Type.String()), at: Timestamp, by: Nullable(Type.String()) })),
});
export type PredictionView = Static<typeof PredictionView>;
export const PredictionList = Type.Array(PredictionView);
export const PredictionPage = PagedList(PredictionView);

export function predictionView(p: Prediction): PredictionView {
  return {
    _id: p._id, resourceType: p.resourceType, resourceAddress: p.resourceAddress, riskScore: p.riskScore, predictedDriftType: p.predictedDriftType,
    confidence: p.confidence, repositoryConfig: p.repositoryConfig, probability: Math.round(p.probability * 10000) / 10000, basis: p.basis,
    highRisk: p.highRisk, previousRiskScore: p.previousRiskScore, createdAt: p.createdAt, horizonEndsAt: p.horizonEndsAt, seenAt: p.seenAt,
    action: p.action, feedback: p.feedback,
  };
}

export const ExplanationView = Type.Object({
  predictionId: Id,
  shapValues: Type.Record(Type.String(), Type.Number(), { description: 'Feature → exact Shapley value in log-odds; baseValue + their sum = output' }),
  topFeatures: Type.Array(Type.Object({ feature: Type.String(), impact: Type.Number({ description: '|Shapley value|' }), direction: Type.Union([Type.Literal('increases'), Type.Literal('decreases')]) })),
  baseValue: Type.Number({ description: 'E[f(x)] over the training samples, log-odds' }),
  output: Type.Number({ description: "The model's output for this prediction, log-odds" }),
  probability: Type.Number(),
  basis: Type.Union([Type.Literal('model'), Type.Literal('base_rate')]),
  method: Type.String(),
  featureValues: Type.Record(Type.String(), Type.Number()),
});

const Factor = Type.Object({ factor: Type.String(), frequency: Type.Integer() });
export const InsightsView = Type.Object({
  totalPredictions: Type.Integer(), highRiskCount: Type.Integer(), avgConfidence: Type.Number(),
  topRiskFactors: Type.Array(Factor, { description: 'Features among the three largest risk-increasing Shapley values of high-risk predictions, by how many' }),
  anomalies: Type.Array(Type.Object({
    predictionId: Id, resourceAddress: Type.String(), resourceType: Type.String(), repositoryConfig: Id,
    riskScore: Type.Integer(), previousRiskScore: Nullable(Type.Integer()), reason: Type.String(),
  })),
});
export const PatternList = Type.Array(Type.Object({
  pattern: Type.String(), kind: Type.Union([Type.Literal('periodic'), Type.Literal('after_repository_change'), Type.Literal('change_class')]),
  frequency: Type.Integer({ description: 'Drifts that follow the pattern' }),
  avgSeverity: Type.Number({ description: 'Mean severity rank: 1 low, 2 medium, 3 high, 4 critical' }),
  resources: Type.Array(Type.String(), { description: 'Resource addresses (at most 20)' }), resourceCount: Type.Integer(),
}));

const Calibration = Type.Array(Type.Object({ bin: Type.String(), predicted: Type.Number(), observed: Type.Number(), count: Type.Integer() }));
export const ModelView = Type.Object({
  status: Type.Union([Type.Literal('untrained'), Type.Literal('insufficient_data'), Type.Literal('trained')]),
  missing: Type.Array(Type.String(), { description: 'What the history lacks for a model (insufficient_data)' }),
  trainedAt: Nullable(Timestamp),
  learning: Nullable(Type.Object({ runId: Id, status: Type.String(), trigger: Type.String(), queuedAt: Timestamp, startedAt: Nullable(Timestamp) })),
  algorithm: Type.String(), explanationMethod: Type.String(), horizonDays: Type.Integer(), highRiskThreshold: Type.Integer(),
  features: Type.Array(Type.String()),
  samples: Nullable(Type.Object({ train: Type.Integer(), validation: Type.Integer(), fromFeedback: Type.Integer(), positives: Type.Integer(), windows: Type.Integer() })),
  validation: Nullable(Type.Object({
    auc: Nullable(Type.Number()), brierScore: Type.Number(), expectedCalibrationError: Type.Number(), calibration: Calibration,
    samples: Type.Integer(), positives: Type.Integer(), windows: Type.Integer(), from: Timestamp, to: Timestamp,
  })),
  coefficients: Nullable(Type.Record(Type.String(), Type.Number())),
  intercept: Nullable(Type.Number()),
  baseValue: Nullable(Type.Number()),
  history: Nullable(Type.Object({ drifts: Type.Integer(), resources: Type.Integer(), repositories: Type.Integer(), firstDriftAt: Nullable(Timestamp) })),
  learnMs: Nullable(Type.Integer()),
  lastError: Nullable(Type.String()),
});
export type ModelView = Static<typeof ModelView>;

const Risky = Type.Object({ predictionId: Id, resourceAddress: Type.String(), resourceType: Type.String(), repositoryConfig: Id, riskScore: Type.Integer(), predictedDriftType: ChangeClass });
export const DashboardView = Type.Object({
  status: Type.String(), auc: Nullable(Type.Number()), totalPredictions: Type.Integer(), highRiskCount: Type.Integer(),
  scoreDistribution: Type.Array(Type.Object({ range: Type.String(), count: Type.Integer() })),
  aucOverTime: Type.Array(Type.Object({ trainedAt: Timestamp, auc: Nullable(Type.Number()) })),
  topRiskyResources: Type.Array(Risky),
});

export const MetricsView = Type.Object({
  repositoryConfigId: Nullable(Id),
  evaluatedRuns: Type.Integer({ description: 'Past learn runs whose horizon has passed' }),
  truePositives: Type.Integer(), falsePositives: Type.Integer(), falseNegatives: Type.Integer(), trueNegatives: Type.Integer(),
  precision: Nullable(Type.Number()), recall: Nullable(Type.Number()),
  feedback: Type.Object({ total: Type.Integer(), accurate: Type.Integer(), inaccurate: Type.Integer() }),
  actions: Type.Object({ investigate: Type.Integer(), ignore: Type.Integer(), scan: Type.Integer() }),
  seen: Type.Integer(),
});

export const LearnView = Type.Object({
  runId: Id, status: Type.Union([Type.Literal('queued'), Type.Literal('running')]), trigger: Type.String(), queuedAt: Timestamp,
  alreadyRunning: Type.Boolean({ description: 'True when a run was already under way: this answer is that run' }),
});

export const ActionBody = Type.Object({
  action: Type.Union([Type.Literal('investigate'), Type.Literal('ignore'), Type.Literal('scan')], { description: 'scan starts a scan of the resource\'s repository config (scans:write; Scan rate limit and the daily scan quota)' }),
});
export type ActionBody = Static<typeof ActionBody>;
export const FeedbackBody = Type.Object({
  accurate: Type.Boolean(),
  comment: Type.Optional(Type.String({ maxLength: 2000 })),
});
export type FeedbackBody = Static<typeof FeedbackBody>;
export type InsightsView = Static<typeof InsightsView>;
export type PatternList = Static<typeof PatternList>;
export type DashboardView = Static<typeof DashboardView>;
