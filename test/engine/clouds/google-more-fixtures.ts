// State instances of the secret and resource-IAM types, shaped as the google provider writes them
// (corpus: deepthought42-looksee-iac-gcp, xaviercallens-mirror-map-sieve-*, binxio-artifact-registry-*).
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { instance } from './harness.ts';

export const P = 'acme-prod';
export const N = '123456789012';
const SA = `serviceAccount:api@${P}.iam.gserviceaccount.com`;

export function secret(name: string, extra: Record<string, unknown> = {}, project = P, number = N): StateInstance {
  return instance('google_secret_manager_secret', name, {
    annotations: {}, create_time: '2025-07-18T16:03:35.517447Z', deletion_protection: false, effective_annotations: {},
    effective_labels: { env: 'prod', 'goog-terraform-provisioned': 'true' }, expire_time: '', id: `projects/${project}/secrets/${name}`,
    labels: { env: 'prod' }, name: `projects/${number}/secrets/${name}`, project,
    replication: [{ auto: [{ customer_managed_encryption: [] }], user_managed: [] }], rotation: [], secret_id: name,
    terraform_labels: { env: 'prod', 'goog-terraform-provisioned': 'true' }, timeouts: null, topics: [], ttl: null, version_aliases: {}, version_destroy_ttl: '',
    ...extra,
  });
}

export function version(name: string, secretName: string, extra: Record<string, unknown> = {}, sensitivePaths?: string[][]): StateInstance {
  return instance('google_secret_manager_secret_version', name, {
    create_time: '2025-07-18T16:04:59.531527Z', deletion_policy: 'DELETE', destroy_time: '', enabled: true,
    id: `projects/${N}/secrets/${secretName}/versions/1`, is_secret_data_base64: false, name: `projects/${N}/secrets/${secretName}/versions/1`,
    secret: `projects/${P}/secrets/${secretName}`, secret_data: null, secret_data_wo: null, secret_data_wo_version: 0, timeouts: null, version: '1',
    ...extra,
  }, sensitivePaths);
}

const KMS = `projects/${P}/locations/europe-west1/keyRings/r/cryptoKeys/secrets`;
export const KEYED = secret('db-password', {
  annotations: { owner: 'data' }, effective_annotations: { owner: 'data' },
  replication: [{ auto: [], user_managed: [{ replicas: [
    { location: 'europe-west1', customer_managed_encryption: [{ kms_key_name: KMS }] },
    { location: 'europe-west4', customer_managed_encryption: [] },
  ] }] }],
  rotation: [{ next_rotation_time: '2026-01-01T00:00:00Z', rotation_period: '2592000s' }],
  topics: [{ name: `projects/${P}/topics/rotations` }, { name: `projects/${P}/topics/audit` }],
  version_aliases: { current: '1' }, version_destroy_ttl: '86400s',
});

const cond = { title: 'office hours', description: '', expression: 'request.time.getHours("Europe/Paris") < 18' };
const policy = (bindings: unknown[]) => JSON.stringify({ bindings });

