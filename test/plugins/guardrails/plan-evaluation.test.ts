// Every operator, on plan documents in the format of `terraform show -json` (plans/*.json):
// create, update, delete, no-op, read, both replace orders, modules, count and for_each
// addresses, values unknown until apply and sensitive values. No database: the evaluation
// is pure code, the same the evaluate route runs.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { evaluatePlan, type Enforcement, type PlanDocument } from '../../../plugins/guardrails/plan.ts';
import { ruleProblems, type Rule } from '../../../plugins/guardrails/policy-rules.ts';

const DIR = join(import.meta.dirname, 'plans');
const plan = (name: string) => JSON.parse(readFileSync(join(DIR, name), 'utf8')) as PlanDocument;
const CREATE = plan('01-create.json');
const UPDATE = plan('02-update-delete-noop.json');
const REPLACE = plan('03-replace.json');
const MODULES = plan('04-modules-count-for-each.json');
const UNKNOWN = plan('05-unknown-after-apply.json');
const SENSITIVE = plan('06-sensitive.json');

/** One guardrail of these rules on the plan: its result. */
function run(p: PlanDocument, rules: Rule[], enforcement: Enforcement = 'block') {
  const problems = ruleProblems(rules);
  if (problems.length) throw new Error(`rules refused: ${JSON.stringify(problems)}`);
  return evaluatePlan(p, [{ _id: 'g1', name: 'test', enforcement, rules }]).results[0];
}
const where = (r: ReturnType<typeof run>) => r.violations.map((v) => `${v.address} ${v.path}`);
const unknownAt = (r: ReturnType<typeof run>) => r.unknowns.map((u) => `${u.address} ${u.path}`);

t.test('which changes are evaluated: create, update, both replace orders; not delete, no-op or read', async (t) => {
  t.equal(evaluatePlan(CREATE, []).evaluated, 8);
  t.equal(evaluatePlan(UPDATE, []).evaluated, 2, 'two updates; the delete, the no-op and the data read are skipped');
  t.equal(evaluatePlan(REPLACE, []).evaluated, 2, 'delete-then-create and create-then-delete both evaluated');
  const acl = run(UPDATE, [{ resourceType: '*', attribute: 'acl', operator: 'not_equals', value: 'public-read' }]);
  t.equal(acl.violationCount, 0, 'the deleted bucket with a public ACL is not checked');
  const vpc = run(UPDATE, [{ resourceType: 'aws_vpc', attribute: 'tags', operator: 'exists' }]);
  t.equal(vpc.violationCount, 0, 'the no-op VPC (tags null) is not checked');
  const replaced = run(REPLACE, [{ resourceType: 'aws_db_instance', attribute: 'instance_class', operator: 'in', value: ['db.t3.micro', 'db.t3.small'] }]);
  t.match(replaced.violations, [{ address: 'aws_db_instance.orders', action: 'replace', actual: 'db.r6g.2xlarge' }], 'the create side of a replace, with its planned value');
  const upd = run(UPDATE, [{ resourceType: 'aws_instance', attribute: 'instance_type', operator: 'equals', value: 't3.micro' }]);
  t.match(upd.violations, [{ address: 'aws_instance.app', action: 'update', actual: 't3.xlarge', expected: 't3.micro' }], 'an update is checked on its after value');
});

