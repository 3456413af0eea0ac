// Attributes of the storage, BigQuery, Pub/Sub, Cloud SQL and Artifact Registry types never
// reported as drift: etags, timestamps, computed ids and links, sizes that change with use,
// and Terraform-side settings the APIs do not hold. Spread into GOOGLE_IGNORED (cloud/google/index.ts).
export const GCP_DATA_IGNORED: Record<string, string[]> = {
  google_storage_bucket: ['self_link', 'url', 'project_number', 'force_destroy', 'time_created', 'updated', 'soft_delete_policy.*.effective_time', 'terraform_labels', 'effective_labels'],
  google_storage_bucket_object: ['self_link', 'media_link', 'output_name', 'generation', 'detect_md5hash', 'md5hexhash', 'source', 'content', 'source_md5hash'],
  google_bigquery_dataset: ['etag', 'creation_time', 'last_modified_time', 'self_link', 'delete_contents_on_destroy', 'terraform_labels', 'effective_labels'],
  google_bigquery_table: ['etag', 'creation_time', 'last_modified_time', 'self_link', 'num_bytes', 'num_long_term_bytes', 'num_rows', 'deletion_protection', 'terraform_labels', 'effective_labels'],
  google_pubsub_topic: ['terraform_labels', 'effective_labels'],
  google_pubsub_subscription: ['terraform_labels', 'effective_labels', 'path'],
  google_sql_database_instance: [
    'self_link', 'connection_name', 'first_ip_address', 'ip_address', 'public_ip_address', 'private_ip_address', 'server_ca_cert',
    'service_account_email_address', 'settings.*.version', 'root_password', 'dns_name', 'psc_service_attachment_link', 'available_maintenance_versions',
  ],
  google_sql_database: ['self_link', 'deletion_policy'],
  google_sql_user: ['password', 'deletion_policy', 'sql_server_user_details'],
  google_artifact_registry_repository: ['create_time', 'update_time', 'terraform_labels', 'effective_labels'],
  google_bigquery_dataset_iam_member: ['etag'],
  google_bigquery_dataset_iam_binding: ['etag'],
  google_bigquery_dataset_iam_policy: ['etag'],
  google_firestore_index: ['name', 'deletion_policy'],
  google_storage_notification: ['self_link', 'notification_id'],
};
