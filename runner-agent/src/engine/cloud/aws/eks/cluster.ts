// aws_eks_cluster: one DescribeCluster per cluster (EKS has no batch read), at most
// PER_RESOURCE_CONCURRENCY at once. The answer carries the VPC config, logging, encryption,
// access config and tags; the provider writes them as one-element nested blocks.
import { DescribeCluster$, DescribeClusterCommand, type Cluster, type DescribeClusterCommandOutput } from '@aws-sdk/client-eks';
import { mapLimit } from '../../../limit.ts';
import { isObject } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, opt, stateTags } from '../replay/kit.ts';

const nameOf = (a: Record<string, unknown>) => str(a.name || a.id);

/** The cluster's attributes in the provider's shape. */
export function clusterAttributes(c: Cluster): Record<string, unknown> {
  const vpc = c.resourcesVpcConfig ?? {};
  const logTypes = (c.logging?.clusterLogging ?? []).filter((l) => l.enabled).flatMap((l) => l.types ?? []);
  const net = c.kubernetesNetworkConfig;
  const tags = c.tags ?? {};
  return {
    name: c.name, role_arn: c.roleArn, version: c.version,
    vpc_config: [{
      endpoint_private_access: vpc.endpointPrivateAccess ?? false, endpoint_public_access: vpc.endpointPublicAccess ?? true,
      public_access_cidrs: vpc.publicAccessCidrs ?? [], security_group_ids: vpc.securityGroupIds ?? [], subnet_ids: vpc.subnetIds ?? [],
    }],
    enabled_cluster_log_types: logTypes,
    encryption_config: (c.encryptionConfig ?? []).map((e) => ({ resources: e.resources ?? [], provider: [{ key_arn: e.provider?.keyArn ?? '' }] })),
    access_config: c.accessConfig ? [{ authentication_mode: c.accessConfig.authenticationMode ?? '' }] : undefined,
    kubernetes_network_config: net ? [{ service_ipv4_cidr: net.serviceIpv4Cidr ?? '', ip_family: net.ipFamily ?? '' }] : undefined,
    tags, tags_all: tags,
  };
}

export const clusterAnswer = answer<{ name: string }>('eks', DescribeCluster$, (input, world) => {
  const a = attrsOf(world, 'aws_eks_cluster').find((x) => nameOf(x) === input.name);
  if (!a) throw new FakeError('ResourceNotFoundException', `No cluster found for name: ${input.name}.`, 404);
  const vpc = block(a.vpc_config);
  const access = block(a.access_config);
  const net = block(a.kubernetes_network_config);
  const logs = list(a.enabled_cluster_log_types);
  const tags = stateTags(a);
  return { cluster: {
    name: nameOf(a), arn: opt(a.arn), roleArn: opt(a.role_arn), version: opt(a.version), status: 'ACTIVE', endpoint: opt(a.endpoint),
    resourcesVpcConfig: {
      subnetIds: list(vpc.subnet_ids), securityGroupIds: list(vpc.security_group_ids), endpointPublicAccess: bool(vpc.endpoint_public_access) ?? true,
      endpointPrivateAccess: bool(vpc.endpoint_private_access) ?? false, publicAccessCidrs: list(vpc.public_access_cidrs), vpcId: opt(vpc.vpc_id),
      clusterSecurityGroupId: opt(vpc.cluster_security_group_id),
    },
    logging: { clusterLogging: logs.length ? [{ types: logs, enabled: true }] : [] },
    encryptionConfig: (Array.isArray(a.encryption_config) ? a.encryption_config : []).filter(isObject).map((e) => ({
      resources: list(e.resources), provider: { keyArn: opt(block(e.provider).key_arn) },
    })),
    accessConfig: opt(access.authentication_mode) ? { authenticationMode: str(access.authentication_mode) } : undefined,
    kubernetesNetworkConfig: opt(net.service_ipv4_cidr) ? { serviceIpv4Cidr: str(net.service_ipv4_cidr), ipFamily: opt(net.ip_family) } : undefined,
    tags: isObject(tags) ? tags : undefined,
  } };
});

export const eksClusterReader: TypeReader = {
  spec: {},
  answers: [clusterAnswer],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const out = await unlessAbsent(ctx.send<DescribeClusterCommandOutput>(ctx.eks(region), new DescribeClusterCommand({ name: nameOf(instance.attributes) }), 'eks:DescribeCluster'),
      ['ResourceNotFoundException']);
    // A cluster being deleted still answers; it is gone for the code that manages it.
    if (!out?.cluster || out.cluster.status === 'DELETING') return null;
    return clusterAttributes(out.cluster);
  }),
};
