// The guardrail routes through the API: CRUD with rule checks, deploy/undeploy, and a plan of
// 5,000 resource changes (beyond the engine's default body limit). Evaluation, approvals and
// break-glass: evaluate.test.ts.
import t from 'tap';
import { plan, setup, SMALL } from './helper.ts';

t.test('create, list with filters and pages, get, patch, delete; rules checked at write time', async (t) => {
  const w = await setup(t);
  const created = await w.api('POST', '/api/guardrails', { name: 'Small instances', description: 'cost', enforcement: 'warn', rules: SMALL });
  t.equal(created.status, 201);
  t.match(created.body, { name: 'Small instances', description: 'cost', enforcement: 'warn', status: 'active', deployedTo: [], evaluationCount: 0, violationCount: 0, rules: SMALL });

  const noValue = await w.api('POST', '/api/guardrails', { name: 'x', enforcement: 'block', rules: [{ resourceType: 'aws_instance', attribute: 'tags.Owner', operator: 'equals' }] });
  t.equal(noValue.status, 400, 'an operator that needs a value and has none');
  t.match(noValue.body.error, { code: 'validation_failed', message: 'operator equals needs a value', details: [{ path: 'body/rules/0/value' }] });
  const lookahead = await w.api('POST', '/api/guardrails', { name: 'x', enforcement: 'block', rules: [{ resourceType: 'aws_instance', attribute: 'tags.Name', operator: 'matches', value: '^(?=a).*$' }] });
  t.equal(lookahead.status, 400, 'a regular expression the linear-time engine cannot run (redos.test.ts has the rest)');
  t.match(lookahead.body.error.message, /the pattern is not a valid regular expression for the linear-time engine/);
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
