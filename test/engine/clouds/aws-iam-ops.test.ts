// Issue 33's IAM extras, alarms, developer tools, parameter groups, messaging and secrets readers
// against the replay fake: the written corpus state compares clean; a cloud that differs from it
// (out-of-band edits, deletions) gives exactly the drifts, severities and rule ids promised, and a
// secret's value never appears in a drift.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { AWS_READERS, AwsContext } from '../../../runner-agent/src/engine/cloud/aws/index.ts';
import { startFakeCloud, stateWorld } from '../../../runner-agent/src/engine/cloud/aws/replay/server.ts';
import { compareLive } from '../../../runner-agent/src/engine/compare.ts';
import { IGNORED_ATTRIBUTES, SEVERITY_RULES } from '../../../runner-agent/src/engine/catalogue.ts';
import { buildIgnoreRules } from '../../../runner-agent/src/engine/ignore.ts';
import { allAnswers } from '../../../runner-agent/src/engine/replay.ts';
import { SENSITIVE_CHANGED } from '../../../runner-agent/src/engine/sensitive.ts';
import { parseState } from '../../../runner-agent/src/engine/state.ts';
import type { DetectedDrift, StateInstance } from '../../../runner-agent/src/engine/types.ts';

const FILE = 'written-iam-ops-long-tail.tfstate';
const base = parseState(readFileSync(join(import.meta.dirname, '..', 'corpus', FILE), 'utf8'), FILE);
const TYPES = [
  'aws_iam_openid_connect_provider', 'aws_iam_user_group_membership', 'aws_iam_group_membership', 'aws_iam_group_policy_attachment', 'aws_iam_group_policy',
  'aws_iam_user_login_profile', 'aws_cloudwatch_metric_alarm', 'aws_codebuild_project', 'aws_codecommit_repository', 'aws_codedeploy_app',
  'aws_codedeploy_deployment_group', 'aws_db_parameter_group', 'aws_sqs_queue_policy', 'aws_sns_topic_subscription', 'aws_sns_topic_policy',
  'aws_secretsmanager_secret', 'aws_secretsmanager_secret_version', 'aws_ssm_parameter',
];

/** The instances of `state` compared against a fake cloud built from `cloud`. */
async function scan(cloud: StateInstance[], state: StateInstance[] = base) {
  const fake = await startFakeCloud(stateWorld(cloud), allAnswers());
  const aws = new AwsContext({ accessKeyId: 'replay', secretAccessKey: 'replay', region: 'eu-west-1' }, 'eu-west-1', fake.endpoint);
  try {
    const out = await compareLive(state.map((instance) => ({ instance, region: 'eu-west-1' })), aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
    return { ...out, calls: { ...aws.calls } };
  } finally {
    aws.destroy();
    await fake.close();
  }
}
const at = (address: string) => base.find((i) => i.address === address)!;
/** The cloud: the state with these attributes changed (by address), and these addresses gone. */
function cloudWith(changes: Record<string, Record<string, unknown>>, gone: string[] = []): StateInstance[] {
  return base.filter((i) => !gone.includes(i.address)).map((i) => (changes[i.address] ? { ...i, attributes: { ...i.attributes, ...changes[i.address] } } : i));
}
const byAddress = (drifts: DetectedDrift[]) => Object.fromEntries(drifts.map((d) => [d.resourceAddress, d]));
const openPolicy = (action: string) => JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Action: action, Resource: '*' }] });

t.test('every type has a reader with replay answers, and the written state holds each', async (t) => {
  for (const type of TYPES) {
    t.ok(AWS_READERS[type]?.answers.length, `${type}: reader with answers`);
    t.ok(base.some((i) => i.type === type), `${type}: in ${FILE}`);
  }
  t.ok(IGNORED_ATTRIBUTES.aws_iam_user_login_profile.includes('password'), 'the write-only password is on the ignore list');
  const ids = SEVERITY_RULES.map((r) => r.id);
  t.ok(ids.indexOf('queue-topic-policy-resource-public') < ids.indexOf('tags-only'), 'family rules come before the generic fallbacks');
});