t.test('equals / not_equals', async (t) => {
  const pab = run(CREATE, [
    { resourceType: 'aws_s3_bucket_public_access_block', attribute: 'block_public_acls', operator: 'equals', value: true },
    { resourceType: 'aws_s3_bucket_public_access_block', attribute: 'block_public_policy', operator: 'equals', value: true },
  ]);
  t.same(where(pab), ['aws_s3_bucket_public_access_block.logs block_public_policy']);
  t.equal(pab.violations[0].actual, false);
  t.equal(pab.violations[0].ruleIndex, 1);
  const whole = run(CREATE, [{ resourceType: 'aws_security_group', attribute: 'ingress[1].ipv6_cidr_blocks', operator: 'equals', value: ['::/0'] }]);
  t.equal(whole.violationCount, 0, 'equals compares a whole list');
  const absent = run(CREATE, [{ resourceType: 'aws_security_group', attribute: 'name_prefix', operator: 'equals', value: 'x' }]);
  t.equal(absent.violationCount, 0, 'name_prefix is unknown until apply: not a violation of equals');
  const nul = run(CREATE, [{ resourceType: 'aws_s3_bucket', attribute: 'object_lock_enabled', operator: 'equals', value: true }]);
  t.match(nul.violations, [{ actual: null }], 'an absent (null) value fails equals');

  const pub = run(CREATE, [{ resourceType: 'aws_instance', attribute: 'associate_public_ip_address', operator: 'not_equals', value: true }]);
  t.same(where(pub), ['aws_instance.web associate_public_ip_address']);
  t.equal(run(SENSITIVE, [{ resourceType: 'aws_instance', attribute: 'associate_public_ip_address', operator: 'not_equals', value: true }]).violationCount, 0);
  const unk = run(UNKNOWN, [{ resourceType: 'aws_instance', attribute: 'associate_public_ip_address', operator: 'not_equals', value: true }]);
  t.equal(unk.violationCount, 0, 'unknown until apply: not a violation');
  t.same(unknownAt(unk), ['aws_instance.worker associate_public_ip_address'], 'but listed as unknown');
  t.equal(run(CREATE, [{ resourceType: 'aws_s3_bucket', attribute: 'object_lock_enabled', operator: 'not_equals', value: true }]).violationCount, 0, 'absent passes not_equals');
});

t.test('exists / not_exists, with absent and unknown values', async (t) => {
  const owner = run(MODULES, [{ resourceType: 'aws_s3_bucket', attribute: 'tags.Owner', operator: 'exists' }]);
  t.same(where(owner), ['module.storage.aws_s3_bucket.this["audit"] tags.Owner'], 'the for_each instance without the tag');
  t.equal(owner.violations[0].actual, null);
  t.equal(run(UNKNOWN, [{ resourceType: 'aws_instance', attribute: 'tags.Owner', operator: 'exists' }]).violationCount, 0, 'unknown until apply counts as present');
  t.equal(run(UPDATE, [{ resourceType: 'aws_instance', attribute: 'credit_specification', operator: 'exists' }]).violationCount, 0, 'an empty list exists');

  const cc = run(CREATE, [{ resourceType: 'aws_instance', attribute: 'tags.CostCenter', operator: 'not_exists' }, { resourceType: 'aws_instance', attribute: 'tags.Temporary', operator: 'not_exists' }]);
  t.same(where(cc), ['aws_instance.web tags.CostCenter']);
  t.equal(cc.violations[0].actual, 'CC-12');
  t.same(where(run(UNKNOWN, [{ resourceType: 'aws_instance', attribute: 'tags.Owner', operator: 'not_exists' }])), ['aws_instance.worker tags.Owner'], 'unknown until apply will be set: a violation of not_exists');
});

