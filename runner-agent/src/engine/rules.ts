// Severity rules, as data: the first rule whose every condition holds decides a drift's severity,
// and its id goes into the drift record (ruleId). Conditions:
//   types          resource types the rule is for (glob; absent = every type)
//   changeTypes    changed / deleted (absent = both)
//   where          state attributes that must equal the given values (e.g. the rule's direction)
//   attributes     some diff entry's attribute matches one of these globs ...
//   gains          ... and that entry's `after` holds one of these values, anywhere inside it,
//                  that its `before` did not hold (e.g. a CIDR newly let in)
//   becomes        ... and that entry's `after` equals one of these values ('' matches any empty)
//   onlyAttributes every diff entry's attribute matches one of these globs
//   opensToAnyone  ... and that entry's `after` is a policy letting anyone (Principal "*") in, its `before` not
//   gainsRoute     ... and that entry's `after` routes a destination through a target id prefix that `before` did not
//   test           ... and that entry passes a named predicate (Azure and Google rules: a rule that opens
//                  22 or 3389 to the internet, a member that is `allUsers`...), given the state and the
//                  live attributes after the change; `describe` is its condition in words; `diff` is the
//                  drift's whole diff, for a condition spread over several attributes (a firewall's
//                  source ranges and ports changed together)
import { AZURE_RULES } from './cloud/azure/rules.ts';
import { GOOGLE_RULES } from './cloud/google/rules.ts';
import { ACM_RULES } from './cloud/aws/acm/index.ts';
import { APIGATEWAY_RULES } from './cloud/aws/apigateway/index.ts';
import { CLOUDFRONT_RULES } from './cloud/aws/cloudfront/index.ts';
import { EKS_RULES } from './cloud/aws/eks/index.ts';
import { LAMBDA_EXTRA_RULES } from './cloud/aws/lambdaextra/index.ts';
import type { ChangeType, DiffEntry, Severity } from './types.ts';
import { globRegExp, isEmpty, isObject, normalizePolicy, scalarKey } from './values.ts';

export interface SeverityRule {
  id: string;
  severity: Severity;
  description: string;
  /** Why the severity: one line a user reads next to a drift (GET /api/drifts/rules). */
  rationale: string;
  types?: string[];
  changeTypes?: ChangeType[];
  where?: Record<string, unknown>;
  attributes?: string[];
  gains?: string[];
  becomes?: unknown[];
  onlyAttributes?: string[];
  opensToAnyone?: boolean;
  gainsRoute?: { destinations: string[]; targetPrefix: string };
  /** `diff` is the drift's every entry (a rule opened by two attributes changed together). */
  test?: { describe: string; fn(entry: DiffEntry, state: Record<string, unknown>, diff: DiffEntry[]): boolean };
}

const WORLD = ['0.0.0.0/0', '::/0'];
const ROUTE_TO_IGW = { destinations: WORLD, targetPrefix: 'igw-' };
const TAGS = ['tags', 'tags.*', 'tags_all', 'tags_all.*'];

