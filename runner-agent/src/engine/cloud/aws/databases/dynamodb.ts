// aws_dynamodb_table: DescribeTable, ListTagsOfResource and DescribeContinuousBackups per table
// (DynamoDB has no batch describe), at most PER_RESOURCE_CONCURRENCY tables at once.
import {
  DescribeContinuousBackups$, DescribeContinuousBackupsCommand, DescribeTable$, DescribeTableCommand, ListTagsOfResource$, ListTagsOfResourceCommand,
  type DescribeContinuousBackupsCommandOutput, type DescribeTableCommandOutput, type ListTagsOfResourceCommandOutput, type TableDescription,
} from '@aws-sdk/client-dynamodb';
import { genericKey } from '../../../diff.ts';
import { mapLimit } from '../../../limit.ts';
import { isObject, tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt, stateTags, tagList } from '../replay/kit.ts';

const nameOf = (a: Record<string, unknown>) => str(a.name || a.id);
const GONE = ['ResourceNotFoundException', 'TableNotFoundException'];

function fakeTable(world: FakeWorld, nameOrArn: string): Record<string, unknown> {
  const a = attrsOf(world, 'aws_dynamodb_table').find((x) => nameOf(x) === nameOrArn || str(x.arn) === nameOrArn);
  if (!a) throw new FakeError('ResourceNotFoundException', `Requested resource not found: Table: ${nameOrArn} not found`);
  return a;
}

const keys = (hash: unknown, range: unknown) => [{ AttributeName: str(hash), KeyType: 'HASH' }, ...(opt(range) ? [{ AttributeName: str(range), KeyType: 'RANGE' }] : [])];
const index = (i: Record<string, unknown>) => ({
  IndexName: str(i.name), KeySchema: keys(i.hash_key, i.range_key),
  Projection: { ProjectionType: opt(i.projection_type), NonKeyAttributes: list(i.non_key_attributes).length ? list(i.non_key_attributes) : undefined },
  ProvisionedThroughput: { ReadCapacityUnits: num(i.read_capacity) ?? 0, WriteCapacityUnits: num(i.write_capacity) ?? 0 },
});
const objects = (v: unknown) => (Array.isArray(v) ? v.filter(isObject) : []);

function fakeDescription(a: Record<string, unknown>) {
  const sse = block(a.server_side_encryption);
  return { Table: {
    TableName: nameOf(a), TableArn: opt(a.arn), TableStatus: 'ACTIVE', KeySchema: keys(a.hash_key, a.range_key),
    AttributeDefinitions: objects(a.attribute).map((x) => ({ AttributeName: str(x.name), AttributeType: str(x.type) })),
    BillingModeSummary: { BillingMode: opt(a.billing_mode) ?? 'PROVISIONED' },
    ProvisionedThroughput: { ReadCapacityUnits: num(a.read_capacity) ?? 0, WriteCapacityUnits: num(a.write_capacity) ?? 0 },
    GlobalSecondaryIndexes: objects(a.global_secondary_index).map(index), LocalSecondaryIndexes: objects(a.local_secondary_index).map(index),
    StreamSpecification: bool(a.stream_enabled) ? { StreamEnabled: true, StreamViewType: opt(a.stream_view_type) } : undefined,
    SSEDescription: bool(sse.enabled) ? { Status: 'ENABLED', SSEType: 'KMS', KMSMasterKeyArn: opt(sse.kms_key_arn) } : undefined,
    TableClassSummary: opt(a.table_class) ? { TableClass: str(a.table_class) } : undefined, DeletionProtectionEnabled: bool(a.deletion_protection_enabled),
  } };
}

const liveIndex = (i: { IndexName?: string; KeySchema?: { AttributeName?: string; KeyType?: string }[]; Projection?: { ProjectionType?: string; NonKeyAttributes?: string[] }; ProvisionedThroughput?: { ReadCapacityUnits?: number; WriteCapacityUnits?: number } }) => ({
  name: i.IndexName, hash_key: i.KeySchema?.find((k) => k.KeyType === 'HASH')?.AttributeName, range_key: i.KeySchema?.find((k) => k.KeyType === 'RANGE')?.AttributeName ?? '',
  projection_type: i.Projection?.ProjectionType, non_key_attributes: i.Projection?.NonKeyAttributes ?? [],
  read_capacity: i.ProvisionedThroughput?.ReadCapacityUnits ?? 0, write_capacity: i.ProvisionedThroughput?.WriteCapacityUnits ?? 0,
});

