// Predictions: the read routes answer from the organization's current learn run and the
// summaries written with it; POST /learn queues one run per organization at a time (a unique
// key per organization in prediction_learns) and the job runs it (learn.ts). No HTTP here.
import type { AppContext } from '../../core/context.ts';
import { notFound } from '../../core/errors.ts';
import type { Principal } from '../../core/guards/principal.ts';
import { pageOf } from '../../core/schemas.ts';
import type { DriftService } from '../drifts/service.ts';
import type { ScanService } from '../scans/service.ts';
import { ALGORITHM, EXPLANATION, HIGH_RISK, HORIZON_DAYS } from './learn.ts';
import { createLearning, createMetrics } from './learning.ts';
import { FEATURES } from './features.ts';
import { predictionView, type ActionBody, type DashboardView, type FeedbackBody, type InsightsView, type ListQuery, type ModelView, type PatternList } from './schemas.ts';
import type { Prediction, PredictionStore } from './store.ts';

export { LEARN_JOB } from './learning.ts';
export const NIGHTLY_JOB = 'predictions.nightly';
const TOP_FEATURES = 5;

interface Deps { store: PredictionStore; drifts: DriftService; scans: ScanService }

export function createPredictionService(ctx: AppContext, d: Deps) {
  async function load(orgId: string, id: string) {
    const p = await d.store.get(orgId, id);
    if (!p) throw notFound('Prediction');
    return p;
  }
  async function mustHaveConfig(orgId: string, id: string) {
    if (!(await ctx.repositoryOf('repo-config', orgId, id))) throw notFound('Repository config');
  }
  async function current(orgId: string) {
    return (await d.store.model(orgId))?.runId ?? null;
  }
  async function page(orgId: string, f: { highRisk?: boolean; repositoryConfig?: string }, q: ListQuery, withTotal = false) {
    const runId = await current(orgId);
    if (!runId) return { rows: [], total: 0 };
    const { rows, total } = await d.store.page(orgId, runId, f, (q.page - 1) * q.limit, q.limit, withTotal);
    return { rows: rows.map(predictionView), total: total ?? 0 };
  }
  const learning = createLearning(ctx, d);
  const { requestLearn, runLearn } = learning;
  const metrics = createMetrics(d.store);

  const touch = async (orgId: string, id: string, set: Partial<Prediction>) =>
    predictionView((await d.store.update(orgId, id, { ...set, touched: true })) ?? (await load(orgId, id)));

  return {
    requestLearn,
    runLearn,
    /** The nightly job: a learn run for every organization that ever learned or completed a scan. */
    async nightly() {
      for (const orgId of await d.store.activeOrgs(10_000)) await requestLearn(orgId, 'schedule');
    },
    markActive: (orgId: string) => d.store.markActive(orgId),

    highRisk: async (orgId: string, q: ListQuery) => (await page(orgId, { highRisk: true }, q)).rows,
    async all(orgId: string, q: ListQuery) {
      const { rows, total } = await page(orgId, {}, q, true);
      return pageOf(rows, q, total);
    },
    async byRepository(orgId: string, configId: string, q: ListQuery) {
      await mustHaveConfig(orgId, configId);
      return (await page(orgId, { repositoryConfig: configId }, q)).rows;
    },
    async insights(orgId: string): Promise<InsightsView> {
      return (await d.store.model(orgId))?.summary?.insights ?? { totalPredictions: 0, highRiskCount: 0, avgConfidence: 0, topRiskFactors: [], anomalies: [] };
    },
    patterns: async (orgId: string): Promise<PatternList> => (await d.store.model(orgId))?.summary?.patterns ?? [],
    async dashboard(orgId: string): Promise<DashboardView> {
      const m = await d.store.model(orgId);
      return m?.summary?.dashboard ?? {
        status: m?.status ?? 'untrained', auc: null, totalPredictions: 0, highRiskCount: 0, scoreDistribution: [], aucOverTime: [], topRiskyResources: [],
      };
    },
    async model(orgId: string): Promise<ModelView> {
      const [m, l] = await Promise.all([d.store.model(orgId), d.store.learning(orgId)]);
      const s = (m?.summary?.model ?? {}) as Partial<ModelView>;
      return {
        status: m?.status ?? 'untrained',
        missing: m?.status === 'insufficient_data' ? (s.missing ?? []) : m?.status === 'trained' ? [] : ['no learn run yet: POST /api/predictions/learn'],
        trainedAt: m?.trainedAt ?? null,
        learning: l ? { runId: l.runId, status: l.status, trigger: l.trigger, queuedAt: l.queuedAt, startedAt: l.startedAt } : null,
        algorithm: ALGORITHM, explanationMethod: EXPLANATION, horizonDays: HORIZON_DAYS, highRiskThreshold: HIGH_RISK, features: [...FEATURES],
        samples: s.samples ?? null, validation: s.validation ?? null, coefficients: s.coefficients ?? null, intercept: s.intercept ?? null,
        baseValue: s.baseValue ?? null, history: s.history ?? null, learnMs: s.learnMs ?? null,
        lastError: m?.lastError ?? null,
      };
    },
    metrics: (orgId: string) => metrics(orgId),
    async repositoryMetrics(orgId: string, configId: string) {
      await mustHaveConfig(orgId, configId);
      return metrics(orgId, configId);
    },

    get: async (orgId: string, id: string) => predictionView(await load(orgId, id)),
    async explanation(orgId: string, id: string) {
      const p = await load(orgId, id);
      const top = Object.entries(p.shapValues).filter(([, v]) => v !== 0).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1])).slice(0, TOP_FEATURES);
      return {
        predictionId: p._id, shapValues: p.shapValues,
        topFeatures: top.map(([feature, v]) => ({ feature, impact: Math.abs(v), direction: v > 0 ? 'increases' as const : 'decreases' as const })),
        baseValue: p.baseValue, output: p.output, probability: p.probability, basis: p.basis,
        method: p.basis === 'model' ? EXPLANATION : 'None: a base-rate prediction has no model; output = baseValue = logit(the type\'s drift rate)',
        featureValues: p.features,
      };
    },
    seen: (orgId: string, id: string, userId: string | undefined) => touch(orgId, id, { seenAt: new Date(), seenBy: userId ?? null }),

    /**
     * `scan` starts a scan of the prediction's repository config as POST /api/scans/trigger would:
     * the manifest's gate asks scans:write (a CLI token scans:trigger) of the caller, the route
     * carries the Scan rate limit, and the daily scan quota is taken through the engine (ctx.limits).
     */
    async action(orgId: string, id: string, body: ActionBody, principal: Principal) {
      const p = await load(orgId, id);
      let scanId: string | null = null;
      if (body.action === 'scan') {
        const scan = await ctx.limits.within(orgId, 'scansPerDay', () => d.scans.trigger(orgId, p.repositoryConfig, principal.userId ?? null, 'manual'));
        scanId = scan._id;
      }
      return touch(orgId, id, { action: { action: body.action, at: new Date(), by: principal.userId ?? null, scanId } });
    },
    feedback: (orgId: string, id: string, body: FeedbackBody, userId: string | undefined) =>
      load(orgId, id).then(() => touch(orgId, id, { feedback: { accurate: body.accurate, comment: body.comment ?? null, at: new Date(), by: userId ?? null } })),
    removeOrg: (orgId: string) => d.store.removeOrg(orgId),
  };
}
export type PredictionService = ReturnType<typeof createPredictionService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { predictions: PredictionService }
}