export const SEVERITY_RULES: SeverityRule[] = [
  { id: 'sg-ingress-open-to-world', severity: 'critical', description: 'Security group ingress opened to 0.0.0.0/0 or ::/0',
    rationale: 'Anyone on the internet can now reach the ports this group opens.',
    types: ['aws_security_group', 'aws_default_security_group'], changeTypes: ['changed'], attributes: ['ingress'], gains: WORLD },
  { id: 'sg-rule-ingress-open-to-world', severity: 'critical', description: 'Ingress rule opened to 0.0.0.0/0 or ::/0',
    rationale: 'Anyone on the internet can now reach the ports this rule opens.',
    types: ['aws_security_group_rule'], where: { type: 'ingress' }, attributes: ['cidr_blocks', 'ipv6_cidr_blocks'], gains: WORLD },
  { id: 'vpc-ingress-rule-open-to-world', severity: 'critical', description: 'Ingress rule opened to 0.0.0.0/0 or ::/0',
    rationale: 'Anyone on the internet can now reach the ports this rule opens.',
    types: ['aws_vpc_security_group_ingress_rule'], attributes: ['cidr_ipv4', 'cidr_ipv6'], gains: WORLD },
  { id: 's3-public-access-block-removed', severity: 'critical', description: 'S3 public access block removed',
    rationale: 'Nothing stops a bucket ACL or policy from making the objects public any more.',
    types: ['aws_s3_bucket_public_access_block'], changeTypes: ['deleted'] },
  { id: 's3-public-access-block-loosened', severity: 'critical', description: 'S3 public access block setting turned off',
    rationale: 'A guard against public ACLs or policies is off: the objects can be made public.',
    types: ['aws_s3_bucket_public_access_block'], attributes: ['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets'], becomes: [false] },
  { id: 's3-encryption-removed', severity: 'high', description: 'S3 default encryption removed',
    rationale: 'New objects are no longer encrypted with the key the code chose.',
    types: ['aws_s3_bucket_server_side_encryption_configuration'], changeTypes: ['deleted'] },
  { id: 's3-bucket-encryption-removed', severity: 'high', description: 'S3 default encryption removed',
    rationale: 'New objects are no longer encrypted with the key the code chose.',
    types: ['aws_s3_bucket'], attributes: ['server_side_encryption_configuration'], becomes: [''] },
  { id: 's3-encryption-changed', severity: 'high', description: 'S3 default encryption changed',
    rationale: 'Objects are encrypted differently (another key or algorithm) than reviewed.',
    types: ['aws_s3_bucket', 'aws_s3_bucket_server_side_encryption_configuration'], attributes: ['server_side_encryption_configuration*', 'rule*'] },
  { id: 's3-bucket-policy-changed', severity: 'high', description: 'S3 bucket policy changed',
    rationale: 'Who may read or write the bucket changed outside review.',
    types: ['aws_s3_bucket', 'aws_s3_bucket_policy'], attributes: ['policy'] },
  { id: 'iam-policy-changed', severity: 'high', description: 'IAM policy document changed',
    rationale: 'Permissions granted by the policy changed outside review.',
    types: ['aws_iam_policy', 'aws_iam_role_policy'], attributes: ['policy'] },
  { id: 'iam-role-policy-changed', severity: 'high', description: 'IAM role trust policy, inline policies, attached policies or boundary changed',
    rationale: 'Who may assume the role, or what it may do, changed outside review.',
    types: ['aws_iam_role'], attributes: ['assume_role_policy', 'inline_policy*', 'managed_policy_arns', 'permissions_boundary'] },
  { id: 's3-versioning-disabled', severity: 'medium', description: 'S3 bucket versioning suspended',
    rationale: 'Overwritten or deleted objects can no longer be recovered.',
    types: ['aws_s3_bucket_versioning'], attributes: ['versioning_configuration.*.status'], becomes: ['Suspended', 'Disabled'] },
  { id: 's3-bucket-versioning-disabled', severity: 'medium', description: 'S3 bucket versioning suspended',
    rationale: 'Overwritten or deleted objects can no longer be recovered.',
    types: ['aws_s3_bucket'], attributes: ['versioning.*.enabled'], becomes: [false] },
  { id: 'sg-ingress-changed', severity: 'high', description: 'Security group ingress rules changed',
    rationale: 'Which sources reach the resources of the group changed outside review.',
    types: ['aws_security_group', 'aws_default_security_group'], attributes: ['ingress'] },
  { id: 'instance-access-changed', severity: 'high', description: 'Instance security groups or instance profile changed',
    rationale: 'The network exposure or cloud permissions of the instance changed.',
    types: ['aws_instance'], attributes: ['vpc_security_group_ids', 'iam_instance_profile'] },
  { id: 'instance-type-changed', severity: 'medium', description: 'Instance type changed',
    rationale: 'Cost and capacity changed; no access is affected.',
    types: ['aws_instance'], attributes: ['instance_type'] },
  { id: 'route-world-via-igw', severity: 'critical', description: 'Route table routes 0.0.0.0/0 or ::/0 through an internet gateway',
    rationale: 'The subnets of this table now have a path to and from the internet.',
    types: ['aws_route_table', 'aws_default_route_table'], attributes: ['route'], gainsRoute: ROUTE_TO_IGW },
  { id: 'route-changed-to-igw', severity: 'critical', description: 'Route to 0.0.0.0/0 or ::/0 now goes through an internet gateway',
    rationale: 'The subnets of this route now have a path to and from the internet.',
    types: ['aws_route'], attributes: ['gateway_id'], gainsRoute: ROUTE_TO_IGW },
  { id: 'subnet-public-ip-on-launch', severity: 'high', description: 'Subnet now gives instances public IPs at launch',
    rationale: 'New instances in the subnet become reachable from the internet.',
    types: ['aws_subnet'], attributes: ['map_public_ip_on_launch'], becomes: [true] },
  { id: 'db-publicly-accessible', severity: 'critical', description: 'Database made publicly accessible',
    rationale: 'The database endpoint now resolves to a public address.',
    types: ['aws_db_instance'], attributes: ['publicly_accessible'], becomes: [true] },
  { id: 'db-deletion-protection-off', severity: 'high', description: 'Database deletion protection turned off',
    rationale: 'The database and its data can be deleted by one call.',
    types: ['aws_db_instance'], attributes: ['deletion_protection'], becomes: [false] },
  { id: 'db-access-changed', severity: 'high', description: 'Database security groups or subnet group changed',
    rationale: 'Which networks reach the database changed outside review.',
    types: ['aws_db_instance'], attributes: ['vpc_security_group_ids', 'db_subnet_group_name'] },
  { id: 'kms-key-pending-deletion', severity: 'critical', description: 'KMS key scheduled for deletion',
    rationale: 'Data encrypted with the key becomes unreadable once it is deleted.',
    types: ['aws_kms_key'], attributes: ['key_state'], becomes: ['PendingDeletion', 'PendingReplicaDeletion'] },
  { id: 'kms-key-disabled', severity: 'high', description: 'KMS key disabled',
    rationale: 'Everything that decrypts with the key fails while it is disabled.',
    types: ['aws_kms_key'], attributes: ['is_enabled', 'key_state'], becomes: [false, 'Disabled'] },
  { id: 'kms-key-policy-changed', severity: 'high', description: 'KMS key policy or rotation changed',
    rationale: 'Who may use or manage the key, or its rotation, changed.',
    types: ['aws_kms_key'], attributes: ['policy', 'enable_key_rotation'] },
  { id: 'queue-topic-policy-public', severity: 'critical', description: 'SQS queue or SNS topic policy opened to everyone (Principal "*")',
    rationale: 'Anyone may now send to, read from or subscribe to it.',
    types: ['aws_sqs_queue', 'aws_sns_topic'], attributes: ['policy'], opensToAnyone: true },
  { id: 'queue-topic-policy-changed', severity: 'high', description: 'SQS queue or SNS topic policy changed',
    rationale: 'Who may use the queue or topic changed outside review.',
    types: ['aws_sqs_queue', 'aws_sns_topic'], attributes: ['policy'] },
  { id: 'encryption-key-removed', severity: 'high', description: 'Encryption key removed from a queue, topic, table, log group or repository',
    rationale: 'Data at rest is no longer encrypted with the key the code chose.',
    types: ['aws_sqs_queue', 'aws_sns_topic', 'aws_cloudwatch_log_group', 'aws_ecr_repository', 'aws_dynamodb_table'],
    attributes: ['kms_master_key_id', 'kms_key_id', 'encryption_configuration*', 'server_side_encryption*'], becomes: [''] },
  { id: 'lb-exposed', severity: 'high', description: 'Load balancer became internet-facing, or its security groups or listener changed',
    rationale: 'What the load balancer exposes, or how it terminates TLS, changed.',
    types: ['aws_lb', 'aws_alb', 'aws_lb_listener'], attributes: ['internal', 'security_groups', 'protocol', 'port', 'default_action', 'certificate_arn', 'ssl_policy'] },
  { id: 'iam-access-changed', severity: 'high', description: 'IAM attachment, instance profile role or permissions boundary changed',
    rationale: 'Permissions reachable through the attachment, profile or boundary changed.',
    types: ['aws_iam_role_policy_attachment', 'aws_iam_instance_profile', 'aws_iam_user', 'aws_iam_group'], attributes: ['role', 'policy_arn', 'permissions_boundary'] },
  { id: 'network-access-changed', severity: 'high', description: 'Network path changed (security groups, gateways, associations, public IPs)',
    rationale: 'Network paths to or from the resource changed outside review.',
    types: ['aws_route', 'aws_route_table', 'aws_route_table_association', 'aws_network_interface', 'aws_eip', 'aws_nat_gateway', 'aws_lambda_function', 'aws_ecs_service', 'aws_launch_template', 'aws_autoscaling_group'],
    attributes: ['route', 'gateway_id', 'nat_gateway_id', 'subnet_id', 'route_table_id', 'security_groups', 'vpc_security_group_ids', 'instance', 'network_interface', 'vpc_config', 'network_configuration'] },
  { id: 'access-key-reactivated', severity: 'high', description: 'An IAM access key the state holds inactive was made active',
    rationale: 'A credential the code keeps disabled can sign requests again.',
    types: ['aws_iam_access_key'], attributes: ['status'], becomes: ['Active'] },
  ...EKS_RULES,
  ...APIGATEWAY_RULES,
  ...LAMBDA_EXTRA_RULES,
  ...CLOUDFRONT_RULES,
  ...ACM_RULES,
  ...AZURE_RULES,
  ...GOOGLE_RULES,
  { id: 'tags-only', severity: 'low', description: 'Only tags changed',
    rationale: 'Tags change cost reports and automation, not access.', changeTypes: ['changed'], onlyAttributes: TAGS },
  { id: 'labels-only', severity: 'low', description: 'Only labels changed',
    rationale: 'Labels change cost reports and automation, not access.', types: ['google_*'], changeTypes: ['changed'], onlyAttributes: ['labels', 'labels.*'] },
  { id: 'deleted', severity: 'high', description: 'Resource deleted outside IaC',
    rationale: 'The code declares a resource the cloud no longer has; the next apply recreates it.', changeTypes: ['deleted'] },
  { id: 'changed', severity: 'medium', description: 'Resource changed outside IaC',
    rationale: 'The cloud differs from the code; the next apply reverts it.', changeTypes: ['changed'] },
];

