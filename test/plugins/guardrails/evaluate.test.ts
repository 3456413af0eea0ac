// POST /api/guardrails/evaluate through the API on the plan documents of plans/: decisions,
// stored evaluations and counts, events, sensitive values, approvals, break-glass, CLI tokens.
import t from 'tap';
import { plan, setup } from './helper.ts';

t.test('evaluate: deployed active guardrails, per-guardrail decisions, the strictest overall, stored and counted, events', async (t) => {
  const w = await setup(t);
  const repo = await w.config('acme/infra');
  const elsewhere = await w.config('acme/other');
  const block = await w.guardrail({ name: 'sizes', enforcement: 'block' });
  const warn = await w.guardrail({ name: 'ssh', enforcement: 'warn', rules: [{ resourceType: 'aws_security_group', attribute: 'ingress[*].cidr_blocks', operator: 'not_contains', value: '0.0.0.0/0' }] });
  const dry = await w.guardrail({ name: 'tags', enforcement: 'dry_run', rules: [{ resourceType: 'aws_instance', attribute: 'tags.Owner', operator: 'exists' }] });
  const off = await w.guardrail({ name: 'off', enforcement: 'block', status: 'inactive' });
  const notHere = await w.guardrail({ name: 'not here', enforcement: 'block' });
  for (const id of [block, warn, dry, off]) await w.api('PATCH', `/api/guardrails/${id}/deploy`, { repositoryIds: [repo] });
  await w.api('PATCH', `/api/guardrails/${notHere}/deploy`, { repositoryIds: [elsewhere] });

  const res = await w.api('POST', '/api/guardrails/evaluate', { repositoryId: repo, plan: plan('01-create.json') });
  t.equal(res.status, 201);
  const e = res.body;
  t.match(e, { repositoryId: repo, decision: 'blocked', status: 'blocked', approvalId: null, resourceChanges: 8, evaluated: 8, requestedBy: { userId: w.owner.userId, kind: 'user' } });
  const byName = Object.fromEntries(e.results.map((r: { name: string }) => [r.name, r]));
  t.same(Object.keys(byName).sort(), ['sizes', 'ssh', 'tags'], 'the inactive guardrail and one deployed elsewhere are not evaluated');
  t.match(byName.sizes, { decision: 'blocked', violationCount: 1, violations: [{ address: 'aws_instance.web', action: 'create', path: 'instance_type', actual: 'm5.4xlarge', expected: ['t3.micro', 't3.small'] }] });
  t.match(byName.ssh, { decision: 'allowed', enforcement: 'warn', violationCount: 2 });
  t.match(byName.tags, { decision: 'allowed', enforcement: 'dry_run', violationCount: 1 });

  const stored = await w.api('GET', `/api/guardrails/evaluations/${e._id}`);
  t.same(stored.body, e, 'stored as answered');
  const again = await w.api('POST', '/api/guardrails/evaluate', { repositoryId: repo, plan: plan('06-sensitive.json') });
  t.equal(again.body.decision, 'allowed', 'no instance type outside the list, tags present');
  const g = (await w.api('GET', `/api/guardrails/${block}`)).body;
  t.match(g, { evaluationCount: 2, violationCount: 1 });
  t.same(g.evaluations.map((x: { evaluationId: string }) => x.evaluationId), [again.body._id, e._id], 'history newest first');
  t.match(g.evaluations[1], { repositoryId: repo, decision: 'blocked', status: 'blocked', violationCount: 1 });
  t.match((await w.api('GET', `/api/guardrails?enforcement=warn`)).body.guardrails[0], { evaluationCount: 2, violationCount: 2 });
  t.match((await w.api('GET', `/api/guardrails/${off}`)).body, { evaluationCount: 0, evaluations: [] });

  const violated = w.events.filter((x) => x.type === 'guardrail.violated');
  t.equal(violated.length, 3, 'one event per guardrail with violations');
  t.match(violated.find((x) => x.data.guardrailId === block)!.data, {
    evaluationId: e._id, guardrailName: 'sizes', enforcement: 'block', repositoryId: repo, decision: 'blocked', violationCount: 1,
    violations: [{ address: 'aws_instance.web', resourceType: 'aws_instance', attribute: 'instance_type', operator: 'in' }],
  });

  const missing = await w.api('POST', '/api/guardrails/evaluate', { repositoryId: 'cccccccccccccccccccccccc', plan: plan('01-create.json') });
  t.equal(missing.status, 404, 'an unknown repository config');
  const v2 = await w.api('POST', '/api/guardrails/evaluate', { repositoryId: repo, plan: { ...plan('01-create.json'), format_version: '2.0' } });
  t.equal(v2.status, 400, 'another major format version is refused');
  await w.ctx.audit.flush();
  const entry = await w.ctx.db.db.collection('audit_logs').findOne({ orgId: w.owner.orgId, action: 'guardrail.evaluated' });
  t.ok(entry, 'evaluations are audited');
  t.notOk(JSON.stringify(entry).includes('m5.4xlarge'), 'without the plan itself');
});

