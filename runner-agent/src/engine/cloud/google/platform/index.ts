// The platform area of the Google readers: project services, project and bucket IAM, service
// accounts, GKE clusters and node pools, Cloud Run services. Spread into GOOGLE_READERS,
// GOOGLE_IGNORED and GOOGLE_RULES with one line each.
import type { RestReader } from '../../rest/reader.ts';
import { containerClusterReader, containerNodePoolReader } from './container.ts';
import { IAM_READERS } from './iam-readers.ts';
import { cloudRunServiceReader } from './run.ts';
import { cloudRunV2JobReader } from './run-v2-job.ts';
import { cloudRunV2ServiceReader } from './run-v2.ts';
import { projectServiceReader, serviceAccountReader } from './services.ts';
import { withUnmanagedKeys } from '../security/sa-key.ts';

export { PLATFORM_RULES } from './rules.ts';

export const PLATFORM_READERS: Record<string, RestReader> = {
  google_project_service: projectServiceReader,
  google_service_account: withUnmanagedKeys(serviceAccountReader),
  ...IAM_READERS,
  google_container_cluster: containerClusterReader,
  google_container_node_pool: containerNodePoolReader,
  google_cloud_run_service: cloudRunServiceReader,
  google_cloud_run_v2_service: cloudRunV2ServiceReader,
  google_cloud_run_v2_job: cloudRunV2JobReader,
};

/** Computed or provider-only attributes of the platform types that the readers might otherwise compare. */
export const PLATFORM_IGNORED: Record<string, string[]> = {
  google_project_service: ['disable_dependent_services', 'disable_on_destroy', 'check_if_service_has_usage_on_destroy'],
  google_service_account: ['create_ignore_already_exists'],
  google_project_iam_member: ['etag'],
  google_project_iam_binding: ['etag'],
  google_project_iam_policy: ['etag'],
  google_storage_bucket_iam_member: ['etag'],
  google_storage_bucket_iam_binding: ['etag'],
  google_storage_bucket_iam_policy: ['etag'],
  google_container_cluster: [
    'endpoint', 'master_version', 'min_master_version', 'node_version', 'label_fingerprint', 'self_link', 'services_ipv4_cidr',
    'operation', 'tpu_ipv4_cidr_block', 'instance_group_urls', 'master_auth', 'deletion_protection', 'remove_default_node_pool',
    'initial_node_count', 'node_pool', 'node_config', 'private_cluster_config.*.peering_name', 'private_cluster_config.*.private_endpoint',
    'private_cluster_config.*.public_endpoint',
  ],
  // Server-written annotations and labels (who deployed, the last operation, the client) and status.
  google_cloud_run_service: [
    'status', 'autogenerate_revision_name', 'traffic.*.url', 'metadata.*.namespace', 'metadata.*.generation', 'metadata.*.resource_version',
    'metadata.*.self_link', 'metadata.*.uid', 'metadata.*.terraform_labels',
    ...['annotations', 'effective_annotations'].flatMap((k) => [
      `metadata.*.${k}.serving.knative.dev/*`, `metadata.*.${k}.run.googleapis.com/operation-id`, `metadata.*.${k}.run.googleapis.com/ingress-status`,
      `metadata.*.${k}.client.knative.dev/*`, `metadata.*.${k}.run.googleapis.com/client-*`, `metadata.*.${k}.run.googleapis.com/urls`,
    ]),
    'metadata.*.labels.cloud.googleapis.com/location', 'metadata.*.effective_labels.cloud.googleapis.com/location',
    'template.*.metadata.*.annotations.run.googleapis.com/client-*', 'template.*.metadata.*.annotations.client.knative.dev/*',
    'template.*.metadata.*.labels.run.googleapis.com/*', 'template.*.metadata.*.labels.client.knative.dev/*',
  ],
  google_cloud_run_v2_service: [
    'uid', 'generation', 'etag', 'observed_generation', 'terminal_condition', 'conditions', 'latest_ready_revision', 'latest_created_revision',
    'traffic_statuses', 'uri', 'urls', 'reconciling', 'create_time', 'update_time', 'delete_time', 'expire_time', 'creator', 'last_modifier',
    'client', 'client_version', 'deletion_protection', 'terraform_labels', 'annotations.run.googleapis.com/*', 'effective_annotations.run.googleapis.com/*',
    'template.*.labels.run.googleapis.com/*', 'template.*.annotations.run.googleapis.com/*',
  ],
  google_cloud_run_v2_job: [
    'uid', 'generation', 'etag', 'observed_generation', 'terminal_condition', 'conditions', 'latest_created_execution', 'execution_count',
    'reconciling', 'create_time', 'update_time', 'delete_time', 'expire_time', 'creator', 'last_modifier', 'client', 'client_version',
    'deletion_protection', 'deletion_policy', 'terraform_labels', 'annotations.run.googleapis.com/*', 'effective_annotations.run.googleapis.com/*',
    'template.*.labels.run.googleapis.com/*', 'template.*.annotations.run.googleapis.com/*',
  ],
  google_container_node_pool: ['version', 'node_count', 'instance_group_urls', 'managed_instance_group_urls', 'operation', 'name_prefix', 'node_config.*.effective_taints'],
};
