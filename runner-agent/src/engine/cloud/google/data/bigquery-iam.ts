// google_bigquery_dataset_iam_member / _binding / _policy: a dataset's IAM is its access list
// (bigquery/v2 `projects/P/datasets/D`, one GET per dataset per scan, shared with the dataset's
// own reader), mapped to a policy as the provider maps it: legacy roles to their IAM names,
// `userByEmail` to `user:` (or `serviceAccount:` for a service account's email), `groupByEmail`
// to `group:`, `domain` to `domain:`, a special group or `iamMember` as it is. Authorized views,
// routines and datasets are no IAM member: left out. The fake answers the dataset's access list
// from the dataset's state and every member, binding and policy of it.
import type { RestApi } from '../../rest/api.ts';
import type { FakeWorld, RestReader } from '../../rest/reader.ts';
import { ownProject, type GJson } from '../kit.ts';
import { iamFamily, type Binding, type IamTarget, type Policy } from '../platform/iam.ts';

type A = Record<string, any>;
const LEGACY: Record<string, string> = { OWNER: 'roles/bigquery.dataOwner', WRITER: 'roles/bigquery.dataEditor', READER: 'roles/bigquery.dataViewer' };
const SPECIAL = new Set(['projectOwners', 'projectReaders', 'projectWriters', 'allAuthenticatedUsers']);

/** One access entry as an IAM member (the provider's accessToIamMember), or undefined (views, routines, datasets). */
export function accessMember(e: GJson): string | undefined {
  if (e.groupByEmail) return `group:${e.groupByEmail}`;
  if (e.domain) return `domain:${e.domain}`;
  if (e.specialGroup) return e.specialGroup;
  if (e.iamMember) return e.iamMember;
  if (e.userByEmail) return String(e.userByEmail).includes('gserviceaccount') ? `serviceAccount:${e.userByEmail}` : `user:${e.userByEmail}`;
  return undefined;
}

/** An IAM member as an access entry (the provider's iamMemberToAccess). */
export function memberAccess(role: string, member: string): GJson {
  const [kind, rest] = member.includes(':') ? [member.slice(0, member.indexOf(':')), member.slice(member.indexOf(':') + 1)] : ['', member];
  const key = ({ group: 'groupByEmail', domain: 'domain', user: 'userByEmail', serviceAccount: 'userByEmail' } as Record<string, string>)[kind];
  if (key) return { role, [key]: rest };
  return { role, [SPECIAL.has(member) ? 'specialGroup' : 'iamMember']: member };
}

export function accessPolicy(access: GJson[] | undefined): Policy {
  const byRole = new Map<string, Binding>();
  for (const e of access ?? []) {
    const member = accessMember(e);
    if (!member || !e.role) continue;
    const role = LEGACY[e.role] ?? e.role;
    (byRole.get(role) ?? byRole.set(role, { role, members: [] }).get(role)!).members.push(member);
  }
  return { bindings: [...byRole.values()], version: 1 };
}

/** `P/D` for an instance: its own project (or the scan's) and `dataset_id` (a full `projects/P/datasets/D` id too). */
const datasetOf = (a: A, project: string): string | undefined => {
  const m = typeof a.dataset_id === 'string' ? /projects\/([^/]+)\/datasets\/([^/]+)/.exec(a.dataset_id) : null;
  if (m) return `${m[1]}/${m[2]}`;
  const p = ownProject(a) ?? project;
  return p && a.dataset_id ? `${p}/${a.dataset_id}` : undefined;
};
const datasetPath = (resource: string) => { const [p, d] = resource.split('/'); return `/bigquery/v2/projects/${p}/datasets/${d}`; };

/** The dataset instance's own access entries (state shape) as the API writes them. */
function stateAccess(world: FakeWorld, resource: string): GJson[] {
  const ds = world.of('google_bigquery_dataset').find((i) => datasetOf(i.attributes, '') === resource);
  return ((ds?.attributes.access ?? []) as A[]).map((x) => Object.fromEntries(Object.entries({
    role: x.role, userByEmail: x.user_by_email, groupByEmail: x.group_by_email, domain: x.domain, specialGroup: x.special_group, iamMember: x.iam_member,
  }).filter(([, v]) => v)));
}

