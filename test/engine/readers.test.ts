// The live readers of issue #11 against moto: a small estate of every new type, created through
// the SDK, with a state in the provider's shape, compares clean; then out-of-band changes give
// the drifts, severities and rule ids the rules table promises.
import t from 'tap';
import {
  CreateRouteCommand, CreateTagsCommand, DescribeRouteTablesCommand, DescribeSecurityGroupsCommand, DescribeSubnetsCommand, DescribeVpcsCommand, ModifySubnetAttributeCommand,
} from '@aws-sdk/client-ec2';
import { renderPermissions } from '../../runner-agent/src/engine/cloud/aws/vpc/security-group-rules.ts';
import {
  AttachUserPolicyCommand, CreateAccessKeyCommand, CreateUserCommand, DetachRolePolicyCommand, DetachUserPolicyCommand, IAMClient, PutUserPolicyCommand,
  UpdateAccessKeyCommand,
} from '@aws-sdk/client-iam';
import { CreateAliasCommand, CreateKeyCommand, KMSClient, ScheduleKeyDeletionCommand } from '@aws-sdk/client-kms';
import { CloudWatchLogsClient, DeleteLogGroupCommand } from '@aws-sdk/client-cloudwatch-logs';
import { ModifyDBInstanceCommand, RDSClient } from '@aws-sdk/client-rds';
import { SetTopicAttributesCommand, SNSClient } from '@aws-sdk/client-sns';
import { SetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { AWS_READERS, AwsContext } from '../../runner-agent/src/engine/cloud/aws/index.ts';
import { compareLive } from '../../runner-agent/src/engine/compare.ts';
import { buildIgnoreRules } from '../../runner-agent/src/engine/ignore.ts';
import { IGNORED_ATTRIBUTES } from '../../runner-agent/src/engine/catalogue.ts';
import { replayState } from '../../runner-agent/src/engine/replay.ts';
import type { DetectedDrift, StateInstance } from '../../runner-agent/src/engine/types.ts';
import { buildNetwork, type Res } from './estate-network.ts';
import { buildPlatform } from './estate-platform.ts';
import { buildServices } from './estate-services.ts';
import { CREDENTIALS, motoUrl, REGION } from './world.ts';

const ISSUE_TYPES = [
  'aws_vpc', 'aws_subnet', 'aws_route_table', 'aws_route_table_association', 'aws_route', 'aws_internet_gateway', 'aws_nat_gateway', 'aws_eip',
  'aws_network_interface', 'aws_lb', 'aws_alb', 'aws_lb_listener', 'aws_lb_target_group', 'aws_key_pair', 'aws_iam_role_policy_attachment',
  'aws_iam_instance_profile', 'aws_iam_user', 'aws_iam_group', 'aws_db_instance', 'aws_db_subnet_group', 'aws_ecr_repository', 'aws_ecs_cluster',
  'aws_ecs_service', 'aws_ecs_task_definition', 'aws_lambda_function', 'aws_dynamodb_table', 'aws_cloudwatch_log_group', 'aws_kms_key', 'aws_sns_topic',
  'aws_sqs_queue', 'aws_route53_zone', 'aws_route53_record', 'aws_ebs_volume', 'aws_launch_template', 'aws_autoscaling_group',
];

const endpoint = motoUrl();
const suffix = `${Date.now().toString(36)}${process.pid}`;
const cfg = { endpoint, region: REGION, credentials: CREDENTIALS };
const net = await buildNetwork(endpoint, suffix);
const launchTemplateId = String(net.resources.find((r) => r.type === 'aws_launch_template')!.attributes.id);
const [svc, plat] = await Promise.all([buildServices(endpoint, suffix), buildPlatform(endpoint, suffix, net.ids, launchTemplateId)]);
const resources: Res[] = [...net.resources, ...svc.resources, ...plat.resources];
t.teardown(() => net.ec2.destroy());

async function scan(list: Res[] = resources) {
  const aws = new AwsContext(CREDENTIALS, REGION, endpoint);
  try {
    const entries = list.map((r) => ({ instance: { address: `${r.type}.${r.name}`, type: r.type, name: r.name, attributes: r.attributes } as StateInstance, region: REGION }));
    const stats = { unsupported: {} as Record<string, number>, ignoredDiffs: 0 };
    const out = await compareLive(entries, aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), stats);
    return { ...out, stats, calls: { ...aws.calls } };
  } finally {
    aws.destroy();
  }
}
const byAddress = (drifts: DetectedDrift[]) => Object.fromEntries(drifts.map((d) => [d.resourceAddress, d]));

