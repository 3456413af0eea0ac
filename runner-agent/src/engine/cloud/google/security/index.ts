// The security area of the Google readers (issue 33): KMS key rings and keys, service-account keys
// and IAM, workload identity pools and providers, Data Catalog policy tags and their IAM. Spread
// into GOOGLE_READERS, IGNORED_ATTRIBUTES and GOOGLE_RULES with one line each.
import type { RestReader } from '../../rest/reader.ts';
import { policyTagReader } from './catalog.ts';
import { SECURITY_IAM_READERS } from './iam.ts';
import { kmsCryptoKeyReader, kmsKeyRingReader } from './kms.ts';
import { serviceAccountKeyReader } from './sa-key.ts';
import { workloadIdentityPoolProviderReader, workloadIdentityPoolReader } from './workload.ts';

export { SECURITY_IGNORED } from './ignored.ts';
export { SECURITY_RULES } from './rules.ts';

export const SECURITY_READERS: Record<string, RestReader> = {
  google_kms_key_ring: kmsKeyRingReader,
  google_kms_crypto_key: kmsCryptoKeyReader,
  google_service_account_key: serviceAccountKeyReader,
  ...SECURITY_IAM_READERS,
  google_iam_workload_identity_pool: workloadIdentityPoolReader,
  google_iam_workload_identity_pool_provider: workloadIdentityPoolProviderReader,
  google_data_catalog_policy_tag: policyTagReader,
};
