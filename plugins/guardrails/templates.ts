// The built-in guardrail templates (GET /api/guardrails/templates): AWS provider resources as
// `terraform show -json` plans carry them (provider v4/v5 attribute names). Each is tested on
// the plans in test/plugins/guardrails/plans/. Ids are stable slugs, not record ids.
import type { Rule } from './policy-rules.ts';
import type { Enforcement } from './plan.ts';

export interface Template { _id: string; name: string; description: string; category: 'security' | 'cost' | 'tagging'; enforcement: Enforcement; rules: Rule[] }

const port = (p: number, scope = '') => [
  { attribute: `${scope}from_port`, operator: 'lte' as const, value: p },
  { attribute: `${scope}to_port`, operator: 'gte' as const, value: p },
];
const noWorldOn = (p: number): Rule[] => [
  // Inline ingress blocks: the port and the CIDR of the same block.
  { resourceType: 'aws_security_group', attribute: 'ingress[*].cidr_blocks', operator: 'not_contains', value: '0.0.0.0/0', when: port(p, 'ingress[*].') },
  { resourceType: 'aws_security_group', attribute: 'ingress[*].ipv6_cidr_blocks', operator: 'not_contains', value: '::/0', when: port(p, 'ingress[*].') },
  { resourceType: 'aws_security_group_rule', attribute: 'cidr_blocks', operator: 'not_contains', value: '0.0.0.0/0', when: [{ attribute: 'type', operator: 'equals', value: 'ingress' }, ...port(p)] },
  { resourceType: 'aws_vpc_security_group_ingress_rule', attribute: 'cidr_ipv4', operator: 'not_equals', value: '0.0.0.0/0', when: port(p) },
];
const TAGGED = ['aws_instance', 'aws_s3_bucket', 'aws_db_instance', 'aws_ebs_volume', 'aws_vpc', 'aws_lb'];

