// A small AWS estate in moto, services half: IAM entities, KMS, SQS, SNS, a log group, Lambda,
// DynamoDB and ECR; state attributes in the provider's shape.
import { CloudWatchLogsClient, CreateLogGroupCommand, PutRetentionPolicyCommand, TagResourceCommand as TagLogGroup } from '@aws-sdk/client-cloudwatch-logs';
import { CreateTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { CreateRepositoryCommand, ECRClient } from '@aws-sdk/client-ecr';
import {
  AddRoleToInstanceProfileCommand, AttachRolePolicyCommand, CreateGroupCommand, CreateInstanceProfileCommand, CreatePolicyCommand, CreateRoleCommand,
  CreateUserCommand, IAMClient,
} from '@aws-sdk/client-iam';
import { CreateKeyCommand, GetKeyPolicyCommand, KMSClient } from '@aws-sdk/client-kms';
import { CreateFunctionCommand, LambdaClient } from '@aws-sdk/client-lambda';
import { CreateTopicCommand, GetTopicAttributesCommand, SNSClient } from '@aws-sdk/client-sns';
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from '@aws-sdk/client-sqs';
import { deflateRawSync } from 'node:zlib';
import type { Res } from './estate-network.ts';
import { CREDENTIALS, REGION, TRUST_POLICY, APP_POLICY } from './world.ts';

const withTags = (tags: Record<string, string>) => ({ tags, tags_all: tags });
const tagList = (tags: Record<string, string>) => Object.entries(tags).map(([Key, Value]) => ({ Key, Value }));

/** A one-file zip (index.js), enough for CreateFunction. */
export function zipOf(name: string, text: string): Uint8Array {
  const data = Buffer.from(text);
  const body = deflateRawSync(data);
  const crc = crc32(data);
  const nameBuf = Buffer.from(name);
  const local = Buffer.alloc(30); local.writeUInt32LE(0x04034b50, 0); local.writeUInt16LE(20, 4); local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14); local.writeUInt32LE(body.length, 18); local.writeUInt32LE(data.length, 22); local.writeUInt16LE(nameBuf.length, 26);
  const central = Buffer.alloc(46); central.writeUInt32LE(0x02014b50, 0); central.writeUInt16LE(20, 4); central.writeUInt16LE(20, 6); central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16); central.writeUInt32LE(body.length, 20); central.writeUInt32LE(data.length, 24); central.writeUInt16LE(nameBuf.length, 28);
  const offset = local.length + nameBuf.length + body.length;
  const end = Buffer.alloc(22); end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(1, 8); end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBuf.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([local, nameBuf, body, central, nameBuf, end]);
}
function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) { c ^= b; for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1)); }
  return ~c >>> 0;
}

