// More Google readers: Secret Manager secrets and versions, and the IAM member / binding / policy
// of Cloud Run services (v1, v2), Pub/Sub topics and subscriptions, secrets and Artifact Registry
// repositories; forwarding rules, health checks, Cloud DNS zones and Cloud Functions (1st gen).
// Spread into GOOGLE_READERS, GOOGLE_IGNORED and GOOGLE_RULES with one line each.
import type { RestReader } from '../../rest/reader.ts';
import { MORE_IAM_READERS } from './iam.ts';
import { secretReader, secretVersionReader } from './secret.ts';
import { forwardingRuleReader, globalForwardingRuleReader, healthCheckReader } from './compute.ts';
import { cloudFunctionReader, dnsManagedZoneReader } from './dns-functions.ts';

export { MORE_IGNORED } from './ignored.ts';
export { MORE_RULES } from './rules.ts';

export const MORE_READERS: Record<string, RestReader> = {
  google_secret_manager_secret: secretReader,
  google_secret_manager_secret_version: secretVersionReader,
  ...MORE_IAM_READERS,
  google_compute_forwarding_rule: forwardingRuleReader,
  google_compute_global_forwarding_rule: globalForwardingRuleReader,
  google_compute_health_check: healthCheckReader,
  google_dns_managed_zone: dnsManagedZoneReader,
  google_cloudfunctions_function: cloudFunctionReader,
};
