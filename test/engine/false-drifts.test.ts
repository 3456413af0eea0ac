// False drifts measured on public states and against Terraform's own verdict (issue 33), each
// replayed clean, and the same attribute changed out of band still found: defaults the API
// leaves out (ASG max_instance_lifetime, S3 bucket_key_enabled), a listener's ssl_policy as the
// API answers it, JSON held as text compared as a document, and an instance's
// disable_api_termination (DescribeInstanceAttribute) read at all.
import t from 'tap';
import { IGNORED_ATTRIBUTES } from '../../runner-agent/src/engine/catalogue.ts';
import { AwsContext } from '../../runner-agent/src/engine/cloud/aws/index.ts';
import { startFakeCloud, stateWorld } from '../../runner-agent/src/engine/cloud/aws/replay/server.ts';
import { compareLive } from '../../runner-agent/src/engine/compare.ts';
import { compareAttributes } from '../../runner-agent/src/engine/diff.ts';
import { buildIgnoreRules } from '../../runner-agent/src/engine/ignore.ts';
import { allAnswers } from '../../runner-agent/src/engine/replay.ts';
import type { StateInstance } from '../../runner-agent/src/engine/types.ts';

const ARN = 'arn:aws:elasticloadbalancing:us-east-1:123456789012';
const inst = (type: string, name: string, attributes: Record<string, unknown>): StateInstance => ({ address: `${type}.${name}`, type, name, attributes });

const asg = inst('aws_autoscaling_group', 'web', {
  id: 'web', name: 'web', arn: 'arn:aws:autoscaling:us-east-1:123456789012:autoScalingGroup:1:autoScalingGroupName/web', min_size: 1, max_size: 3,
  desired_capacity: 1, default_cooldown: 300, health_check_type: 'EC2', health_check_grace_period: 300, launch_configuration: 'lc', vpc_zone_identifier: ['subnet-1'],
  availability_zones: ['us-east-1a'], target_group_arns: [], load_balancers: [], termination_policies: [], capacity_rebalance: false, protect_from_scale_in: false,
  max_instance_lifetime: null, tag: [],
});
const sse = inst('aws_s3_bucket_server_side_encryption_configuration', 'logs', {
  id: 'logs', bucket: 'logs', expected_bucket_owner: '',
  rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: 'AES256', kms_master_key_id: '' }], bucket_key_enabled: null }],
});
const bucket = inst('aws_s3_bucket', 'logs', { id: 'logs', bucket: 'logs', arn: 'arn:aws:s3:::logs' });
// Terraform against moto: the provider stores the SslPolicy the API names on a plain HTTP listener.
const listener = inst('aws_lb_listener', 'http', {
  id: `${ARN}:listener/app/web/1/2`, arn: `${ARN}:listener/app/web/1/2`, load_balancer_arn: `${ARN}:loadbalancer/app/web/1`, port: 80, protocol: 'HTTP',
  ssl_policy: 'ELBSecurityPolicy-2016-08', certificate_arn: null, alpn_policy: null,
  default_action: [{ type: 'forward', order: 1, target_group_arn: `${ARN}:targetgroup/web/3`, redirect: [], fixed_response: [], forward: [] }], tags: {}, tags_all: {},
});
const ec2 = inst('aws_instance', 'app', {
  id: 'i-0abc', arn: 'arn:aws:ec2:us-east-1:123456789012:instance/i-0abc', ami: 'ami-1', instance_type: 't3.micro', availability_zone: 'us-east-1a',
  tenancy: 'default', key_name: '', subnet_id: 'subnet-1', private_ip: '10.0.0.5', vpc_security_group_ids: ['sg-1'], iam_instance_profile: '', monitoring: false,
  ebs_optimized: false, source_dest_check: true, disable_api_termination: false, tags: { Name: 'app' },
});
const estate = [asg, sse, bucket, listener, ec2];