t.test('in / not_in, on scalars and on lists', async (t) => {
  const types = ['t3.micro', 't3.small'];
  t.match(run(CREATE, [{ resourceType: 'aws_instance', attribute: 'instance_type', operator: 'in', value: types }]).violations, [{ actual: 'm5.4xlarge' }]);
  t.equal(run(SENSITIVE, [{ resourceType: 'aws_instance', attribute: 'instance_type', operator: 'in', value: types }]).violationCount, 0);
  const unk = run(UNKNOWN, [{ resourceType: 'aws_instance', attribute: 'instance_type', operator: 'in', value: types }]);
  t.equal(unk.violationCount, 0);
  t.equal(unk.unknownCount, 1, 'an instance type known only after apply is listed as unknown');
  // A list value: in = every element is allowed; not_in = no element is refused.
  const cidrs = run(MODULES, [{ resourceType: 'aws_security_group_rule', attribute: 'cidr_blocks', operator: 'in', value: ['10.0.0.0/8'] }]);
  t.same(where(cidrs).sort(), ['module.network.aws_security_group_rule.egress[0] cidr_blocks', 'module.network.aws_security_group_rule.ssh[0] cidr_blocks']);
  const refused = run(MODULES, [{ resourceType: 'aws_security_group_rule', attribute: 'cidr_blocks', operator: 'not_in', value: ['0.0.0.0/0'] }]);
  t.equal(refused.violationCount, 2, 'both rules hold 0.0.0.0/0 among their blocks');
  const io = run(REPLACE, [{ resourceType: 'aws_ebs_volume', attribute: 'type', operator: 'not_in', value: ['io1', 'io2'] }]);
  t.match(io.violations, [{ address: 'aws_ebs_volume.data', action: 'replace', actual: 'io2' }], 'create-before-destroy replace');
  t.equal(run(CREATE, [{ resourceType: 'aws_s3_bucket', attribute: 'object_lock_enabled', operator: 'not_in', value: [true] }]).violationCount, 0, 'absent passes not_in');
});

t.test('contains / not_contains: list membership, substring, map key; [*] over list elements', async (t) => {
  const rfc1918 = run(MODULES, [{ resourceType: 'aws_security_group_rule', attribute: 'cidr_blocks', operator: 'contains', value: '10.0.0.0/8' }]);
  t.same(where(rfc1918), ['module.network.aws_security_group_rule.egress[0] cidr_blocks']);
  t.equal(run(CREATE, [{ resourceType: 'aws_iam_policy', attribute: 'policy', operator: 'contains', value: '"Effect":"Allow"' }]).violationCount, 0, 'substring of a string');
  const keys = run(CREATE, [{ resourceType: 'aws_instance', attribute: 'tags', operator: 'contains', value: 'Owner' }]);
  t.same(where(keys), ['aws_instance.web tags'], 'a map contains its keys');

  const world = run(CREATE, [{ resourceType: 'aws_security_group', attribute: 'ingress[*].cidr_blocks', operator: 'not_contains', value: '0.0.0.0/0' }]);
  t.same(where(world), ['aws_security_group.web ingress[0].cidr_blocks', 'aws_security_group.web ingress[1].cidr_blocks'], 'any failing element is a violation, each reported');
  const ssh = run(CREATE, [{
    resourceType: 'aws_security_group', attribute: 'ingress[*].cidr_blocks', operator: 'not_contains', value: '0.0.0.0/0',
    when: [{ attribute: 'ingress[*].from_port', operator: 'lte', value: 22 }, { attribute: 'ingress[*].to_port', operator: 'gte', value: 22 }],
  }]);
  t.same(where(ssh), ['aws_security_group.web ingress[0].cidr_blocks'], 'when: checked on the same ingress block (port 22), not the 443 one');
  const wide = run(MODULES, [{ resourceType: 'aws_security_group_rule', attribute: 'cidr_blocks', operator: 'not_contains', value: '0.0.0.0/0', when: [{ attribute: 'type', operator: 'equals', value: 'ingress' }] }]);
  t.same(where(wide), ['module.network.aws_security_group_rule.ssh[0] cidr_blocks'], 'when at resource level: egress rules skipped');
  t.equal(run(UPDATE, [{ resourceType: 'aws_instance', attribute: 'credit_specification[*].cpu_credits', operator: 'equals', value: 'standard' }]).violationCount, 0, '[*] over an empty list: nothing to check');
  const dyn = run(UNKNOWN, [{ resourceType: 'aws_security_group', attribute: 'ingress[*].cidr_blocks', operator: 'not_contains', value: '0.0.0.0/0' }]);
  t.same(unknownAt(dyn).sort(), ['aws_security_group.dynamic ingress[0].cidr_blocks', 'aws_security_group.later ingress'], 'an unknown element value and an unknown whole list');
  t.equal(dyn.violationCount, 0);
});

