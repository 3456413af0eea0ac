// EC2 instances, read in batches: one DescribeInstances per 1,000 ids (security groups and their
// rules are in security-groups.ts).
import { DescribeInstancesCommand, type DescribeInstancesCommandOutput, type Instance } from '@aws-sdk/client-ec2';
import { chunk } from '../../limit.ts';
import type { LiveAttributes } from '../../types.ts';
import { tagMap } from '../../values.ts';
import { errorName, type AwsContext } from './context.ts';
import { byRegion, str, type TypeReader } from './reader.ts';

const INSTANCE_BATCH = 1000;
export const FILTER_VALUES = 200; // AWS accepts at most 200 values per filter

// ---- instances ----------------------------------------------------------------------------

async function describeInstances(ctx: AwsContext, region: string, ids: string[]): Promise<Map<string, Instance>> {
  const found = new Map<string, Instance>();
  const collect = (out: DescribeInstancesCommandOutput) => {
    for (const r of out.Reservations ?? []) for (const i of r.Instances ?? []) if (i.InstanceId) found.set(i.InstanceId, i);
  };
  for (const part of chunk(ids, INSTANCE_BATCH)) {
    try {
      collect(await ctx.send(ctx.ec2(region), new DescribeInstancesCommand({ InstanceIds: part }), 'ec2:DescribeInstances'));
    } catch (e) {
      if (!/^InvalidInstanceID\.(NotFound|Malformed)$/.test(errorName(e))) throw e;
      // One unknown id fails the whole call; a filter does not, so the batch is asked again that way.
      for (const sub of chunk(part, FILTER_VALUES)) {
        let token: string | undefined;
        do {
          const out = await ctx.send<DescribeInstancesCommandOutput>(ctx.ec2(region), new DescribeInstancesCommand({
            Filters: [{ Name: 'instance-id', Values: sub }], MaxResults: 1000, NextToken: token,
          }), 'ec2:DescribeInstances');
          collect(out);
          token = out.NextToken;
        } while (token);
      }
    }
  }
  return found;
}

function instanceAttributes(i: Instance, region: string, ownerId: string): LiveAttributes {
  const tags = tagMap(i.Tags);
  return {
    id: i.InstanceId,
    arn: `arn:aws:ec2:${region}:${ownerId}:instance/${i.InstanceId}`,
    ami: i.ImageId,
    instance_type: i.InstanceType,
    availability_zone: i.Placement?.AvailabilityZone,
    tenancy: i.Placement?.Tenancy,
    key_name: i.KeyName ?? '',
    subnet_id: i.SubnetId ?? '',
    private_ip: i.PrivateIpAddress ?? '',
    public_ip: i.PublicIpAddress ?? '',
    private_dns: i.PrivateDnsName ?? '',
    public_dns: i.PublicDnsName ?? '',
    vpc_security_group_ids: (i.SecurityGroups ?? []).map((g) => g.GroupId),
    iam_instance_profile: i.IamInstanceProfile?.Arn?.split('/').pop() ?? '',
    monitoring: i.Monitoring?.State === 'enabled' || i.Monitoring?.State === 'pending',
    ebs_optimized: i.EbsOptimized ?? false,
    source_dest_check: i.SourceDestCheck ?? true,
    instance_state: i.State?.Name,
    tags,
    tags_all: tags,
  };
}

const GONE_STATES = new Set(['terminated', 'shutting-down']);

export const instanceReader: TypeReader = {
  spec: {},
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const live = await describeInstances(ctx, region, [...new Set(group.map((g) => str(g.item.instance.attributes.id)))]);
      for (const { item, index } of group) {
        const i = live.get(str(item.instance.attributes.id));
        if (!i || GONE_STATES.has(i.State?.Name ?? '')) continue;
        const arn = str(item.instance.attributes.arn);
        out[index] = instanceAttributes(i, region, arn.split(':')[4] ?? '');
      }
    }
    return out;
  },
};