t.test('every type the issue names has a reader, with replay answers', async (t) => {
  for (const type of ISSUE_TYPES) {
    t.ok(AWS_READERS[type], `${type} has a reader`);
    t.ok(AWS_READERS[type]?.answers.length, `${type} declares the replay fake's answers`);
  }
});

t.test('an estate that matches its state compares clean, with batched reads', async (t) => {
  const out = await scan();
  t.same(out.drifts, [], 'no drift');
  t.equal(out.compared, resources.length, `all ${resources.length} instances compared`);
  t.same(out.stats.unsupported, {}, 'no unsupported type');
  const types = new Set(resources.map((r) => r.type));
  t.equal(types.size, ISSUE_TYPES.length - 1, 'one estate holds every type of the issue (aws_alb is aws_lb under its old name)');
  // 13 EC2 types: one Describe call each, plus the VPC's two attribute reads and the template's version.
  t.ok(out.calls.ec2 <= 16, `EC2 reads are batched (${out.calls.ec2} calls)`);
});

t.test('the same state replays clean against the replay fake (no moto)', async (t) => {
  const doc = { version: 4, terraform_version: '1.9.8', serial: 1, lineage: 'estate', outputs: {}, resources: resources.map((r) => ({
    mode: 'managed', type: r.type, name: r.name, provider: 'provider["registry.terraform.io/hashicorp/aws"]',
    instances: [{ schema_version: 0, attributes: r.attributes, sensitive_attributes: [] }],
  })) };
  const out = await replayState(JSON.stringify(doc), 'estate');
  t.equal(out.compared, resources.length, 'every instance compared');
  t.same(out.drifts, [], 'no drift: the fake answers this state as moto does');
});

