// Issue 32, point 5: a member of a Pro organization deploys a `matches` rule whose pattern
// backtracks catastrophically (^a*a*a*a*a*a*b$: about n^6 steps on n `a`s) and evaluates a
// plan built to trigger it. Patterns now run on RE2 (linear in the string), patterns RE2 cannot
// run are refused at write time, and the evaluation runs in a worker thread with a time limit,
// so no plan holds the request thread that every tenant shares.
import t from 'tap';
import { setup } from './helper.ts';
import { evaluatePlan, type PlanDocument } from '../../../plugins/guardrails/plan.ts';
import type { Rule } from '../../../plugins/guardrails/policy-rules.ts';

const ATTACK = '^a*a*a*a*a*a*b$';
const ATTACK_RULES: Rule[] = [{ resourceType: 'aws_instance', attribute: 'tags.Name', operator: 'matches', value: ATTACK }];

/** A plan of instances named as given. */
const named = (...names: string[]): PlanDocument => ({
  format_version: '1.2',
  resource_changes: names.map((name, i) => ({
    address: `aws_instance.r[${i}]`, mode: 'managed', type: 'aws_instance', name: 'r', index: i,
    change: { actions: ['create'], after: { instance_type: 't3.micro', tags: { Name: name } }, after_unknown: {}, after_sensitive: {} },
  })),
});

/**
 * Rules that keep an evaluation busy for seconds without any catastrophic pattern: many
 * distinct patterns of a large compiled program, each first run on a 99,990-character string
 * (the engine builds its automaton per pattern; linear, but not free).
 */
const slowRules = (n: number): Rule[] => Array.from({ length: n }, (_, i) => ({ resourceType: 'aws_instance', attribute: 'tags.Name', operator: 'matches', value: `\\p{L}{${400 + i}}\\p{N}` }));
const SLOW_PLAN = named('a'.repeat(99_990));

t.test('the attack pattern: a member deploys it; 120 and 100,000 characters evaluate at once and correctly', async (t) => {
  // In process first: the same evaluation the worker runs.
  const t0 = performance.now();
  const direct = evaluatePlan(named('a'.repeat(120)), [{ _id: 'g', name: 'g', enforcement: 'block', rules: ATTACK_RULES }]);
  const ms = performance.now() - t0;
  t.equal(direct.decision, 'blocked', '120 a\'s do not match ^a*a*a*a*a*a*b$');
  t.ok(ms < 1000, `evaluated in ${Math.round(ms)} ms (a backtracking engine takes seconds to minutes here)`);

  const w = await setup(t);
  const member = await w.member('member');
  const repo = await w.config('acme/infra');
  const created = await w.api('POST', '/api/guardrails', { name: 'names', enforcement: 'block', rules: ATTACK_RULES }, member);
  t.equal(created.status, 201, 'the pattern is accepted: it is not dangerous on RE2');
  t.equal((await w.api('PATCH', `/api/guardrails/${created.body._id}/deploy`, { repositoryIds: [repo] }, member)).status, 200);

  const names = ['a'.repeat(120), `${'a'.repeat(119)}b`, 'a'.repeat(100_000), `${'a'.repeat(99_999)}b`, `${'a'.repeat(100_000)}b`];
  const res = await w.api('POST', '/api/guardrails/evaluate', { repositoryId: repo, plan: named(...names) }, member);
  t.equal(res.status, 201, 'answered within the time limit (5 s)');
  t.equal(res.body.decision, 'blocked');
  t.same(res.body.results[0].violations.map((v: { address: string }) => v.address), ['aws_instance.r[0]', 'aws_instance.r[2]', 'aws_instance.r[4]'],
    'a* then b matches; only a\'s do not; a string past 100,000 characters never matches');
});

t.test('patterns the linear-time engine cannot run are refused at creation with 400 naming why', async (t) => {
  const w = await setup(t);
  const refused = async (value: string, why: RegExp, name: string) => {
    const r = await w.api('POST', '/api/guardrails', { name: 'x', enforcement: 'block', rules: [{ resourceType: 'aws_instance', attribute: 'tags.Name', operator: 'matches', value }] });
    t.equal(r.status, 400, name);
    t.match(r.body.error, { code: 'validation_failed', message: why, details: [{ path: 'body/rules/0/value' }] }, name);
  };
  await refused('(\\w+)\\1', /back-references are not supported.*invalid escape sequence: `\\1`/, 'a back-reference');
  await refused('^(?=.*prod).*$', /lookahead.*not supported.*`\(\?=`/, 'a lookahead');
  await refused('(?<!x)y', /not a valid regular expression/, 'a lookbehind');
  await refused('(a{500}){3}', /invalid repeat count|too large/, 'a nested repetition past RE2\'s bound');
  await refused('.{600}', /too large for the engine \(\d+ instructions compiled, at most 500\)/, 'a program too large');
  await refused('a'.repeat(201), /longer than 200/, 'a pattern too long');
});

