// More Google readers: Secret Manager secrets and versions, and the IAM member / binding / policy
// of Cloud Run services (v1, v2), Pub/Sub topics and subscriptions, secrets and Artifact Registry
// repositories. Spread into GOOGLE_READERS, IGNORED_ATTRIBUTES and GOOGLE_RULES with one line each.
import type { RestReader } from '../../rest/reader.ts';
import { MORE_IAM_READERS } from './iam.ts';
import { secretReader, secretVersionReader } from './secret.ts';

export { MORE_IGNORED } from './ignored.ts';
export { MORE_RULES } from './rules.ts';

export const MORE_READERS: Record<string, RestReader> = {
  google_secret_manager_secret: secretReader,
  google_secret_manager_secret_version: secretVersionReader,
  ...MORE_IAM_READERS,
};