t.test('matches', async (t) => {
  const cc = [{ resourceType: 'aws_instance', attribute: 'tags.CostCenter', operator: 'matches' as const, value: '^CC-[0-9]{4}$' }];
  t.match(run(CREATE, cc).violations, [{ address: 'aws_instance.web', actual: 'CC-12' }]);
  t.equal(run(SENSITIVE, cc).violationCount, 0);
  t.match(run(UNKNOWN, cc).violations, [{ address: 'aws_instance.worker', actual: null }], 'absent fails matches');
  const list = run(CREATE, [{ resourceType: 'aws_security_group', attribute: 'egress[*].cidr_blocks', operator: 'matches', value: '^10\\.' }]);
  t.same(where(list), ['aws_security_group.web egress[0].cidr_blocks'], 'a list must match in every element');
  const nonString = run(CREATE, [{ resourceType: 'aws_instance', attribute: 'root_block_device[0].volume_size', operator: 'matches', value: '^1' }]);
  t.equal(nonString.violationCount, 1, 'a number never matches');
  // The worst inputs of backtracking shapes: linear on RE2, so these answer at once (a
  // backtracking engine takes minutes to ages on each).
  const plan1 = (name: string): PlanDocument => ({ format_version: '1.2', resource_changes: [{ address: 'aws_instance.x', type: 'aws_instance', change: { actions: ['create'], after: { tags: { Name: name } } } }] });
  const name = (value: string, s: string) => run(plan1(s), [{ resourceType: 'aws_instance', attribute: 'tags.Name', operator: 'matches', value }]).violationCount;
  const t0 = performance.now();
  t.equal(name('(a+)+$', `${'a'.repeat(50_000)}!`), 1, '(a+)+$ on a\'s then "!"');
  t.equal(name('^(a|a)*$', `${'a'.repeat(50_000)}!`), 1);
  t.equal(name('(x|xy){2,}$', `${'xy'.repeat(25_000)}!`), 1);
  t.equal(name('^a*a*a*a*a*a*b$', 'a'.repeat(100_000)), 1);
  t.equal(name('^a*a*a*a*a*a*b$', `${'a'.repeat(99_999)}b`), 0, 'a match at the cap (100,000 characters)');
  t.equal(name('^[a-z]+$', 'a'.repeat(100_001)), 1, 'a string past 100,000 characters never matches: the rule is violated there');
  const stored = evaluatePlan(plan1('a'), [{ _id: 'g', name: 'old', enforcement: 'block', rules: [{ resourceType: 'aws_instance', attribute: 'tags.Name', operator: 'matches', value: '(?=a)' }] }]);
  t.equal(stored.results[0].violationCount, 1, 'a pattern stored before RE2 that it refuses (lookahead) is violated, never passed');
  t.ok(performance.now() - t0 < 2000, 'all at once');
  t.equal(name('^\\w+$', 'aé'), 1, '\\w is ASCII in RE2 (as in JavaScript)');
  t.equal(name('^.$', '😀'), 0, '. is one code point, as with the u flag');
});

t.test('gt / gte / lt / lte', async (t) => {
  const size = (operator: 'gt' | 'gte' | 'lt' | 'lte', value: number, p: PlanDocument) => run(p, [{ resourceType: 'aws_ebs_volume', attribute: 'size', operator, value }]);
  t.match(size('lte', 500, UPDATE).violations, [{ address: 'aws_ebs_volume.scratch', action: 'update', actual: 800 }]);
  t.same(where(size('lte', 500, MODULES)), ['module.data.module.disks.aws_ebs_volume.this["cache"] size'], 'nested module, for_each key');
  t.equal(size('lt', 1000, MODULES).violationCount, 1, '1000 is not below 1000');
  t.equal(size('lte', 1000, MODULES).violationCount, 0);
  t.equal(size('gt', 100, REPLACE).violationCount, 1, '100 is not above 100');
  t.equal(size('gte', 100, REPLACE).violationCount, 0);
  const unk = size('lte', 500, UNKNOWN);
  t.equal(unk.violationCount, 0);
  t.same(unknownAt(unk), ['aws_ebs_volume.sized size']);
  t.equal(run(CREATE, [{ resourceType: 'aws_instance', attribute: 'instance_type', operator: 'gt', value: 1 }]).violationCount, 1, 'a string is never greater than a number');
});