t.test('an evaluation past its time limit is stopped and answers 422; the next one is served by a new worker', async (t) => {
  // 1 s: far above a small plan's evaluation even on a loaded machine, far below the 50 patterns' (about 6 s).
  const w = await setup(t, { GUARDRAIL_EVALUATION_TIMEOUT_MS: 1000 });
  const repo = await w.config('acme/infra');
  const slow = await w.guardrail({ name: 'slow', rules: slowRules(50) });
  await w.api('PATCH', `/api/guardrails/${slow}/deploy`, { repositoryIds: [repo] });
  const stopped = await w.api('POST', '/api/guardrails/evaluate', { repositoryId: repo, plan: SLOW_PLAN });
  t.equal(stopped.status, 422);
  t.match(stopped.body, { success: false, error: { code: 'guardrails.evaluation_timeout', message: /could not be evaluated within 1 s/ } });
  t.equal(await w.ctx.db.db.collection('guardrail_evaluations').countDocuments({ orgId: w.owner.orgId }), 0, 'nothing stored');

  await w.api('PATCH', `/api/guardrails/${slow}/undeploy`, { repositoryIds: [repo] });
  const quick = await w.guardrail({ name: 'quick', rules: ATTACK_RULES });
  await w.api('PATCH', `/api/guardrails/${quick}/deploy`, { repositoryIds: [repo] });
  const next = await w.api('POST', '/api/guardrails/evaluate', { repositoryId: repo, plan: named('a'.repeat(120)) });
  t.equal(next.status, 201, 'the stopped worker was replaced');
  t.equal(next.body.decision, 'blocked');
});

t.test('while a slow plan is evaluated, other requests are answered (the request thread is free)', async (t) => {
  // One worker, so the evaluations sent behind the slow one wait for it.
  const w = await setup(t, { GUARDRAIL_EVALUATION_TIMEOUT_MS: 120_000, GUARDRAIL_WORKERS: 1 });
  const repo = await w.config('acme/infra');
  const slow = await w.guardrail({ name: 'slow', rules: slowRules(20) });
  await w.api('PATCH', `/api/guardrails/${slow}/deploy`, { repositoryIds: [repo] });

  const order: string[] = [];
  const evaluation = w.api('POST', '/api/guardrails/evaluate', { repositoryId: repo, plan: SLOW_PLAN }).then((r) => { order.push('evaluate'); return r; });
  // Cheap requests until one answers while the evaluation is running in its worker (the gauge
  // says so): with the evaluation on the request thread, none could be answered in between.
  let seen = false;
  for (let i = 0; i < 2000 && !seen && !order.includes('evaluate'); i++) {
    const metrics = await w.app.inject({ method: 'GET', url: '/metrics' });
    seen = /drift_guardrail_evaluations\{state="running"\} 1/.test(metrics.body);
    if (!seen) await new Promise((r) => setTimeout(r, 5));
  }
  t.ok(seen, 'GET /metrics answered while the evaluation runs');
  const health = await w.app.inject({ method: 'GET', url: '/health' });
  order.push('health');
  t.equal(health.statusCode, 200);
  // An organization may have 8 evaluations waiting; the 9th is refused at once with a retry hint.
  const small = { repositoryId: repo, plan: named('x') };
  const waiting = Array.from({ length: 8 }, () => w.api('POST', '/api/guardrails/evaluate', small));
  let refused: Awaited<ReturnType<typeof w.api>> | undefined;
  for (let i = 0; i < 2000 && !refused && !order.includes('evaluate'); i++) {
    const metrics = await w.app.inject({ method: 'GET', url: '/metrics' });
    if (/drift_guardrail_evaluations\{state="queued"\} 8/.test(metrics.body)) refused = await w.api('POST', '/api/guardrails/evaluate', small);
    else await new Promise((r) => setTimeout(r, 5));
  }
  t.equal(refused?.status, 503, 'a 9th waiting evaluation of one organization');
  t.match(refused?.body, { error: { code: 'guardrails.evaluation_busy' } });
  t.equal(refused?.res.headers['retry-after'], '5');
  const done = await evaluation;
  t.same(order, ['health', 'evaluate'], 'GET /health answered before the evaluation that started first');
  t.same((await Promise.all(waiting)).map((r) => r.status), Array(8).fill(201), 'the waiting ones are served after it');
  t.equal(done.status, 201);
  t.equal(done.body.results[0].violationCount, 20, 'and the evaluation completes: no pattern matches');
});