t.test('the written state compares clean, with batched reads', async (t) => {
  const { drifts, compared, calls } = await scan(base);
  t.same(drifts, [], 'no drift');
  t.equal(compared, base.filter((i) => AWS_READERS[i.type]).length, 'every instance compared');
  t.equal(calls.ssm, 1 + 1 + 3, 'SSM: one GetParameters and one DescribeParameters for three parameters, plus their tags');
  t.equal(calls.monitoring, 1 + 2, 'CloudWatch: one DescribeAlarms for both alarms, plus their tags');
});

t.test('out-of-band changes: drifts, severities and rules', async (t) => {
  const oidc = at('aws_iam_openid_connect_provider.github');
  const cloud = cloudWith({
    'aws_iam_openid_connect_provider.github': { thumbprint_list: [...(oidc.attributes.thumbprint_list as string[]), 'ffffffffffffffffffffffffffffffffffffffff'] },
    'aws_iam_group_membership.ops': { users: ['alice', 'bob', 'mallory'] },
    'aws_iam_group_policy.ops_ssm': { policy: JSON.stringify({ Version: '2012-10-17', Statement: [{ Action: ['ssm:*'], Effect: 'Allow', Resource: '*' }] }) },
    'aws_cloudwatch_metric_alarm.cpu': { alarm_actions: [] },
    'aws_cloudwatch_metric_alarm.errors': { actions_enabled: false },
    'aws_codebuild_project.api': { service_role: 'arn:aws:iam::123456789012:role/admin' },
    'aws_codedeploy_app.api': { tags: { Owner: 'someone' }, tags_all: { Owner: 'someone' } },
    'aws_codedeploy_deployment_group.api_prod': { deployment_config_name: 'CodeDeployDefault.AllAtOnce' },
    'aws_db_parameter_group.pg': { parameter: [{ apply_method: 'immediate', name: 'log_min_duration_statement', value: '500' }, { apply_method: 'pending-reboot', name: 'shared_preload_libraries', value: 'pg_stat_statements' }, { apply_method: 'immediate', name: 'rds.force_ssl', value: '0' }] },
    'aws_sqs_queue_policy.jobs': { policy: openPolicy('sqs:SendMessage') },
    'aws_sns_topic_policy.alerts': { policy: JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: 'arn:aws:iam::999999999999:root' }, Action: 'SNS:Publish', Resource: '*' }] }) },
    'aws_sns_topic_subscription.alerts_queue': { endpoint: 'arn:aws:sqs:eu-west-1:999999999999:elsewhere' },
    'aws_secretsmanager_secret.db': { kms_key_id: 'arn:aws:kms:eu-west-1:123456789012:key/other' },
    'aws_secretsmanager_secret_version.db': { secret_string: '{"username":"app","password":"leaked-new-value"}' },
    'aws_ssm_parameter.db_password': { value: 'rotated-by-hand' },
    'aws_ssm_parameter.db_host': { value: 'db2.internal' },
  }, ['aws_iam_user_login_profile.alice', 'aws_codecommit_repository.infra', 'aws_iam_group_policy_attachment.ops_readonly']);
  const { drifts } = await scan(cloud);
  const d = byAddress(drifts);
  const expect: Record<string, [string, string, string]> = {
    'aws_iam_openid_connect_provider.github': ['changed', 'critical', 'oidc-trust-widened'],
    'aws_iam_group_membership.ops': ['changed', 'high', 'iam-group-membership-changed'],
    'aws_iam_group_policy.ops_ssm': ['changed', 'high', 'iam-group-policy-changed'],
    'aws_iam_group_policy_attachment.ops_readonly': ['deleted', 'high', 'iam-group-policy-changed'],
    'aws_iam_user_login_profile.alice': ['deleted', 'high', 'login-profile-changed'],
    'aws_cloudwatch_metric_alarm.cpu': ['changed', 'high', 'alarm-actions-removed'],
    'aws_cloudwatch_metric_alarm.errors': ['changed', 'high', 'alarm-actions-disabled'],
    'aws_codebuild_project.api': ['changed', 'high', 'codebuild-role-or-source-changed'],
    'aws_codecommit_repository.infra': ['deleted', 'high', 'deleted'],
    'aws_codedeploy_app.api': ['changed', 'low', 'tags-only'],
    'aws_codedeploy_deployment_group.api_prod': ['changed', 'medium', 'changed'],
    'aws_db_parameter_group.pg': ['changed', 'medium', 'changed'],
    'aws_sqs_queue_policy.jobs': ['changed', 'critical', 'queue-topic-policy-resource-public'],
    'aws_sns_topic_policy.alerts': ['changed', 'high', 'queue-topic-policy-resource-changed'],
    'aws_sns_topic_subscription.alerts_queue': ['changed', 'high', 'subscription-endpoint-changed'],
    'aws_secretsmanager_secret.db': ['changed', 'high', 'secret-policy-or-key-changed'],
    'aws_secretsmanager_secret_version.db': ['changed', 'critical', 'secret-value-changed'],
    'aws_ssm_parameter.db_password': ['changed', 'critical', 'ssm-secure-value-changed'],
    'aws_ssm_parameter.db_host': ['changed', 'medium', 'changed'],
  };
  t.same(Object.keys(d).sort(), Object.keys(expect).sort(), 'exactly the changed resources drift');
  for (const [address, [changeType, severity, ruleId]] of Object.entries(expect)) t.match(d[address], { changeType, severity, ruleId }, address);
  t.match(d['aws_iam_group_membership.ops'].diff, [{ attribute: 'users', after: ['alice', 'bob', 'mallory'] }], 'the added member shows');
  t.match(d['aws_db_parameter_group.pg'].diff, [{ attribute: 'parameter' }], 'the parameter set differs');
  t.match(d['aws_cloudwatch_metric_alarm.cpu'].diff, [{ attribute: 'alarm_actions', after: [] }]);
  const text = JSON.stringify(drifts);
  for (const secret of ['leaked-new-value', 'example-only', 'rotated-by-hand', 'db2.internal', 'db.internal']) t.notOk(text.includes(secret), `"${secret}" never appears in a drift`);
  t.same(d['aws_secretsmanager_secret_version.db'].diff, [{ attribute: 'secret_string', before: SENSITIVE_CHANGED, after: SENSITIVE_CHANGED }], 'the version shows only that its value changed');
});