t.test('default VPC, subnet, security group and route table, user policies, access keys and KMS aliases compare clean; a detached user policy is deleted, a deactivated key changed', async (t) => {
  const vpc = (await net.ec2.send(new DescribeVpcsCommand({ Filters: [{ Name: 'is-default', Values: ['true'] }] }))).Vpcs![0];
  const subnet = (await net.ec2.send(new DescribeSubnetsCommand({ Filters: [{ Name: 'vpc-id', Values: [vpc.VpcId!] }] }))).Subnets![0];
  const iam = new IAMClient(cfg);
  const user = `estate-extra-${suffix}`;
  await iam.send(new CreateUserCommand({ UserName: user }));
  await iam.send(new AttachUserPolicyCommand({ UserName: user, PolicyArn: svc.names.policyArn }));
  const doc = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: 's3:ListBucket', Resource: '*' }] });
  await iam.send(new PutUserPolicyCommand({ UserName: user, PolicyName: 'list', PolicyDocument: doc }));
  const kms = new KMSClient(cfg);
  const key = (await kms.send(new CreateKeyCommand({}))).KeyMetadata!;
  await kms.send(new CreateAliasCommand({ AliasName: `alias/estate-${suffix}`, TargetKeyId: key.KeyId }));
  const extra: Res[] = [
    { type: 'aws_default_vpc', name: 'default', attributes: {
      id: vpc.VpcId, cidr_block: vpc.CidrBlock, instance_tenancy: 'default', enable_dns_support: true, enable_dns_hostnames: true, force_destroy: false,
      existing_default_vpc: true, ipv6_cidr_block: '', tags: {}, tags_all: {},
    } },
    { type: 'aws_default_subnet', name: 'a', attributes: {
      id: subnet.SubnetId, availability_zone: subnet.AvailabilityZone, cidr_block: subnet.CidrBlock, vpc_id: vpc.VpcId, map_public_ip_on_launch: subnet.MapPublicIpOnLaunch,
      assign_ipv6_address_on_creation: false, force_destroy: false, existing_default_subnet: true, tags: {}, tags_all: {},
    } },
    { type: 'aws_iam_user_policy_attachment', name: 'u', attributes: { id: `${user}-2024`, user, policy_arn: svc.names.policyArn } },
    { type: 'aws_iam_user_policy', name: 'u', attributes: { id: `${user}:list`, user, name: 'list', name_prefix: '', policy: doc } },
    { type: 'aws_kms_alias', name: 'k', attributes: { id: `alias/estate-${suffix}`, name: `alias/estate-${suffix}`, arn: `arn:aws:kms:${REGION}:123456789012:alias/estate-${suffix}`, target_key_id: key.KeyId, target_key_arn: key.Arn } },
  ];
  // The estate VPC's own default security group and main route table, as aws_default_* resources.
  const sg = (await net.ec2.send(new DescribeSecurityGroupsCommand({ GroupIds: [net.ids.defaultSgId] }))).SecurityGroups![0];
  const main = (await net.ec2.send(new DescribeRouteTablesCommand({ Filters: [{ Name: 'vpc-id', Values: [net.ids.vpcId] }, { Name: 'association.main', Values: ['true'] }] }))).RouteTables![0];
  extra.push(
    { type: 'aws_default_security_group', name: 'default', attributes: {
      id: sg.GroupId, arn: sg.SecurityGroupArn, name: 'default', description: sg.Description, vpc_id: net.ids.vpcId, owner_id: sg.OwnerId, revoke_rules_on_delete: false,
      ingress: renderPermissions(sg.IpPermissions, sg.GroupId!), egress: renderPermissions(sg.IpPermissionsEgress, sg.GroupId!), tags: {}, tags_all: {},
    } },
    { type: 'aws_default_route_table', name: 'main', attributes: {
      id: main.RouteTableId, default_route_table_id: main.RouteTableId, vpc_id: net.ids.vpcId, owner_id: main.OwnerId, route: [], propagating_vgws: [], tags: {}, tags_all: {},
    } },
  );
  const accessKey = (await iam.send(new CreateAccessKeyCommand({ UserName: user }))).AccessKey!;
  extra.push({ type: 'aws_iam_access_key', name: 'ci', attributes: {
    id: accessKey.AccessKeyId, user, status: 'Active', secret: accessKey.SecretAccessKey, create_date: accessKey.CreateDate?.toISOString(), pgp_key: null,
  } });
  const clean = await scan(extra);
  t.equal(clean.compared, 8, 'all eight compared');
  t.same(clean.drifts, [], 'no drift');
  await iam.send(new DetachUserPolicyCommand({ UserName: user, PolicyArn: svc.names.policyArn }));
  await iam.send(new UpdateAccessKeyCommand({ UserName: user, AccessKeyId: accessKey.AccessKeyId, Status: 'Inactive' }));
  const after = byAddress((await scan(extra)).drifts);
  t.same(Object.keys(after).sort(), ['aws_iam_access_key.ci', 'aws_iam_user_policy_attachment.u'], 'the detached policy and the deactivated key drift');
  t.match(after['aws_iam_user_policy_attachment.u'], { changeType: 'deleted' });
  t.match(after['aws_iam_access_key.ci'], { changeType: 'changed', diff: [{ attribute: 'status', before: 'Active', after: 'Inactive' }] });
});