/** `state` compared against a fake cloud built from `cloud`. */
async function cross(cloud: StateInstance[], state: StateInstance[]) {
  const fake = await startFakeCloud(stateWorld(cloud), allAnswers());
  const aws = new AwsContext({ accessKeyId: 'r', secretAccessKey: 'r', region: 'us-east-1' }, 'us-east-1', fake.endpoint);
  try {
    return await compareLive(state.map((instance) => ({ instance, region: 'us-east-1' })), aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
  } finally {
    aws.destroy();
    await fake.close();
  }
}
const edit = (i: StateInstance, attributes: Record<string, unknown>): StateInstance => ({ ...i, attributes: { ...i.attributes, ...attributes } });

t.test('the measured false drifts replay clean', async (t) => {
  const { drifts, compared } = await cross(estate, estate);
  t.equal(compared, estate.length);
  t.same(drifts.map((d) => `${d.resourceAddress} ${JSON.stringify(d.diff)}`), [], 'null max_instance_lifetime = 0, null bucket_key_enabled = false, the stored ssl_policy');
});

t.test('the same attributes changed out of band are found', async (t) => {
  const cloud = [
    edit(asg, { max_instance_lifetime: 86400 }),
    edit(sse, { rule: [{ apply_server_side_encryption_by_default: [{ sse_algorithm: 'AES256', kms_master_key_id: '' }], bucket_key_enabled: true }] }),
    bucket,
    edit(listener, { ssl_policy: 'ELBSecurityPolicy-TLS13-1-2-2021-06' }),
    edit(ec2, { disable_api_termination: true }),
  ];
  const { drifts } = await cross(cloud, estate);
  const by = Object.fromEntries(drifts.map((d) => [d.resourceAddress, d.diff]));
  t.match(by['aws_autoscaling_group.web'], [{ attribute: 'max_instance_lifetime', before: 0, after: 86400 }]);
  t.match(by['aws_s3_bucket_server_side_encryption_configuration.logs'], [{ attribute: 'rule.0.bucket_key_enabled', before: false, after: true }]);
  t.match(by['aws_lb_listener.http'], [{ attribute: 'ssl_policy', after: 'ELBSecurityPolicy-TLS13-1-2-2021-06' }]);
  t.match(by['aws_instance.app'], [{ attribute: 'disable_api_termination', before: false, after: true }], 'termination protection turned on out of band is found');
  t.equal(drifts.length, 4);
});

t.test('instance attributes are read for the instances whose state holds them, one call each, not per attribute of the type', async (t) => {
  const one = (n: number, extra: Record<string, unknown>) =>
    ({ ...ec2, address: `aws_instance.app[${n}]`, attributes: { ...ec2.attributes, id: `i-0ab${n}`, arn: `arn:aws:ec2:us-east-1:123456789012:instance/i-0ab${n}`, ...extra } });
  // The third from a provider version before disable_api_termination was stored: not asked.
  const { disable_api_termination: _none, ...older } = ec2.attributes;
  const many = [one(0, {}), one(1, { disable_api_termination: true }), { ...one(2, {}), attributes: { ...older, id: 'i-0ab2', arn: 'arn:aws:ec2:us-east-1:123456789012:instance/i-0ab2' } }];
  const fake = await startFakeCloud(stateWorld(many), allAnswers());
  const aws = new AwsContext({ accessKeyId: 'r', secretAccessKey: 'r', region: 'us-east-1' }, 'us-east-1', fake.endpoint);
  try {
    const { drifts } = await compareLive(many.map((instance) => ({ instance, region: 'us-east-1' })), aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
    t.same(drifts, []);
    t.equal(aws.calls.ec2, 1 + 2, 'one DescribeInstances for all, one DescribeInstanceAttribute per instance whose state holds the attribute');
  } finally {
    aws.destroy();
    await fake.close();
  }
});

t.test('JSON held as text compares as a document: key order and empty members are no drift, a changed value is', async (t) => {
  const ignore = buildIgnoreRules([], IGNORED_ATTRIBUTES);
  const state = { container_definitions: '[{"name":"web","image":"nginx:1","essential":true,"environment":[]}]', schema: '{"b":1,"a":[1,2]}' };
  const same = { container_definitions: '[{"essential":true,"image":"nginx:1","name":"web","mountPoints":[],"volumesFrom":[]}]', schema: '{ "a": [1, 2], "b": 1 }' };
  t.same(compareAttributes('aws_ecs_task_definition', 'x', state, same, {}, ignore).diff, []);
  const changed = { container_definitions: '[{"essential":true,"image":"nginx:2","name":"web"}]', schema: '{"a":[2,1],"b":1}' };
  t.same(compareAttributes('aws_ecs_task_definition', 'x', state, changed, {}, ignore).diff.map((d) => d.attribute), ['container_definitions', 'schema'],
    'a new image, and a list in another order (it carries meaning in a document)');
  t.same(compareAttributes('x', 'x', { v: '[not json' }, { v: '[not json ' }, {}, ignore).diff, [], 'text that is not JSON still compares as text');
});
