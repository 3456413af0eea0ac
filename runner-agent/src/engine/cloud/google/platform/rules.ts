// Severity rules of the platform types (project services, IAM, service accounts, GKE, Cloud Run),
// spread into GOOGLE_RULES; the first matching rule of the whole table wins, so the specific
// rules (public bucket, owner grant, open API server) come before the generic IAM one.
import type { SeverityRule } from '../../../rules.ts';
import type { DiffEntry } from '../../../types.ts';
import { isEmpty, isObject } from '../../../values.ts';
import { parsePolicy } from './iam.ts';

export const PUBLIC = ['allusers', 'allauthenticatedusers'];
const PRIVILEGED = new Set(['roles/owner', 'roles/editor']);
const BUCKET_IAM = ['google_storage_bucket_iam_member', 'google_storage_bucket_iam_binding', 'google_storage_bucket_iam_policy'];
const PROJECT_IAM = ['google_project_iam_member', 'google_project_iam_binding', 'google_project_iam_policy'];

/** role -> members of a diff side: a member string, a members list (with the state's role), or a policy_data text. */
function grants(v: unknown, role: string): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const add = (r: string, m: unknown) => { if (typeof m === 'string' && m) (out.get(r) ?? out.set(r, new Set()).get(r)!).add(m.toLowerCase()); };
  if (typeof v === 'string' && v.trim().startsWith('{')) {
    for (const b of parsePolicy(v)?.bindings ?? []) for (const m of b.members ?? []) add(b.role, m);
  } else if (Array.isArray(v)) v.forEach((m) => add(role, m));
  else add(role, v);
  return out;
}

/** Role/member pairs the change adds, where `keep` says which pairs count. */
export function gained(d: DiffEntry, state: Record<string, unknown>, keep: (role: string, member: string) => boolean): boolean {
  const role = String(state.role ?? '');
  const before = grants(d.before, role);
  for (const [r, members] of grants(d.after, role)) {
    for (const m of members) if (keep(r, m) && !before.get(r)?.has(m)) return true;
  }
  return false;
}

/** A public member whose IAM condition was removed: it is now granted without limit. */
export const conditionDropped = (d: DiffEntry, state: Record<string, unknown>, members: (m: string) => boolean) =>
  d.attribute === 'condition' && !isEmpty(d.before) && isEmpty(d.after)
  && [state.member, ...(Array.isArray(state.members) ? state.members : [])].some((m) => typeof m === 'string' && members(m.toLowerCase()));

const cidrs = (v: unknown): string[] => {
  const out: string[] = [];
  const walk = (x: unknown) => { if (Array.isArray(x)) x.forEach(walk); else if (isObject(x)) { if (typeof x.cidr_block === 'string') out.push(x.cidr_block); Object.values(x).forEach(walk); } };
  walk(v);
  return out;
};