/** Every string (and scalar) inside a value, as comparable keys. */
function leaves(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => leaves(x, out));
  else if (isObject(v)) Object.values(v).forEach((x) => leaves(x, out));
  else if (!isEmpty(v)) out.add(scalarKey(v));
  return out;
}

const anyGlob = (globs: string[]) => { const res = globs.map((g) => globRegExp(g)); return (s: string) => res.some((r) => r.test(s)); };

/** Whether a policy document has an Allow statement for Principal "*" (or AWS "*") without a Condition. */
function opensToAnyone(doc: unknown): boolean {
  const p = normalizePolicy(doc);
  const statements = isObject(p) && Array.isArray(p.Statement) ? p.Statement : [];
  return statements.some((s) => isObject(s) && s.Effect === 'Allow' && !s.Condition
    && (s.Principal === '*' || (isObject(s.Principal) && [s.Principal.AWS].flat().includes('*'))));
}

/** Destination -> target pairs of route elements (aws_route_table.route) or of one aws_route's fields. */
function routesOf(v: unknown, owner?: Record<string, unknown>): string[] {
  const list = Array.isArray(v) ? v : owner ? [owner] : [];
  return list.filter(isObject).flatMap((r) => {
    const dest = scalarKey(r.cidr_block ?? r.destination_cidr_block) || scalarKey(r.ipv6_cidr_block ?? r.destination_ipv6_cidr_block);
    return [`${dest}>${scalarKey(r.gateway_id)}`];
  });
}

