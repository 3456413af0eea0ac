// Instances shaped like the google provider's real states (test/engine/corpus-google), for the
// platform readers' tests: project services, service accounts, project and bucket IAM, a GKE
// cluster with two node pools.
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { instance } from './harness.ts';

export const P = 'acme-prod';
export const svc = (s: string, project = P) => instance('google_project_service', s.split('.')[0], {
  id: `${project}/${s}`, project, service: s, disable_dependent_services: false, disable_on_destroy: true, timeouts: null,
});
const sa = (id: string, attrs: Record<string, unknown> = {}) => instance('google_service_account', id, {
  account_id: id, description: '', disabled: false, display_name: `The ${id} account`, email: `${id}@${P}.iam.gserviceaccount.com`,
  id: `projects/${P}/serviceAccounts/${id}@${P}.iam.gserviceaccount.com`, member: `serviceAccount:${id}@${P}.iam.gserviceaccount.com`,
  name: `projects/${P}/serviceAccounts/${id}@${P}.iam.gserviceaccount.com`, project: P, timeouts: null, unique_id: `1093${id.length}4512`, ...attrs,
});
export const cond = (title: string) => [{ description: '', expression: 'request.time < timestamp("2030-01-01T00:00:00Z")', title }];
const pMember = (name: string, role: string, member: string, attrs: Record<string, unknown> = {}) => instance('google_project_iam_member', name, {
  condition: [], etag: 'BwXhqDZ1qZk=', id: `${P}/${role}/${member}`, member, project: P, role, ...attrs,
});
const pBinding = (name: string, role: string, members: string[], attrs: Record<string, unknown> = {}) => instance('google_project_iam_binding', name, {
  condition: [], etag: 'BwXhqDZ1qZk=', id: `${P}/${role}`, members, project: P, role, ...attrs,
});
const bMember = (name: string, role: string, member: string, attrs: Record<string, unknown> = {}) => instance('google_storage_bucket_iam_member', name, {
  bucket: 'b/acme-logs', condition: [], etag: 'CAM=', id: `b/acme-logs/${role}/${member}`, member, role, ...attrs,
});
const bBinding = (name: string, role: string, members: string[]) => instance('google_storage_bucket_iam_binding', name, {
  bucket: 'b/acme-assets', condition: [], etag: 'CAM=', id: `b/acme-assets/${role}`, members, role,
});
export const POLICY = JSON.stringify({ bindings: [{ members: ['user:ops@acme.example', 'serviceAccount:ci@acme-prod.iam.gserviceaccount.com'], role: 'roles/storage.admin' }, { members: ['group:eng@acme.example'], role: 'roles/storage.objectViewer' }] });
const bPolicy = (policy = POLICY) => instance('google_storage_bucket_iam_policy', 'site', { bucket: 'b/acme-site', etag: 'CAU=', id: 'b/acme-site', policy_data: policy });

