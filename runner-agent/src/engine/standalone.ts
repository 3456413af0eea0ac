// Attributes of a parent resource that a standalone resource in the same state manages. The
// provider keeps both: the parent's copy is written when the parent is created and goes stale
// once the standalone resource applies (an aws_s3_bucket's inline `versioning` says disabled
// while its aws_s3_bucket_versioning enabled it). Comparing the parent's copy would report drift
// that is not there, so:
//   - an aws_s3_bucket's inline attribute is skipped when a standalone resource manages it;
//   - an aws_security_group's ingress/egress are compared without the rules that
//     aws_security_group_rule / aws_vpc_security_group_*_rule resources manage (an out-of-band
//     rule is still reported on the group, since no resource manages it);
//   - an aws_iam_role's managed_policy_arns / inline_policy are compared without the policies
//     the state manages with their own resources (role-policies.ts);
//   - an aws_route_table's `route` is compared without the destinations aws_route resources
//     manage (MANAGED_ROUTES; each aws_route compares its own route);
//   - a network ACL's ingress/egress/subnet_ids, a VPC endpoint's route_table_ids and an EIP's
//     association fields without what aws_network_acl_rule / _association,
//     aws_vpc_endpoint_route_table_association and aws_eip_association manage (cloud/aws/ec2net/managed.ts).
//   - an aws_sqs_queue's, aws_sns_topic's or aws_secretsmanager_secret's `policy` is skipped when
//     an aws_sqs_queue_policy, aws_sns_topic_policy or aws_secretsmanager_secret_policy manages it
//     (a state written by the apply that created both holds the parent's policy empty).
import { ec2netView } from './cloud/aws/ec2net/managed.ts';
import { ruleAtoms } from './cloud/aws/vpc/security-group-rules.ts';
import { MANAGED_POLICIES, managedRolePolicies, withoutManaged } from './role-policies.ts';
import { MANAGED_ATOMS, type ManagedAtoms, type StateInstance } from './types.ts';

/** Destinations (`cidr|ipv6|prefix list`) of a route table that aws_route resources manage. */
export const MANAGED_ROUTES = Symbol('managedRoutes');
export const routeDestination = (r: Record<string, unknown>) =>
  [r.cidr_block ?? r.destination_cidr_block, r.ipv6_cidr_block ?? r.destination_ipv6_cidr_block, r.destination_prefix_list_id].map((v) => (typeof v === 'string' ? v : '')).join('|');


const S3_INLINE: Record<string, string> = {
  aws_s3_bucket_versioning: 'versioning',
  aws_s3_bucket_server_side_encryption_configuration: 'server_side_encryption_configuration',
  aws_s3_bucket_policy: 'policy',
  aws_s3_bucket_acl: 'acl',
  aws_s3_bucket_lifecycle_configuration: 'lifecycle_rule',
  aws_s3_bucket_logging: 'logging',
  aws_s3_bucket_cors_configuration: 'cors_rule',
  aws_s3_bucket_website_configuration: 'website',
  aws_s3_bucket_replication_configuration: 'replication_configuration',
  aws_s3_bucket_object_lock_configuration: 'object_lock_configuration',
};

const s = (v: unknown) => (typeof v === 'string' ? v : '');

/** Policy resources and the parent whose `policy` they manage: [parent type, the parent's id in the policy resource]. */
const POLICY_OWNERS: Record<string, [string, (a: Record<string, unknown>) => string]> = {
  aws_sqs_queue_policy: ['aws_sqs_queue', (a) => s(a.queue_url) || s(a.id)],
  aws_sns_topic_policy: ['aws_sns_topic', (a) => s(a.arn) || s(a.id)],
  aws_secretsmanager_secret_policy: ['aws_secretsmanager_secret', (a) => s(a.secret_arn) || s(a.id)],
};
const parentKey = (i: StateInstance) => {
  const a = i.attributes;
  if (i.type === 'aws_sqs_queue') return `${i.type}:${s(a.id) || s(a.url)}`;
  return i.type === 'aws_sns_topic' || i.type === 'aws_secretsmanager_secret' ? `${i.type}:${s(a.arn) || s(a.id)}` : '';
};

