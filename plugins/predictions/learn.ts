// One learn run of one organization: its own history in, a model, its validation, a prediction
// per managed resource and the read routes' summaries out. Reads other plugins' records only
// through their services (drifts.eachSince, scans.completedSince), always scoped by orgId.
import { newId } from '../../core/crypto.ts';
import type { DriftService } from '../drifts/service.ts';
import type { ScanService } from '../scans/service.ts';
import { isoDay } from '../drifts/trend.ts';
import {
  buildHistory, CHANGE_CLASSES, classOf, drifted, FEATURES, featuresAt, likelyClass, typeMixes,
  type DriftEvent, type History, type Resource, type ScanEvent,
} from './features.ts';
import { auc, calibration, fitLogistic, logit, logOdds, round, shapley, type LinearModel } from './model.ts';
import type { ModelDoc, Prediction, PredictionStore } from './store.ts';
import type { InsightsView } from './schemas.ts';
import { patternsOf } from './drift-patterns.ts';

const DAY = 86_400_000;
export const HORIZON_DAYS = 7;
/** riskScore at or above this is high risk. */
export const HIGH_RISK = 70;
const LOOKBACK_DAYS = 365;
const MAX_WINDOWS = 26;
const MAX_SAMPLES = 300_000;
const KEEP_RUNS = 30;
export const REQUIRED = { windows: 4, samples: 50, positives: 5, negatives: 5 } as const;
export const ALGORITHM = 'L2-regularised logistic regression (Newton/IRLS, ml-matrix), per organization';
export const EXPLANATION = 'Exact Shapley values of the linear model in log-odds space: phi_j = w_j (x_j - E[x_j]) over the training samples; baseValue = E[f(x)]';

export interface LearnDeps { store: PredictionStore; drifts: Pick<DriftService, 'eachSince'>; scans: Pick<ScanService, 'completedSince'> }

export interface Sample { row: Float64Array; label: number }

/**
 * Labelled windows: cut-offs t = now − k·horizon whose following horizon has fully passed, each
 * (resource, cut-off) a sample labelled by whether it drifted in (t, t + horizon]. The latest
 * quarter of the windows is held out for validation. Exported for the tests, which fit a model
 * with shuffled labels on the same split (a model that must fail the AUC bar).
 */
export function labelledWindows(h: History, nowMs: number, horizon: number) {
  const windows: { t: number; samples: Sample[] }[] = [];
  let total = 0;
  for (let k = 1; k <= MAX_WINDOWS && h.first !== null; k++) {
    const t = nowMs - k * horizon;
    if (t < h.first) break;
    const samples: Sample[] = [];
    for (const r of h.resources) {
      const row = featuresAt(h, r, t, horizon);
      if (row) samples.push({ row, label: drifted(r, t, horizon) ? 1 : 0 });
    }
    if (total + samples.length > MAX_SAMPLES) break;
    total += samples.length;
    windows.unshift({ t, samples });
  }
  const heldOut = Math.max(1, Math.ceil(windows.length * 0.25));
  const trainW = windows.slice(0, windows.length - heldOut);
  const validW = windows.slice(windows.length - heldOut);
  return { windows, trainW, validW, train: trainW.flatMap((w) => w.samples), valid: validW.flatMap((w) => w.samples) };
}

/** Loads the organization's history (its own records only). */
export async function loadHistory(d: Pick<LearnDeps, 'drifts' | 'scans'>, orgId: string, now: Date): Promise<History> {
  const since = new Date(now.getTime() - LOOKBACK_DAYS * DAY);
  const events: DriftEvent[] = [];
  await d.drifts.eachSince(orgId, isoDay(since), (rows) => {
    for (const r of rows) {
      const changes = Array.isArray((r.diff as { changes?: unknown })?.changes) ? (r.diff as { changes: { attribute?: unknown }[] }).changes : [];
      let classes = 0;
      for (const c of changes) classes |= 1 << CHANGE_CLASSES.indexOf(classOf(String(c.attribute ?? '')));
      if (!changes.length) classes = 1 << CHANGE_CLASSES.indexOf('other');
      events.push({
        repo: r.repositoryConfig, address: r.resourceAddress, type: r.resourceType, t: new Date(r.detectedAt).getTime(),
        resolved: r.resolvedAt ? new Date(r.resolvedAt).getTime() : null, severity: r.severityRank ?? 1, commit: r.commit ?? null,
        classes, attributes: changes.length,
      });
    }
  });
  const scans: ScanEvent[] = (await d.scans.completedSince(orgId, since))
    .filter((s) => s.completedAt).map((s) => ({ repo: s.repositoryConfig, t: new Date(s.completedAt!).getTime() }));
  return buildHistory(events, scans);
}

