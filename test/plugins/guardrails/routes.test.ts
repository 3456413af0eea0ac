// The guardrail routes through the API: CRUD with rule checks, deploy/undeploy, evaluation of
// plan documents (stored, counted, events), approvals, break-glass, CLI tokens and a plan of
// 5,000 resource changes (beyond the engine's default body limit).
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { world } from '../../fixtures/world.ts';
import type { Session } from '../../helper.ts';
import type { Test } from 'tap';
import type { DomainEvent } from '../../../core/events.ts';

const plan = (name: string) => JSON.parse(readFileSync(join(import.meta.dirname, 'plans', name), 'utf8'));
const SMALL = [{ resourceType: 'aws_instance', attribute: 'instance_type', operator: 'in', value: ['t3.micro', 't3.small'] }];

async function setup(t: Test) {
  const base = await world(t, 'pro');
  // Members joined the owner's organization: every call names it (their default is their own).
  const api = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', url: string, payload?: unknown, who: Session | string = base.owner) => {
    const res = await base.app.inject({ method, url, headers: { authorization: `Bearer ${typeof who === 'string' ? who : who.token}`, 'x-org-id': base.owner.orgId }, ...(payload !== undefined ? { payload: payload as object } : {}) });
    return { status: res.statusCode, body: String(res.headers['content-type'] ?? '').includes('json') ? res.json() : res.body, res };
  };
  const w = { ...base, api };
  /** A member of the owner's organization with this role (link invitation). */
  async function member(role: string): Promise<Session> {
    const invite = await w.api('POST', `/api/orgs/${w.owner.orgId}/invitations/link`, { role });
    const s = await w.register();
    const accepted = await w.api('POST', '/api/orgs/invitations/accept', { token: new URL(invite.body.link).searchParams.get('token') }, s);
    if (accepted.status >= 300) throw new Error(`accept: ${JSON.stringify(accepted.body)}`);
    return s;
  }
  const events: { type: string; data: Record<string, unknown> }[] = [];
  w.ctx.bus.on('*', (e: DomainEvent) => { events.push({ type: e.type, data: e.data as Record<string, unknown> }); });
  const guardrail = async (body: Record<string, unknown>) => {
    const r = await w.api('POST', '/api/guardrails', { name: 'g', enforcement: 'block', rules: SMALL, ...body });
    if (r.status !== 201) throw new Error(JSON.stringify(r.body));
    return r.body._id as string;
  };
  return { ...w, member, events, guardrail };
}

t.test('create, list with filters and pages, get, patch, delete; rules checked at write time', async (t) => {
  const w = await setup(t);
  const created = await w.api('POST', '/api/guardrails', { name: 'Small instances', description: 'cost', enforcement: 'warn', rules: SMALL });
  t.equal(created.status, 201);
  t.match(created.body, { name: 'Small instances', description: 'cost', enforcement: 'warn', status: 'active', deployedTo: [], evaluationCount: 0, violationCount: 0, rules: SMALL });

  const noValue = await w.api('POST', '/api/guardrails', { name: 'x', enforcement: 'block', rules: [{ resourceType: 'aws_instance', attribute: 'tags.Owner', operator: 'equals' }] });
  t.equal(noValue.status, 400, 'an operator that needs a value and has none');
  t.match(noValue.body.error, { code: 'validation_failed', message: 'operator equals needs a value', details: [{ path: 'body/rules/0/value' }] });
  const redos = await w.api('POST', '/api/guardrails', { name: 'x', enforcement: 'block', rules: [{ resourceType: 'aws_instance', attribute: 'tags.Name', operator: 'matches', value: '^(a|a)*$' }] });
  t.equal(redos.status, 400, 'a regular expression with exponential backtracking');
  t.match(redos.body.error.message, /exponential/);
  t.equal((await w.api('POST', '/api/guardrails', { name: 'x', enforcement: 'fail', rules: SMALL })).status, 400, 'enforcement is one of four');
  t.equal((await w.api('POST', '/api/guardrails', { name: 'x', enforcement: 'block', rules: [{ resourceType: 'aws_instance', attribute: 'a', operator: 'like', value: 1 }] })).status, 400, 'unknown operator');
  t.equal((await w.api('POST', '/api/guardrails', { name: 'x', enforcement: 'block', rules: [] })).status, 400, 'at least one rule');

  for (const enforcement of ['block', 'dry_run', 'require_approval']) await w.guardrail({ name: enforcement, enforcement });
  const inactive = await w.guardrail({ name: 'off', enforcement: 'block', status: 'inactive' });
  const page = await w.api('GET', '/api/guardrails?limit=2&page=2');
  t.match(page.body, { total: 5, page: 2, pages: 3 });
  t.same(page.body.guardrails.map((g: { name: string }) => g.name), ['dry_run', 'block'], 'newest first');
  t.same((await w.api('GET', '/api/guardrails?status=inactive')).body.guardrails.map((g: { _id: string }) => g._id), [inactive]);
  t.equal((await w.api('GET', '/api/guardrails?status=active')).body.total, 4);
  t.same((await w.api('GET', '/api/guardrails?enforcement=warn')).body.guardrails.map((g: { name: string }) => g.name), ['Small instances']);
  t.equal((await w.api('GET', '/api/guardrails?status=paused')).status, 400);

  const id = created.body._id;
  const patched = await w.api('PATCH', `/api/guardrails/${id}`, { name: 'Renamed', status: 'inactive' });
  t.match(patched.body, { name: 'Renamed', status: 'inactive', enforcement: 'warn', rules: SMALL }, 'partial: the rest kept');
  const badPatch = await w.api('PATCH', `/api/guardrails/${id}`, { rules: [{ resourceType: 'x', attribute: 'a..b', operator: 'exists' }] });
  t.equal(badPatch.status, 400, 'rules checked on PATCH as on create');
  t.equal((await w.api('GET', `/api/guardrails/${id}`)).body.name, 'Renamed');
  t.equal((await w.api('DELETE', `/api/guardrails/${id}`)).status, 204);
  t.equal((await w.api('GET', `/api/guardrails/${id}`)).status, 404);

  const templates = await w.api('GET', '/api/guardrails/templates');
  t.ok(templates.body.templates.length >= 12);
  t.match(templates.body.templates[0], { _id: 'no-ssh-from-internet', category: 'security', rules: Array });
  const fromTemplate = await w.api('POST', '/api/guardrails', { name: 't', enforcement: 'block', rules: templates.body.templates[0].rules });
  t.equal(fromTemplate.status, 201, "a template's rules create a guardrail as they are");
});

