// List modes of the readers of the other services: S3 (global; each bucket read in its own
// region), RDS, Lambda, DynamoDB, KMS, SQS, SNS, CloudWatch Logs, ECR, ECS, ELBv2, Auto Scaling,
// Route 53 (global). Every call is paged with the API's own token.
import { GetBucketLocationCommand, ListBucketsCommand, type GetBucketLocationCommandOutput, type ListBucketsCommandOutput } from '@aws-sdk/client-s3';
import { DescribeDBInstancesCommand, DescribeDBSubnetGroupsCommand, type DescribeDBInstancesCommandOutput, type DescribeDBSubnetGroupsCommandOutput } from '@aws-sdk/client-rds';
import { ListFunctionsCommand, type ListFunctionsCommandOutput } from '@aws-sdk/client-lambda';
import { ListTablesCommand, type ListTablesCommandOutput } from '@aws-sdk/client-dynamodb';
import { ListAliasesCommand, ListKeysCommand, type AliasListEntry, type ListAliasesCommandOutput, type ListKeysCommandOutput } from '@aws-sdk/client-kms';
import { ListQueuesCommand, type ListQueuesCommandOutput } from '@aws-sdk/client-sqs';
import { ListTopicsCommand, type ListTopicsCommandOutput } from '@aws-sdk/client-sns';
import { DescribeLogGroupsCommand, type DescribeLogGroupsCommandOutput } from '@aws-sdk/client-cloudwatch-logs';
import { DescribeRepositoriesCommand, type DescribeRepositoriesCommandOutput } from '@aws-sdk/client-ecr';
import {
  ListClustersCommand, ListServicesCommand, ListTaskDefinitionsCommand,
  type ListClustersCommandOutput, type ListServicesCommandOutput, type ListTaskDefinitionsCommandOutput,
} from '@aws-sdk/client-ecs';
import {
  DescribeListenersCommand, DescribeLoadBalancersCommand, DescribeTargetGroupsCommand,
  type DescribeListenersCommandOutput, type DescribeLoadBalancersCommandOutput, type DescribeTargetGroupsCommandOutput,
} from '@aws-sdk/client-elastic-load-balancing-v2';
import { DescribeAutoScalingGroupsCommand, type DescribeAutoScalingGroupsCommandOutput } from '@aws-sdk/client-auto-scaling';
import { ListHostedZonesCommand, ListResourceRecordSetsCommand, type ListHostedZonesCommandOutput, type ListResourceRecordSetsCommandOutput } from '@aws-sdk/client-route-53';
import { mapLimit } from '../../limit.ts';
import type { AwsContext } from './context.ts';
import { PER_RESOURCE_CONCURRENCY } from './context.ts';
import { pages, paged, type Listed, type Lister } from './list-kit.ts';
import { once } from './reader.ts';

/** Every bucket of the account with its region, once per scan (the bucket and its sub-resources share it). */
function buckets(ctx: AwsContext): Promise<Listed[]> {
  return once(ctx, 'list:s3:buckets', async () => {
    const names: string[] = [];
    await pages((ContinuationToken) => ctx.send<ListBucketsCommandOutput & { ContinuationToken?: string }>(ctx.s3('us-east-1'),
      new ListBucketsCommand({ ContinuationToken, MaxBuckets: 1000 } as never), 's3:ListAllMyBuckets'), (o) => o.ContinuationToken,
    (o) => { for (const b of o.Buckets ?? []) if (b.Name) names.push(b.Name); });
    // Each bucket's region: the reader reads it there.
    return mapLimit(names, PER_RESOURCE_CONCURRENCY, async (id) => {
      const loc = await ctx.send<GetBucketLocationCommandOutput>(ctx.s3('us-east-1'), new GetBucketLocationCommand({ Bucket: id }), 's3:GetBucketLocation');
      const c = loc.LocationConstraint as string | undefined;
      return { id, region: !c ? 'us-east-1' : c === 'EU' ? 'eu-west-1' : c };
    });
  });
}
/** A bucket sub-resource (versioning, encryption, ...): one per bucket, id the bucket; the reader answers null where the bucket has none. */
const bucketPart: Lister = { service: 's3', global: true, list: async (ctx) => (await buckets(ctx)).map((b) => ({ ...b, attributes: { bucket: b.id } })) };

