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
import type { ChangeType, DiffEntry, Severity } from './types.ts';
import { globRegExp, isEmpty, isObject, scalarKey } from './values.ts';

export interface SeverityRule {
  id: string;
  severity: Severity;
  description: string;
  types?: string[];
  changeTypes?: ChangeType[];
  where?: Record<string, unknown>;
  attributes?: string[];
  gains?: string[];
  becomes?: unknown[];
  onlyAttributes?: string[];
}

const WORLD = ['0.0.0.0/0', '::/0'];
const TAGS = ['tags', 'tags.*', 'tags_all', 'tags_all.*'];

export const SEVERITY_RULES: SeverityRule[] = [
  { id: 'sg-ingress-open-to-world', severity: 'critical', description: 'Security group ingress opened to 0.0.0.0/0 or ::/0',
    types: ['aws_security_group'], changeTypes: ['changed'], attributes: ['ingress'], gains: WORLD },
  { id: 'sg-rule-ingress-open-to-world', severity: 'critical', description: 'Ingress rule opened to 0.0.0.0/0 or ::/0',
    types: ['aws_security_group_rule'], where: { type: 'ingress' }, attributes: ['cidr_blocks', 'ipv6_cidr_blocks'], gains: WORLD },
  { id: 'vpc-ingress-rule-open-to-world', severity: 'critical', description: 'Ingress rule opened to 0.0.0.0/0 or ::/0',
    types: ['aws_vpc_security_group_ingress_rule'], attributes: ['cidr_ipv4', 'cidr_ipv6'], gains: WORLD },
  { id: 's3-public-access-block-removed', severity: 'critical', description: 'S3 public access block removed',
    types: ['aws_s3_bucket_public_access_block'], changeTypes: ['deleted'] },
  { id: 's3-public-access-block-loosened', severity: 'critical', description: 'S3 public access block setting turned off',
    types: ['aws_s3_bucket_public_access_block'], attributes: ['block_public_acls', 'block_public_policy', 'ignore_public_acls', 'restrict_public_buckets'], becomes: [false] },
  { id: 's3-encryption-removed', severity: 'high', description: 'S3 default encryption removed',
    types: ['aws_s3_bucket_server_side_encryption_configuration'], changeTypes: ['deleted'] },
  { id: 's3-bucket-encryption-removed', severity: 'high', description: 'S3 default encryption removed',
    types: ['aws_s3_bucket'], attributes: ['server_side_encryption_configuration'], becomes: [''] },
  { id: 's3-encryption-changed', severity: 'high', description: 'S3 default encryption changed',
    types: ['aws_s3_bucket', 'aws_s3_bucket_server_side_encryption_configuration'], attributes: ['server_side_encryption_configuration*', 'rule*'] },
  { id: 's3-bucket-policy-changed', severity: 'high', description: 'S3 bucket policy changed',
    types: ['aws_s3_bucket', 'aws_s3_bucket_policy'], attributes: ['policy'] },
  { id: 'iam-policy-changed', severity: 'high', description: 'IAM policy document changed',
    types: ['aws_iam_policy', 'aws_iam_role_policy'], attributes: ['policy'] },
  { id: 'iam-role-policy-changed', severity: 'high', description: 'IAM role trust policy, inline policies, attached policies or boundary changed',
    types: ['aws_iam_role'], attributes: ['assume_role_policy', 'inline_policy*', 'managed_policy_arns', 'permissions_boundary'] },
  { id: 's3-versioning-disabled', severity: 'medium', description: 'S3 bucket versioning suspended',
    types: ['aws_s3_bucket_versioning'], attributes: ['versioning_configuration.*.status'], becomes: ['Suspended', 'Disabled'] },
  { id: 's3-bucket-versioning-disabled', severity: 'medium', description: 'S3 bucket versioning suspended',
    types: ['aws_s3_bucket'], attributes: ['versioning.*.enabled'], becomes: [false] },
  { id: 'sg-ingress-changed', severity: 'high', description: 'Security group ingress rules changed',
    types: ['aws_security_group'], attributes: ['ingress'] },
  { id: 'instance-access-changed', severity: 'high', description: 'Instance security groups or instance profile changed',
    types: ['aws_instance'], attributes: ['vpc_security_group_ids', 'iam_instance_profile'] },
  { id: 'instance-type-changed', severity: 'medium', description: 'Instance type changed',
    types: ['aws_instance'], attributes: ['instance_type'] },
  { id: 'tags-only', severity: 'low', description: 'Only tags changed', changeTypes: ['changed'], onlyAttributes: TAGS },
  { id: 'deleted', severity: 'high', description: 'Resource deleted outside IaC', changeTypes: ['deleted'] },
  { id: 'changed', severity: 'medium', description: 'Resource changed outside IaC', changeTypes: ['changed'] },
];

/** Every string (and scalar) inside a value, as comparable keys. */
function leaves(v: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(v)) v.forEach((x) => leaves(x, out));
  else if (isObject(v)) Object.values(v).forEach((x) => leaves(x, out));
  else if (!isEmpty(v)) out.add(scalarKey(v));
  return out;
}

const anyGlob = (globs: string[]) => { const res = globs.map((g) => globRegExp(g)); return (s: string) => res.some((r) => r.test(s)); };

function entryMatches(rule: SeverityRule, d: DiffEntry): boolean {
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
    if (!drift.diff.some((d) => m(d.attribute) && entryMatches(rule, d))) return false;
  } else if (rule.gains || rule.becomes) {
    if (!drift.diff.some((d) => entryMatches(rule, d))) return false;
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
