// Attributes of the operations types never reported (spread into ignore.ts IGNORED_ATTRIBUTES);
// no imports, so the ignore table loads without the readers. Server-set names, states, URLs and
// timestamps; what the platform derives (a function's Cloud Run service and build, a TPU's
// endpoints and health); write-only or Terraform-side settings (sensitive labels, force_delete,
// deletion_policy).
const TF = ['terraform_labels', 'effective_labels'];

export const OPS_IGNORED: Record<string, string[]> = {
  google_cloudfunctions2_function: [
    ...TF, 'state', 'update_time', 'url', 'environment', 'service_config.*.uri', 'service_config.*.service', 'service_config.*.gcf_uri',
    'build_config.*.build', 'build_config.*.source.*.storage_source.*.generation', 'event_trigger.*.trigger',
    // The platform adds LOG_EXECUTION_ID to every function's environment (newer providers suppress it).
    'service_config.*.environment_variables.LOG_EXECUTION_ID',
  ],
  google_tpu_v2_vm: [
    ...TF, 'state', 'health', 'health_description', 'api_version', 'multislice_node', 'queued_resource', 'symptoms', 'network_endpoints',
    'network_config.*.queue_count',
  ],
  google_monitoring_alert_policy: ['name', 'creation_record', 'conditions.*.name'],
  google_monitoring_notification_channel: ['name', 'verification_status', 'sensitive_labels', 'force_delete'],
  google_logging_metric: ['metric_descriptor.*.labels', 'bucket_options'],
  google_cloud_scheduler_job: ['state'],
  google_dns_record_set: ['routing_policy'],
  google_service_networking_connection: ['peering', 'deletion_policy', 'update_on_creation_fail'],
};