t.test('sensitive values never leave the service', async (t) => {
  const w = await setup(t);
  const repo = await w.config();
  const id = await w.guardrail({ rules: [
    { resourceType: 'aws_db_instance', attribute: 'tags', operator: 'equals', value: { Owner: 'x' } },
    { resourceType: 'aws_db_instance', attribute: 'password', operator: 'matches', value: '^x' },
    { resourceType: 'aws_ssm_parameter', attribute: 'value', operator: 'equals', value: 'x' },
  ] });
  await w.api('PATCH', `/api/guardrails/${id}/deploy`, { repositoryIds: [repo] });
  const res = await w.api('POST', '/api/guardrails/evaluate', { repositoryId: repo, plan: plan('06-sensitive.json') });
  t.equal(res.body.results[0].violationCount, 3);
  const stored = await w.api('GET', `/api/guardrails/evaluations/${res.body._id}`);
  for (const text of [res.res.body, stored.res.body, JSON.stringify(w.events)]) {
    for (const secret of ['hunter2', 'sk_live_abcdef', 'plain-secret-value']) t.notOk(text.includes(secret), `${secret} not shown`);
  }
  t.match(res.body.results[0].violations, [{ actual: { ApiKey: '(sensitive)', Owner: 'billing' } }, { actual: '(sensitive)' }, { actual: '(sensitive)' }]);
});

t.test('approvals: pending until a member other than the requester approves or rejects', async (t) => {
  const w = await setup(t);
  const repo = await w.config();
  const id = await w.guardrail({ enforcement: 'require_approval' });
  await w.api('PATCH', `/api/guardrails/${id}/deploy`, { repositoryIds: [repo] });
  const reviewer = await w.member('member');
  const viewer = await w.member('viewer');
  const evaluate = async () => (await w.api('POST', '/api/guardrails/evaluate', { repositoryId: repo, plan: plan('01-create.json') })).body;

  const e = await evaluate();
  t.match(e, { decision: 'pending', status: 'pending', approvalId: e._id });
  const own = await w.api('POST', `/api/guardrails/evaluations/${e.approvalId}/approve`, {});
  t.equal(own.status, 403, 'the requester cannot approve their own evaluation');
  t.equal((await w.api('POST', `/api/guardrails/evaluations/${e.approvalId}/approve`, {}, viewer)).status, 403, 'a viewer lacks guardrails:write');
  const approved = await w.api('POST', `/api/guardrails/evaluations/${e.approvalId}/approve`, { comment: 'looks fine' }, reviewer);
  t.equal(approved.status, 200);
  t.match(approved.body, { status: 'approved', decision: 'pending', reviewedBy: { userId: reviewer.userId }, comment: 'looks fine' });
  t.equal((await w.api('POST', `/api/guardrails/evaluations/${e.approvalId}/reject`, {}, reviewer)).status, 409, 'already approved');
  t.equal((await w.api('GET', `/api/guardrails/${id}`)).body.evaluations[0].status, 'approved', 'the history shows the review');

  const second = await evaluate();
  const both = await Promise.all([
    w.api('POST', `/api/guardrails/evaluations/${second._id}/reject`, { comment: 'no' }, reviewer),
    w.api('POST', `/api/guardrails/evaluations/${second._id}/approve`, {}, reviewer),
  ]);
  t.same(both.map((r) => r.status).sort(), [200, 409], 'concurrent reviews: exactly one wins');

  await w.ctx.audit.flush();
  const actions = (await w.ctx.db.db.collection('audit_logs').find({ orgId: w.owner.orgId }).toArray()).map((x) => x.action);
  t.ok(actions.includes('guardrail.approved'), 'approvals audited');
});

