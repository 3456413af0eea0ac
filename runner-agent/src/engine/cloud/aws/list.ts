// List mode of the readers: the resources of one type in one region (or, for IAM and S3,
// the account), as the ids the type's reader reads them by (inventory.ts readerIdOf). The
// attributes are then read through the reader itself (AWS_READERS[type].read), so a resource
// discovered and a resource compared are described by the same code. Cloud Discovery uses this.
import {
  DescribeAddressesCommand, DescribeInstancesCommand, DescribeSecurityGroupsCommand, DescribeSubnetsCommand, DescribeVolumesCommand,
  DescribeVpcsCommand, DescribeRegionsCommand,
  type DescribeAddressesCommandOutput, type DescribeInstancesCommandOutput, type DescribeSecurityGroupsCommandOutput,
  type DescribeSubnetsCommandOutput, type DescribeVolumesCommandOutput, type DescribeVpcsCommandOutput, type DescribeRegionsCommandOutput,
} from '@aws-sdk/client-ec2';
import { GetBucketLocationCommand, ListBucketsCommand, type GetBucketLocationCommandOutput, type ListBucketsCommandOutput } from '@aws-sdk/client-s3';
import {
  ListPoliciesCommand, ListRolesCommand, ListUsersCommand,
  type ListPoliciesCommandOutput, type ListRolesCommandOutput, type ListUsersCommandOutput,
} from '@aws-sdk/client-iam';
import { DescribeDBInstancesCommand, type DescribeDBInstancesCommandOutput } from '@aws-sdk/client-rds';
import { ListFunctionsCommand, type ListFunctionsCommandOutput } from '@aws-sdk/client-lambda';
import { ListTablesCommand, type ListTablesCommandOutput } from '@aws-sdk/client-dynamodb';
import { mapLimit } from '../../limit.ts';
import type { AwsContext } from './context.ts';
import { PER_RESOURCE_CONCURRENCY } from './context.ts';

export interface Listed { id: string; region: string }
export interface Lister {
  /** The API family, for byService and the permission a failure names. */
  service: 'ec2' | 's3' | 'iam' | 'rds' | 'lambda' | 'dynamodb';
  /** Listed once per account (IAM, S3), not per region. */
  global?: true;
  list(ctx: AwsContext, region: string): Promise<Listed[]>;
}

/** Every page of an EC2 Describe* call. */
async function ec2Pages<O extends { NextToken?: string }>(ctx: AwsContext, region: string, make: (token?: string) => unknown, what: string, ids: (o: O) => (string | undefined)[]): Promise<Listed[]> {
  const out: Listed[] = [];
  let token: string | undefined;
  do {
    const page = await ctx.send<O>(ctx.ec2(region), make(token), what);
    for (const id of ids(page)) if (id) out.push({ id, region });
    token = page.NextToken;
  } while (token);
  return out;
}