function kmsAliases(ctx: AwsContext, region: string): Promise<AliasListEntry[]> {
  return once(ctx, `list:kms:aliases:${region}`, async () => {
    const all: AliasListEntry[] = [];
    await pages((Marker) => ctx.send<ListAliasesCommandOutput>(ctx.kms(region), new ListAliasesCommand({ Limit: 100, Marker }), 'kms:ListAliases'),
      (o) => (o.Truncated ? o.NextMarker : undefined), (o) => all.push(...(o.Aliases ?? [])));
    return all;
  });
}
/** AWS managed keys and aliases (`alias/aws/...`) are the services' own, not anyone's configuration. */
const awsManaged = (a: AliasListEntry) => (a.AliasName ?? '').startsWith('alias/aws/');

function ecsClusters(ctx: AwsContext, region: string): Promise<string[]> {
  return once(ctx, `list:ecs:clusters:${region}`, async () => {
    const all: string[] = [];
    await pages((nextToken) => ctx.send<ListClustersCommandOutput>(ctx.ecs(region), new ListClustersCommand({ nextToken, maxResults: 100 }), 'ecs:ListClusters'),
      (o) => o.nextToken, (o) => all.push(...(o.clusterArns ?? [])));
    return all;
  });
}

function loadBalancers(ctx: AwsContext, region: string): Promise<string[]> {
  return once(ctx, `list:elbv2:lbs:${region}`, async () => {
    const all: string[] = [];
    await pages((Marker) => ctx.send<DescribeLoadBalancersCommandOutput>(ctx.elbv2(region), new DescribeLoadBalancersCommand({ Marker, PageSize: 400 }), 'elasticloadbalancing:DescribeLoadBalancers'),
      (o) => o.NextMarker, (o) => { for (const lb of o.LoadBalancers ?? []) if (lb.LoadBalancerArn) all.push(lb.LoadBalancerArn); });
    return all;
  });
}

