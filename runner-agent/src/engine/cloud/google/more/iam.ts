// IAM member / binding / policy of Cloud Run services (v1 and v2), Pub/Sub topics and
// subscriptions, Secret Manager secrets and Artifact Registry repositories, through platform's
// IAM family (one getIamPolicy per resource per scan, members as sets, conditions). These APIs
// read a policy with `GET {resource}:getIamPolicy?options.requestedPolicyVersion=3` (version 3:
// conditional bindings come back). Each target names the resource from the attribute its state
// holds (`name`, `service`, `topic`, `subscription`, `secret_id`, `repository`), full or short.
import type { LiveAttributes } from '../../../types.ts';
import type { FakeRequest, RestReader } from '../../rest/reader.ts';
import { bindingView, iamFamily, stateCondition, type IamTarget, type Policy } from '../platform/iam.ts';

type A = Record<string, any>;
const SUFFIX = ':getIamPolicy';

/**
 * The provider reads a binding its role no longer has as a binding with no members (it keeps it in
 * state), and a state may hold such a binding (`members = []`): compared as no members, not gone.
 */
export function bindingOrEmpty(policy: Policy, a: A): LiveAttributes | null {
  const c = stateCondition(a);
  return bindingView(policy, a) ?? { role: a.role, members: [], condition: c ? [{ title: c.title, description: c.description, expression: c.expression }] : [] };
}

/** `projects/P/<kind>/X` from a full name (any leading `v1/` dropped) or from a short one and the instance's project. */
function fullName(raw: unknown, project: string, middle: (a: string) => string): string | undefined {
  if (typeof raw !== 'string' || !raw) return undefined;
  const s = raw.replace(/^v\d+\//, '');
  if (s.startsWith('projects/')) return s;
  const rest = middle(s);
  // A short name with no location to place it (`locations//services/x`) names nothing: not read.
  return project && !rest.includes('//') ? `projects/${project}/${rest}` : undefined;
}

interface TargetSpec {
  service: string;
  version: 'v1' | 'v2';
  /** The resource's full name from the instance's attributes and project. */
  resourceOf(a: A, project: string): string | undefined;
  /** The fake's route, `:target` being the last segment (`NAME:getIamPolicy`). */
  route: string;
  /** The resource's full name from the fake request's params (`target` without its suffix). */
  fromParams(p: Record<string, string>, name: string): string;
  types: IamTarget['types'];
}

function target(s: TargetSpec): IamTarget {
  return {
    service: s.service,
    resourceOf: (a, project) => s.resourceOf(a, String(a.project ?? project ?? '')),
    method: 'GET',
    policyPath: (resource) => `/${s.version}/${resource}${SUFFIX}?options.requestedPolicyVersion=3`,
    route: s.route,
    // Only a getIamPolicy call: the same route pattern also matches the resource's own GET.
    resourceOfRequest: (req: FakeRequest) => (req.params.target?.endsWith(SUFFIX) ? s.fromParams(req.params, req.params.target.slice(0, -SUFFIX.length)) : ''),
    types: s.types,
  };
}

const types = (prefix: string) => ({ member: `${prefix}_iam_member`, binding: `${prefix}_iam_binding`, policy: `${prefix}_iam_policy` });
const located = (kind: string) => (a: A) => (n: string) => `locations/${a.location ?? ''}/${kind}/${n}`;

const TARGETS: IamTarget[] = [
  target({
    service: 'run', version: 'v2', types: types('google_cloud_run_v2_service'),
    resourceOf: (a, p) => fullName(a.name, p, located('services')(a)),
    route: '/v2/projects/:project/locations/:location/services/:target',
    fromParams: (q, n) => `projects/${q.project}/locations/${q.location}/services/${n}`,
  }),
  target({
    service: 'run', version: 'v1', types: types('google_cloud_run_service'),
    resourceOf: (a, p) => fullName(a.service, p, located('services')(a)),
    route: '/v1/projects/:project/locations/:location/services/:target',
    fromParams: (q, n) => `projects/${q.project}/locations/${q.location}/services/${n}`,
  }),
  target({
    service: 'pubsub', version: 'v1', types: types('google_pubsub_topic'),
    resourceOf: (a, p) => fullName(a.topic, p, (n) => `topics/${n}`),
    route: '/v1/projects/:project/topics/:target',
    fromParams: (q, n) => `projects/${q.project}/topics/${n}`,
  }),
  target({
    service: 'pubsub', version: 'v1', types: types('google_pubsub_subscription'),
    resourceOf: (a, p) => fullName(a.subscription, p, (n) => `subscriptions/${n}`),
    route: '/v1/projects/:project/subscriptions/:target',
    fromParams: (q, n) => `projects/${q.project}/subscriptions/${n}`,
  }),
  target({
    service: 'secretmanager', version: 'v1', types: types('google_secret_manager_secret'),
    resourceOf: (a, p) => fullName(a.secret_id, p, (n) => `secrets/${n}`),
    route: '/v1/projects/:project/secrets/:target',
    fromParams: (q, n) => `projects/${q.project}/secrets/${n}`,
  }),
  target({
    service: 'artifactregistry', version: 'v1', types: types('google_artifact_registry_repository'),
    resourceOf: (a, p) => fullName(a.repository, p, located('repositories')(a)),
    route: '/v1/projects/:project/locations/:location/repositories/:target',
    fromParams: (q, n) => `projects/${q.project}/locations/${q.location}/repositories/${n}`,
  }),
];

export const MORE_IAM_TYPES = TARGETS.flatMap((t) => [t.types.member, t.types.binding, t.types.policy!]);

export const MORE_IAM_READERS: Record<string, RestReader> = Object.assign({}, ...TARGETS.map((t) => iamFamily(t, bindingOrEmpty)));