export const AWS_LISTERS: Record<string, Lister> = {
  aws_instance: { service: 'ec2', list: (ctx, region) => ec2Pages<DescribeInstancesCommandOutput>(ctx, region,
    (NextToken) => new DescribeInstancesCommand({ NextToken, MaxResults: 1000, Filters: [{ Name: 'instance-state-name', Values: ['pending', 'running', 'stopping', 'stopped'] }] }),
    'ec2:DescribeInstances', (o) => (o.Reservations ?? []).flatMap((r) => (r.Instances ?? []).map((i) => i.InstanceId))) },
  aws_security_group: { service: 'ec2', list: (ctx, region) => ec2Pages<DescribeSecurityGroupsCommandOutput>(ctx, region,
    (NextToken) => new DescribeSecurityGroupsCommand({ NextToken, MaxResults: 1000 }), 'ec2:DescribeSecurityGroups', (o) => (o.SecurityGroups ?? []).map((g) => g.GroupId)) },
  aws_vpc: { service: 'ec2', list: (ctx, region) => ec2Pages<DescribeVpcsCommandOutput>(ctx, region,
    (NextToken) => new DescribeVpcsCommand({ NextToken, MaxResults: 1000 }), 'ec2:DescribeVpcs', (o) => (o.Vpcs ?? []).map((v) => v.VpcId)) },
  aws_subnet: { service: 'ec2', list: (ctx, region) => ec2Pages<DescribeSubnetsCommandOutput>(ctx, region,
    (NextToken) => new DescribeSubnetsCommand({ NextToken, MaxResults: 1000 }), 'ec2:DescribeSubnets', (o) => (o.Subnets ?? []).map((s) => s.SubnetId)) },
  aws_ebs_volume: { service: 'ec2', list: (ctx, region) => ec2Pages<DescribeVolumesCommandOutput>(ctx, region,
    (NextToken) => new DescribeVolumesCommand({ NextToken, MaxResults: 1000 }), 'ec2:DescribeVolumes', (o) => (o.Volumes ?? []).map((v) => v.VolumeId)) },
  aws_eip: { service: 'ec2', list: (ctx, region) => ec2Pages<DescribeAddressesCommandOutput & { NextToken?: string }>(ctx, region,
    () => new DescribeAddressesCommand({}), 'ec2:DescribeAddresses', (o) => (o.Addresses ?? []).map((a) => a.AllocationId)) },
  aws_s3_bucket: {
    service: 's3', global: true,
    async list(ctx) {
      const names: string[] = [];
      let token: string | undefined;
      do {
        const page = await ctx.send<ListBucketsCommandOutput & { ContinuationToken?: string }>(ctx.s3('us-east-1'), new ListBucketsCommand({ ContinuationToken: token, MaxBuckets: 1000 } as never), 's3:ListAllMyBuckets');
        for (const b of page.Buckets ?? []) if (b.Name) names.push(b.Name);
        token = page.ContinuationToken;
      } while (token);
      // Each bucket's region: the reader reads it there.
      return mapLimit(names, PER_RESOURCE_CONCURRENCY, async (id) => {
        const loc = await ctx.send<GetBucketLocationCommandOutput>(ctx.s3('us-east-1'), new GetBucketLocationCommand({ Bucket: id }), 's3:GetBucketLocation');
        const c = loc.LocationConstraint as string | undefined;
        return { id, region: !c ? 'us-east-1' : c === 'EU' ? 'eu-west-1' : c };
      });
    },
  },
  aws_iam_role: { service: 'iam', global: true, async list(ctx) {
    const out: Listed[] = [];
    let Marker: string | undefined;
    do {
      const page = await ctx.send<ListRolesCommandOutput>(ctx.iam(), new ListRolesCommand({ Marker, MaxItems: 1000 }), 'iam:ListRoles');
      // Service-linked roles belong to AWS services, not to anyone's configuration.
      for (const r of page.Roles ?? []) if (r.RoleName && !r.Path?.startsWith('/aws-service-role/')) out.push({ id: r.RoleName, region: 'us-east-1' });
      Marker = page.IsTruncated ? page.Marker : undefined;
    } while (Marker);
    return out;
  } },
  aws_iam_policy: { service: 'iam', global: true, async list(ctx) {
    const out: Listed[] = [];
    let Marker: string | undefined;
    do {
      const page = await ctx.send<ListPoliciesCommandOutput>(ctx.iam(), new ListPoliciesCommand({ Scope: 'Local', Marker, MaxItems: 1000 }), 'iam:ListPolicies');
      for (const p of page.Policies ?? []) if (p.Arn) out.push({ id: p.Arn, region: 'us-east-1' });
      Marker = page.IsTruncated ? page.Marker : undefined;
    } while (Marker);
    return out;
  } },
  aws_iam_user: { service: 'iam', global: true, async list(ctx) {
    const out: Listed[] = [];
    let Marker: string | undefined;
    do {
      const page = await ctx.send<ListUsersCommandOutput>(ctx.iam(), new ListUsersCommand({ Marker, MaxItems: 1000 }), 'iam:ListUsers');
      for (const u of page.Users ?? []) if (u.UserName) out.push({ id: u.UserName, region: 'us-east-1' });
      Marker = page.IsTruncated ? page.Marker : undefined;
    } while (Marker);
    return out;
  } },
  aws_db_instance: { service: 'rds', async list(ctx, region) {
    const out: Listed[] = [];
    let Marker: string | undefined;
    do {
      const page = await ctx.send<DescribeDBInstancesCommandOutput>(ctx.rds(region), new DescribeDBInstancesCommand({ Marker, MaxRecords: 100 }), 'rds:DescribeDBInstances');
      for (const d of page.DBInstances ?? []) if (d.DBInstanceIdentifier && d.DBInstanceStatus !== 'deleting') out.push({ id: d.DBInstanceIdentifier, region });
      Marker = page.Marker;
    } while (Marker);
    return out;
  } },
  aws_lambda_function: { service: 'lambda', async list(ctx, region) {
    const out: Listed[] = [];
    let Marker: string | undefined;
    do {
      const page = await ctx.send<ListFunctionsCommandOutput>(ctx.lambda(region), new ListFunctionsCommand({ Marker, MaxItems: 50 }), 'lambda:ListFunctions');
      for (const f of page.Functions ?? []) if (f.FunctionName) out.push({ id: f.FunctionName, region });
      Marker = page.NextMarker;
    } while (Marker);
    return out;
  } },
  aws_dynamodb_table: { service: 'dynamodb', async list(ctx, region) {
    const out: Listed[] = [];
    let start: string | undefined;
    do {
      const page = await ctx.send<ListTablesCommandOutput>(ctx.dynamodb(region), new ListTablesCommand({ ExclusiveStartTableName: start, Limit: 100 }), 'dynamodb:ListTables');
      for (const name of page.TableNames ?? []) out.push({ id: name, region });
      start = page.LastEvaluatedTableName;
    } while (start);
    return out;
  } },
};

/** The regions the account has enabled (EC2 DescribeRegions), sorted. */
export async function enabledRegions(ctx: AwsContext): Promise<string[]> {
  const out = await ctx.send<DescribeRegionsCommandOutput>(ctx.ec2(ctx.defaultRegion), new DescribeRegionsCommand({}), 'ec2:DescribeRegions');
  return (out.Regions ?? []).filter((r) => r.OptInStatus !== 'not-opted-in').map((r) => r.RegionName!).filter(Boolean).sort();
}
