// EKS: clusters and managed node groups, their computed attributes and severity rules.
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { eksClusterReader } from './cluster.ts';
import { eksNodeGroupReader } from './node-group.ts';

export const EKS_READERS: Record<string, TypeReader> = {
  aws_eks_cluster: eksClusterReader,
  aws_eks_node_group: eksNodeGroupReader,
};

export const EKS_IGNORED: Record<string, string[]> = {
  // Computed by EKS; the bootstrap flags are read at creation only (the API never returns them).
  aws_eks_cluster: [
    'certificate_authority', 'created_at', 'endpoint', 'identity', 'platform_version', 'status', 'cluster_id',
    'vpc_config.*.cluster_security_group_id', 'vpc_config.*.vpc_id', 'access_config.*.bootstrap_cluster_creator_admin_permissions',
    'bootstrap_self_managed_addons', 'kubernetes_network_config.*.service_ipv6_cidr', 'kubernetes_network_config.*.elastic_load_balancing',
  ],
  aws_eks_node_group: ['node_group_name_prefix', 'force_update_version', 'resources', 'status'],
};

const WORLD = ['0.0.0.0/0', '::/0'];

export const EKS_RULES: SeverityRule[] = [
  { id: 'eks-endpoint-public', severity: 'critical', description: 'EKS cluster API endpoint made public',
    rationale: 'The Kubernetes API server now answers from the internet.',
    types: ['aws_eks_cluster'], attributes: ['vpc_config.*.endpoint_public_access'], becomes: [true] },
  { id: 'eks-endpoint-open-to-world', severity: 'critical', description: 'EKS cluster public endpoint opened to 0.0.0.0/0 or ::/0',
    rationale: 'Anyone on the internet can now reach the Kubernetes API server.',
    types: ['aws_eks_cluster'], attributes: ['vpc_config.*.public_access_cidrs', 'vpc_config'], gains: WORLD },
  { id: 'eks-cluster-security-changed', severity: 'high', description: 'EKS cluster role, secrets encryption or control-plane logging changed',
    rationale: 'What the control plane may do, how secrets are encrypted or what is audited changed outside review.',
    types: ['aws_eks_cluster'], attributes: ['role_arn', 'encryption_config*', 'enabled_cluster_log_types'] },
];