const keyOf = (repo: string, address: string) => `${repo}\u0000${address}`;

export async function learn(d: LearnDeps, orgId: string, runId: string, now = new Date()) {
  const started = Date.now();
  const h = await loadHistory(d, orgId, now);
  const nowMs = now.getTime();
  const horizon = HORIZON_DAYS * DAY;

  const { windows, validW, train, valid } = labelledWindows(h, nowMs, horizon);

  const model = await d.store.model(orgId);
  const touched = await d.store.touched(orgId);
  const feedbackRows = feedbackSamples(touched, h, nowMs);
  const trainAll = [...train, ...feedbackRows];
  const count = (s: Sample[], y: number) => s.reduce((n, x) => n + (x.label === y ? 1 : 0), 0);

  const missing: string[] = [];
  if (windows.length < REQUIRED.windows) missing.push(`${windows.length} complete ${HORIZON_DAYS}-day windows of drift history; at least ${REQUIRED.windows} needed (${REQUIRED.windows * HORIZON_DAYS + HORIZON_DAYS} days since the first drift)`);
  if (trainAll.length < REQUIRED.samples) missing.push(`${trainAll.length} labelled training samples; at least ${REQUIRED.samples} needed`);
  if (count(trainAll, 1) < REQUIRED.positives) missing.push(`${count(trainAll, 1)} training samples where the resource drifted; at least ${REQUIRED.positives} needed`);
  if (count(trainAll, 0) < REQUIRED.negatives) missing.push(`${count(trainAll, 0)} training samples where the resource did not drift; at least ${REQUIRED.negatives} needed`);
  if (windows.length >= REQUIRED.windows && (!count(valid, 1) || !count(valid, 0))) missing.push('the held-out (latest) windows need resources that drifted and resources that did not');

  let served: LinearModel | null = null;
  let validation: Record<string, unknown> | null = null;
  if (!missing.length) {
    const m = fitLogistic([...FEATURES], { rows: trainAll.map((s) => s.row), labels: trainAll.map((s) => s.label) });
    const probs = valid.map((s) => 1 / (1 + Math.exp(-logOdds(m, s.row))));
    const cal = calibration(probs, valid.map((s) => s.label));
    const a = auc(probs, valid.map((s) => s.label));
    validation = {
      auc: a === null ? null : round(a), brierScore: cal.brierScore, expectedCalibrationError: cal.expectedCalibrationError, calibration: cal.bins,
      samples: valid.length, positives: count(valid, 1), windows: validW.length,
      from: new Date(validW[0].t), to: new Date(validW[validW.length - 1].t + horizon),
    };
    // Served model: the same procedure on every labelled window (validation measured it on the earlier ones).
    const all = [...trainAll, ...valid];
    served = fitLogistic([...FEATURES], { rows: all.map((s) => s.row), labels: all.map((s) => s.label) });
  }

  // Predictions for every managed resource, now.
  const prevRun = model?.runId ?? null;
  const previous = new Map((prevRun ? await d.store.ofRun(orgId, prevRun) : []).map((p) => [keyOf(p.repositoryConfig, p.resourceAddress), p.riskScore]));
  const mix = typeMixes(h);
  const baseRates = typeBaseRates(h, windows, nowMs, horizon);
  const createdAt = new Date(nowMs);
  const horizonEndsAt = new Date(nowMs + horizon);
  const predictions: Prediction[] = h.resources.map((r) => {
    const common = {
      _id: newId(), orgId, runId, resourceType: r.type, resourceAddress: r.address, repositoryConfig: r.repo,
      predictedDriftType: likelyClass(h, r, mix), previousRiskScore: previous.get(r.key) ?? null, createdAt, horizonEndsAt,
      seenAt: null, seenBy: null, action: null, feedback: null, touched: false,
    };
    if (served) {
      const row = featuresAt(h, r, nowMs, horizon)!;
      const output = logOdds(served, row);
      const p = 1 / (1 + Math.exp(-output));
      const riskScore = Math.round(p * 100);
      return {
        ...common, riskScore, probability: p, confidence: round(Math.max(p, 1 - p)), basis: 'model', highRisk: riskScore >= HIGH_RISK,
        features: Object.fromEntries(FEATURES.map((f, j) => [f, row[j]])), shapValues: shapley(served, row), baseValue: served.baseValue, output,
      } satisfies Prediction;
    }
    const p = Math.min(0.999, Math.max(0.001, baseRates.get(r.type) ?? 0));
    const riskScore = Math.round(p * 100);
    return { ...common, riskScore, probability: p, confidence: 0, basis: 'base_rate', highRisk: riskScore >= HIGH_RISK, features: {}, shapValues: {}, baseValue: logit(p), output: logit(p) } satisfies Prediction;
  });

  // Past runs whose horizon has passed: their high-risk calls against the drifts that followed.
  const metrics = evaluateRuns(await Promise.all((model?.runs ?? []).filter((run) => !run.evaluated && run.at.getTime() + horizon <= nowMs)
    .map(async (run) => ({ run, rows: await d.store.ofRun(orgId, run.runId) }))), h, horizon, (model?.summary?.metrics as Metrics | undefined));

  await d.store.insertMany(predictions);
  const runs = [...(model?.runs ?? []).map((run) => (run.at.getTime() + horizon <= nowMs ? { ...run, evaluated: true } : run)), { runId, at: createdAt, count: predictions.length, evaluated: false }];
  const dropped = runs.slice(0, Math.max(0, runs.length - KEEP_RUNS));
  const status: ModelDoc['status'] = served ? 'trained' : 'insufficient_data';
  const aucNow = (validation?.auc as number | null | undefined) ?? null;
  const aucHistory = [...(model?.aucHistory ?? []), ...(served ? [{ trainedAt: createdAt, auc: aucNow }] : [])].slice(-60);
  const summary = {
    model: {
      status, algorithm: ALGORITHM, explanationMethod: EXPLANATION, horizonDays: HORIZON_DAYS, highRiskThreshold: HIGH_RISK,
      features: [...FEATURES], missing,
      samples: { train: trainAll.length, validation: valid.length, fromFeedback: feedbackRows.length, positives: count(trainAll, 1) + count(valid, 1), windows: windows.length },
      validation,
      coefficients: served ? Object.fromEntries(FEATURES.map((f, j) => [f, round(served!.weights[j] / served!.stds[j], 6)])) : null,
      intercept: served ? round(served.intercept, 6) : null, baseValue: served ? served.baseValue : null,
      history: { drifts: h.drifts, resources: h.resources.length, repositories: h.repoChanges.size || new Set(h.resources.map((r) => r.repo)).size, firstDriftAt: h.first === null ? null : new Date(h.first) },
      learnMs: Date.now() - started,
    },
    insights: insightsOf(predictions, h, nowMs, horizon),
    patterns: patternsOf(h),
    dashboard: dashboardOf(predictions, aucHistory, status, aucNow),
    metrics,
  };
  await d.store.saveModel(orgId, { status, runId, trainedAt: createdAt, summary, runs: runs.slice(dropped.length), aucHistory, lastError: null });
  await d.store.removeRuns(orgId, dropped.map((r) => r.runId));
  return { status, predictions: predictions.length, missing };
}