t.test('count and for_each addresses, quoted keys and modules', async (t) => {
  t.same(where(run(MODULES, [{ resourceType: 'aws_subnet', attribute: 'map_public_ip_on_launch', operator: 'not_equals', value: true }])), ['module.network.aws_subnet.private[1] map_public_ip_on_launch']);
  const role = run(MODULES, [{ resourceType: 'aws_s3_bucket', attribute: 'tags["kubernetes.io/role"]', operator: 'equals', value: 'elb' }]);
  t.same(where(role), ['module.storage.aws_s3_bucket.this["audit"] tags["kubernetes.io/role"]'], 'a tag key with a dot and a slash');
});

t.test('sensitive values are evaluated but never shown', async (t) => {
  const r = run(SENSITIVE, [
    { resourceType: 'aws_db_instance', attribute: 'username', operator: 'matches', value: '^app' },
    { resourceType: 'aws_db_instance', attribute: 'tags', operator: 'equals', value: { Owner: 'billing' } },
    { resourceType: 'aws_db_instance', attribute: 'publicly_accessible', operator: 'not_equals', value: true },
    { resourceType: 'aws_ssm_parameter', attribute: 'value', operator: 'equals', value: 'x' },
    { resourceType: 'aws_instance', attribute: 'user_data', operator: 'not_contains', value: 's3cr3t' },
    { resourceType: 'aws_db_instance', attribute: 'password', operator: 'exists' },
  ]);
  t.same(where(r), ['aws_db_instance.billing username', 'aws_db_instance.billing tags', 'aws_db_instance.billing publicly_accessible', 'aws_ssm_parameter.token value', 'aws_instance.bastion user_data']);
  t.equal(r.violations[0].actual, '(sensitive)');
  t.same(r.violations[1].actual, { Owner: 'billing', Environment: 'prod', CostCenter: 'CC-0042', ApiKey: '(sensitive)' }, 'a map shows its other keys, the sensitive one masked');
  t.equal(r.violations[2].actual, true, 'a value not marked sensitive is shown');
  t.equal(r.violations[3].actual, '(sensitive)');
  const text = JSON.stringify(r);
  // The rule's own value (expected) is the policy's, not the plan's: it may be shown.
  for (const secret of ['hunter2', 'billing_admin', 'sk_live_abcdef', 'plain-secret-value', 'echo s3cr3t']) t.notOk(text.includes(secret), `${secret} is not in the result`);
  const replaced = run(REPLACE, [{ resourceType: 'aws_db_instance', attribute: 'password', operator: 'exists' }]);
  t.match(replaced.violations, [{ actual: null }], 'the password is absent from the replacement (not set in config)');
});

t.test('decisions per enforcement, and the strictest overall', async (t) => {
  const rule: Rule[] = [{ resourceType: 'aws_instance', attribute: 'instance_type', operator: 'equals', value: 't3.micro' }];
  const pass: Rule[] = [{ resourceType: 'aws_instance', attribute: 'ami', operator: 'exists' }];
  const of = (e: Enforcement, rules = rule) => ({ _id: e, name: e, enforcement: e, rules });
  const all = evaluatePlan(CREATE, [of('warn'), of('dry_run'), of('require_approval'), of('block')]);
  t.same(all.results.map((r) => r.decision), ['allowed', 'allowed', 'pending', 'blocked']);
  t.equal(all.decision, 'blocked', 'blocked wins');
  t.equal(evaluatePlan(CREATE, [of('warn'), of('require_approval')]).decision, 'pending');
  t.equal(evaluatePlan(CREATE, [of('warn'), of('dry_run')]).decision, 'allowed', 'warn and dry_run allow');
  t.equal(evaluatePlan(CREATE, [of('block', pass)]).decision, 'allowed', 'no violation: allowed whatever the enforcement');
  t.equal(evaluatePlan(CREATE, []).decision, 'allowed', 'no guardrail deployed');
});

