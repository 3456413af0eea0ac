// The risk model: L2-regularised logistic regression fitted by damped Newton's method
// (iteratively reweighted least squares with step halving), with ml-matrix solving each Newton step, and its exact Shapley
// values. Pure functions, no I/O.
//
// Why not ml-logistic-regression's own fit (2.0): it exposes its weights, but it fits without an
// intercept or regularisation by 50,000 fixed-step full-batch gradient steps on the summed
// gradient. At 100,000 drift records (hundreds of thousands of labelled windows) that is minutes
// per learn, the step size must be tuned to the sample count, and on separable histories (a
// resource that drifts every week) the unregularised weights grow without bound. Newton's method
// converges in a dozen passes and the L2 term keeps the weights finite.
//
// Explanations: for a linear model in log-odds space f(x) = b + Σ w_j x_j with independent
// features, the Shapley value of feature j (interventional, background = the training samples)
// is exactly w_j (x_j − E[x_j]), and base value + Σ phi_j = f(x) (Lundberg & Lee 2017, linear
// SHAP). Features are standardised with the training mean, so E[z_j] = 0 and the base value is b
// plus the mean of any extra rows' offset (computed, not assumed).
import { CholeskyDecomposition, Matrix, solve } from 'ml-matrix';

export interface LinearModel {
  features: string[];
  /** Training mean and standard deviation of each raw feature (standardisation). */
  means: number[];
  stds: number[];
  /** Weights on the standardised features, and the intercept, in log-odds. */
  weights: number[];
  intercept: number;
  /** E[f(x)] over the training samples: the Shapley base value, in log-odds. */
  baseValue: number;
  /** Mean of each standardised feature over the training samples (0 up to rounding). */
  background: number[];
}

export interface Dataset { rows: Float64Array[]; labels: Uint8Array | number[] }

const sigmoid = (z: number) => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

/** Fits the model; lambda is the L2 penalty on the standardised weights (not the intercept). */
export function fitLogistic(features: string[], data: Dataset, opts: { lambda?: number; maxIter?: number } = {}): LinearModel {
  const lambda = opts.lambda ?? 1;
  const n = data.rows.length;
  const f = features.length;
  const means = new Array<number>(f).fill(0);
  const stds = new Array<number>(f).fill(0);
  for (const r of data.rows) for (let j = 0; j < f; j++) means[j] += r[j] / n;
  for (const r of data.rows) for (let j = 0; j < f; j++) stds[j] += (r[j] - means[j]) ** 2 / n;
  for (let j = 0; j < f; j++) stds[j] = Math.sqrt(stds[j]) || 1;
  // Standardised design with a leading 1 for the intercept, row-major.
  const d = f + 1;
  const X = new Float64Array(n * d);
  data.rows.forEach((r, i) => {
    X[i * d] = 1;
    for (let j = 0; j < f; j++) X[i * d + j + 1] = (r[j] - means[j]) / stds[j];
  });
  const y = data.labels;
  let beta = new Array<number>(d).fill(0);
  const maxIter = opts.maxIter ?? 50;
  /** Negative log-likelihood plus the L2 penalty, in a numerically stable form. */
  const loss = (b: number[]) => {
    let l = 0;
    for (let i = 0; i < n; i++) {
      let z = 0;
      for (let j = 0; j < d; j++) z += X[i * d + j] * b[j];
      // log(1 + e^z) − y·z
      l += (z > 0 ? z + Math.log1p(Math.exp(-z)) : Math.log1p(Math.exp(z))) - y[i] * z;
    }
    for (let j = 1; j < d; j++) l += (lambda / 2) * b[j] * b[j];
    return l;
  };
  for (let iter = 0; iter < maxIter; iter++) {
    // Gradient g = Xᵀ(y − p) − λβ, Hessian H = XᵀWX + λI (intercept unpenalised): solve H·δ = g.
    const g = new Float64Array(d);
    const H = new Float64Array(d * d);
    for (let i = 0; i < n; i++) {
      const o = i * d;
      let z = 0;
      for (let j = 0; j < d; j++) z += X[o + j] * beta[j];
      const p = sigmoid(z);
      const w = Math.max(p * (1 - p), 1e-10);
      const e = y[i] - p;
      for (let a = 0; a < d; a++) {
        const xa = X[o + a];
        g[a] += xa * e;
        const wa = w * xa;
        for (let b = a; b < d; b++) H[a * d + b] += wa * X[o + b];
      }
    }
    const hm = new Matrix(d, d);
    for (let a = 0; a < d; a++) {
      for (let b = a; b < d; b++) { hm.set(a, b, H[a * d + b]); hm.set(b, a, H[a * d + b]); }
      if (a > 0) { hm.set(a, a, hm.get(a, a) + lambda); g[a] -= lambda * beta[a]; }
    }
    const rhs = Matrix.columnVector(Array.from(g));
    const chol = new CholeskyDecomposition(hm);
    const step = (chol.isPositiveDefinite() ? chol.solve(rhs) : solve(hm, rhs, true)).to1DArray();
    // Damped Newton: halve the step until the penalised loss falls (a full step can overshoot
    // on nearly separable histories, where the loss is flat in some directions).
    const before = loss(beta);
    let scale = 1;
    let next = beta.map((b, j) => b + step[j]);
    for (let k = 0; k < 30 && !(loss(next) <= before); k++) {
      scale /= 2;
      next = beta.map((b, j) => b + scale * step[j]);
    }
    const moved = Math.max(...next.map((b, j) => Math.abs(b - beta[j])));
    beta = next;
    if (moved < 1e-8) break;
  }
  const weights = beta.slice(1);
  const background = new Array<number>(f).fill(0);
  for (let i = 0; i < n; i++) for (let j = 0; j < f; j++) background[j] += X[i * d + j + 1] / n;
  const baseValue = beta[0] + weights.reduce((s, w, j) => s + w * background[j], 0);
  return { features, means, stds, weights, intercept: beta[0], baseValue, background };
}