t.test('break-glass: owner or admin bypass a blocked evaluation with a reason', async (t) => {
  const w = await setup(t);
  const repo = await w.config();
  const id = await w.guardrail({ enforcement: 'block' });
  await w.api('PATCH', `/api/guardrails/${id}/deploy`, { repositoryIds: [repo] });
  const member = await w.member('member');
  const admin = await w.member('admin');
  const e = (await w.api('POST', '/api/guardrails/evaluate', { repositoryId: repo, plan: plan('01-create.json') }, member)).body;
  t.equal(e.decision, 'blocked');
  t.equal((await w.api('POST', `/api/guardrails/evaluations/${e._id}/approve`, {}, admin)).status, 409, 'a blocked evaluation is not approved');
  t.equal((await w.api('POST', `/api/guardrails/evaluations/${e._id}/bypass`, { reason: 'outage' }, member)).status, 403, 'a member cannot break the glass');
  t.equal((await w.api('POST', `/api/guardrails/evaluations/${e._id}/bypass`, {}, admin)).status, 400, 'a reason is required');
  const bypassed = await w.api('POST', `/api/guardrails/evaluations/${e._id}/bypass`, { reason: 'outage INC-7' }, admin);
  t.equal(bypassed.status, 200);
  t.match(bypassed.body, { status: 'bypassed', comment: 'outage INC-7', reviewedBy: { userId: admin.userId } });
  t.notOk('audit' in bypassed.body, 'the audit facts stay out of the answer');
  t.equal((await w.api('POST', `/api/guardrails/evaluations/${e._id}/bypass`, { reason: 'again' })).status, 409, 'once');
  const event = w.events.find((x) => x.type === 'guardrail.bypassed');
  t.match(event?.data, { evaluationId: e._id, repositoryId: repo, guardrailIds: [id], reason: 'outage INC-7', bypassedBy: { id: admin.userId } });
  await w.ctx.audit.flush();
  const entry = (await w.ctx.db.db.collection('audit_logs').find({ orgId: w.owner.orgId, action: 'guardrail.bypassed' }).toArray()).find((e) => e.statusCode === 200);
  t.match(entry, { action: 'guardrail.bypassed', statusCode: 200, details: { evaluationId: e._id, guardrailIds: [id], reason: 'outage INC-7' } });
  t.match(JSON.stringify(entry), 'outage INC-7', 'the reason is in the trail');
  const allowed = (await w.api('POST', '/api/guardrails/evaluate', { repositoryId: repo, plan: plan('06-sensitive.json') })).body;
  t.equal((await w.api('POST', `/api/guardrails/evaluations/${allowed._id}/bypass`, { reason: 'x' })).status, 409, 'nothing to bypass');
});

t.test('CLI tokens: scans:trigger, for the repositories they are allowed', async (t) => {
  const w = await setup(t);
  const a = await w.config('acme/a');
  const b = await w.config('acme/b');
  const id = await w.guardrail({ enforcement: 'block' });
  await w.api('PATCH', `/api/guardrails/${id}/deploy`, { repositoryIds: [a, b] });
  const limited = await w.cli(['scans:trigger', 'scans:read'], [a]);
  const ok = await w.api('POST', '/api/guardrails/evaluate', { repositoryId: a, plan: plan('01-create.json') }, limited);
  t.equal(ok.status, 201);
  t.match(ok.body.requestedBy, { userId: w.owner.userId, kind: 'cli' });
  t.equal((await w.api('GET', `/api/guardrails/evaluations/${ok.body._id}`, undefined, limited)).status, 200, 'reads its evaluation (scans:read)');
  const denied = await w.api('POST', '/api/guardrails/evaluate', { repositoryId: b, plan: plan('01-create.json') }, limited);
  t.equal(denied.status, 403);
  t.equal(denied.body.error.code, 'repository_denied');
  const noScope = await w.cli(['scans:read']);
  t.equal((await w.api('POST', '/api/guardrails/evaluate', { repositoryId: a, plan: plan('01-create.json') }, noScope)).status, 403);
  t.equal((await w.api('GET', '/api/guardrails', undefined, limited)).status, 403, 'no CLI scope reads or writes guardrails themselves');
});