export const PLATFORM_RULES: SeverityRule[] = [
  { id: 'gcp-bucket-iam-public', severity: 'critical', description: 'Bucket IAM grants allUsers or allAuthenticatedUsers',
    rationale: 'Anyone on the internet (or any Google account) can now use the bucket as the role allows.',
    types: BUCKET_IAM, changeTypes: ['changed'],
    test: {
      describe: 'a member, binding or policy gains allUsers / allAuthenticatedUsers, or such a member loses its IAM condition',
      fn: (d, state) => (['member', 'members', 'policy_data'].includes(d.attribute) && gained(d, state, (_r, m) => PUBLIC.includes(m)))
        || conditionDropped(d, state, (m) => PUBLIC.includes(m)),
    } },
  { id: 'gcp-iam-owner-editor-granted', severity: 'high', description: 'Project owner or editor granted to a new principal',
    rationale: 'A principal the code does not name can now change (or own) everything in the project.',
    types: PROJECT_IAM, changeTypes: ['changed'],
    test: {
      describe: 'roles/owner or roles/editor gains a member, or such a grant loses its IAM condition',
      fn: (d, state) => (['member', 'members', 'policy_data'].includes(d.attribute) && gained(d, state, (r) => PRIVILEGED.has(r)))
        || (PRIVILEGED.has(String(state.role)) && conditionDropped(d, state, () => true)),
    } },
  { id: 'gcp-iam-changed', severity: 'high', description: 'IAM grant changed (project or bucket member, binding or policy)',
    rationale: 'Who may do what in the project or bucket changed outside review.',
    types: [...PROJECT_IAM, ...BUCKET_IAM], changeTypes: ['changed'] },
  { id: 'gcp-gke-api-server-opened', severity: 'critical', description: 'GKE API server opened to the internet',
    rationale: 'The Kubernetes control plane now accepts connections from outside the networks the code allows.',
    types: ['google_container_cluster'], changeTypes: ['changed'],
    test: {
      describe: 'master authorized networks removed or gaining 0.0.0.0/0 or all Google Cloud IPs, or the private endpoint turned off',
      fn: (d) => {
        if (d.attribute === 'master_authorized_networks_config') return !isEmpty(d.before) && (isEmpty(d.after) || cidrs(d.after).includes('0.0.0.0/0'));
        if (d.attribute.startsWith('master_authorized_networks_config.') && d.attribute.endsWith('.cidr_blocks')) return cidrs(d.after).includes('0.0.0.0/0') && !cidrs(d.before).includes('0.0.0.0/0');
        if (d.attribute.endsWith('.gcp_public_cidrs_access_enabled')) return d.after === true;
        if (d.attribute === 'private_cluster_config.0.enable_private_endpoint') return d.after === false;
        return d.attribute === 'private_cluster_config' && !isEmpty(d.before) && isEmpty(d.after);
      },
    } },
  { id: 'gcp-gke-legacy-access', severity: 'high', description: 'GKE legacy ABAC or Kubernetes alpha turned on',
    rationale: 'Weaker authorization or isolation inside the cluster than the code sets.',
    types: ['google_container_cluster'], attributes: ['enable_legacy_abac', 'enable_kubernetes_alpha'], becomes: [true] },
  { id: 'gcp-gke-node-identity-changed', severity: 'high', description: 'GKE node service account, scopes or metadata protection changed',
    rationale: 'What the workloads of the nodes may do in the project changed outside review.',
    types: ['google_container_node_pool', 'google_container_cluster'],
    attributes: ['node_config.*.service_account', 'node_config.*.oauth_scopes', 'node_config.*.workload_metadata_config*', 'workload_identity_config'] },
  { id: 'gcp-project-service-disabled', severity: 'medium', description: 'Project API service disabled',
    rationale: 'What depends on the API fails until it is enabled again; no access is opened.',
    types: ['google_project_service'], changeTypes: ['deleted'] },
  { id: 'gcp-service-account-disabled', severity: 'high', description: 'Service account disabled',
    rationale: 'Every workload running as the account loses its access until it is enabled again.',
    types: ['google_service_account'], attributes: ['disabled'], becomes: [true] },
  { id: 'gcp-service-account-recreated', severity: 'high', description: 'Service account deleted and recreated (new unique id)',
    rationale: 'Grants made to the old account do not apply to the new one with the same email.',
    types: ['google_service_account'], attributes: ['unique_id'] },
  { id: 'gcp-cloud-run-ingress-opened', severity: 'high', description: 'Cloud Run service ingress opened to all traffic',
    rationale: 'The service now accepts requests from the internet, not only from the networks the code allows.',
    types: ['google_cloud_run_service', 'google_cloud_run_v2_service'],
    attributes: ['metadata.*.annotations.run.googleapis.com/ingress', 'ingress'], becomes: ['all', 'INGRESS_TRAFFIC_ALL'] },
  { id: 'gcp-cloud-run-job-code-or-identity-changed', severity: 'high', description: 'Cloud Run job runs another image or as another service account',
    rationale: 'Each execution now runs code or holds permissions the code does not declare.',
    types: ['google_cloud_run_v2_job'], attributes: ['template.*.template.*.service_account', 'template.*.template.*.containers.*.image'] },
];
