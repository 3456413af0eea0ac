// Secrets' ignore list and severity rules (data only; see iamextra/table.ts).
import type { SeverityRule } from '../../../rules.ts';
import type { DiffEntry } from '../../../types.ts';
import { scalarKey } from '../../../values.ts';

export const SECRETS_IGNORED: Record<string, string[]> = {
  aws_secretsmanager_secret: ['name_prefix', 'recovery_window_in_days', 'force_overwrite_replica_secret', 'replica'],
  // version_id is the identity; the write-only value is never readable.
  aws_secretsmanager_secret_version: ['secret_string_wo', 'secret_string_wo_version', 'has_secret_string_wo'],
  aws_ssm_parameter: ['overwrite', 'version', 'value_wo', 'value_wo_version', 'has_value_wo'],
};

const stages = (v: unknown) => (Array.isArray(v) ? v.map(scalarKey) : []);
/** The version held AWSCURRENT and no longer does: what applications read is another value now. */
const currentMovedAway = (d: DiffEntry) => stages(d.before).includes('AWSCURRENT') && !stages(d.after).includes('AWSCURRENT');

export const SECRETS_RULES: SeverityRule[] = [
  { id: 'secret-value-changed', severity: 'critical', description: 'Secret value changed (Secrets Manager version or SecureString parameter)',
    rationale: 'Applications read a credential nobody reviewed; the code\'s value no longer works or was replaced.',
    types: ['aws_secretsmanager_secret_version'], changeTypes: ['changed'], attributes: ['secret_string', 'secret_binary'] },
  { id: 'secret-current-version-replaced', severity: 'critical', description: 'Secret version is no longer the current one (AWSCURRENT moved to another value)',
    rationale: 'Applications now read a value put outside the code.',
    types: ['aws_secretsmanager_secret_version'], changeTypes: ['changed'], attributes: ['version_stages'], test: { describe: 'lost the AWSCURRENT stage', fn: currentMovedAway } },
  { id: 'ssm-secure-value-changed', severity: 'critical', description: 'SecureString parameter value changed',
    rationale: 'Applications read a secret nobody reviewed.',
    types: ['aws_ssm_parameter'], where: { type: 'SecureString' }, changeTypes: ['changed'], attributes: ['value', 'insecure_value'] },
  { id: 'secret-policy-or-key-changed', severity: 'high', description: 'Secret resource policy or encryption key changed',
    rationale: 'Who may read the secret, or the key that protects it, changed outside review.',
    types: ['aws_secretsmanager_secret', 'aws_ssm_parameter'], changeTypes: ['changed'], attributes: ['policy', 'kms_key_id', 'key_id'] },
];