t.test('a user removed from a group the membership lists; an OIDC provider losing a client id is high, not critical; a deleted CodeDeploy app', async (t) => {
  const { drifts } = await scan(cloudWith({
    'aws_iam_user_group_membership.carol': { groups: ['ops-readonly'] },
    'aws_iam_openid_connect_provider.github': { client_id_list: [] },
  }, ['aws_codedeploy_app.api']));
  const d = byAddress(drifts);
  t.match(d['aws_iam_user_group_membership.carol'], { severity: 'high', ruleId: 'iam-group-membership-changed', diff: [{ attribute: 'groups', before: ['auditors', 'ops-readonly'], after: ['ops-readonly'] }] });
  t.match(d['aws_iam_openid_connect_provider.github'], { severity: 'high', ruleId: 'oidc-provider-changed' });
  t.match(d['aws_codedeploy_app.api'], { changeType: 'deleted' }, 'found although the batch naming it fails whole');
  t.equal(drifts.length, 3);
});

t.test('a secret version no longer current is critical; an older state without sensitive_attributes still hides the value', async (t) => {
  const version = at('aws_secretsmanager_secret_version.db');
  const unmarked = base.map((i) => (i === version ? { ...i, sensitivePaths: [] } : i));
  const { drifts } = await scan(cloudWith({ 'aws_secretsmanager_secret_version.db': { version_stages: ['AWSPREVIOUS'], secret_string: 'value-put-by-hand' } }), unmarked);
  t.equal(drifts.length, 1);
  t.match(drifts[0], { resourceAddress: version.address, severity: 'critical' });
  t.ok(['secret-value-changed', 'secret-current-version-replaced'].includes(String(drifts[0].ruleId)), String(drifts[0].ruleId));
  t.notOk(JSON.stringify(drifts).includes('value-put-by-hand') || JSON.stringify(drifts).includes('example-only'), 'no value in the drift, from either side');
  const stagesOnly = await scan(cloudWith({ 'aws_secretsmanager_secret_version.db': { version_stages: [] } }));
  t.match(stagesOnly.drifts, [{ severity: 'critical', ruleId: 'secret-current-version-replaced', diff: [{ attribute: 'version_stages', before: ['AWSCURRENT'], after: [] }] }], 'a deprecated version (no stage left) is reported');
  const deleted = await scan(cloudWith({}, [version.address]));
  t.match(deleted.drifts, [{ resourceAddress: version.address, changeType: 'deleted' }], 'a deleted version is reported');
});