t.test('out-of-band changes give their drifts, severities and rules', async (t) => {
  const { ec2 } = net;
  const { ids } = net;
  await ec2.send(new CreateRouteCommand({ RouteTableId: ids.routeTableId, DestinationCidrBlock: '0.0.0.0/0', GatewayId: ids.igwId }));
  await ec2.send(new ModifySubnetAttributeCommand({ SubnetId: ids.subnetIds[1], MapPublicIpOnLaunch: { Value: true } }));
  await ec2.send(new CreateTagsCommand({ Resources: [ids.vpcId], Tags: [{ Key: 'Name', Value: 'renamed' }] }));
  await new KMSClient(cfg).send(new ScheduleKeyDeletionCommand({ KeyId: svc.names.keyId, PendingWindowInDays: 7 }));
  const open = (arn: string) => JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Action: 'sqs:SendMessage', Resource: arn }] });
  await new SQSClient(cfg).send(new SetQueueAttributesCommand({ QueueUrl: svc.names.queueUrl, Attributes: { Policy: open('*') } }));
  await new SNSClient(cfg).send(new SetTopicAttributesCommand({ TopicArn: svc.names.topicArn, AttributeName: 'Policy', AttributeValue: JSON.stringify({
    Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: { AWS: '*' }, Action: 'sns:Publish', Resource: svc.names.topicArn }] }) }));
  await new RDSClient(cfg).send(new ModifyDBInstanceCommand({ DBInstanceIdentifier: plat.names.db, PubliclyAccessible: true, ApplyImmediately: true }));
  await new CloudWatchLogsClient(cfg).send(new DeleteLogGroupCommand({ logGroupName: svc.names.logName }));
  await new IAMClient(cfg).send(new DetachRolePolicyCommand({ RoleName: svc.names.role, PolicyArn: svc.names.policyArn }));

  const d = byAddress((await scan()).drifts);
  t.same(Object.keys(d).sort(), [
    'aws_cloudwatch_log_group.app', 'aws_db_instance.pg', 'aws_iam_role_policy_attachment.app', 'aws_kms_key.data', 'aws_route_table.public',
    'aws_sns_topic.alerts', 'aws_sqs_queue.jobs', 'aws_subnet.s1', 'aws_vpc.main',
  ], 'exactly the changed resources drift');
  t.match(d['aws_route_table.public'], { changeType: 'changed', severity: 'critical', ruleId: 'route-world-via-igw' }, 'a route to the world through the IGW is critical');
  t.match(d['aws_subnet.s1'], { severity: 'high', ruleId: 'subnet-public-ip-on-launch', diff: [{ attribute: 'map_public_ip_on_launch', before: false, after: true }] });
  t.match(d['aws_vpc.main'], { severity: 'low', ruleId: 'tags-only', diff: [{ attribute: 'tags.Name', after: 'renamed' }] });
  t.match(d['aws_kms_key.data'], { severity: 'critical', ruleId: 'kms-key-pending-deletion' }, 'a key scheduled for deletion is critical');
  t.ok(d['aws_kms_key.data'].diff.some((x) => x.attribute === 'key_state' && x.before === 'Enabled' && x.after === 'PendingDeletion'), 'key_state Enabled -> PendingDeletion');
  t.match(d['aws_sqs_queue.jobs'], { severity: 'critical', ruleId: 'queue-topic-policy-public', diff: [{ attribute: 'policy' }] }, 'queue policy open to * is critical');
  t.match(d['aws_sns_topic.alerts'], { severity: 'critical', ruleId: 'queue-topic-policy-public' }, 'topic policy open to AWS:* is critical');
  t.match(d['aws_db_instance.pg'], { severity: 'critical', ruleId: 'db-publicly-accessible', diff: [{ attribute: 'publicly_accessible', before: false, after: true }] });
  t.match(d['aws_cloudwatch_log_group.app'], { changeType: 'deleted', severity: 'high' }, 'a deleted log group is reported deleted');
  t.match(d['aws_iam_role_policy_attachment.app'], { changeType: 'deleted' }, 'a detached policy is a deleted attachment');
});
