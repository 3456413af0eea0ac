// Attributes of the secret and IAM types never reported as drift: etags, timestamps, Terraform-side
// settings, the write-only or sensitive payload, a rotation time that advances by design, and the
// computed links, ids and name servers of the forwarding rules, DNS zones and functions.
// Spread into GOOGLE_IGNORED (cloud/google/index.ts).
import { MORE_IAM_TYPES } from './iam.ts';

export const MORE_IGNORED: Record<string, string[]> = {
  google_secret_manager_secret: ['create_time', 'terraform_labels', 'effective_labels', 'deletion_protection', 'ttl', 'rotation.*.next_rotation_time'],
  google_secret_manager_secret_version: [
    'create_time', 'name', 'deletion_policy', 'is_secret_data_base64', 'secret_data', 'secret_data_wo', 'secret_data_wo_version',
  ],
  google_compute_forwarding_rule: [
    'self_link', 'creation_timestamp', 'label_fingerprint', 'terraform_labels', 'effective_labels', 'psc_connection_id', 'psc_connection_status',
    'forwarding_rule_id', 'service_name', 'base_forwarding_rule',
  ],
  google_compute_global_forwarding_rule: ['self_link', 'label_fingerprint', 'terraform_labels', 'effective_labels', 'psc_connection_id', 'psc_connection_status', 'forwarding_rule_id', 'base_forwarding_rule'],
  google_compute_health_check: ['self_link', 'creation_timestamp'],
  google_dns_managed_zone: ['name_servers', 'force_destroy', 'managed_zone_id', 'creation_time', 'terraform_labels', 'effective_labels'],
  google_cloudfunctions_function: ['https_trigger_url', 'source_repository.*.deployed_url', 'terraform_labels', 'effective_labels', 'status', 'version_id'],
  ...Object.fromEntries(MORE_IAM_TYPES.map((t) => [t, ['etag']])),
};
