// State instances of the storage, BigQuery, Pub/Sub, Cloud SQL and Artifact Registry types, shaped
// as the google provider (5.x) writes them in state (attribute names, empty blocks as [], maps,
// numbers), for google-data.test.ts.
import { instance } from './harness.ts';

export const P = 'data-proj';
const labels = (own: Record<string, string>) => ({ labels: own, terraform_labels: own, effective_labels: { ...own, 'goog-terraform-provisioned': 'true' } });

export const bucket = (name: string, attrs: Record<string, unknown> = {}) => instance('google_storage_bucket', name, {
  id: name, name, project: P, location: 'EU', storage_class: 'STANDARD', ...labels({ team: 'data' }), force_destroy: false,
  uniform_bucket_level_access: true, public_access_prevention: 'enforced', requester_pays: false, default_event_based_hold: false,
  enable_object_retention: false, versioning: [{ enabled: true }], retention_policy: [], logging: [{ log_bucket: 'logs-bucket', log_object_prefix: name }],
  website: [], encryption: [], autoclass: [], custom_placement_config: [], rpo: null, project_number: 123456789012,
  soft_delete_policy: [{ effective_time: '2024-03-01T08:00:00.000Z', retention_duration_seconds: 604800 }],
  cors: [{ max_age_seconds: 3600, method: ['GET', 'HEAD'], origin: ['https://example.com'], response_header: ['Content-Type'] }],
  lifecycle_rule: [{
    action: [{ storage_class: '', type: 'Delete' }],
    condition: [{
      age: 30, created_before: '', custom_time_before: '', days_since_custom_time: 0, days_since_noncurrent_time: 0, matches_prefix: [],
      matches_storage_class: [], matches_suffix: [], no_age: false, noncurrent_time_before: '', num_newer_versions: 0, send_age_if_zero: true,
      send_days_since_custom_time_if_zero: false, send_days_since_noncurrent_time_if_zero: false, send_num_newer_versions_if_zero: false, with_state: 'ANY',
    }],
  }],
  self_link: `https://www.googleapis.com/storage/v1/b/${name}`, url: `gs://${name}`, timeouts: null, ...attrs,
});

export const object = (bucketName: string, name: string, attrs: Record<string, unknown> = {}) => instance('google_storage_bucket_object', name.replace(/\W/g, '_'), {
  id: `${bucketName}-${name}`, bucket: bucketName, name, content_type: 'application/json', crc32c: 'yZRlqg==', md5hash: 'XrY7u+Ae7tCTyyK7j1rNww==',
  detect_md5hash: 'XrY7u+Ae7tCTyyK7j1rNww==', storage_class: 'STANDARD', metadata: { owner: 'data' }, cache_control: '', content_disposition: '',
  content_encoding: '', content_language: '', event_based_hold: false, temporary_hold: false, customer_encryption: [], kms_key_name: '',
  content: null, source: './files/config.json', generation: 1700000000000000, output_name: name, retention: [],
  media_link: `https://storage.googleapis.com/download/storage/v1/b/${bucketName}/o/${encodeURIComponent(name)}?generation=1&alt=media`,
  self_link: `https://www.googleapis.com/storage/v1/b/${bucketName}/o/${encodeURIComponent(name)}`, timeouts: null, ...attrs,
});

