// Attributes of the KMS, workload identity, service-account key, policy tag and their IAM types
// never reported as drift: computed names and times, Terraform-side settings, and the key's
// private half (returned once, at creation; write-only in the state, sensitive).
import { SECURITY_IAM_TYPES } from './iam.ts';

export const SECURITY_IGNORED: Record<string, string[]> = {
  google_kms_key_ring: ['id'],
  google_kms_crypto_key: ['skip_initial_version_creation', 'terraform_labels', 'effective_labels', 'primary', 'crypto_key_backend'],
  google_service_account_key: ['private_key', 'private_key_type', 'keepers', 'public_key', 'public_key_data', 'service_account_id', 'valid_before', 'valid_after'],
  google_iam_workload_identity_pool: ['name', 'state', 'timeouts'],
  google_iam_workload_identity_pool_provider: ['name', 'state', 'timeouts'],
  google_data_catalog_policy_tag: ['child_policy_tags'],
  ...Object.fromEntries(SECURITY_IAM_TYPES.map((t) => [t, ['etag']])),
};
