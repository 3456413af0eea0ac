// Compute Engine attributes never reported as drift (spread into GOOGLE_IGNORED, cloud/google/index.ts); no
// imports, so the engine's ignore table loads without the readers.
/**
 * Attributes never reported: fingerprints (change with every edit), server-set ids and
 * timestamps, what follows attachments or power state (users, status, CPU platform), and an
 * instance's ephemeral external IP, which a stop and start replaces (the provider takes the new
 * one without a plan diff); an access config added or removed is still reported.
 */
export const COMPUTE_IGNORED: Record<string, string[]> = {
  google_compute_instance: [
    'instance_id', 'self_link', 'label_fingerprint', 'metadata_fingerprint', 'tags_fingerprint', 'cpu_platform', 'current_status',
    'creation_timestamp', 'desired_status', 'allow_stopping_for_update', 'terraform_labels', 'effective_labels',
    'network_interface.*.access_config.*.nat_ip',
  ],
  google_compute_instance_template: ['self_link', 'self_link_unique', 'metadata_fingerprint', 'tags_fingerprint', 'name_prefix', 'creation_timestamp', 'network_interface.*.access_config.*.nat_ip'],
  google_compute_network: ['self_link', 'gateway_ipv4', 'numeric_id', 'delete_default_routes_on_create'],
  google_compute_subnetwork: ['self_link', 'creation_timestamp', 'fingerprint', 'gateway_address', 'ipv6_cidr_range', 'external_ipv6_prefix', 'internal_ipv6_prefix', 'subnetwork_id'],
  google_compute_firewall: ['self_link', 'creation_timestamp', 'enable_logging'],
  google_compute_disk: ['self_link', 'creation_timestamp', 'label_fingerprint', 'users', 'last_attach_timestamp', 'last_detach_timestamp', 'source_image_id', 'source_snapshot_id', 'disk_id'],
  google_compute_router: ['self_link', 'creation_timestamp'],
  google_compute_address: ['self_link', 'creation_timestamp', 'users', 'label_fingerprint'],
  google_compute_global_address: ['self_link', 'creation_timestamp', 'label_fingerprint'],
};