t.test('deploy and undeploy: the organization\'s configs only, no duplicates, removed with the config', async (t) => {
  const w = await setup(t);
  const a = await w.config('acme/a');
  const b = await w.config('acme/b');
  const id = await w.guardrail({});
  const first = await w.api('PATCH', `/api/guardrails/${id}/deploy`, { repositoryIds: [a] });
  t.same(first.body, { message: 'Guardrail deployed to 1 repository', deployedTo: [a] });
  t.same((await w.api('PATCH', `/api/guardrails/${id}/deploy`, { repositoryIds: [a, b] })).body.deployedTo, [a, b], 'deploying twice adds no duplicate');
  const unknown = 'bbbbbbbbbbbbbbbbbbbbbbbb';
  const refused = await w.api('PATCH', `/api/guardrails/${id}/undeploy`, { repositoryIds: [a, unknown] });
  t.equal(refused.status, 400);
  t.match(refused.body.error.message, unknown, 'names the id');
  const other = await w.register();
  await w.ctx.tenancy.setPlan(other.orgId, 'pro');
  const foreign = (await w.app.inject({ method: 'POST', url: '/api/repo-configs', headers: { authorization: `Bearer ${other.token}` }, payload: { repositoryName: 'other/x', branch: 'main', provider: 'cloud_a' } })).json().data._id;
  const cross = await w.api('PATCH', `/api/guardrails/${id}/deploy`, { repositoryIds: [foreign] });
  t.equal(cross.status, 400, "another organization's config");
  t.match(cross.body.error.details, [{ path: 'body/repositoryIds/0' }]);
  t.same((await w.api('GET', `/api/guardrails/${id}`)).body.deployedTo, [a, b], 'nothing changed by the refused calls');
  t.same((await w.api('PATCH', `/api/guardrails/${id}/undeploy`, { repositoryIds: [a] })).body, { message: 'Guardrail removed from 1 repository', deployedTo: [b] });
  await w.api('DELETE', `/api/repo-configs/${b}`);
  t.same((await w.api('GET', `/api/guardrails/${id}`)).body.deployedTo, [], 'a deleted config leaves deployedTo');

  await w.ctx.audit.flush();
  const actions = (await w.ctx.db.db.collection('audit_logs').find({ orgId: w.owner.orgId }).toArray()).map((e) => e.action);
  for (const action of ['guardrail.created', 'guardrail.deployed', 'guardrail.undeployed']) t.ok(actions.includes(action), `audited as ${action}`);
});

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
  const entry = await w.ctx.db.db.collection('audit_logs').findOne({ orgId: w.owner.orgId, action: 'guardrail.bypassed', statusCode: 200 });
  t.match(entry, { action: 'guardrail.bypassed', details: { evaluationId: e._id, guardrailIds: [id], reason: 'outage INC-7' } });
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

t.test('a plan of 5,000 resource changes (several megabytes) is accepted', async (t) => {
  const w = await setup(t);
  const repo = await w.config();
  const id = await w.guardrail({ enforcement: 'warn' });
  await w.api('PATCH', `/api/guardrails/${id}/deploy`, { repositoryIds: [repo] });
  const base = plan('01-create.json').resource_changes[1];
  const resource_changes = Array.from({ length: 5000 }, (_, i) => ({ ...base, address: `aws_instance.web[${i}]`, index: i }));
  const body = { repositoryId: repo, plan: { format_version: '1.2', resource_changes } };
  t.ok(JSON.stringify(body).length > 1024 * 1024, 'more than the default 1 MB body limit');
  const res = await w.api('POST', '/api/guardrails/evaluate', body);
  t.equal(res.status, 201);
  t.match(res.body, { decision: 'allowed', evaluated: 5000, results: [{ violationCount: 5000 }] });
  t.equal(res.body.results[0].violations.length, 200, 'listed violations are bounded; the count is whole');
});