export const DATASET_IAM: IamTarget = {
  service: 'bigquery',
  resourceOf: (a, project) => datasetOf(a, project),
  method: 'GET',
  policyPath: datasetPath,
  route: '/bigquery/v2/projects/:project/datasets/:dataset',
  resourceOfRequest: (req) => `${req.params.project}/${req.params.dataset}`,
  types: { member: 'google_bigquery_dataset_iam_member', binding: 'google_bigquery_dataset_iam_binding', policy: 'google_bigquery_dataset_iam_policy' },
  fetch: async (api: RestApi, resource: string) => {
    const ds = await api.get<GJson>('bigquery', datasetPath(resource), `GET BigQuery dataset ${resource}`);
    return ds ? accessPolicy(ds.access) : null;
  },
  // The access list: the dataset's own entries, then every grant of its IAM instances not among them.
  answer: (policy, req, world) => {
    const resource = `${req.params.project}/${req.params.dataset}`;
    const own = stateAccess(world, resource);
    const has = accessPolicy(own);
    const extra = (policy.bindings ?? []).flatMap((b) => b.members.filter((m) => !has.bindings?.some((x) => x.role === b.role && x.members.some((y) => y.toLowerCase() === m.toLowerCase())))
      .map((m) => memberAccess(b.role, m)));
    return { kind: 'bigquery#dataset', datasetReference: { projectId: req.params.project, datasetId: req.params.dataset }, access: [...own, ...extra] };
  },
};

/** A state-shaped access entry (the dataset reader's) as its IAM role, and role + member, for matching grants. */
const roleOf = (x: A) => (x.role ? LEGACY[x.role] ?? x.role : '');
const grantOf = (x: A): string | undefined => {
  const m = accessMember({ groupByEmail: x.group_by_email, domain: x.domain, specialGroup: x.special_group, iamMember: x.iam_member, userByEmail: x.user_by_email });
  return m && x.role ? `${roleOf(x)}\n${m.toLowerCase()}` : undefined;
};

/**
 * The dataset reader, with the access entries the scan's dataset IAM instances manage compared by
 * those instances, not by the dataset (the provider's `access` is computed: it takes in whatever
 * they grant): a role a binding (or every role a policy) holds compares as the dataset's state has
 * it, and a grant a member instance makes that the dataset's state lacks is left out.
 */
export function withoutIamGrants(reader: RestReader): RestReader {
  return {
    ...reader,
    read: async (items, api, world) => {
      const live = await reader.read(items, api, world);
      return live.map((l, k) => {
        const resource = datasetOf(items[k].instance.attributes, items[k].scope.account);
        if (!l || !world || !resource || !Array.isArray(l.access)) return l;
        const mine = (type: string) => world.of(type).filter((i) => datasetOf(i.attributes, items[k].scope.account) === resource);
        const everyRole = mine(DATASET_IAM.types.policy!).length > 0;
        const roles = new Set(mine(DATASET_IAM.types.binding).map((i) => String(i.attributes.role)));
        const members = new Set(mine(DATASET_IAM.types.member).map((i) => `${i.attributes.role}\n${String(i.attributes.member).toLowerCase()}`));
        if (!everyRole && roles.size === 0 && members.size === 0) return l;
        const stateAccess = (items[k].instance.attributes.access ?? []) as A[];
        const own = new Set(stateAccess.map(grantOf));
        const held = (x: A) => everyRole || roles.has(roleOf(x));
        const kept = (l.access as A[]).filter((x) => { const g = grantOf(x); return !held(x) && !(g && members.has(g) && !own.has(g)); });
        return { ...l, access: [...kept, ...stateAccess.filter(held)] };
      });
    },
  };
}

export const DATASET_IAM_READERS: Record<string, RestReader> = iamFamily(DATASET_IAM);
export const DATASET_IAM_TYPES = Object.keys(DATASET_IAM_READERS);