export const STATE: StateInstance[] = [
  secret('api-key'), secret('smtp-password'), KEYED, secret('lone', {}, 'acme-dev', '999'),
  version('api-key-v1', 'api-key'), version('db-password-v1', 'db-password'),
  // Secret IAM: the provider names the secret by project number.
  instance('google_secret_manager_secret_iam_member', 'api_key_reader', {
    condition: [], etag: 'BwY6NkdSHuM=', id: `projects/${N}/secrets/api-key/roles/secretmanager.secretAccessor/${SA}`,
    member: SA, project: N, role: 'roles/secretmanager.secretAccessor', secret_id: `projects/${N}/secrets/api-key`,
  }),
  instance('google_secret_manager_secret_iam_binding', 'api_key_viewers', {
    condition: [], etag: 'BwY6NkdSHuM=', id: `projects/${N}/secrets/api-key/roles/secretmanager.viewer`,
    members: ['group:ops@acme.example'], project: N, role: 'roles/secretmanager.viewer', secret_id: `projects/${N}/secrets/api-key`,
  }),
  instance('google_secret_manager_secret_iam_policy', 'db', {
    etag: 'BwY6NkdSHuM=', id: `projects/${P}/secrets/db-password`, project: P, secret_id: `projects/${P}/secrets/db-password`,
    policy_data: policy([{ members: [SA], role: 'roles/secretmanager.secretAccessor' }]),
  }),
  // Cloud Run v2: a binding written with no members (the corpus has 17), and one with a member.
  instance('google_cloud_run_v2_service_iam_binding', 'empty', {
    condition: [], etag: 'BwZTW/BCMXU=', id: `projects/${P}/locations/us-central1/services/euler/roles/run.invoker`, location: 'us-central1',
    members: [], name: `projects/${P}/locations/us-central1/services/euler`, project: P, role: 'roles/run.invoker',
  }),
  instance('google_cloud_run_v2_service_iam_binding', 'invokers', {
    condition: [], etag: 'BwZTW/BCMXU=', id: `projects/${P}/locations/us-central1/services/api/roles/run.invoker`, location: 'us-central1',
    members: [SA], name: `projects/${P}/locations/us-central1/services/api`, project: P, role: 'roles/run.invoker',
  }),
  instance('google_cloud_run_v2_service_iam_member', 'dev', {
    condition: [cond], etag: 'BwZTW/BCMXU=', id: `projects/${P}/locations/us-central1/services/api/roles/run.developer/user:ann@acme.example`,
    location: 'us-central1', member: 'user:ann@acme.example', name: `projects/${P}/locations/us-central1/services/api`, project: P, role: 'roles/run.developer',
  }),
  // Cloud Run v1: the provider writes the service as `v1/projects/P/locations/L/services/S`.
  instance('google_cloud_run_service_iam_member', 'public', {
    condition: [], etag: 'BwY6NlB59a4=', id: `v1/projects/${P}/locations/us-central1/services/web/roles/run.invoker/allUsers`, location: 'us-central1',
    member: 'allUsers', project: P, role: 'roles/run.invoker', service: `v1/projects/${P}/locations/us-central1/services/web`,
  }),
  instance('google_pubsub_topic_iam_member', 'publisher', {
    condition: [], etag: 'BwY6NkcWbkE=', id: `projects/${P}/topics/audit/roles/pubsub.publisher/${SA}`, member: SA, project: P,
    role: 'roles/pubsub.publisher', topic: `projects/${P}/topics/audit`,
  }),
  instance('google_pubsub_topic_iam_binding', 'publishers', {
    condition: [], etag: 'BwY6NkcWbkE=', id: `projects/${P}/topics/events/roles/pubsub.publisher`, members: [SA, 'serviceAccount:billing-budget-alert@system.gserviceaccount.com'],
    project: P, role: 'roles/pubsub.publisher', topic: `projects/${P}/topics/events`,
  }),
  instance('google_pubsub_subscription_iam_member', 'consumer', {
    condition: [], etag: 'BwY6NkcWbkE=', id: `projects/${P}/subscriptions/events-sub/roles/pubsub.subscriber/${SA}`, member: SA, project: P,
    role: 'roles/pubsub.subscriber', subscription: 'events-sub',
  }),
  instance('google_artifact_registry_repository_iam_policy', 'app', {
    etag: 'BwW+XFVSXC4=', id: `projects/${P}/locations/europe-west4/repositories/app`, location: 'europe-west4', policy_data: '{}', project: P,
    repository: `projects/${P}/locations/europe-west4/repositories/app`,
  }),
  instance('google_artifact_registry_repository_iam_member', 'pull', {
    condition: [], etag: 'BwW+XFVSXC4=', id: `projects/${P}/locations/europe-west4/repositories/images/roles/artifactregistry.reader/${SA}`, location: 'europe-west4',
    member: SA, project: P, repository: 'images', role: 'roles/artifactregistry.reader',
  }),
];

// Forwarding rules, health check, DNS zones and functions, as the driftctl-google_* corpus states hold them.
export function forwardingRule(name: string, extra: Record<string, unknown> = {}): StateInstance {
  return instance('google_compute_forwarding_rule', name, {
    all_ports: false, allow_global_access: false, backend_service: '', creation_timestamp: '2022-03-16T08:39:19.861-07:00', description: '',
    id: `projects/${P}/regions/us-east1/forwardingRules/${name}`, ip_address: '35.231.108.206', ip_protocol: 'TCP', is_mirroring_collector: false,
    label_fingerprint: '42WmSpB8rSM=', labels: null, load_balancing_scheme: 'EXTERNAL', name, network: '', network_tier: 'PREMIUM', port_range: '80', ports: null,
    project: P, region: 'us-east1', self_link: `https://www.googleapis.com/compute/v1/projects/${P}/regions/us-east1/forwardingRules/${name}`,
    service_label: '', service_name: '', subnetwork: '', target: `projects/${P}/regions/us-east1/targetPools/website-target-pool`, timeouts: null,
    ...extra,
  });
}