const CLUSTER_ID = `projects/${P}/locations/europe-west1/clusters/main`;
export const cluster = (attrs: Record<string, unknown> = {}) => instance('google_container_cluster', 'main', {
  addons_config: [{ cloudrun_config: [], horizontal_pod_autoscaling: [{ disabled: false }], http_load_balancing: [{ disabled: false }], network_policy_config: [{ disabled: false }] }],
  cluster_ipv4_cidr: '10.10.64.0/18', database_encryption: [{ key_name: '', state: 'DECRYPTED' }], default_max_pods_per_node: 110, description: '',
  enable_autopilot: false, enable_intranode_visibility: false, enable_kubernetes_alpha: false, enable_legacy_abac: false, enable_shielded_nodes: true, endpoint: '34.95.29.85', id: CLUSTER_ID,
  ip_allocation_policy: [{ cluster_ipv4_cidr_block: '10.10.64.0/18', cluster_secondary_range_name: 'pods', services_ipv4_cidr_block: '10.10.192.0/18', services_secondary_range_name: 'svc' }],
  label_fingerprint: 'a9dc16a7', location: 'europe-west1', logging_service: 'logging.googleapis.com/kubernetes',
  master_authorized_networks_config: [{ cidr_blocks: [{ cidr_block: '35.231.111.81/32', display_name: 'Bastion' }, { cidr_block: '10.0.0.0/8', display_name: 'Office' }], gcp_public_cidrs_access_enabled: false }],
  master_version: '1.30.5-gke.1014001', monitoring_service: 'monitoring.googleapis.com/kubernetes', name: 'main',
  network: `projects/${P}/global/networks/core`, network_policy: [{ enabled: true, provider: 'CALICO' }],
  node_locations: ['europe-west1-b', 'europe-west1-c', 'europe-west1-d'], node_pool: [], node_version: '1.30.5-gke.1014001',
  private_cluster_config: [{ enable_private_endpoint: true, enable_private_nodes: true, master_global_access_config: [{ enabled: true }], master_ipv4_cidr_block: '172.16.0.16/28', peering_name: 'gke-n76-peer', private_endpoint: '172.16.0.18', public_endpoint: '34.95.29.85' }],
  project: P, release_channel: [{ channel: 'REGULAR' }], resource_labels: { team: 'core' }, effective_labels: { team: 'core', 'goog-terraform-provisioned': 'true' },
  terraform_labels: { team: 'core', 'goog-terraform-provisioned': 'true' }, self_link: `https://container.googleapis.com/v1/${CLUSTER_ID}`,
  subnetwork: `projects/${P}/regions/europe-west1/subnetworks/gke`, workload_identity_config: [{ workload_pool: `${P}.svc.id.goog` }], ...attrs,
});
export const pool = (name: string, attrs: Record<string, unknown> = {}, config: Record<string, unknown> = {}) => instance('google_container_node_pool', name, {
  autoscaling: [{ location_policy: 'BALANCED', max_node_count: 5, min_node_count: 1, total_max_node_count: 0, total_min_node_count: 0 }], cluster: 'main',
  id: `${CLUSTER_ID}/nodePools/${name}`, initial_node_count: 1, location: 'europe-west1', management: [{ auto_repair: true, auto_upgrade: true }], max_pods_per_node: 110, name,
  node_config: [{ boot_disk_kms_key: '', disk_size_gb: 100, disk_type: 'pd-balanced', image_type: 'COS_CONTAINERD', labels: { pool: name }, local_ssd_count: 0, machine_type: 'e2-standard-4',
    metadata: { 'disable-legacy-endpoints': 'true' }, min_cpu_platform: '', oauth_scopes: ['https://www.googleapis.com/auth/cloud-platform'], preemptible: false,
    service_account: `gke-nodes@${P}.iam.gserviceaccount.com`, shielded_instance_config: [{ enable_integrity_monitoring: true, enable_secure_boot: true }], spot: false,
    tags: ['gke-main'], taint: [], workload_metadata_config: [{ mode: 'GKE_METADATA' }], ...config }],
  node_count: 2, node_locations: ['europe-west1-b', 'europe-west1-c'], project: P, upgrade_settings: [{ max_surge: 1, max_unavailable: 0, strategy: 'SURGE' }], version: '1.30.5-gke.1014001', ...attrs,
});

export const STATE: StateInstance[] = [
  svc('compute.googleapis.com'), svc('container.googleapis.com'), svc('iam.googleapis.com'), svc('run.googleapis.com', 'acme-dev'),
  sa('deployer'), sa('ci'), sa('gke-nodes'),
  pMember('viewer', 'roles/viewer', 'group:eng@acme.example'), pMember('temp', 'roles/storage.admin', 'user:Temp@acme.example', { condition: cond('until-2030') }),
  pBinding('editors', 'roles/editor', ['group:admins@acme.example', 'serviceAccount:deployer@acme-prod.iam.gserviceaccount.com']),
  pBinding('logs', 'roles/logging.viewer', ['group:eng@acme.example']),
  bMember('reader', 'roles/storage.objectViewer', 'group:eng@acme.example'), bMember('public', 'roles/storage.objectViewer', 'allUsers', { condition: cond('logs-only') }),
  bBinding('writers', 'roles/storage.objectCreator', ['serviceAccount:ci@acme-prod.iam.gserviceaccount.com']), bPolicy(),
  cluster(), pool('general'), pool('batch', {}, { spot: true, machine_type: 'c2-standard-8' }),
];