/** The model's output for one raw feature row, in log-odds. */
export function logOdds(m: LinearModel, row: ArrayLike<number>): number {
  let z = m.intercept;
  for (let j = 0; j < m.weights.length; j++) z += m.weights[j] * (row[j] - m.means[j]) / m.stds[j];
  return z;
}
export const probability = (m: LinearModel, row: ArrayLike<number>) => sigmoid(logOdds(m, row));

/** Exact Shapley values of one row (log-odds): phi_j = w_j (z_j − E[z_j]); base + Σ phi = logOdds. */
export function shapley(m: LinearModel, row: ArrayLike<number>): Record<string, number> {
  const out: Record<string, number> = {};
  m.features.forEach((name, j) => { out[name] = m.weights[j] * ((row[j] - m.means[j]) / m.stds[j] - m.background[j]); });
  return out;
}

/** Area under the ROC curve (Mann–Whitney U, ties counted half); null without both classes. */
export function auc(scores: number[], labels: ArrayLike<number>): number | null {
  const idx = scores.map((s, i) => i).sort((a, b) => scores[a] - scores[b]);
  let pos = 0; let neg = 0; let rankSum = 0;
  for (let i = 0; i < idx.length;) {
    let j = i;
    while (j < idx.length && scores[idx[j]] === scores[idx[i]]) j++;
    const rank = (i + j + 1) / 2; // average 1-based rank of the tie group
    for (let k = i; k < j; k++) if (labels[idx[k]]) { pos++; rankSum += rank; }
    i = j;
  }
  neg = idx.length - pos;
  if (!pos || !neg) return null;
  return (rankSum - (pos * (pos + 1)) / 2) / (pos * neg);
}

export interface CalibrationBin { bin: string; predicted: number; observed: number; count: number }
/** Reliability table in 10 equal-width probability bins, the Brier score and the expected calibration error. */
export function calibration(probs: number[], labels: ArrayLike<number>) {
  const bins = Array.from({ length: 10 }, () => ({ p: 0, y: 0, n: 0 }));
  let brier = 0;
  probs.forEach((p, i) => {
    const b = bins[Math.min(9, Math.floor(p * 10))];
    b.p += p; b.y += labels[i]; b.n++;
    brier += (p - labels[i]) ** 2;
  });
  const n = probs.length || 1;
  const table: CalibrationBin[] = bins.map((b, k) => ({ bin: `${k / 10}-${(k + 1) / 10}`, predicted: b.n ? round(b.p / b.n) : 0, observed: b.n ? round(b.y / b.n) : 0, count: b.n }));
  const ece = bins.reduce((s, b) => s + (b.n ? Math.abs(b.p / b.n - b.y / b.n) * b.n : 0), 0) / n;
  return { bins: table, brierScore: round(brier / n), expectedCalibrationError: round(ece) };
}

export const round = (v: number, digits = 4) => Math.round(v * 10 ** digits) / 10 ** digits;
export const logit = (p: number) => Math.log(p / (1 - p));