t.test('write-time checks of rules', async (t) => {
  const problems = (r: Partial<Rule>) => ruleProblems([{ resourceType: 'aws_instance', attribute: 'tags.Owner', operator: 'equals', ...r } as Rule]).map((p) => p.message);
  t.match(problems({ value: undefined }), [/needs a value/], 'equals without a value');
  for (const op of ['not_equals', 'in', 'not_in', 'contains', 'not_contains', 'matches', 'gt', 'gte', 'lt', 'lte'] as const) {
    t.match(problems({ operator: op, value: undefined }), [/needs a value/], `${op} without a value`);
    t.match(problems({ operator: op, value: null }), [/needs a value/], `${op} with null`);
  }
  t.match(problems({ operator: 'exists', value: 'x' }), [/takes no value/]);
  t.same(problems({ operator: 'exists', value: undefined }), []);
  t.match(problems({ operator: 'in', value: 'x' }), [/non-empty array/]);
  t.match(problems({ operator: 'gt', value: '5' }), [/number/]);
  // Patterns run on RE2 (linear in the string), so the shapes a backtracking engine chokes on
  // are accepted, and each is checked below to answer at once on its worst input.
  for (const value of ['(a+)+$', '^(a|a)*$', '(x|xy){2,}$', '^a*a*a*a*a*a*b$']) t.same(problems({ operator: 'matches', value }), [], `${value} accepted`);
  t.match(problems({ operator: 'matches', value: '(\\w+)\\1' }), [/back-references are not supported/]);
  t.match(problems({ operator: 'matches', value: '(?=a)' }), [/lookahead, lookbehind and back-references are not supported/]);
  t.match(problems({ operator: 'matches', value: '[a-z]{1001}' }), [/invalid repeat count/], 'RE2 bounds repetition counts at 1000');
  t.match(problems({ operator: 'matches', value: '(?i)\\pL{600}' }), [/too large for the engine/], 'the compiled program is capped (the time is length x program)');
  t.same(problems({ operator: 'matches', value: '^ami-\\u0030+$' }), [], 'a JavaScript \\u escape is read as RE2 \\x{...}');
  t.same(problems({ operator: 'matches', value: '^(dev|staging|prod)$' }), [], 'an alternation not repeated');
  t.same(problems({ operator: 'matches', value: '^[(|)]+$' }), [], 'a | inside a character class');
  t.match(problems({ operator: 'matches', value: '([a-z' }), [/not a valid regular expression.*missing closing \]/]);
  t.match(problems({ operator: 'matches', value: 'a'.repeat(201) }), [/longer than 200/]);
  t.same(problems({ operator: 'matches', value: '^CC-[0-9]{4}$' }), []);
  t.match(problems({ attribute: 'tags..Owner', value: 'x' }), [/empty segment/]);
  t.match(problems({ attribute: 'ingress[x].cidr', value: 'x' }), [/\[\*\], a number, or a quoted key/]);
  t.match(problems({ attribute: 'tags.', value: 'x' }), [/ends with/]);
  t.match(problems({ value: { 'a.b': 1 } }), [/may not contain/]);
  t.match(problems({ attribute: 'ingress[*].cidr_blocks', value: 'x', when: [{ attribute: 'egress[*].from_port', operator: 'lte', value: 1 }] }), [/same list prefix/]);
});
