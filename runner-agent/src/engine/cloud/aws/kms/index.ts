// KMS: keys and aliases. Here: each type's reader, the attributes never reported as drift (computed,
// write-only or Terraform-side) and the family's severity rules.
// Registered with one spread line each in cloud/aws/index.ts (AWS_READERS, AWS_IGNORED, AWS_RULES).
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { kmsAliasReader } from './alias.ts';
import { kmsKeyReader } from './keys.ts';

export const KMS_READERS: Record<string, TypeReader> = {
  aws_kms_key: kmsKeyReader,
  aws_kms_alias: kmsAliasReader,
};

export const KMS_IGNORED: Record<string, string[]> = {
  aws_kms_key: ['key_id', 'deletion_window_in_days', 'bypass_policy_lockout_safety_check', 'custom_key_store_id', 'xks_key_id'],
  aws_kms_alias: ['name_prefix', 'target_key_arn'],
};

/** First match wins across the whole table (rules.ts): a family's specific rules come before its broader ones. */
export const KMS_RULES: SeverityRule[] = [
  { id: 'kms-key-pending-deletion', severity: 'critical', description: 'KMS key scheduled for deletion',
    rationale: 'Data encrypted with the key becomes unreadable once it is deleted.',
    types: ['aws_kms_key'], attributes: ['key_state'], becomes: ['PendingDeletion', 'PendingReplicaDeletion'] },
  { id: 'kms-key-disabled', severity: 'high', description: 'KMS key disabled',
    rationale: 'Everything that decrypts with the key fails while it is disabled.',
    types: ['aws_kms_key'], attributes: ['is_enabled', 'key_state'], becomes: [false, 'Disabled'] },
  { id: 'kms-key-policy-changed', severity: 'high', description: 'KMS key policy or rotation changed',
    rationale: 'Who may use or manage the key, or its rotation, changed.',
    types: ['aws_kms_key'], attributes: ['policy', 'enable_key_rotation'] },
];
