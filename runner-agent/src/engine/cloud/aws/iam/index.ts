// IAM: roles, policies, users, groups, instance profiles, attachments, inline policies and access
// keys. Here: each type's reader, the attributes never reported as drift (computed, write-only or
// Terraform-side) and the family's severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { groupReader, instanceProfileReader, rolePolicyAttachmentReader, userReader } from './entities.ts';
import { policyReader, rolePolicyReader, roleReader } from './roles.ts';
import { accessKeyReader, userPolicyAttachmentReader, userPolicyReader } from './user-policies.ts';

export const IAM_READERS: Record<string, TypeReader> = {
  aws_iam_role: roleReader,
  aws_iam_policy: policyReader,
  aws_iam_role_policy: rolePolicyReader,
  aws_iam_role_policy_attachment: rolePolicyAttachmentReader,
  aws_iam_instance_profile: instanceProfileReader,
  aws_iam_user: userReader,
  aws_iam_group: groupReader,
  aws_iam_user_policy_attachment: userPolicyAttachmentReader,
  aws_iam_user_policy: userPolicyReader,
  aws_iam_access_key: accessKeyReader,
};

export const IAM_IGNORED: Record<string, string[]> = {
  aws_iam_role: ['create_date', 'unique_id', 'name_prefix', 'force_detach_policies'],
  aws_iam_policy: ['policy_id', 'name_prefix', 'attachment_count'],
  aws_iam_instance_profile: ['unique_id', 'create_date', 'name_prefix'],
  aws_iam_user: ['unique_id', 'force_destroy'],
  aws_iam_group: ['unique_id'],
};

/** First match wins across the whole table (rules.ts): a family's specific rules come before its broader ones. */
export const IAM_RULES: SeverityRule[] = [
  { id: 'iam-policy-changed', severity: 'high', description: 'IAM policy document changed',
    rationale: 'Permissions granted by the policy changed outside review.',
    types: ['aws_iam_policy', 'aws_iam_role_policy'], attributes: ['policy'] },
  { id: 'iam-role-policy-changed', severity: 'high', description: 'IAM role trust policy, inline policies, attached policies or boundary changed',
    rationale: 'Who may assume the role, or what it may do, changed outside review.',
    types: ['aws_iam_role'], attributes: ['assume_role_policy', 'inline_policy*', 'managed_policy_arns', 'permissions_boundary'] },
  { id: 'iam-access-changed', severity: 'high', description: 'IAM attachment, instance profile role or permissions boundary changed',
    rationale: 'Permissions reachable through the attachment, profile or boundary changed.',
    types: ['aws_iam_role_policy_attachment', 'aws_iam_instance_profile', 'aws_iam_user', 'aws_iam_group'], attributes: ['role', 'policy_arn', 'permissions_boundary'] },
  { id: 'access-key-reactivated', severity: 'high', description: 'An IAM access key the state holds inactive was made active',
    rationale: 'A credential the code keeps disabled can sign requests again.',
    types: ['aws_iam_access_key'], attributes: ['status'], becomes: ['Active'] },
];