/** A function giving the state attributes to compare for each instance. */
export function standaloneView(instances: StateInstance[]): (i: StateInstance) => Record<string, unknown> {
  const bucketInline = new Map<string, Set<string>>();
  const rolePolicies = managedRolePolicies(instances);
  const groupAtoms = new Map<string, ManagedAtoms>();
  const tableRoutes = new Map<string, Set<string>>();
  const ec2net = ec2netView(instances);
  const policyManaged = new Set<string>();
  const atomsOf = (group: string) => {
    let m = groupAtoms.get(group);
    if (!m) groupAtoms.set(group, (m = { ingress: new Set(), egress: new Set() }));
    return m;
  };
  for (const i of instances) {
    const a = i.attributes;
    const inline = S3_INLINE[i.type];
    const owner = POLICY_OWNERS[i.type];
    if (owner) policyManaged.add(`${owner[0]}:${owner[1](a)}`);
    else if (inline) {
      const bucket = s(a.bucket) || s(a.id);
      if (!bucketInline.has(bucket)) bucketInline.set(bucket, new Set());
      bucketInline.get(bucket)!.add(inline);
    } else if (i.type === 'aws_route') {
      const table = s(a.route_table_id);
      if (!tableRoutes.has(table)) tableRoutes.set(table, new Set());
      tableRoutes.get(table)!.add(routeDestination(a));
    } else if (i.type === 'aws_security_group_rule') {
      const group = s(a.security_group_id);
      const src = s(a.source_security_group_id);
      const atoms = ruleAtoms({ ...a, security_groups: src ? [src] : [] }, { id: group });
      atoms.forEach((x) => atomsOf(group)[a.type === 'egress' ? 'egress' : 'ingress'].add(x));
    } else if (i.type === 'aws_vpc_security_group_ingress_rule' || i.type === 'aws_vpc_security_group_egress_rule') {
      const group = s(a.security_group_id);
      const cidr4 = s(a.cidr_ipv4);
      const cidr6 = s(a.cidr_ipv6);
      const pl = s(a.prefix_list_id);
      const ref = s(a.referenced_security_group_id);
      const atoms = ruleAtoms({
        protocol: a.ip_protocol, from_port: a.from_port, to_port: a.to_port, description: a.description,
        cidr_blocks: [cidr4].filter(Boolean), ipv6_cidr_blocks: [cidr6].filter(Boolean),
        prefix_list_ids: [pl].filter(Boolean), security_groups: [ref].filter(Boolean),
      }, { id: group });
      atoms.forEach((x) => atomsOf(group)[i.type.endsWith('egress_rule') ? 'egress' : 'ingress'].add(x));
    }
  }
  return (i) => {
    if (policyManaged.has(parentKey(i))) return Object.fromEntries(Object.entries(i.attributes).filter(([k]) => k !== 'policy'));
    if (i.type === 'aws_s3_bucket') {
      const skip = bucketInline.get(s(i.attributes.bucket) || s(i.attributes.id));
      if (!skip) return i.attributes;
      return Object.fromEntries(Object.entries(i.attributes).filter(([k]) => !skip.has(k)));
    }
    if (i.type === 'aws_iam_role') {
      const managed = rolePolicies.get(s(i.attributes.name) || s(i.attributes.id));
      if (managed) return Object.assign(withoutManaged(i.attributes, managed), { [MANAGED_POLICIES]: managed });
    }
    if (i.type === 'aws_route_table' || i.type === 'aws_default_route_table') {
      const managed = tableRoutes.get(s(i.attributes.id));
      if (managed) return Object.assign({ ...i.attributes }, { [MANAGED_ROUTES]: managed });
    }
    const net = ec2net(i);
    if (net) return net;
    if (i.type === 'aws_security_group' || i.type === 'aws_default_security_group') {
      const managed = groupAtoms.get(s(i.attributes.id));
      if (managed) return Object.assign({ ...i.attributes }, { [MANAGED_ATOMS]: managed });
    }
    return i.attributes;
  };
}
