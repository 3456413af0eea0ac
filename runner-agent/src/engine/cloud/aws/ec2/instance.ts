// EC2 instances, read in batches: one DescribeInstances per 1,000 ids, plus one
// DescribeInstanceAttribute per instance for termination protection, which DescribeInstances does
// not return (the provider reads it the same way). Security groups are in vpc/security-groups.ts.
import {
  DescribeInstanceAttribute$, DescribeInstanceAttributeCommand, DescribeInstances$, DescribeInstancesCommand, type DescribeInstanceAttributeCommandOutput,
  type DescribeInstancesCommandInput, type DescribeInstancesCommandOutput, type Instance,
} from '@aws-sdk/client-ec2';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { tagMap } from '../../../values.ts';
import { errorName, PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { describeByIds } from '../ec2-describe.ts';
import { answer, byRegion, str, type TypeReader } from '../reader.ts';
import { bool, ec2Select, FakeError, filterValues, list, opt, stateTags, tagList } from '../replay/kit.ts';

const INSTANCE_BATCH = 1000;

async function describeInstances(ctx: AwsContext, region: string, ids: string[]): Promise<Map<string, Instance>> {
  const found = new Map<string, Instance>();
  const send = (input: DescribeInstancesCommandInput) =>
    ctx.send<DescribeInstancesCommandOutput>(ctx.ec2(region), new DescribeInstancesCommand(input), 'ec2:DescribeInstances');
  await describeByIds(ids, INSTANCE_BATCH, /^InvalidInstanceID\.(NotFound|Malformed)$/, {
    byIds: (part) => send({ InstanceIds: part }),
    byFilter: (values, token) => send({ Filters: [{ Name: 'instance-id', Values: values }], MaxResults: 1000, NextToken: token }),
  }, (out) => {
    for (const r of out.Reservations ?? []) for (const i of r.Instances ?? []) if (i.InstanceId) found.set(i.InstanceId, i);
  });
  return found;
}

/** Termination protection by instance id, for the ids given (gone ones left out). */
async function terminationProtection(ctx: AwsContext, region: string, ids: string[]): Promise<Map<string, boolean>> {
  const out = new Map<string, boolean>();
  await mapLimit(ids, PER_RESOURCE_CONCURRENCY, async (id) => {
    try {
      const r = await ctx.send<DescribeInstanceAttributeCommandOutput>(ctx.ec2(region),
        new DescribeInstanceAttributeCommand({ InstanceId: id, Attribute: 'disableApiTermination' }), 'ec2:DescribeInstanceAttribute');
      out.set(id, r.DisableApiTermination?.Value ?? false);
    } catch (e) {
      if (!/^InvalidInstanceID\.(NotFound|Malformed)$/.test(errorName(e))) throw e;
    }
  });
  return out;
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

/** Replay: the state's instances as DescribeInstances returns them. */
const instancesAnswer = answer<{ InstanceIds?: string[]; Filters?: { Name?: string; Values?: string[] }[] }>('ec2', DescribeInstances$, (input, world) => {
  const all = world.of('aws_instance').map((i) => i.attributes);
  const picked = ec2Select(all, (a) => str(a.id), input.InstanceIds, filterValues(input, 'instance-id'), 'InvalidInstanceID.NotFound');
  return { Reservations: picked.map((a) => ({ Instances: [{
    InstanceId: str(a.id), ImageId: opt(a.ami), InstanceType: opt(a.instance_type),
    Placement: { AvailabilityZone: opt(a.availability_zone), Tenancy: opt(a.tenancy) },
    KeyName: opt(a.key_name), SubnetId: opt(a.subnet_id), PrivateIpAddress: opt(a.private_ip), PublicIpAddress: opt(a.public_ip),
    PrivateDnsName: opt(a.private_dns), PublicDnsName: opt(a.public_dns),
    SecurityGroups: list(a.vpc_security_group_ids).map((GroupId) => ({ GroupId })),
    IamInstanceProfile: opt(a.iam_instance_profile) ? { Arn: `arn:aws:iam::${str(a.arn).split(':')[4] ?? ''}:instance-profile/${str(a.iam_instance_profile)}` } : undefined,
    Monitoring: { State: bool(a.monitoring) ? 'enabled' : 'disabled' }, EbsOptimized: bool(a.ebs_optimized), SourceDestCheck: bool(a.source_dest_check),
    State: { Name: opt(a.instance_state) ?? 'running' }, Tags: tagList(stateTags(a)),
  }] })) };
});

/** Replay: the state's termination protection, as DescribeInstanceAttribute returns it. */
const instanceAttributeAnswer = answer<{ InstanceId?: string; Attribute?: string }>('ec2', DescribeInstanceAttribute$, (input, world) => {
  const a = world.of('aws_instance').map((i) => i.attributes).find((x) => str(x.id) === input.InstanceId);
  if (!a) throw new FakeError('InvalidInstanceID.NotFound', `The instance ID '${input.InstanceId}' does not exist`);
  return { InstanceId: str(a.id), DisableApiTermination: { Value: bool(a.disable_api_termination) ?? false } };
});

export const instanceReader: TypeReader = {
  spec: {},
  answers: [instancesAnswer, instanceAttributeAnswer],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const live = await describeInstances(ctx, region, [...new Set(group.map((g) => str(g.item.instance.attributes.id)))]);
      const here = group.filter(({ item }) => { const i = live.get(str(item.instance.attributes.id)); return i && !GONE_STATES.has(i.State?.Name ?? ''); });
      // Asked only where the state holds the flag (a state without it has nothing to compare).
      const protection = await terminationProtection(ctx, region, [...new Set(here
        .filter(({ item }) => typeof item.instance.attributes.disable_api_termination === 'boolean').map(({ item }) => str(item.instance.attributes.id)))]);
      for (const { item, index } of here) {
        const id = str(item.instance.attributes.id);
        const arn = str(item.instance.attributes.arn);
        out[index] = instanceAttributes(live.get(id)!, region, arn.split(':')[4] ?? '');
        if (protection.has(id)) out[index]!.disable_api_termination = protection.get(id);
      }
    }
    return out;
  },
};
