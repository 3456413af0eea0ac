// EventBridge rule and target readers against moto: a scheduled rule and a pattern rule with
// their targets, in the provider's state shape, compare clean and replay clean (an event pattern
// written with other key order and spacing is no drift); then a target pointed at another queue
// and a rule disabled give their drifts.
import t from 'tap';
import { DisableRuleCommand, EventBridgeClient, PutRuleCommand, PutTargetsCommand, TagResourceCommand } from '@aws-sdk/client-eventbridge';
import { AwsContext } from '../../runner-agent/src/engine/cloud/aws/index.ts';
import { compareLive } from '../../runner-agent/src/engine/compare.ts';
import { IGNORED_ATTRIBUTES } from '../../runner-agent/src/engine/catalogue.ts';
import { buildIgnoreRules } from '../../runner-agent/src/engine/ignore.ts';
import { replayState } from '../../runner-agent/src/engine/replay.ts';
import type { StateInstance } from '../../runner-agent/src/engine/types.ts';
import { CREDENTIALS, motoUrl, REGION } from './world.ts';

const endpoint = motoUrl();
const suffix = `${Date.now().toString(36)}${process.pid}`;
const events = new EventBridgeClient({ endpoint, region: REGION, credentials: CREDENTIALS });
t.teardown(() => events.destroy());

const nightly = `nightly-${suffix}`;
const onPush = `on-push-${suffix}`;
const queue = `arn:aws:sqs:${REGION}:123456789012:jobs-${suffix}`;
const nightlyArn = (await events.send(new PutRuleCommand({ Name: nightly, ScheduleExpression: 'cron(0 3 * * ? *)', Description: 'nightly job' }))).RuleArn!;
await events.send(new TagResourceCommand({ ResourceARN: nightlyArn, Tags: [{ Key: 'team', Value: 'ops' }] }));
const pattern = JSON.stringify({ source: ['aws.codecommit'], 'detail-type': ['CodeCommit Repository State Change'] });
const onPushArn = (await events.send(new PutRuleCommand({ Name: onPush, EventPattern: pattern }))).RuleArn!;
await events.send(new PutTargetsCommand({ Rule: nightly, Targets: [{ Id: 'jobs', Arn: queue, Input: '{"job":"compact"}' }] }));

/** As the provider writes them; the pattern with the provider's own key order and spacing. */
const state = [
  { type: 'aws_cloudwatch_event_rule', name: 'nightly', attributes: {
    id: nightly, arn: nightlyArn, name: nightly, name_prefix: '', event_bus_name: 'default', description: 'nightly job', event_pattern: null,
    schedule_expression: 'cron(0 3 * * ? *)', role_arn: '', state: 'ENABLED', is_enabled: true, force_destroy: false, tags: { team: 'ops' }, tags_all: { team: 'ops' },
  } },
  { type: 'aws_cloudwatch_event_rule', name: 'on_push', attributes: {
    id: onPush, arn: onPushArn, name: onPush, name_prefix: '', event_bus_name: 'default', description: '',
    event_pattern: '{"detail-type":["CodeCommit Repository State Change"],"source":["aws.codecommit"]}',
    schedule_expression: '', role_arn: '', state: 'ENABLED', is_enabled: true, force_destroy: false, tags: {}, tags_all: {},
  } },
  { type: 'aws_cloudwatch_event_target', name: 'jobs', attributes: {
    id: `${nightly}-jobs`, rule: nightly, target_id: 'jobs', event_bus_name: 'default', arn: queue, role_arn: '', input: '{"job": "compact"}', input_path: '',
    input_transformer: [], dead_letter_config: [], retry_policy: [],
  } },
];

async function scan() {
  const aws = new AwsContext(CREDENTIALS, REGION, endpoint);
  try {
    const entries = state.map((r) => ({ instance: { address: `${r.type}.${r.name}`, type: r.type, name: r.name, attributes: r.attributes } as StateInstance, region: REGION }));
    const out = await compareLive(entries, aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
    return { ...out, calls: { ...aws.calls } };
  } finally {
    aws.destroy();
  }
}

t.test('rules and targets compare clean against moto: one ListRules per bus, one ListTargetsByRule per rule', async (t) => {
  const out = await scan();
  t.same(out.drifts, [], 'no drift (JSON text compared as JSON)');
  t.equal(out.compared, state.length);
  t.ok(out.calls.events <= 4, `${out.calls.events} EventBridge calls for ${state.length} instances`);
});

t.test('the same state replays clean', async (t) => {
  const doc = { version: 4, terraform_version: '1.9.8', serial: 1, lineage: 'events', outputs: {}, resources: state.map((r) => ({
    mode: 'managed', type: r.type, name: r.name, provider: 'provider["registry.terraform.io/hashicorp/aws"]',
    instances: [{ schema_version: 1, attributes: r.attributes, sensitive_attributes: [] }],
  })) };
  const out = await replayState(JSON.stringify(doc), 'events');
  t.equal(out.compared, state.length);
  t.same(out.drifts, []);
});

t.test('a target pointed elsewhere is high; a disabled rule is medium', async (t) => {
  await events.send(new PutTargetsCommand({ Rule: nightly, Targets: [{ Id: 'jobs', Arn: `${queue}-attacker`, Input: '{"job":"compact"}' }] }));
  await events.send(new DisableRuleCommand({ Name: onPush }));
  const drifts = Object.fromEntries((await scan()).drifts.map((d) => [d.resourceAddress, d]));
  t.equal(drifts['aws_cloudwatch_event_target.jobs']?.ruleId, 'events-target-redirected', JSON.stringify(drifts));
  t.equal(drifts['aws_cloudwatch_event_target.jobs']?.severity, 'high');
  t.equal(drifts['aws_cloudwatch_event_rule.on_push']?.ruleId, 'events-rule-disabled');
  t.same(drifts['aws_cloudwatch_event_rule.on_push']?.diff.map((e) => e.attribute), ['state']);
  t.notOk(drifts['aws_cloudwatch_event_rule.nightly'], 'the untouched rule is clean');
});