export const dataset = (id: string, attrs: Record<string, unknown> = {}) => instance('google_bigquery_dataset', id, {
  id: `projects/${P}/datasets/${id}`, dataset_id: id, project: P, friendly_name: 'Events', description: 'Raw events', location: 'EU',
  ...labels({ env: 'prod' }), default_table_expiration_ms: 0, default_partition_expiration_ms: 0, default_encryption_configuration: [],
  delete_contents_on_destroy: false, is_case_insensitive: false, default_collation: '', max_time_travel_hours: '168', storage_billing_model: '',
  access: [
    { dataset: [], domain: '', group_by_email: '', iam_member: '', role: 'OWNER', routine: [], special_group: 'projectOwners', user_by_email: '', view: [] },
    { dataset: [], domain: '', group_by_email: 'analysts@example.com', iam_member: '', role: 'READER', routine: [], special_group: '', user_by_email: '', view: [] },
    { dataset: [], domain: '', group_by_email: '', iam_member: '', role: 'WRITER', routine: [], special_group: 'projectWriters', user_by_email: '', view: [] },
  ],
  creation_time: 1700000000000, last_modified_time: 1700000000001, etag: 'abc==', self_link: `https://bigquery.googleapis.com/bigquery/v2/projects/${P}/datasets/${id}`, timeouts: null, ...attrs,
});

export const SCHEMA = '[{"mode":"REQUIRED","name":"id","type":"INTEGER"},{"description":"when","mode":"NULLABLE","name":"at","type":"TIMESTAMP"},{"fields":[{"mode":"NULLABLE","name":"k","type":"STRING"}],"mode":"REPEATED","name":"attrs","type":"RECORD"}]';
export const table = (ds: string, id: string, attrs: Record<string, unknown> = {}) => instance('google_bigquery_table', id, {
  id: `projects/${P}/datasets/${ds}/tables/${id}`, dataset_id: ds, table_id: id, project: P, friendly_name: '', description: 'events', location: 'EU',
  ...labels({ env: 'prod' }), type: 'TABLE', schema: SCHEMA, expiration_time: 0, clustering: ['id'], deletion_protection: true,
  time_partitioning: [{ expiration_ms: 0, field: 'at', require_partition_filter: false, type: 'DAY' }], range_partitioning: [], view: [], materialized_view: [],
  encryption_configuration: [], external_data_configuration: [], num_bytes: 0, num_long_term_bytes: 0, num_rows: 0, creation_time: 1700000000000,
  last_modified_time: 1700000000001, etag: 'x==', self_link: `https://bigquery.googleapis.com/bigquery/v2/projects/${P}/datasets/${ds}/tables/${id}`, ...attrs,
});

export const topic = (name: string, attrs: Record<string, unknown> = {}) => instance('google_pubsub_topic', name, {
  id: `projects/${P}/topics/${name}`, name, project: P, ...labels({ app: 'ingest' }), kms_key_name: '', message_retention_duration: '86400s',
  message_storage_policy: [], schema_settings: [], ingestion_data_source_settings: [], timeouts: null, ...attrs,
});

export const subscription = (name: string, attrs: Record<string, unknown> = {}) => instance('google_pubsub_subscription', name, {
  id: `projects/${P}/subscriptions/${name}`, name, project: P, topic: `projects/${P}/topics/events`, ...labels({ app: 'ingest' }),
  ack_deadline_seconds: 20, message_retention_duration: '604800s', retain_acked_messages: false, enable_message_ordering: false,
  enable_exactly_once_delivery: false, filter: '', expiration_policy: [{ ttl: '' }], dead_letter_policy: [], retry_policy: [{ maximum_backoff: '600s', minimum_backoff: '10s' }],
  push_config: [], bigquery_config: [], cloud_storage_config: [], timeouts: null, ...attrs,
});