t.test('tag-only edits stay on the generic low rule', async (t) => {
  const { drifts } = await scan(cloudWith({
    'aws_ssm_parameter.db_password': { tags: { Team: 'other' }, tags_all: { Team: 'other' } },
    'aws_secretsmanager_secret.db': { tags: { Team: 'other' }, tags_all: { Team: 'other' } },
    'aws_cloudwatch_metric_alarm.cpu': { tags: { Team: 'other' }, tags_all: { Team: 'other' } },
    'aws_iam_openid_connect_provider.github': { tags: { Name: 'x' }, tags_all: { Name: 'x' } },
  }));
  t.equal(drifts.length, 4);
  for (const d of drifts) t.match(d, { severity: 'low', ruleId: 'tags-only' }, d.resourceAddress);
});

t.test('a queue and a topic whose policy resources manage the policy (the parent holds it empty) replay clean; an opened policy drifts once, on the policy resource', async (t) => {
  const queuePolicy = at('aws_sqs_queue_policy.jobs');
  const topicPolicy = at('aws_sns_topic_policy.alerts');
  const url = String(queuePolicy.attributes.queue_url);
  const parents = [
    { address: 'aws_sqs_queue.jobs', type: 'aws_sqs_queue', name: 'jobs', attributes: { id: url, url, name: 'jobs', policy: '', arn: 'arn:aws:sqs:eu-west-1:123456789012:jobs', tags: {}, tags_all: {} } },
    { address: 'aws_sns_topic.alerts', type: 'aws_sns_topic', name: 'alerts', attributes: { id: topicPolicy.attributes.arn, arn: topicPolicy.attributes.arn, name: 'alerts', policy: '', tags: {}, tags_all: {} } },
  ] as StateInstance[];
  const state = [...parents, queuePolicy, topicPolicy];
  t.same((await scan(state, state)).drifts, [], 'no drift on the parents\' stale empty copies');
  const opened = state.map((i) => (i === queuePolicy ? { ...i, attributes: { ...i.attributes, policy: openPolicy('sqs:*') } } : i));
  const { drifts } = await scan(opened, state);
  t.match(drifts, [{ resourceAddress: queuePolicy.address, severity: 'critical', ruleId: 'queue-topic-policy-resource-public' }], 'reported on the policy resource only');
  t.equal(drifts.length, 1);
});

t.test('values written through write-only arguments (value_wo, secret_string_wo) are in no state: nothing to compare, no drift', async (t) => {
  const param = at('aws_ssm_parameter.db_password');
  const version = at('aws_secretsmanager_secret_version.db');
  const state = [
    { ...param, attributes: { ...param.attributes, value: null, value_wo_version: 1 } },
    { ...version, attributes: { ...version.attributes, secret_string: null, secret_string_wo_version: 1 } },
  ];
  t.same((await scan([param, version], state)).drifts, [], 'the live values are not compared with an absent one');
  const { drifts } = await scan([param, { ...version, attributes: { ...version.attributes, version_stages: ['AWSPREVIOUS'] } }], state);
  t.match(drifts, [{ resourceAddress: version.address, ruleId: 'secret-current-version-replaced' }], 'the stages still are');
});