function gainsRoute(rule: NonNullable<SeverityRule['gainsRoute']>, d: DiffEntry, state: Record<string, unknown>): boolean {
  const single = d.attribute === 'gateway_id';
  const after = single ? routesOf(undefined, { ...state, gateway_id: d.after }) : routesOf(d.after);
  const before = new Set(single ? routesOf(undefined, state) : routesOf(d.before));
  return after.some((r) => !before.has(r) && rule.destinations.some((w) => r.startsWith(`${w}>${rule.targetPrefix}`)));
}

function entryMatches(rule: SeverityRule, d: DiffEntry, state: Record<string, unknown> = {}, diff: DiffEntry[] = [d]): boolean {
  if (rule.opensToAnyone && !(opensToAnyone(d.after) && !opensToAnyone(d.before))) return false;
  if (rule.gainsRoute && !gainsRoute(rule.gainsRoute, d, state)) return false;
  if (rule.test && !rule.test.fn(d, state, diff)) return false;
  if (rule.gains) {
    const before = leaves(d.before);
    const after = leaves(d.after);
    if (!rule.gains.some((g) => after.has(g) && !before.has(g))) return false;
  }
  if (rule.becomes) {
    const ok = rule.becomes.some((b) => (b === '' ? isEmpty(d.after) : !isEmpty(d.after) && scalarKey(b) === scalarKey(d.after)));
    if (!ok) return false;
  }
  return true;
}

export function ruleMatches(rule: SeverityRule, drift: { resourceType: string; changeType: ChangeType; diff: DiffEntry[] }, stateAttributes: Record<string, unknown> = {}): boolean {
  if (rule.types && !anyGlob(rule.types)(drift.resourceType)) return false;
  if (rule.changeTypes && !rule.changeTypes.includes(drift.changeType)) return false;
  if (rule.where && !Object.entries(rule.where).every(([k, v]) => scalarKey(stateAttributes[k]) === scalarKey(v))) return false;
  if (rule.onlyAttributes) {
    const m = anyGlob(rule.onlyAttributes);
    if (drift.diff.length === 0 || !drift.diff.every((d) => m(d.attribute))) return false;
  }
  if (rule.attributes) {
    const m = anyGlob(rule.attributes);
    if (!drift.diff.some((d) => m(d.attribute) && entryMatches(rule, d, stateAttributes, drift.diff))) return false;
  } else if (rule.gains || rule.becomes || rule.test) {
    if (!drift.diff.some((d) => entryMatches(rule, d, stateAttributes, drift.diff))) return false;
  }
  return true;
}

/** Severity and rule id of the first matching rule; the table ends with catch-alls, so one always matches. */
export function classify(
  drift: { resourceType: string; changeType: ChangeType; diff: DiffEntry[] },
  stateAttributes: Record<string, unknown> = {},
  rules: SeverityRule[] = SEVERITY_RULES,
): { severity: Severity; ruleId: string } {
  const rule = rules.find((r) => ruleMatches(r, drift, stateAttributes));
  if (rule) return { severity: rule.severity, ruleId: rule.id };
  return drift.changeType === 'deleted' ? { severity: 'high', ruleId: 'deleted' } : { severity: 'medium', ruleId: 'changed' };
}