export const sqlSettings = (over: Record<string, unknown> = {}, ip: Record<string, unknown> = {}) => [{
  activation_policy: 'ALWAYS', active_directory_config: [], advanced_machine_features: [], availability_type: 'ZONAL',
  backup_configuration: [{ backup_retention_settings: [{ retained_backups: 7, retention_unit: 'COUNT' }], binary_log_enabled: false, enabled: true, location: '', point_in_time_recovery_enabled: true, start_time: '02:00', transaction_log_retention_days: 7 }],
  collation: '', connector_enforcement: 'NOT_REQUIRED', data_cache_config: [], database_flags: [{ name: 'max_connections', value: '200' }, { name: 'log_min_duration_statement', value: '500' }],
  deletion_protection_enabled: true, deny_maintenance_period: [], disk_autoresize: true, disk_autoresize_limit: 0, disk_size: 20, disk_type: 'PD_SSD',
  edition: 'ENTERPRISE', insights_config: [],
  ip_configuration: [{ allocated_ip_range: '', authorized_networks: [{ expiration_time: '', name: 'office', value: '203.0.113.0/24' }], enable_private_path_for_google_cloud_services: false, ipv4_enabled: false, private_network: `projects/${P}/global/networks/main`, psc_config: [], require_ssl: false, ssl_mode: 'ENCRYPTED_ONLY', ...ip }],
  location_preference: [{ follow_gae_application: '', secondary_zone: '', zone: 'europe-west1-b' }], maintenance_window: [{ day: 7, hour: 3, update_track: 'stable' }],
  password_validation_policy: [], pricing_plan: 'PER_USE', sql_server_audit_config: [], tier: 'db-custom-2-7680', time_zone: '', user_labels: { team: 'data' }, version: 12, ...over,
}];

export const sqlInstance = (name: string, attrs: Record<string, unknown> = {}) => instance('google_sql_database_instance', name, {
  id: name, name, project: P, region: 'europe-west1', database_version: 'POSTGRES_15', master_instance_name: '', deletion_protection: true,
  connection_name: `${P}:europe-west1:${name}`, first_ip_address: '10.1.0.3', ip_address: [{ ip_address: '10.1.0.3', time_to_retire: '', type: 'PRIVATE' }],
  private_ip_address: '10.1.0.3', public_ip_address: '', root_password: null, server_ca_cert: [{ cert: '-----BEGIN CERTIFICATE-----\nMII\n-----END CERTIFICATE-----', sha1_fingerprint: 'aa' }],
  service_account_email_address: 'p1-abc@gcp-sa-cloud-sql.iam.gserviceaccount.com', self_link: `https://sqladmin.googleapis.com/sql/v1beta4/projects/${P}/instances/${name}`,
  settings: sqlSettings(), clone: [], replica_configuration: [], restore_backup_context: [], encryption_key_name: '', instance_type: 'CLOUD_SQL_INSTANCE', timeouts: null, ...attrs,
});

export const sqlDatabase = (inst: string, name: string, attrs: Record<string, unknown> = {}) => instance('google_sql_database', `${inst}_${name}`, {
  id: `projects/${P}/instances/${inst}/databases/${name}`, name, instance: inst, project: P, charset: 'UTF8', collation: 'en_US.UTF8', deletion_policy: 'DELETE',
  self_link: `https://sqladmin.googleapis.com/sql/v1beta4/projects/${P}/instances/${inst}/databases/${name}`, timeouts: null, ...attrs,
});

export const sqlUser = (inst: string, name: string, attrs: Record<string, unknown> = {}) => instance('google_sql_user', `${inst}_${name}`, {
  id: `${name}//${inst}`, name, instance: inst, project: P, host: '', type: '', password: 'Sup3r-Secret-Pw', deletion_policy: null,
  password_policy: [], sql_server_user_details: [], timeouts: null, ...attrs,
}, [['password']]);

export const repository = (id: string, attrs: Record<string, unknown> = {}) => instance('google_artifact_registry_repository', id, {
  id: `projects/${P}/locations/europe-west1/repositories/${id}`, repository_id: id, name: id, project: P, location: 'europe-west1', format: 'DOCKER',
  description: 'images', ...labels({ team: 'platform' }), kms_key_name: '', mode: 'STANDARD_REPOSITORY', cleanup_policy_dry_run: false, cleanup_policies: [],
  docker_config: [], maven_config: [], remote_repository_config: [], virtual_repository_config: [], create_time: '2024-01-01T00:00:00Z', update_time: '2024-01-02T00:00:00Z', timeouts: null, ...attrs,
});
