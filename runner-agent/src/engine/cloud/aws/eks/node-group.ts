// aws_eks_node_group: one DescribeNodegroup per node group (EKS lists names only, so there is no
// batch read), at most PER_RESOURCE_CONCURRENCY at once.
import { DescribeNodegroup$, DescribeNodegroupCommand, type DescribeNodegroupCommandOutput, type Nodegroup } from '@aws-sdk/client-eks';
import { genericKey } from '../../../diff.ts';
import { mapLimit } from '../../../limit.ts';
import { isObject } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { attrsOf, block, FakeError, list, num, opt, stateTags } from '../replay/kit.ts';

/** The state's id is `cluster:node group`; the two names are also attributes. */
function namesOf(a: Record<string, unknown>): { cluster: string; group: string } {
  const [cluster, group] = str(a.id).split(':');
  return { cluster: str(a.cluster_name) || cluster || '', group: str(a.node_group_name) || group || '' };
}

export function nodeGroupAttributes(g: Nodegroup): Record<string, unknown> {
  const s = g.scalingConfig ?? {};
  const u = g.updateConfig;
  const tags = g.tags ?? {};
  return {
    cluster_name: g.clusterName, node_group_name: g.nodegroupName, node_role_arn: g.nodeRole, subnet_ids: g.subnets ?? [],
    scaling_config: [{ desired_size: s.desiredSize, max_size: s.maxSize, min_size: s.minSize }],
    instance_types: g.instanceTypes ?? [], labels: g.labels ?? {}, capacity_type: g.capacityType ?? '', ami_type: g.amiType ?? '',
    disk_size: g.diskSize ?? 0, release_version: g.releaseVersion ?? '', version: g.version ?? '',
    taint: (g.taints ?? []).map((t) => ({ key: t.key ?? '', value: t.value ?? '', effect: t.effect ?? '' })),
    update_config: u ? [{ max_unavailable: u.maxUnavailable ?? 0, max_unavailable_percentage: u.maxUnavailablePercentage ?? 0 }] : undefined,
    remote_access: g.remoteAccess ? [{ ec2_ssh_key: g.remoteAccess.ec2SshKey ?? '', source_security_group_ids: g.remoteAccess.sourceSecurityGroups ?? [] }] : [],
    launch_template: g.launchTemplate ? [{ id: g.launchTemplate.id ?? '', name: g.launchTemplate.name ?? '', version: g.launchTemplate.version ?? '' }] : [],
    tags, tags_all: tags,
  };
}

export const nodeGroupAnswer = answer<{ clusterName: string; nodegroupName: string }>('eks', DescribeNodegroup$, (input, world) => {
  const a = attrsOf(world, 'aws_eks_node_group').find((x) => { const n = namesOf(x); return n.cluster === input.clusterName && n.group === input.nodegroupName; });
  if (!a) throw new FakeError('ResourceNotFoundException', `No node group found for name: ${input.nodegroupName}.`, 404);
  const s = block(a.scaling_config);
  const u = block(a.update_config);
  const r = block(a.remote_access);
  const lt = block(a.launch_template);
  const tags = stateTags(a);
  return { nodegroup: {
    clusterName: input.clusterName, nodegroupName: input.nodegroupName, nodegroupArn: opt(a.arn), nodeRole: opt(a.node_role_arn), subnets: list(a.subnet_ids),
    scalingConfig: { desiredSize: num(s.desired_size), maxSize: num(s.max_size), minSize: num(s.min_size) }, status: 'ACTIVE',
    instanceTypes: list(a.instance_types), labels: isObject(a.labels) ? a.labels : undefined, capacityType: opt(a.capacity_type), amiType: opt(a.ami_type),
    diskSize: num(a.disk_size) || undefined, releaseVersion: opt(a.release_version), version: opt(a.version),
    taints: (Array.isArray(a.taint) ? a.taint : []).filter(isObject).map((t) => ({ key: opt(t.key), value: opt(t.value), effect: opt(t.effect) })),
    updateConfig: Object.keys(u).length ? { maxUnavailable: num(u.max_unavailable) || undefined, maxUnavailablePercentage: num(u.max_unavailable_percentage) || undefined } : undefined,
    remoteAccess: Object.keys(r).length ? { ec2SshKey: opt(r.ec2_ssh_key), sourceSecurityGroups: list(r.source_security_group_ids) } : undefined,
    launchTemplate: Object.keys(lt).length ? { id: opt(lt.id), name: opt(lt.name), version: opt(lt.version) } : undefined,
    tags: isObject(tags) ? tags : undefined,
  } };
});

export const eksNodeGroupReader: TypeReader = {
  // Taints are a set in the provider: their order carries no meaning.
  spec: { sets: { taint: genericKey } },
  answers: [nodeGroupAnswer],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const { cluster, group } = namesOf(instance.attributes);
    const out = await unlessAbsent(ctx.send<DescribeNodegroupCommandOutput>(ctx.eks(region), new DescribeNodegroupCommand({ clusterName: cluster, nodegroupName: group }),
      'eks:DescribeNodegroup'), ['ResourceNotFoundException']);
    if (!out?.nodegroup || out.nodegroup.status === 'DELETING') return null;
    return nodeGroupAttributes(out.nodegroup);
  }),
};
