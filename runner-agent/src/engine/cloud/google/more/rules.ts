// Severity rules of the Cloud Run, Pub/Sub, Secret Manager and Artifact Registry IAM families, of
// secrets, forwarding rules and functions, spread into GOOGLE_RULES. The public-grant test is
// platform's (rules.ts), shared.
import type { SeverityRule } from '../../../rules.ts';
import { conditionDropped, gained, PUBLIC } from '../platform/rules.ts';
import { MORE_IAM_TYPES } from './iam.ts';

export const MORE_RULES: SeverityRule[] = [
  { id: 'gcp-resource-iam-public', severity: 'critical', description: 'Cloud Run, Pub/Sub, Secret Manager or Artifact Registry IAM grants allUsers or allAuthenticatedUsers',
    rationale: 'Anyone on the internet (or any Google account) can now invoke the service, publish to or read the topic, read the secret or pull the images, as the role allows.',
    types: MORE_IAM_TYPES, changeTypes: ['changed'],
    test: {
      describe: 'a member, binding or policy gains allUsers / allAuthenticatedUsers, or such a member loses its IAM condition',
      fn: (d, state) => (['member', 'members', 'policy_data'].includes(d.attribute) && gained(d, state, (_r, m) => PUBLIC.includes(m)))
        || conditionDropped(d, state, (m) => PUBLIC.includes(m)),
    } },
  { id: 'gcp-resource-iam-changed', severity: 'high', description: 'IAM grant changed on a Cloud Run service, Pub/Sub topic or subscription, secret or repository',
    rationale: 'Who may invoke, publish, subscribe, read the secret or push images changed outside review.',
    types: MORE_IAM_TYPES, changeTypes: ['changed'] },
  { id: 'gcp-secret-expiry-set', severity: 'high', description: 'Secret expiry set or moved',
    rationale: 'At the expire time Secret Manager deletes the secret and every version: what reads it then fails.',
    types: ['google_secret_manager_secret'], attributes: ['expire_time'] },
  { id: 'gcp-secret-storage-changed', severity: 'high', description: 'Secret replication or customer-managed key changed',
    rationale: 'Where the secret material is stored, or which key encrypts it, is no longer what the code says (residency, key control).',
    types: ['google_secret_manager_secret'], attributes: ['replication*'] },
  { id: 'gcp-secret-version-disabled', severity: 'medium', description: 'Secret version disabled or destroyed',
    rationale: 'Workloads reading that version fail until it is enabled again (a destroyed version is gone for good); no access is opened.',
    types: ['google_secret_manager_secret_version'], attributes: ['enabled'], becomes: [false] },
  { id: 'gcp-forwarding-rule-retargeted', severity: 'high', description: 'Forwarding rule sends its traffic to another target or backend',
    rationale: 'Requests to the address now reach a proxy, pool or backend service the code does not name.',
    types: ['google_compute_forwarding_rule', 'google_compute_global_forwarding_rule'], attributes: ['target', 'backend_service'] },
  { id: 'gcp-function-ingress-opened', severity: 'high', description: 'Cloud Function ingress opened to all traffic',
    rationale: 'The function now accepts requests from the internet, not only from the networks the code allows.',
    types: ['google_cloudfunctions_function'], attributes: ['ingress_settings'], becomes: ['ALLOW_ALL'] },
];
