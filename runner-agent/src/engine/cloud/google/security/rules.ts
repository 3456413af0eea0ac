// Severity rules of the service-account key, service account / BigQuery dataset / policy tag IAM,
// workload identity and KMS types, spread into GOOGLE_RULES (the first matching rule of the whole
// table wins: the specific ones come before each family's generic IAM rule). Label edits fall to
// the generic labels-only rule.
import type { SeverityRule } from '../../../rules.ts';
import { isEmpty } from '../../../values.ts';
import { DATASET_IAM_TYPES } from '../data/bigquery-iam.ts';
import { conditionDropped, gained, PUBLIC } from '../platform/rules.ts';
import { SECURITY_IAM_TYPES } from './iam.ts';

const IAM_TYPES = [...SECURITY_IAM_TYPES, ...DATASET_IAM_TYPES];
const WIF_PROVIDER = ['google_iam_workload_identity_pool_provider'];

export const SECURITY_RULES: SeverityRule[] = [
  { id: 'gcp-sa-key-enabled', severity: 'critical', description: 'Service account key re-enabled',
    rationale: 'A key the code holds disabled signs in as the service account again, from wherever a copy of it is.',
    types: ['google_service_account_key'], attributes: ['disabled'], becomes: [false] },
  { id: 'gcp-sa-key-created', severity: 'critical', description: 'Service account key created outside the code',
    rationale: 'A user-managed key the code does not hold signs in as the service account from wherever it was downloaded to.',
    types: ['google_service_account'], changeTypes: ['changed'],
    test: {
      describe: 'unmanaged_keys (enabled user-managed keys no key resource of the scan manages) gains a key',
      fn: (d) => d.attribute === 'unmanaged_keys' && (Array.isArray(d.after) ? d.after : []).some((k) => !(Array.isArray(d.before) ? d.before : []).includes(k)),
    } },
  { id: 'gcp-identity-iam-public', severity: 'critical', description: 'Service account, BigQuery dataset or policy tag IAM grants allUsers or allAuthenticatedUsers',
    rationale: 'Anyone on the internet (or any Google account) can now act as the service account, read the dataset or the tagged columns, as the role allows.',
    types: IAM_TYPES, changeTypes: ['changed'],
    test: {
      describe: 'a member, binding or policy gains allUsers / allAuthenticatedUsers, or such a member loses its IAM condition',
      fn: (d, state) => (['member', 'members', 'policy_data'].includes(d.attribute) && gained(d, state, (_r, m) => PUBLIC.includes(m)))
        || conditionDropped(d, state, (m) => PUBLIC.includes(m)),
    } },
  { id: 'gcp-identity-iam-changed', severity: 'high', description: 'IAM grant changed on a service account, BigQuery dataset or policy tag',
    rationale: 'Who may impersonate the account, read or write the dataset, or read the tagged columns changed outside review.',
    types: IAM_TYPES, changeTypes: ['changed'] },
  { id: 'gcp-wif-trust-widened', severity: 'critical', description: 'Workload identity provider trust widened (condition removed or rewritten, issuer, audiences, AWS account or keys changed)',
    rationale: 'Tokens from identities the code does not trust can now be exchanged for Google credentials.',
    types: WIF_PROVIDER, changeTypes: ['changed'],
    test: {
      describe: 'attribute_condition removed or rewritten (not newly set), or the OIDC issuer, allowed audiences or JWKS, the AWS account or the SAML metadata changed',
      fn: (d) => (d.attribute === 'attribute_condition' && !isEmpty(d.before))
        || /^(oidc|aws|saml)(\.0\.(issuer_uri|allowed_audiences|jwks_json|account_id|idp_metadata_xml))?$/.test(d.attribute),
    } },
  { id: 'gcp-wif-mapping-changed', severity: 'high', description: 'Workload identity pool or provider mapping changed or re-enabled',
    rationale: 'Which external identities map to which Google principals, or whether the pool is in use, changed outside review.',
    types: ['google_iam_workload_identity_pool', ...WIF_PROVIDER], changeTypes: ['changed'],
    test: { describe: 'attribute_mapping or attribute_condition changed, or disabled turned off', fn: (d) => d.attribute.startsWith('attribute_') || (d.attribute === 'disabled' && d.after === false) } },
  { id: 'gcp-kms-rotation-removed', severity: 'high', description: 'KMS key rotation removed',
    rationale: 'The key is no longer rotated: every new encryption keeps using the same key material.',
    types: ['google_kms_crypto_key'], changeTypes: ['changed'],
    test: { describe: 'rotation_period set in the state, empty live', fn: (d) => d.attribute === 'rotation_period' && !isEmpty(d.before) && isEmpty(d.after) } },
];