const zoneIdOf = (id: string) => id.replace(/^\/hostedzone\//, '');
function zones(ctx: AwsContext): Promise<string[]> {
  return once(ctx, 'list:route53:zones', async () => {
    const all: string[] = [];
    await pages((Marker) => ctx.send<ListHostedZonesCommandOutput>(ctx.route53(), new ListHostedZonesCommand({ Marker, MaxItems: 100 }), 'route53:ListHostedZones'),
      (o) => (o.IsTruncated ? o.NextMarker : undefined), (o) => { for (const z of o.HostedZones ?? []) if (z.Id) all.push(zoneIdOf(z.Id)); });
    return all;
  });
}
const bare = (name: string) => name.replace(/\.$/, '');

export const SERVICE_LISTERS: Record<string, Lister> = {
  aws_s3_bucket: { service: 's3', global: true, list: (ctx) => buckets(ctx) },
  // Buckets whose versioning was never turned on have no versioning resource to codify.
  aws_s3_bucket_versioning: { ...bucketPart, keep: (live) => (live.versioning_configuration as { status?: string }[] | undefined)?.[0]?.status !== 'Disabled' },
  aws_s3_bucket_server_side_encryption_configuration: bucketPart,
  aws_s3_bucket_public_access_block: bucketPart,
  aws_s3_bucket_policy: bucketPart,
  aws_db_instance: paged<DescribeDBInstancesCommandOutput>('rds', (ctx, region, Marker) => ctx.send(ctx.rds(region), new DescribeDBInstancesCommand({ Marker, MaxRecords: 100 }), 'rds:DescribeDBInstances'),
    (o) => o.Marker, (o) => (o.DBInstances ?? []).filter((d) => d.DBInstanceStatus !== 'deleting').map((d) => d.DBInstanceIdentifier)),
  aws_db_subnet_group: paged<DescribeDBSubnetGroupsCommandOutput>('rds', (ctx, region, Marker) => ctx.send(ctx.rds(region), new DescribeDBSubnetGroupsCommand({ Marker, MaxRecords: 100 }), 'rds:DescribeDBSubnetGroups'),
    (o) => o.Marker, (o) => (o.DBSubnetGroups ?? []).map((g) => g.DBSubnetGroupName)),
  aws_lambda_function: paged<ListFunctionsCommandOutput>('lambda', (ctx, region, Marker) => ctx.send(ctx.lambda(region), new ListFunctionsCommand({ Marker, MaxItems: 50 }), 'lambda:ListFunctions'),
    (o) => o.NextMarker, (o) => (o.Functions ?? []).map((f) => f.FunctionName)),
  aws_dynamodb_table: paged<ListTablesCommandOutput>('dynamodb', (ctx, region, start) => ctx.send(ctx.dynamodb(region), new ListTablesCommand({ ExclusiveStartTableName: start, Limit: 100 }), 'dynamodb:ListTables'),
    (o) => o.LastEvaluatedTableName, (o) => o.TableNames ?? []),
  aws_kms_key: { service: 'kms', async list(ctx, region) {
    const managed = new Set((await kmsAliases(ctx, region)).filter(awsManaged).map((a) => a.TargetKeyId));
    const out: Listed[] = [];
    await pages((Marker) => ctx.send<ListKeysCommandOutput>(ctx.kms(region), new ListKeysCommand({ Limit: 1000, Marker }), 'kms:ListKeys'),
      (o) => (o.Truncated ? o.NextMarker : undefined), (o) => { for (const k of o.Keys ?? []) if (k.KeyId && !managed.has(k.KeyId)) out.push({ id: k.KeyId, region }); });
    return out;
  } },
  aws_kms_alias: { service: 'kms', list: async (ctx, region) => (await kmsAliases(ctx, region)).filter((a) => a.AliasName && !awsManaged(a))
    .map((a) => ({ id: a.AliasName!, region, attributes: { name: a.AliasName } })) },
  aws_sqs_queue: paged<ListQueuesCommandOutput>('sqs', (ctx, region, NextToken) => ctx.send(ctx.sqs(region), new ListQueuesCommand({ NextToken, MaxResults: 1000 }), 'sqs:ListQueues'),
    (o) => o.NextToken, (o) => o.QueueUrls ?? []),
  aws_sns_topic: paged<ListTopicsCommandOutput>('sns', (ctx, region, NextToken) => ctx.send(ctx.sns(region), new ListTopicsCommand({ NextToken }), 'sns:ListTopics'),
    (o) => o.NextToken, (o) => (o.Topics ?? []).map((t) => t.TopicArn)),
  aws_cloudwatch_log_group: paged<DescribeLogGroupsCommandOutput>('logs', (ctx, region, nextToken) => ctx.send(ctx.logs(region), new DescribeLogGroupsCommand({ nextToken, limit: 50 }), 'logs:DescribeLogGroups'),
    (o) => o.nextToken, (o) => (o.logGroups ?? []).map((g) => g.logGroupName)),
  aws_ecr_repository: paged<DescribeRepositoriesCommandOutput>('ecr', (ctx, region, nextToken) => ctx.send(ctx.ecr(region), new DescribeRepositoriesCommand({ nextToken, maxResults: 1000 }), 'ecr:DescribeRepositories'),
    (o) => o.nextToken, (o) => (o.repositories ?? []).map((r) => r.repositoryName)),
  aws_ecs_cluster: { service: 'ecs', list: async (ctx, region) => (await ecsClusters(ctx, region)).map((id) => ({ id, region })) },
  // A service's reader needs its cluster; the id is the service ARN (the import takes `cluster/service`).
  aws_ecs_service: { service: 'ecs', async list(ctx, region) {
    const per = await mapLimit(await ecsClusters(ctx, region), PER_RESOURCE_CONCURRENCY, async (cluster) => {
      const out: Listed[] = [];
      await pages((nextToken) => ctx.send<ListServicesCommandOutput>(ctx.ecs(region), new ListServicesCommand({ cluster, nextToken, maxResults: 100 }), 'ecs:ListServices'),
        (o) => o.nextToken, (o) => { for (const id of o.serviceArns ?? []) out.push({ id, region, attributes: { cluster } }); });
      return out;
    });
    return per.flat();
  } },
  aws_ecs_task_definition: paged<ListTaskDefinitionsCommandOutput>('ecs', (ctx, region, nextToken) => ctx.send(ctx.ecs(region),
    new ListTaskDefinitionsCommand({ status: 'ACTIVE', nextToken, maxResults: 100 }), 'ecs:ListTaskDefinitions'), (o) => o.nextToken, (o) => o.taskDefinitionArns ?? []),
  aws_lb: { service: 'elasticloadbalancing', list: async (ctx, region) => (await loadBalancers(ctx, region)).map((id) => ({ id, region })) },
  aws_lb_listener: { service: 'elasticloadbalancing', async list(ctx, region) {
    const per = await mapLimit(await loadBalancers(ctx, region), PER_RESOURCE_CONCURRENCY, async (LoadBalancerArn) => {
      const out: Listed[] = [];
      await pages((Marker) => ctx.send<DescribeListenersCommandOutput>(ctx.elbv2(region), new DescribeListenersCommand({ LoadBalancerArn, Marker, PageSize: 400 }), 'elasticloadbalancing:DescribeListeners'),
        (o) => o.NextMarker, (o) => { for (const l of o.Listeners ?? []) if (l.ListenerArn) out.push({ id: l.ListenerArn, region }); });
      return out;
    });
    return per.flat();
  } },
  aws_lb_target_group: paged<DescribeTargetGroupsCommandOutput>('elasticloadbalancing', (ctx, region, Marker) => ctx.send(ctx.elbv2(region),
    new DescribeTargetGroupsCommand({ Marker, PageSize: 400 }), 'elasticloadbalancing:DescribeTargetGroups'), (o) => o.NextMarker, (o) => (o.TargetGroups ?? []).map((t) => t.TargetGroupArn)),
  aws_autoscaling_group: paged<DescribeAutoScalingGroupsCommandOutput>('autoscaling', (ctx, region, NextToken) => ctx.send(ctx.autoscaling(region),
    new DescribeAutoScalingGroupsCommand({ NextToken, MaxRecords: 100 }), 'autoscaling:DescribeAutoScalingGroups'), (o) => o.NextToken, (o) => (o.AutoScalingGroups ?? []).map((g) => g.AutoScalingGroupName)),
  aws_route53_zone: { service: 'route53', global: true, list: async (ctx) => (await zones(ctx)).map((id) => ({ id, region: 'us-east-1' })) },
  // Records: id `ZONE_name_TYPE[_set]` (the provider's id and import); the zone's own SOA and apex NS come with the zone.
  aws_route53_record: { service: 'route53', global: true, async list(ctx) {
    const per = await mapLimit(await zones(ctx), PER_RESOURCE_CONCURRENCY, async (zone) => {
      const all: { name: string; type: string; set: string }[] = [];
      let next: { StartRecordName?: string; StartRecordType?: string; StartRecordIdentifier?: string } | undefined = {};
      while (next) {
        const page: ListResourceRecordSetsCommandOutput = await ctx.send(ctx.route53(), new ListResourceRecordSetsCommand({ HostedZoneId: zone, MaxItems: 300, ...next } as never), 'route53:ListResourceRecordSets');
        for (const r of page.ResourceRecordSets ?? []) all.push({ name: bare(r.Name ?? ''), type: r.Type ?? '', set: r.SetIdentifier ?? '' });
        next = page.IsTruncated ? { StartRecordName: page.NextRecordName, StartRecordType: page.NextRecordType, StartRecordIdentifier: page.NextRecordIdentifier } : undefined;
      }
      const apex = all.find((r) => r.type === 'SOA')?.name;
      const out: Listed[] = [];
      for (const { name, type, set } of all) {
        if (type === 'SOA' || (type === 'NS' && name === apex)) continue;
        out.push({ id: [zone, name, type, ...(set ? [set] : [])].join('_'), region: 'us-east-1', attributes: { zone_id: zone, name, fqdn: name, type, set_identifier: set } });
      }
      return out;
    });
    return per.flat();
  } },
};
