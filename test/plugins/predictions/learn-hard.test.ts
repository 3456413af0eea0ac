// Issue 37 point 3: the model on histories that are not easy (histories.ts). A history with
// overlapping, noisy and changing behaviours, and one shaped like daily scans of the moto estate
// with out-of-band changes over 26 simulated weeks. On each: the held-out AUC the learn run
// reports must reach a bar set a little below what was measured (noisy 0.789, estates 0.807 at
// these seeds), a model fitted on the same split with shuffled labels must not reach it, scores
// must not saturate (mean well below 100, spread over the range, calibration error bounded),
// explanations add up, and the riskiest prediction is explained by what drives it.
import t, { type Test } from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { insertHistory, rng } from './history.ts';
import { estates, noisy, type Made } from './histories.ts';
import { FEATURES } from '../../../plugins/predictions/features.ts';
import { HORIZON_DAYS, labelledWindows, loadHistory } from '../../../plugins/predictions/learn.ts';
import { auc, fitLogistic, logOdds } from '../../../plugins/predictions/model.ts';

type Repo = { id: string; name: string };
const NOW = Date.UTC(2026, 10, 25, 12);
type Pred = { resourceAddress: string; riskScore: number; baseValue: number; output: number; shapValues: Record<string, number> };

async function learnOn(t: Test, repoCount: number, make: (orgId: string, repos: Repo[], now: number) => Made) {
  const { app, ctx, services } = await buildTestApp(t);
  const s = await register(app);
  await ctx.tenancy.setPlan(s.orgId, 'enterprise');
  const repos: Repo[] = [];
  for (let i = 0; i < repoCount; i++) {
    const name = `acme/estate-${i}`;
    const res = await app.inject({ method: 'POST', url: '/api/repo-configs', headers: bearer(s.token), payload: { repositoryName: name, branch: 'main', provider: 'cloud_a' } });
    repos.push({ id: res.json().data._id, name });
  }
  // A fixed clock (a Wednesday noon): the estate's weekly rhythm is then the same on every run.
  const now = NOW;
  await insertHistory(ctx.db.db, make(s.orgId, repos, now));
  const runId = (await app.inject({ method: 'POST', url: '/api/predictions/learn', headers: bearer(s.token) })).json().data.runId;
  t.equal((await services.predictions!.runLearn(s.orgId, runId, new Date(now)))?.status, 'trained', 'trained');
  const model = (await app.inject({ method: 'GET', url: '/api/predictions/model', headers: bearer(s.token) })).json().data;
  const preds = (await ctx.db.db.collection('predictions').find({ orgId: s.orgId, runId }).toArray()) as unknown as Pred[];
  // The same labelled split the run used, for a model that has learned nothing.
  const h = await loadHistory({ drifts: services.drifts!, scans: services.scans! }, s.orgId, new Date(now));
  const split = labelledWindows(h, now, HORIZON_DAYS * 86_400_000);
  const shuffledAuc = (seed: number) => {
    const r = rng(seed);
    const labels = split.train.map((x) => x.label);
    for (let i = labels.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [labels[i], labels[j]] = [labels[j], labels[i]]; }
    const m = fitLogistic([...FEATURES], { rows: split.train.map((x) => x.row), labels });
    return auc(split.valid.map((x) => logOdds(m, x.row)), split.valid.map((x) => x.label)) ?? 0;
  };
  return { model, preds, shuffledAuc };
}

function checks(t: Test, r: Awaited<ReturnType<typeof learnOn>>, bar: { auc: number; ece: number }) {
  const { model, preds, shuffledAuc } = r;
  const v = model.validation;
  t.ok(v.auc >= bar.auc, `held-out AUC ${v.auc} >= ${bar.auc}`);
  const broken = [1, 2, 3].map(shuffledAuc);
  t.ok(broken.every((a) => a < bar.auc), `a model fitted on shuffled labels stays below the bar (${broken.map((a) => a.toFixed(3)).join(', ')})`);
  t.ok(v.expectedCalibrationError <= bar.ece, `expected calibration error ${v.expectedCalibrationError} <= ${bar.ece}`);

  const scores = preds.map((p) => p.riskScore);
  const mean = scores.reduce((a, b) => a + b, 0) / scores.length;
  const buckets = new Set(scores.map((x) => Math.min(9, Math.floor(x / 10))));
  t.ok(mean <= 50, `mean risk ${mean.toFixed(1)} well below 100 (<= 50)`);
  t.ok(Math.min(...scores) <= 10 && Math.max(...scores) >= 70, `scores from ${Math.min(...scores)} to ${Math.max(...scores)}: both ends of the range`);
  t.ok(buckets.size >= 5, `${buckets.size} of the 10 score deciles used`);
  const bad = preds.filter((p) => Math.abs(p.baseValue + Object.values(p.shapValues).reduce((s, x) => s + x, 0) - p.output) > 1e-9);
  t.equal(bad.length, 0, `additivity holds for all ${preds.length} predictions`);
  return [...preds].sort((a, b) => b.riskScore - a.riskScore);
}
const topFeature = (p: Pred) => Object.entries(p.shapValues).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]))[0];

t.test('noisy, overlapping behaviours: AUC bar, no saturation, explanations', async (t) => {
  const r = await learnOn(t, 3, (orgId, repos, now) => noisy(orgId, repos, { perRepo: 40, days: 182, now, seed: 37 }));
  const ranked = checks(t, r, { auc: 0.75, ece: 0.1 });
  // The riskiest resources are the ones drifting most often lately: that is what the explanation names.
  const [feature, value] = topFeature(ranked[0]);
  t.ok(['drifts_total', 'drifts_7d', 'drifts_30d'].includes(feature) && value > 0, `the riskiest (${ranked[0].riskScore}) is explained by how often it drifted: ${feature} +${value.toFixed(2)}`);
});

t.test('daily scans of the moto estate over 26 weeks: AUC bar, no saturation, explanations', async (t) => {
  const r = await learnOn(t, 8, (orgId, repos, now) => estates(orgId, repos, { weeks: 26, now, seed: 41 }));
  const ranked = checks(t, r, { auc: 0.78, ece: 0.12 });
  // The weekly batch resizes the instance every Friday: the riskiest resource, and the size of its
  // changes (what sets it apart from every other resource of the estate) its top feature.
  t.equal(ranked[0].resourceAddress, 'aws_instance.web', 'the batch-resized instance is the riskiest');
  const [feature, value] = topFeature(ranked[0]);
  t.ok(feature === 'share_size' && value > 0, `its top feature is its size changes: ${feature} +${value.toFixed(2)}`);
});
