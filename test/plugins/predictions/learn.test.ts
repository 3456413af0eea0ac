// Predictions on a synthetic history (history.ts): the model ranks resources that drift on a
// schedule and after their repository's changes above those that never drift again (held-out
// AUC >= 0.8), every explanation adds up to the model's output, learn runs one at a time per
// organization, and one organization's model never sees another's records.
import t from 'tap';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { insertHistory, synthesize } from './history.ts';
import { FEATURES } from '../../../plugins/predictions/features.ts';

const DAY = 86_400_000;

t.test('learn, predict, explain, act', async (t) => {
  const { app, ctx, services } = await buildTestApp(t);
  const a = await register(app);
  const b = await register(app);
  await ctx.tenancy.setPlan(a.orgId, 'enterprise');
  await ctx.tenancy.setPlan(b.orgId, 'enterprise');
  const call = async (s: { token: string }, method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url: `/api/predictions${url}`, headers: bearer(s.token), ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() };
  };
  const config = async (s: { token: string }, name: string) =>
    (await app.inject({ method: 'POST', url: '/api/repo-configs', headers: bearer(s.token), payload: { repositoryName: name, branch: 'main', provider: 'cloud_a' } })).json().data._id as string;
  const repos = [{ id: await config(a, 'acme/net'), name: 'acme/net' }, { id: await config(a, 'acme/app'), name: 'acme/app' }];
  const bRepo = await config(b, 'beta/infra');

  t.match((await call(a, 'GET', '/model')).body.data, { status: 'untrained', trainedAt: null }, 'no model before the first learn');
  t.same((await call(a, 'GET', '/all')).body.data, [], 'no predictions before the first learn');

  const now = Date.now();
  const hist = synthesize(a.orgId, repos, { perKind: 12, days: 140, now });
  await insertHistory(ctx.db.db, hist);
  // Organization B: five drifts of its own over ten days, too little for a model.
  const few = synthesize(b.orgId, [{ id: bRepo, name: 'beta/infra' }], { perKind: 1, days: 10, now, seed: 3 });
  await insertHistory(ctx.db.db, few);
  const bDrifts = few.drifts.length;

  // Five concurrent requests: one run, and every answer names it.
  const answers = await Promise.all(Array.from({ length: 5 }, () => call(a, 'POST', '/learn')));
  t.same(answers.map((r) => r.status), [202, 202, 202, 202, 202], 'learn answers at once (202)');
  const runIds = new Set(answers.map((r) => r.body.data.runId));
  t.equal(runIds.size, 1, 'concurrent calls answer the same run');
  t.equal(answers.filter((r) => !r.body.data.alreadyRunning).length, 1, 'exactly one call started it');
  const runId = [...runIds][0];
  t.match((await call(a, 'GET', '/model')).body.data.learning, { runId, status: 'queued' }, 'the model shows the queued run');

  const result = await services.predictions!.runLearn(a.orgId, runId, new Date(now));
  t.equal(result?.status, 'trained', 'the job trained a model');
  t.equal(await services.predictions!.runLearn(a.orgId, runId, new Date(now)), null, 'the same job again does nothing');

  const model = (await call(a, 'GET', '/model')).body.data;
  t.equal(model.status, 'trained');
  t.equal(model.learning, null, 'the slot is free again');
  t.ok(model.validation.auc >= 0.8, `held-out AUC ${model.validation.auc} >= 0.8`);
  t.equal(model.validation.calibration.length, 10, 'calibration table on the held-out split');
  t.same(model.features, [...FEATURES]);
  t.same(model.missing, []);
  t.equal(model.history.drifts, hist.drifts.length, "the model learned from exactly the organization's own drifts");

  // Every prediction of the trained model: base value + Σ shapValues = output (log-odds).
  const preds = await ctx.db.db.collection('predictions').find({ orgId: a.orgId, runId }).toArray();
  t.equal(preds.length, hist.behaviour.size, 'one prediction per managed resource');
  const bad = preds.filter((p) => Math.abs(p.baseValue + Object.values(p.shapValues as Record<string, number>).reduce((s, v) => s + v, 0) - p.output) > 1e-9);
  t.equal(bad.length, 0, `additivity holds for all ${preds.length} predictions`);
  t.ok(preds.every((p) => Math.abs(1 / (1 + Math.exp(-p.output)) - p.probability) < 1e-12 && p.riskScore === Math.round(p.probability * 100)), 'riskScore is the output as a probability × 100');
  const mean = (kind: string) => {
    const s = preds.filter((p) => hist.behaviour.get(`${p.repositoryConfig}|${p.resourceAddress}`) === kind);
    return s.reduce((acc, p) => acc + p.riskScore, 0) / s.length;
  };
  t.ok(mean('scheduled') > mean('never') + 30, `scheduled (${mean('scheduled').toFixed(1)}) far above never (${mean('never').toFixed(1)})`);
  t.ok(mean('follower') > mean('never'), `after-change (${mean('follower').toFixed(1)}) above never`);

  // Routes: lists, explanation, insights, patterns, dashboard, metrics.
  const page = (await call(a, 'GET', '/all?limit=5&page=1')).body;
  t.match(page, { success: true, pagination: { page: 1, limit: 5, total: preds.length } });
  t.ok(page.data[0].riskScore >= page.data[4].riskScore, 'riskiest first');
  for (const f of ['_id', 'resourceType', 'resourceAddress', 'riskScore', 'predictedDriftType', 'confidence', 'repositoryConfig']) t.ok(f in page.data[0], `prediction has ${f}`);
  const high = (await call(a, 'GET', '/high-risk?limit=100')).body.data;
  t.ok(high.length > 0 && high.every((p: { riskScore: number }) => p.riskScore >= 70), 'high-risk: riskScore >= 70');
  const top = page.data[0];
  const ex = (await call(a, 'GET', `/${top._id}/explanation`)).body.data;
  t.equal(ex.predictionId, top._id);
  t.equal(Object.keys(ex.shapValues).length, FEATURES.length, 'a Shapley value per feature');
  t.ok(Math.abs(ex.baseValue + Object.values(ex.shapValues as Record<string, number>).reduce((s: number, v: number) => s + v, 0) - ex.output) < 1e-9, 'the explanation route adds up too');
  t.ok(ex.topFeatures.length === 5 && ex.topFeatures.every((f: { impact: number; direction: string; feature: string }) => f.impact >= 0 && (f.direction === (ex.shapValues[f.feature] > 0 ? 'increases' : 'decreases'))), 'topFeatures by magnitude with direction');
  t.ok(ex.topFeatures[0].impact >= ex.topFeatures[4].impact, 'largest first');
  const insights = (await call(a, 'GET', '/insights')).body.data;
  t.match(insights, { totalPredictions: preds.length, highRiskCount: high.length, avgConfidence: Number, topRiskFactors: Array, anomalies: Array });
  t.ok(insights.topRiskFactors.length > 0 && 'factor' in insights.topRiskFactors[0] && 'frequency' in insights.topRiskFactors[0], 'top risk factors');
  const patterns = (await call(a, 'GET', '/patterns')).body.data;
  t.ok(patterns.some((p: { kind: string }) => p.kind === 'periodic'), 'the weekly schedule is found as a periodic pattern');
  t.ok(patterns.some((p: { kind: string }) => p.kind === 'after_repository_change'), 'the after-change resources are found');
  t.match(patterns[0], { pattern: String, frequency: Number, avgSeverity: Number, resources: Array });
  const dash = (await call(a, 'GET', '/ml-dashboard')).body.data;
  t.equal(dash.scoreDistribution.reduce((s: number, b: { count: number }) => s + b.count, 0), preds.length, 'score distribution counts every prediction');
  t.equal(dash.aucOverTime.length, 1);
  t.equal(dash.topRiskyResources[0].riskScore, top.riskScore);
  t.equal((await call(a, 'GET', `/repository/${repos[0].id}?limit=100`)).body.data.length, preds.filter((p) => p.repositoryConfig === repos[0].id).length, 'per-repository predictions');
  t.equal((await call(a, 'GET', `/repository/${bRepo}`)).status, 404, "another organization's config: 404");
  t.equal((await call(a, 'GET', `/metrics/${bRepo}`)).status, 404);

  // seen, action and feedback are stored.
  const scheduled = preds.find((p) => hist.behaviour.get(`${p.repositoryConfig}|${p.resourceAddress}`) === 'scheduled' && p.highRisk)!;
  const never = preds.find((p) => hist.behaviour.get(`${p.repositoryConfig}|${p.resourceAddress}`) === 'never')!;
  t.ok((await call(a, 'POST', `/${scheduled._id}/seen`)).body.data.seenAt, 'seen');
  t.equal((await call(a, 'POST', `/${scheduled._id}/feedback`, { accurate: true, comment: 'yes' })).body.data.feedback.accurate, true, 'feedback');
  t.equal((await call(a, 'POST', `/${never._id}/action`, { action: 'ignore' })).body.data.action.action, 'ignore', 'ignore');
  t.equal((await call(a, 'POST', `/${never._id}/action`, { action: 'explode' })).status, 400, 'unknown action: 400');
  t.equal((await call(a, 'POST', `/${never._id}/feedback`, {})).status, 400, 'feedback without accurate: 400');
  const scan = (await call(a, 'POST', `/${scheduled._id}/action`, { action: 'scan' })).body.data.action;
  t.ok(scan.scanId, 'scan action starts a scan');
  const scanRec = (await app.inject({ method: 'GET', url: `/api/scans/${scan.scanId}`, headers: bearer(a.token) })).json().data;
  t.match(scanRec, { repositoryConfig: scheduled.repositoryConfig, status: 'pending', triggeredBy: 'manual' }, "through the scans service, of the prediction's repository config");
  // A CLI token with the drift scopes may act, but a scan needs scans:trigger as POST /api/scans/trigger does.
  const cli = (await app.inject({ method: 'POST', url: '/api/auth/cli-tokens', headers: { ...bearer(a.token), 'x-org-id': a.orgId }, payload: { name: 'drifts only', scopes: ['drifts:read', 'drifts:write'], allRepositories: true } })).json();
  t.ok(cli.token, 'CLI token');
  const cliScan = await call({ token: cli.token }, 'POST', `/${never._id}/action`, { action: 'scan' });
  t.match(cliScan, { status: 403, body: { error: { code: 'scope_denied' } } }, 'scan action without scans:trigger: 403');
  t.equal((await call({ token: cli.token }, 'POST', `/${never._id}/action`, { action: 'investigate' })).status, 200, 'investigate with drifts:write');
  const m1 = (await call(a, 'GET', '/metrics')).body.data;
  t.match(m1, { evaluatedRuns: 0, feedback: { total: 1, accurate: 1 }, actions: { ignore: 0, investigate: 1, scan: 1 }, seen: 1 });

  // Eight days later, with the scheduled resources' drifts of that week recorded: the first run's
  // high-risk calls are checked against them, and the feedback is a label.
  const later = synthesize(a.orgId, repos, { perKind: 12, days: 8, now: now + 8 * DAY, seed: 11 });
  await insertHistory(ctx.db.db, { drifts: later.drifts.filter((d) => String(d.resourceAddress).includes('scheduled')), scans: [] });
  const run2 = (await call(a, 'POST', '/learn')).body.data.runId;
  await services.predictions!.runLearn(a.orgId, run2, new Date(now + 8 * DAY));
  const m2 = (await call(a, 'GET', '/metrics')).body.data;
  t.equal(m2.evaluatedRuns, 1, 'the first run is evaluated once its horizon has passed');
  t.ok(m2.truePositives > 0 && m2.precision > 0.5 && m2.recall > 0, `precision ${m2.precision}, recall ${m2.recall}`);
  const model2 = (await call(a, 'GET', '/model')).body.data;
  t.ok(model2.samples.fromFeedback >= 2, 'seen/feedback/ignore predictions are training samples at the next learn');
  t.equal((await call(a, 'GET', `/${scheduled._id}`)).status, 200, "the first run's predictions stay readable");
  t.ok((await call(a, 'GET', '/all?limit=1')).body.data[0].previousRiskScore !== undefined, 'previous risk score carried');
  t.equal((await call(a, 'GET', '/ml-dashboard')).body.data.aucOverTime.length, 2, 'AUC over time');

  // Organization B: its own five drifts only; base-rate predictions, marked so.
  const bRun = (await call(b, 'POST', '/learn')).body.data.runId;
  await services.predictions!.runLearn(b.orgId, bRun, new Date(now));
  const bModel = (await call(b, 'GET', '/model')).body.data;
  t.equal(bModel.status, 'insufficient_data');
  t.ok(bModel.missing.length > 0 && bModel.missing[0].includes('windows'), `says what is missing: ${bModel.missing[0]}`);
  t.equal(bModel.history.drifts, bDrifts, "B's model saw only B's records");
  const bPreds = (await call(b, 'GET', '/all?limit=100')).body.data;
  t.equal(bPreds.length, 3, "one prediction per B resource, none of A's");
  t.ok(bPreds.every((p: { basis: string; confidence: number; repositoryConfig: string }) => p.basis === 'base_rate' && p.confidence === 0 && p.repositoryConfig === bRepo), 'base-rate predictions, marked so');
  const bEx = (await call(b, 'GET', `/${bPreds[0]._id}/explanation`)).body.data;
  t.match(bEx, { shapValues: {}, topFeatures: [], basis: 'base_rate' });
  t.equal(bEx.baseValue, bEx.output, 'a base-rate explanation is its base value');
  t.equal((await call(b, 'GET', `/${top._id}`)).status, 404, "A's prediction is 404 to B");
  t.equal((await call(b, 'POST', `/${top._id}/feedback`, { accurate: false })).status, 404);
  t.equal((await call(a, 'GET', '/model')).body.data.history.drifts, hist.drifts.length + later.drifts.filter((d) => String(d.resourceAddress).includes('scheduled')).length, "A's model is untouched by B's records");
  t.equal((await call(a, 'GET', `/${'0'.repeat(24)}`)).status, 404, 'unknown id: 404');
  // The nightly job: a cron at 02:30 UTC that asks for a run of every organization that learned.
  const nightly = await ctx.db.db.collection('agenda_jobs').findOne({ name: 'predictions.nightly' });
  t.equal(nightly?.repeatInterval, '30 2 * * *', 'nightly job scheduled');
  t.match(new Date(nightly?.nextRunAt).toISOString(), /T02:30:00/, 'at 02:30 UTC');
  await services.predictions!.nightly();
  t.match((await call(a, 'GET', '/model')).body.data.learning, { trigger: 'schedule', status: 'queued' }, 'the nightly job queued a run for A');
  t.match((await call(b, 'GET', '/model')).body.data.learning, { trigger: 'schedule' }, 'and for B');

});