export const TEMPLATES: readonly Template[] = [
  {
    _id: 'no-ssh-from-internet', category: 'security', enforcement: 'block', name: 'No SSH from the internet',
    description: 'Security groups may not open port 22 to 0.0.0.0/0 or ::/0 (inline ingress blocks, aws_security_group_rule, aws_vpc_security_group_ingress_rule)',
    rules: noWorldOn(22),
  },
  {
    _id: 'no-rdp-from-internet', category: 'security', enforcement: 'block', name: 'No RDP from the internet',
    description: 'Security groups may not open port 3389 to 0.0.0.0/0 or ::/0',
    rules: noWorldOn(3389),
  },
  {
    _id: 's3-encryption-required', category: 'security', enforcement: 'block', name: 'S3 server-side encryption required',
    description: 'Bucket encryption configurations set a default algorithm (AES256, aws:kms or aws:kms:dsse)',
    rules: [
      { resourceType: 'aws_s3_bucket_server_side_encryption_configuration', attribute: 'rule', operator: 'exists' },
      { resourceType: 'aws_s3_bucket_server_side_encryption_configuration', attribute: 'rule[*].apply_server_side_encryption_by_default[*].sse_algorithm', operator: 'in', value: ['AES256', 'aws:kms', 'aws:kms:dsse'] },
    ],
  },
  {
    _id: 's3-public-access-blocked', category: 'security', enforcement: 'block', name: 'S3 public access blocked',
    description: 'Every public access block setting is on',
    rules: ['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets']
      .map((attribute) => ({ resourceType: 'aws_s3_bucket_public_access_block', attribute, operator: 'equals' as const, value: true })),
  },
  {
    _id: 's3-no-public-acl', category: 'security', enforcement: 'block', name: 'No public S3 ACLs',
    description: 'Bucket ACLs are not public-read, public-read-write or authenticated-read',
    rules: [
      { resourceType: 'aws_s3_bucket_acl', attribute: 'acl', operator: 'not_in', value: ['public-read', 'public-read-write', 'authenticated-read'] },
      { resourceType: 'aws_s3_bucket', attribute: 'acl', operator: 'not_in', value: ['public-read', 'public-read-write', 'authenticated-read'] },
    ],
  },
  {
    _id: 'rds-storage-encrypted', category: 'security', enforcement: 'block', name: 'RDS storage encrypted',
    description: 'Database instances and clusters encrypt their storage',
    rules: [
      { resourceType: 'aws_db_instance', attribute: 'storage_encrypted', operator: 'equals', value: true },
      { resourceType: 'aws_rds_cluster', attribute: 'storage_encrypted', operator: 'equals', value: true },
    ],
  },
  {
    _id: 'rds-not-public', category: 'security', enforcement: 'block', name: 'RDS not publicly accessible',
    description: 'Database instances are not reachable from the internet',
    rules: [{ resourceType: 'aws_db_instance', attribute: 'publicly_accessible', operator: 'not_equals', value: true }],
  },
  {
    _id: 'ebs-encrypted', category: 'security', enforcement: 'warn', name: 'EBS volumes encrypted',
    description: 'EBS volumes and instance root volumes are encrypted',
    rules: [
      { resourceType: 'aws_ebs_volume', attribute: 'encrypted', operator: 'equals', value: true },
      { resourceType: 'aws_instance', attribute: 'root_block_device[*].encrypted', operator: 'equals', value: true },
    ],
  },
  {
    _id: 'no-public-ip-on-instances', category: 'security', enforcement: 'block', name: 'No public IPs on instances',
    description: 'Instances get no public IP address, and subnets do not hand them out on launch',
    rules: [
      { resourceType: 'aws_instance', attribute: 'associate_public_ip_address', operator: 'not_equals', value: true },
      { resourceType: 'aws_subnet', attribute: 'map_public_ip_on_launch', operator: 'not_equals', value: true },
    ],
  },
  {
    _id: 'imdsv2-required', category: 'security', enforcement: 'warn', name: 'IMDSv2 required',
    description: 'Instances require session tokens for the metadata service',
    rules: [{ resourceType: 'aws_instance', attribute: 'metadata_options[*].http_tokens', operator: 'equals', value: 'required' }],
  },
  {
    _id: 'iam-no-wildcard-action', category: 'security', enforcement: 'require_approval', name: 'No wildcard IAM actions',
    description: 'IAM policies (as jsonencode writes them) do not allow "Action": "*"',
    rules: [
      { resourceType: 'aws_iam_policy', attribute: 'policy', operator: 'not_contains', value: '"Action":"*"' },
      { resourceType: 'aws_iam_role_policy', attribute: 'policy', operator: 'not_contains', value: '"Action":"*"' },
    ],
  },
  {
    _id: 'instance-type-allow-list', category: 'cost', enforcement: 'block', name: 'Instance types from an allow-list',
    description: 'EC2 instances use small general-purpose types only (edit the list to your own)',
    rules: [{ resourceType: 'aws_instance', attribute: 'instance_type', operator: 'in', value: ['t3.micro', 't3.small', 't3.medium', 't3.large', 'm5.large'] }],
  },
  {
    _id: 'rds-instance-class-allow-list', category: 'cost', enforcement: 'require_approval', name: 'RDS instance classes from an allow-list',
    description: 'Database instances use burstable classes unless approved',
    rules: [{ resourceType: 'aws_db_instance', attribute: 'instance_class', operator: 'in', value: ['db.t3.micro', 'db.t3.small', 'db.t3.medium', 'db.t4g.micro', 'db.t4g.small'] }],
  },
  {
    _id: 'ebs-volume-size-limit', category: 'cost', enforcement: 'warn', name: 'EBS volumes up to 500 GiB',
    description: 'Volumes larger than 500 GiB need a second look',
    rules: [{ resourceType: 'aws_ebs_volume', attribute: 'size', operator: 'lte', value: 500 }],
  },
  {
    _id: 'no-provisioned-iops-volumes', category: 'cost', enforcement: 'warn', name: 'No provisioned-IOPS volumes',
    description: 'EBS volumes are not io1 or io2',
    rules: [{ resourceType: 'aws_ebs_volume', attribute: 'type', operator: 'not_in', value: ['io1', 'io2'] }],
  },
  {
    _id: 'required-tags', category: 'tagging', enforcement: 'block', name: 'Required tags: Owner and Environment',
    description: `Taggable core resources (${TAGGED.join(', ')}) carry Owner and Environment tags`,
    rules: TAGGED.flatMap((resourceType) => [
      { resourceType, attribute: 'tags.Owner', operator: 'exists' as const },
      { resourceType, attribute: 'tags.Environment', operator: 'exists' as const },
    ]),
  },
  {
    _id: 'environment-tag-values', category: 'tagging', enforcement: 'warn', name: 'Environment tag values',
    description: 'The Environment tag, where set, is dev, staging or prod',
    rules: TAGGED.map((resourceType) => ({ resourceType, attribute: 'tags.Environment', operator: 'in' as const, value: ['dev', 'staging', 'prod'], when: [{ attribute: 'tags.Environment', operator: 'exists' as const }] })),
  },
  {
    _id: 'cost-center-tag-format', category: 'tagging', enforcement: 'dry_run', name: 'CostCenter tag format',
    description: 'Instances and databases carry a CostCenter tag of the form CC-1234',
    rules: ['aws_instance', 'aws_db_instance'].map((resourceType) => ({ resourceType, attribute: 'tags.CostCenter', operator: 'matches' as const, value: '^CC-[0-9]{4}$' })),
  },
];
