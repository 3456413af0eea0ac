// drift-runner evaluate against the real service on a loopback port: the plan documents of
// test/plugins/guardrails/plans, a CLI token with scans:trigger, and the exit status a CI
// pipeline reads (0 allowed, 1 blocked, 2 pending approval, 3 error).
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { world } from '../fixtures/world.ts';
import { evaluateMain, slimPlan } from '../../runner-agent/src/evaluate-cli.ts';

const PLANS = path.join(import.meta.dirname, '..', 'plugins', 'guardrails', 'plans');
const capture = () => {
  let text = '';
  return { stream: new Writable({ write(chunk, _enc, done) { text += String(chunk); done(); } }), text: () => text };
};

t.test('drift-runner evaluate: readable output and the exit status of the decision', async (t) => {
  const w = await world(t, 'pro');
  const url = await w.app.listen({ port: 0, host: '127.0.0.1' });
  const repo = await w.config('acme/infra');
  const other = await w.config('acme/other');
  const create = async (body: Record<string, unknown>) => (await w.api('POST', '/api/guardrails', body)).body._id as string;
  const sizes = await create({ name: 'Instance sizes', enforcement: 'block', rules: [{ resourceType: 'aws_instance', attribute: 'instance_type', operator: 'in', value: ['t3.micro', 't3.small'] }] });
  const ssh = await create({ name: 'No SSH from anywhere', enforcement: 'warn', rules: [{ resourceType: 'aws_security_group', attribute: 'ingress[*].cidr_blocks', operator: 'not_contains', value: '0.0.0.0/0', when: [{ attribute: 'ingress[*].from_port', operator: 'lte', value: 22 }, { attribute: 'ingress[*].to_port', operator: 'gte', value: 22 }] }] });
  const rds = await create({ name: 'RDS classes', enforcement: 'require_approval', rules: [{ resourceType: 'aws_db_instance', attribute: 'instance_class', operator: 'in', value: ['db.t3.micro', 'db.t3.small'] }] });
  await w.api('PATCH', `/api/guardrails/${sizes}/deploy`, { repositoryIds: [repo] });
  await w.api('PATCH', `/api/guardrails/${ssh}/deploy`, { repositoryIds: [repo] });
  await w.api('PATCH', `/api/guardrails/${rds}/deploy`, { repositoryIds: [repo] });
  const token = await w.cli(['scans:trigger'], [repo]);

  const run = async (plan: string, extra: string[] = [], repository = repo, tok = token) => {
    const out = capture();
    const err = capture();
    const code = await evaluateMain(['--plan', path.join(PLANS, plan), '--repository', repository, '--url', url, '--token', tok, ...extra], {}, out.stream, err.stream);
    return { code, out: out.text(), err: err.text() };
  };

  const blocked = await run('01-create.json');
  t.equal(blocked.code, 1, 'blocked: exit 1');
  t.match(blocked.out, /BLOCKED/);
  t.match(blocked.out, /\[FAIL\] Instance sizes \(block\): 1 violation/);
  t.match(blocked.out, 'aws_instance.web (create)  instance_type = "m5.4xlarge", expected in ["t3.micro","t3.small"]');
  t.match(blocked.out, /\[warn\] No SSH from anywhere \(warn\): 1 violation\(s\), warning/);
  t.match(blocked.out, 'aws_security_group.web (create)  ingress[0].cidr_blocks = ["0.0.0.0/0"]');

  const pending = await run('03-replace.json');
  t.equal(pending.code, 2, 'pending approval: exit 2');
  t.match(pending.out, /PENDING/);
  t.match(pending.out, /Approval required: evaluation [0-9a-f]{24}/);

  const allowed = await run('06-sensitive.json');
  t.equal(allowed.code, 0, 'allowed: exit 0');
  t.match(allowed.out, /ALLOWED/);
  t.notMatch(allowed.out, /hunter2/);

  const json = await run('04-modules-count-for-each.json', ['--json']);
  t.equal(json.code, 0);
  t.match(JSON.parse(json.out), { decision: 'allowed', evaluated: 7 }, '--json prints the answer');

  const denied = await run('01-create.json', [], other);
  t.equal(denied.code, 3, 'a repository the token is not allowed: exit 3');
  t.match(denied.err, /403 repository_denied/);
  t.equal((await run('01-create.json', [], repo, 'ci_not_a_real_token')).code, 3, 'a bad token: exit 3');

  const dir = mkdtempSync(path.join(tmpdir(), 'drift-evaluate-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'state.json'), JSON.stringify({ version: 4, resources: [] }));
  const notPlan = capture();
  t.equal(await evaluateMain(['--plan', path.join(dir, 'state.json'), '--repository', repo, '--url', url, '--token', token], {}, notPlan.stream, capture().stream), 3, 'a state file is not a plan');
  const usage = capture();
  t.equal(await evaluateMain(['--plan', 'x.json'], { DRIFT_API_URL: url, DRIFT_CLI_TOKEN: token }, capture().stream, usage.stream), 3, 'no --repository');
  t.match(usage.text(), /--repository is required/);
  const missing = capture();
  t.equal(await evaluateMain(['--plan', path.join(dir, 'nope.json'), '--repository', repo], { DRIFT_API_URL: url, DRIFT_CLI_TOKEN: token }, capture().stream, missing.stream), 3, 'environment variables stand in for --url and --token');
  t.match(missing.text(), /ENOENT/);
});

t.test('the plan is slimmed to what the evaluation reads', async (t) => {
  const slim = slimPlan({ format_version: '1.2', resource_changes: [{ address: 'a.b', type: 'a', mode: 'managed', name: 'b', provider_name: 'p', change: { actions: ['update'], before: { secret: 1 }, after: { x: 1 }, after_unknown: {}, after_sensitive: {}, before_sensitive: {} } }], prior_state: { big: true }, configuration: {} } as never);
  t.same(Object.keys(slim), ['format_version', 'resource_changes']);
  t.same(slim.resource_changes[0].change, { actions: ['update'], after: { x: 1 }, after_unknown: {}, after_sensitive: {} }, 'no before values');
});