/** Labels from users at the next learn: a drift that happened wins; then feedback; then `ignore`; then the passed horizon. */
function feedbackSamples(touched: Prediction[], h: History, nowMs: number): Sample[] {
  const byKey = new Map(h.resources.map((r) => [r.key, r]));
  const out: Sample[] = [];
  for (const p of touched) {
    if (p.basis !== 'model' || Object.keys(p.features).length !== FEATURES.length) continue;
    const r: Resource | undefined = byKey.get(keyOf(p.repositoryConfig, p.resourceAddress));
    const t = p.createdAt.getTime();
    const happened = r ? drifted(r, t, p.horizonEndsAt.getTime() - t) : false;
    let label: number | null = null;
    if (happened) label = 1;
    else if (p.feedback) label = p.feedback.accurate === p.highRisk ? 1 : 0;
    else if (p.action?.action === 'ignore') label = 0;
    else if (p.horizonEndsAt.getTime() <= nowMs) label = 0;
    if (label !== null) out.push({ row: Float64Array.from(FEATURES.map((f) => p.features[f])), label });
  }
  return out;
}

/** Per resource type, the share of its (resource, window) samples that drifted; without windows, the last horizon's. */
function typeBaseRates(h: History, windows: { samples: Sample[] }[], nowMs: number, horizon: number) {
  const acc = new Map<string, { y: number; n: number }>();
  const add = (type: string, y: number) => { const a = acc.get(type) ?? { y: 0, n: 0 }; a.y += y; a.n++; acc.set(type, a); };
  if (windows.length) {
    for (let k = 0; k < windows.length; k++) {
      const t = nowMs - (windows.length - k) * horizon;
      for (const r of h.resources) if (r.times[0] <= t) add(r.type, drifted(r, t, horizon) ? 1 : 0);
    }
  } else {
    for (const r of h.resources) add(r.type, r.times.some((x) => x > nowMs - horizon) ? 1 : 0);
  }
  return new Map([...acc].map(([t, a]) => [t, a.y / Math.max(1, a.n)]));
}