export async function buildServices(endpoint: string, suffix: string): Promise<{ resources: Res[]; names: Record<string, string> }> {
  const cfg = { endpoint, region: REGION, credentials: CREDENTIALS };
  const out: Res[] = [];
  const tags = { Team: 'estate' };
  const n = (s: string) => `estate-${s}-${suffix}`;

  // IAM
  const iam = new IAMClient(cfg);
  const role = (await iam.send(new CreateRoleCommand({ RoleName: n('role'), AssumeRolePolicyDocument: JSON.stringify(TRUST_POLICY) }))).Role!;
  const policy = (await iam.send(new CreatePolicyCommand({ PolicyName: n('policy'), PolicyDocument: JSON.stringify(APP_POLICY) }))).Policy!;
  await iam.send(new AttachRolePolicyCommand({ RoleName: role.RoleName, PolicyArn: policy.Arn }));
  out.push({ type: 'aws_iam_role_policy_attachment', name: 'app', attributes: { id: `${role.RoleName}-20240101`, role: role.RoleName, policy_arn: policy.Arn } });
  const profile = (await iam.send(new CreateInstanceProfileCommand({ InstanceProfileName: n('profile'), Tags: tagList(tags) }))).InstanceProfile!;
  await iam.send(new AddRoleToInstanceProfileCommand({ InstanceProfileName: profile.InstanceProfileName, RoleName: role.RoleName }));
  out.push({ type: 'aws_iam_instance_profile', name: 'app', attributes: {
    id: profile.InstanceProfileName, name: profile.InstanceProfileName, name_prefix: '', arn: profile.Arn, path: '/', role: role.RoleName,
    unique_id: profile.InstanceProfileId, create_date: profile.CreateDate?.toISOString(), ...withTags(tags),
  } });
  const user = (await iam.send(new CreateUserCommand({ UserName: n('user'), Tags: tagList(tags) }))).User!;
  out.push({ type: 'aws_iam_user', name: 'ci', attributes: {
    id: user.UserName, name: user.UserName, arn: user.Arn, path: '/', unique_id: user.UserId, permissions_boundary: '', force_destroy: false, ...withTags(tags),
  } });
  const group = (await iam.send(new CreateGroupCommand({ GroupName: n('group') }))).Group!;
  out.push({ type: 'aws_iam_group', name: 'devs', attributes: { id: group.GroupName, name: group.GroupName, arn: group.Arn, path: '/', unique_id: group.GroupId } });

  // KMS
  const kms = new KMSClient(cfg);
  const key = (await kms.send(new CreateKeyCommand({ Description: 'estate key', Tags: Object.entries(tags).map(([TagKey, TagValue]) => ({ TagKey, TagValue })) }))).KeyMetadata!;
  const keyPolicy = (await kms.send(new GetKeyPolicyCommand({ KeyId: key.KeyId, PolicyName: 'default' }))).Policy;
  out.push({ type: 'aws_kms_key', name: 'data', attributes: {
    id: key.KeyId, key_id: key.KeyId, arn: key.Arn, description: 'estate key', key_usage: 'ENCRYPT_DECRYPT', customer_master_key_spec: 'SYMMETRIC_DEFAULT',
    is_enabled: true, enable_key_rotation: false, policy: keyPolicy, multi_region: false, deletion_window_in_days: 30, bypass_policy_lockout_safety_check: false,
    custom_key_store_id: '', ...withTags(tags),
  } });

  // SQS, SNS
  const sqs = new SQSClient(cfg);
  const queueUrl = (await sqs.send(new CreateQueueCommand({ QueueName: n('jobs'), tags }))).QueueUrl!;
  const q = (await sqs.send(new GetQueueAttributesCommand({ QueueUrl: queueUrl, AttributeNames: ['All'] }))).Attributes ?? {};
  out.push({ type: 'aws_sqs_queue', name: 'jobs', attributes: {
    id: queueUrl, url: queueUrl, name: n('jobs'), name_prefix: '', arn: q.QueueArn, fifo_queue: false, content_based_deduplication: false,
    visibility_timeout_seconds: Number(q.VisibilityTimeout), message_retention_seconds: Number(q.MessageRetentionPeriod), max_message_size: Number(q.MaximumMessageSize),
    delay_seconds: Number(q.DelaySeconds), receive_wait_time_seconds: Number(q.ReceiveMessageWaitTimeSeconds), policy: '', redrive_policy: '', redrive_allow_policy: '',
    kms_master_key_id: '', kms_data_key_reuse_period_seconds: 300, sqs_managed_sse_enabled: q.SqsManagedSseEnabled === 'true', deduplication_scope: '', fifo_throughput_limit: '',
    ...withTags(tags),
  } });
  const sns = new SNSClient(cfg);
  const topicArn = (await sns.send(new CreateTopicCommand({ Name: n('alerts'), Tags: tagList(tags) }))).TopicArn!;
  const ta = (await sns.send(new GetTopicAttributesCommand({ TopicArn: topicArn }))).Attributes ?? {};
  out.push({ type: 'aws_sns_topic', name: 'alerts', attributes: {
    id: topicArn, arn: topicArn, name: n('alerts'), display_name: '', policy: ta.Policy, delivery_policy: ta.DeliveryPolicy ?? '', kms_master_key_id: '',
    fifo_topic: false, content_based_deduplication: false, owner: ta.Owner, signature_version: 0, tracing_config: '', ...withTags(tags),
  } });

  // Logs, Lambda, DynamoDB, ECR
  const logs = new CloudWatchLogsClient(cfg);
  const logName = `/estate/${suffix}`;
  await logs.send(new CreateLogGroupCommand({ logGroupName: logName }));
  await logs.send(new PutRetentionPolicyCommand({ logGroupName: logName, retentionInDays: 14 }));
  await logs.send(new TagLogGroup({ resourceArn: `arn:aws:logs:${REGION}:123456789012:log-group:${logName}`, tags }));
  out.push({ type: 'aws_cloudwatch_log_group', name: 'app', attributes: {
    id: logName, name: logName, name_prefix: '', arn: `arn:aws:logs:${REGION}:123456789012:log-group:${logName}`, retention_in_days: 14, kms_key_id: '',
    log_group_class: 'STANDARD', skip_destroy: false, ...withTags(tags),
  } });
  const lambda = new LambdaClient(cfg);
  const fn = await lambda.send(new CreateFunctionCommand({
    FunctionName: n('fn'), Runtime: 'nodejs20.x', Role: role.Arn, Handler: 'index.handler', MemorySize: 256, Timeout: 10, Description: 'estate fn',
    Code: { ZipFile: zipOf('index.js', 'exports.handler = async () => 1;') }, Environment: { Variables: { STAGE: 'prod' } }, Tags: tags,
  }));
  out.push({ type: 'aws_lambda_function', name: 'fn', attributes: {
    id: n('fn'), function_name: n('fn'), arn: fn.FunctionArn, role: role.Arn, handler: 'index.handler', runtime: 'nodejs20.x', memory_size: 256, timeout: 10,
    description: 'estate fn', environment: [{ variables: { STAGE: 'prod' } }], layers: [], architectures: ['x86_64'], package_type: 'Zip', image_uri: '',
    kms_key_arn: '', vpc_config: [], reserved_concurrent_executions: -1, publish: false, source_code_hash: fn.CodeSha256, last_modified: fn.LastModified,
    tracing_config: [{ mode: 'PassThrough' }], ephemeral_storage: [{ size: 512 }], filename: 'fn.zip', ...withTags(tags),
  } });
  const ddb = new DynamoDBClient(cfg);
  const table = (await ddb.send(new CreateTableCommand({
    TableName: n('orders'), BillingMode: 'PAY_PER_REQUEST', KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }], AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
    Tags: tagList(tags),
  }))).TableDescription!;
  out.push({ type: 'aws_dynamodb_table', name: 'orders', attributes: {
    id: n('orders'), name: n('orders'), arn: table.TableArn, billing_mode: 'PAY_PER_REQUEST', hash_key: 'pk', range_key: null, read_capacity: 0, write_capacity: 0,
    attribute: [{ name: 'pk', type: 'S' }], global_secondary_index: [], local_secondary_index: [], stream_enabled: false, stream_view_type: '',
    server_side_encryption: [], point_in_time_recovery: [{ enabled: false }], table_class: 'STANDARD', deletion_protection_enabled: false,
    ttl: [{ attribute_name: '', enabled: false }], replica: [], ...withTags(tags),
  } });
  const ecr = new ECRClient(cfg);
  const repo = (await ecr.send(new CreateRepositoryCommand({ repositoryName: n('app'), imageTagMutability: 'IMMUTABLE', tags: tagList(tags) }))).repository!;
  out.push({ type: 'aws_ecr_repository', name: 'app', attributes: {
    id: repo.repositoryName, name: repo.repositoryName, arn: repo.repositoryArn, registry_id: repo.registryId, repository_url: repo.repositoryUri,
    image_tag_mutability: 'IMMUTABLE', image_scanning_configuration: [{ scan_on_push: false }], encryption_configuration: [{ encryption_type: 'AES256', kms_key: '' }],
    force_delete: null, ...withTags(tags),
  } });

  return { resources: out, names: { role: role.RoleName!, policyArn: policy.Arn!, keyId: key.KeyId!, queueUrl, topicArn, table: n('orders'), fn: n('fn'), logName } };
}