function tableAttributes(t: TableDescription): Record<string, unknown> {
  return {
    name: t.TableName, arn: t.TableArn, hash_key: t.KeySchema?.find((k) => k.KeyType === 'HASH')?.AttributeName,
    range_key: t.KeySchema?.find((k) => k.KeyType === 'RANGE')?.AttributeName ?? '', billing_mode: t.BillingModeSummary?.BillingMode ?? 'PROVISIONED',
    read_capacity: t.ProvisionedThroughput?.ReadCapacityUnits ?? 0, write_capacity: t.ProvisionedThroughput?.WriteCapacityUnits ?? 0,
    attribute: (t.AttributeDefinitions ?? []).map((x) => ({ name: x.AttributeName, type: x.AttributeType })),
    global_secondary_index: (t.GlobalSecondaryIndexes ?? []).map(liveIndex), local_secondary_index: (t.LocalSecondaryIndexes ?? []).map((i) => {
      const { read_capacity: _r, write_capacity: _w, hash_key: _h, ...rest } = liveIndex(i);
      return rest;
    }),
    stream_enabled: t.StreamSpecification?.StreamEnabled ?? false, stream_view_type: t.StreamSpecification?.StreamEnabled ? t.StreamSpecification.StreamViewType : '',
    server_side_encryption: t.SSEDescription?.Status === 'ENABLED' ? [{ enabled: true, kms_key_arn: t.SSEDescription.KMSMasterKeyArn ?? '' }] : [],
    table_class: t.TableClassSummary?.TableClass ?? 'STANDARD', deletion_protection_enabled: t.DeletionProtectionEnabled ?? false,
  };
}

export const dynamodbTableReader: TypeReader = {
  spec: { sets: { attribute: genericKey, global_secondary_index: genericKey, local_secondary_index: genericKey } },
  answers: [
    answer<{ TableName: string }>('dynamodb', DescribeTable$, (input, world) => fakeDescription(fakeTable(world, input.TableName))),
    answer<{ ResourceArn: string }>('dynamodb', ListTagsOfResource$, (input, world) => ({ Tags: tagList(stateTags(fakeTable(world, input.ResourceArn))) })),
    answer<{ TableName: string }>('dynamodb', DescribeContinuousBackups$, (input, world) => ({ ContinuousBackupsDescription: {
      ContinuousBackupsStatus: 'ENABLED',
      PointInTimeRecoveryDescription: { PointInTimeRecoveryStatus: bool(block(fakeTable(world, input.TableName).point_in_time_recovery).enabled) ? 'ENABLED' : 'DISABLED' },
    } })),
  ],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const ddb = ctx.dynamodb(region);
    const name = nameOf(instance.attributes);
    const t = (await unlessAbsent(ctx.send<DescribeTableCommandOutput>(ddb, new DescribeTableCommand({ TableName: name }), 'dynamodb:DescribeTable'), GONE))?.Table;
    if (!t || t.TableStatus === 'DELETING') return null;
    const [tags, backups] = await Promise.all([
      unlessAbsent(ctx.send<ListTagsOfResourceCommandOutput>(ddb, new ListTagsOfResourceCommand({ ResourceArn: t.TableArn }), 'dynamodb:ListTagsOfResource'), GONE),
      'point_in_time_recovery' in instance.attributes
        ? unlessAbsent(ctx.send<DescribeContinuousBackupsCommandOutput>(ddb, new DescribeContinuousBackupsCommand({ TableName: name }), 'dynamodb:DescribeContinuousBackups'), GONE)
        : undefined,
    ]);
    const tagSet = tagMap(tags?.Tags);
    const live: Record<string, unknown> = { ...tableAttributes(t), tags: tagSet, tags_all: tagSet };
    if (backups) live.point_in_time_recovery = [{ enabled: backups.ContinuousBackupsDescription?.PointInTimeRecoveryDescription?.PointInTimeRecoveryStatus === 'ENABLED' }];
    return live;
  }),
};