export interface Counts { truePositives: number; falsePositives: number; falseNegatives: number; trueNegatives: number }
export interface Metrics { evaluatedRuns: number; overall: Counts; byRepository: Record<string, Counts> }
const zero = (): Counts => ({ truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0 });
function evaluateRuns(runs: { run: { runId: string; at: Date }; rows: Pick<Prediction, 'repositoryConfig' | 'resourceAddress' | 'highRisk'>[] }[], h: History, horizon: number, before?: Metrics): Metrics {
  const m: Metrics = before ? structuredClone(before) : { evaluatedRuns: 0, overall: zero(), byRepository: {} };
  const byKey = new Map(h.resources.map((r) => [r.key, r]));
  for (const { run, rows } of runs) {
    m.evaluatedRuns++;
    for (const p of rows) {
      const r = byKey.get(keyOf(p.repositoryConfig, p.resourceAddress));
      const happened = r ? drifted(r, run.at.getTime(), horizon) : false;
      const field: keyof Counts = p.highRisk ? (happened ? 'truePositives' : 'falsePositives') : (happened ? 'falseNegatives' : 'trueNegatives');
      m.overall[field]++;
      (m.byRepository[p.repositoryConfig] ??= zero())[field]++;
    }
  }
  return m;
}

function insightsOf(preds: Prediction[], h: History, nowMs: number, horizon: number) {
  const high = preds.filter((p) => p.highRisk);
  const factors = new Map<string, number>();
  for (const p of high) {
    const top = Object.entries(p.shapValues).filter(([, v]) => v > 0).sort((a, b) => b[1] - a[1]).slice(0, 3);
    for (const [f] of top) factors.set(f, (factors.get(f) ?? 0) + 1);
  }
  // Anomalies: a risk that jumped since the previous run, or a resource drifting far more often than its type.
  const typeRecent = new Map<string, { n: number; r: number }>();
  const recentOf = (times: number[]) => times.filter((t) => t > nowMs - 30 * 24 * 3600 * 1000).length;
  for (const r of h.resources) { const a = typeRecent.get(r.type) ?? { n: 0, r: 0 }; a.n += recentOf(r.times); a.r++; typeRecent.set(r.type, a); }
  const byKey = new Map(h.resources.map((r) => [r.key, r]));
  const anomalies: InsightsView['anomalies'] = [];
  for (const p of preds) {
    const base = { predictionId: p._id, resourceAddress: p.resourceAddress, resourceType: p.resourceType, repositoryConfig: p.repositoryConfig, riskScore: p.riskScore, previousRiskScore: p.previousRiskScore };
    if (p.previousRiskScore !== null && p.riskScore - p.previousRiskScore >= 30) anomalies.push({ ...base, reason: `risk rose ${p.riskScore - p.previousRiskScore} points since the previous learn` });
    else {
      const r = byKey.get(keyOf(p.repositoryConfig, p.resourceAddress))!;
      const t = typeRecent.get(p.resourceType)!;
      const own = recentOf(r.times);
      const mean = t.n / t.r;
      if (own >= 3 && t.r >= 5 && own >= 3 * mean) anomalies.push({ ...base, reason: `${own} drifts in 30 days; its type averages ${round(mean, 2)} per resource` });
    }
  }
  void horizon;
  return {
    totalPredictions: preds.length,
    highRiskCount: high.length,
    avgConfidence: preds.length ? round(preds.reduce((s, p) => s + p.confidence, 0) / preds.length) : 0,
    topRiskFactors: [...factors].sort((a, b) => b[1] - a[1]).slice(0, 10).map(([factor, frequency]) => ({ factor, frequency })),
    anomalies: anomalies.slice(0, 20),
  };
}

function dashboardOf(preds: Prediction[], aucHistory: { trainedAt: Date; auc: number | null }[], status: string, aucNow: number | null) {
  const buckets = Array.from({ length: 10 }, (_, i) => ({ range: `${i * 10}-${i === 9 ? 100 : i * 10 + 9}`, count: 0 }));
  for (const p of preds) buckets[Math.min(9, Math.floor(p.riskScore / 10))].count++;
  const top = [...preds].sort((a, b) => b.riskScore - a.riskScore || (a._id < b._id ? 1 : -1)).slice(0, 10);
  return {
    status, auc: aucNow, totalPredictions: preds.length, highRiskCount: preds.filter((p) => p.highRisk).length,
    scoreDistribution: buckets, aucOverTime: aucHistory,
    topRiskyResources: top.map((p) => ({ predictionId: p._id, resourceAddress: p.resourceAddress, resourceType: p.resourceType, repositoryConfig: p.repositoryConfig, riskScore: p.riskScore, predictedDriftType: p.predictedDriftType })),
  };
}
