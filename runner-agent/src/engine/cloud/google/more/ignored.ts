// Attributes of the secret and IAM types never reported as drift: etags, timestamps, Terraform-side
// settings, the write-only or sensitive payload, and a rotation time that advances by design.
// Spread into IGNORED_ATTRIBUTES (ignore.ts).
import { MORE_IAM_TYPES } from './iam.ts';

export const MORE_IGNORED: Record<string, string[]> = {
  google_secret_manager_secret: ['create_time', 'terraform_labels', 'effective_labels', 'deletion_protection', 'ttl', 'rotation.*.next_rotation_time'],
  google_secret_manager_secret_version: [
    'create_time', 'name', 'deletion_policy', 'is_secret_data_base64', 'secret_data', 'secret_data_wo', 'secret_data_wo_version',
  ],
  ...Object.fromEntries(MORE_IAM_TYPES.map((t) => [t, ['etag']])),
};