export function cloudFunction(name: string, extra: Record<string, unknown> = {}): StateInstance {
  return instance('google_cloudfunctions_function', name, {
    available_memory_mb: 128, build_environment_variables: null, description: 'My function', entry_point: 'helloHttp', environment_variables: { MODE: 'prod' },
    event_trigger: [], https_trigger_url: `https://us-central1-${P}.cloudfunctions.net/${name}`, id: `projects/${P}/locations/us-central1/functions/${name}`,
    ingress_settings: 'ALLOW_INTERNAL_ONLY', labels: null, max_instances: 0, name, project: P, region: 'us-central1', runtime: 'nodejs14',
    service_account_email: `${P}@appspot.gserviceaccount.com`, source_archive_bucket: 'fn-src', source_archive_object: `${name}.zip`, source_repository: [],
    timeout: 60, timeouts: null, trigger_http: true, vpc_connector: '', vpc_connector_egress_settings: '',
    ...extra,
  });
}

export const NET_STATE: StateInstance[] = [
  forwardingRule('web'), forwardingRule('api', { ip_address: '35.231.108.207', port_range: '443' }), forwardingRule('ssh', { ip_address: '35.231.108.208', port_range: '22' }),
  instance('google_compute_global_forwarding_rule', 'global', {
    description: '', id: `projects/${P}/global/forwardingRules/global-rule`, ip_address: '34.120.169.13', ip_protocol: 'TCP', ip_version: '',
    label_fingerprint: '42WmSpB8rSM=', labels: null, load_balancing_scheme: 'EXTERNAL', metadata_filters: [], name: 'global-rule', network: '', port_range: '80',
    project: P, self_link: `https://www.googleapis.com/compute/v1/projects/${P}/global/forwardingRules/global-rule`,
    target: `projects/${P}/global/targetHttpProxies/target-proxy`, timeouts: null,
  }),
  instance('google_compute_health_check', 'https', {
    check_interval_sec: 3, creation_timestamp: '2021-10-26T06:05:03.005-07:00', description: 'Health check via https', grpc_health_check: [], healthy_threshold: 4,
    http2_health_check: [], http_health_check: [], https_health_check: [{ host: 'acme.example', port: 0, port_name: 'health-check-port', port_specification: 'USE_NAMED_PORT',
      proxy_header: 'NONE', request_path: '/', response: 'I AM HEALTHY' }],
    id: `projects/${P}/global/healthChecks/https-health-check`, log_config: [{ enable: false }], name: 'https-health-check', project: P,
    self_link: `https://www.googleapis.com/compute/v1/projects/${P}/global/healthChecks/https-health-check`, ssl_health_check: [], tcp_health_check: [],
    timeout_sec: 1, timeouts: null, type: 'HTTPS', unhealthy_threshold: 5,
  }),
  instance('google_dns_managed_zone', 'public', {
    description: 'Example DNS zone', dns_name: 'example-9d3bea2b.com.', dnssec_config: [], force_destroy: false, forwarding_config: [],
    id: `projects/${P}/managedZones/example-zone`, labels: { foo: 'bar' }, name: 'example-zone',
    name_servers: ['ns-cloud-d1.googledomains.com.', 'ns-cloud-d2.googledomains.com.'], peering_config: [], private_visibility_config: [], project: P, timeouts: null, visibility: 'public',
  }),
  instance('google_dns_managed_zone', 'private', {
    description: 'internal', dns_name: 'corp.internal.', dnssec_config: [], force_destroy: false, forwarding_config: [],
    id: `projects/${P}/managedZones/corp`, labels: {}, name: 'corp', name_servers: [], peering_config: [], project: P, timeouts: null, visibility: 'private',
    private_visibility_config: [{ networks: [{ network_url: `https://www.googleapis.com/compute/v1/projects/${P}/global/networks/vpc` }] }],
  }),
  cloudFunction('hello'),
  cloudFunction('on-upload', {
    trigger_http: null, https_trigger_url: '', entry_point: 'onUpload',
    event_trigger: [{ event_type: 'google.storage.object.finalize', failure_policy: [{ retry: true }], resource: 'uploads-bucket' }],
  }),
];
