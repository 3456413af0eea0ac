// The IAM policy of a Google resource (a project, a bucket), read ONCE per resource and scan, and
// the three Terraform views of it: `*_iam_member` (one member of one role: present or deleted),
// `*_iam_binding` (the members of one role, authoritative for that role: compared as a set) and
// `*_iam_policy` (the whole policy as a JSON string: compared semantically). A binding is keyed by
// its role and its IAM condition (title, expression, description), as the provider keys it.
// The fake builds the policy from every member, binding and policy instance of the resource.
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { canonicalText } from '../../../values.ts';
import type { RestApi } from '../../rest/api.ts';
import type { FakeRequest, FakeRoute, FakeWorld, RestItem, RestReader } from '../../rest/reader.ts';
import { CONCURRENCY } from '../kit.ts';

export interface Condition { title?: string; description?: string; expression?: string }
export interface Binding { role: string; members: string[]; condition?: Condition }
export interface Policy { bindings?: Binding[]; etag?: string; version?: number }

/** The state's `condition` block ([] or [{title, description, expression}]) as the API's object. */
export function stateCondition(a: Record<string, any>): Condition | undefined {
  const c = Array.isArray(a.condition) ? a.condition[0] : undefined;
  return c && (c.expression || c.title) ? { title: c.title ?? '', description: c.description ?? '', expression: c.expression ?? '' } : undefined;
}
const conditionBlock = (c: Condition | undefined) => (c ? [{ title: c.title ?? '', description: c.description ?? '', expression: c.expression ?? '' }] : []);
const conditionKey = (c: Condition | undefined) => (c ? `${c.title ?? ''}\n${c.expression ?? ''}\n${c.description ?? ''}` : '');
/** Members compare case-insensitively (the API lowercases emails; the provider suppresses case diffs). */
const sameMember = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** Where one IAM family reads its policy and how its state names the resource. */
export interface IamTarget {
  service: string;
  /** The resource the instance's policy belongs to (project id, bucket name). */
  resourceOf(a: Record<string, any>, project: string): string | undefined;
  /** POST (getIamPolicy) or GET path of the resource's policy. */
  method: 'GET' | 'POST';
  policyPath(resource: string): string;
  /** The fake's route for that path; `:target` is the resource (possibly with a `:getIamPolicy` suffix). */
  route: string;
  resourceOfRequest(req: FakeRequest): string;
  /** The instance types of the family, for the fake: member, binding, policy. */
  types: { member: string; binding: string; policy?: string };
  /** A policy the API does not answer as one (a BigQuery dataset's access list): read it and map it. */
  fetch?(api: RestApi, resource: string): Promise<Policy | null>;
  /** The fake's answer for such a policy (default: the policy itself). */
  answer?(policy: Policy, req: FakeRequest, world: FakeWorld): unknown;
}

export function readPolicy(api: RestApi, t: IamTarget, resource: string): Promise<Policy | null> {
  const path = t.policyPath(resource);
  if (t.fetch) return api.once(`gcp-iam:${t.service}${path}`, () => t.fetch!(api, resource));
  return api.once(`gcp-iam:${t.service}${path}`, () => (t.method === 'POST'
    ? api.post<Policy>(t.service, path, { options: { requestedPolicyVersion: 3 } }, `getIamPolicy ${resource}`)
    : api.get<Policy>(t.service, path, `getIamPolicy ${resource}`)));
}

/** A member instance: found (with its condition, or the other condition it now has) or null. */
export function memberView(policy: Policy, a: Record<string, any>): LiveAttributes | null {
  const hits = (policy.bindings ?? []).filter((b) => b.role === a.role && (b.members ?? []).some((m) => sameMember(m, String(a.member ?? ''))));
  if (hits.length === 0) return null;
  const want = conditionKey(stateCondition(a));
  const exact = hits.find((b) => conditionKey(b.condition) === want);
  return { role: a.role, member: a.member, condition: conditionBlock((exact ?? hits[0]).condition) };
}

/** A binding instance: the members of its role and condition (spelled as the state spells them), or null. */
export function bindingView(policy: Policy, a: Record<string, any>): LiveAttributes | null {
  const want = conditionKey(stateCondition(a));
  const b = (policy.bindings ?? []).find((x) => x.role === a.role && conditionKey(x.condition) === want);
  if (!b) return null;
  const own: string[] = Array.isArray(a.members) ? a.members : [];
  const members = (b.members ?? []).map((m) => own.find((o) => sameMember(o, m)) ?? m);
  return { role: a.role, members, condition: conditionBlock(b.condition) };
}

/** A policy's meaning: bindings with members, sorted, keyed by role and condition; etag and version dropped. */
export function policyMeaning(p: Policy | null | undefined): string {
  const bindings = (p?.bindings ?? []).filter((b) => (b.members ?? []).length > 0)
    .map((b) => ({ role: b.role, members: [...new Set(b.members.map((m) => m.toLowerCase()))].sort(), condition: conditionKey(b.condition) }))
    .sort((x, y) => `${x.role}\n${x.condition}`.localeCompare(`${y.role}\n${y.condition}`));
  return canonicalText(bindings);
}

export function parsePolicy(text: unknown): Policy | null {
  if (typeof text !== 'string' || !text) return null;
  try { return JSON.parse(text) as Policy; } catch { return null; }
}

/** A policy instance: its own `policy_data` text when the live policy means the same, else the live policy as the provider writes it. */
export function policyView(policy: Policy, a: Record<string, any>): LiveAttributes {
  if (policyMeaning(parsePolicy(a.policy_data)) === policyMeaning(policy)) return { policy_data: a.policy_data };
  const bindings = (policy.bindings ?? []).filter((b) => (b.members ?? []).length > 0).map((b) => ({ ...(b.condition ? { condition: b.condition } : {}), members: [...b.members].sort(), role: b.role }));
  return { policy_data: JSON.stringify({ bindings }) };
}

/** The policy the fake answers for one resource: every member, binding and policy instance of it merged. */
export function fakePolicy(world: FakeWorld, t: IamTarget, resource: string): Policy | undefined {
  const mine = (type: string | undefined) => (type ? world.of(type).filter((i) => t.resourceOf(i.attributes, String(i.attributes.project ?? resource)) === resource) : []);
  const byKey = new Map<string, Binding>();
  const add = (role: string, members: string[], condition?: Condition) => {
    const k = `${role}\n${conditionKey(condition)}`;
    const b = byKey.get(k) ?? { role, members: [], ...(condition ? { condition } : {}) };
    // The API answers emails in lowercase, whatever case the grant was made with (`user:Ann@x` -> `user:ann@x`).
    const lower = (m: string) => m.replace(/:(.*)$/, (_all, rest: string) => `:${rest.toLowerCase()}`);
    for (const m of members) if (!b.members.some((x) => sameMember(x, m))) b.members.push(lower(m));
    byKey.set(k, b);
  };
  const policies = mine(t.types.policy);
  for (const i of policies) for (const b of parsePolicy(i.attributes.policy_data)?.bindings ?? []) add(b.role, b.members ?? [], b.condition);
  for (const i of mine(t.types.binding)) add(String(i.attributes.role), Array.isArray(i.attributes.members) ? i.attributes.members : [], stateCondition(i.attributes));
  for (const i of mine(t.types.member)) add(String(i.attributes.role), [String(i.attributes.member)], stateCondition(i.attributes));
  if (byKey.size === 0 && policies.length === 0) return undefined;
  const bindings = [...byKey.values()];
  return { version: bindings.some((b) => b.condition) ? 3 : 1, etag: 'BwXhqDZ1qZk=', bindings };
}

/**
 * The policy a binding instance is compared with: without the members that `*_iam_member`
 * instances of the same scan grant on the same resource, role and condition and the binding does
 * not list. Both resources write the role (the binding authoritatively): the member's own reader
 * answers for them, and the binding is not reported for a grant its sibling manages.
 */
export function withoutSiblingMembers(policy: Policy, world: FakeWorld | undefined, t: IamTarget, resource: string, project: string, a: Record<string, any>): Policy {
  const siblings = (world?.of(t.types.member) ?? []).filter((i) => i.attributes.role === a.role
    && t.resourceOf(i.attributes, String(i.attributes.project ?? project)) === resource
    && conditionKey(stateCondition(i.attributes)) === conditionKey(stateCondition(a)));
  if (siblings.length === 0) return policy;
  const own: string[] = Array.isArray(a.members) ? a.members : [];
  const managed = siblings.map((i) => String(i.attributes.member ?? '')).filter((m) => !own.some((o) => sameMember(o, m)));
  const want = conditionKey(stateCondition(a));
  return {
    ...policy,
    bindings: (policy.bindings ?? []).map((b) => (b.role === a.role && conditionKey(b.condition) === want
      ? { ...b, members: (b.members ?? []).filter((m) => !managed.some((x) => sameMember(x, m))) } : b)),
  };
}

/** One reader of a family: `view` maps the policy to the instance's attributes (null: gone). */
export function iamReader(t: IamTarget, view: (policy: Policy, a: Record<string, any>) => LiveAttributes | null, withRoute: boolean): RestReader {
  const fake: FakeRoute[] = withRoute ? [{
    method: t.method, service: t.service, path: t.route,
    answer: (req: FakeRequest, world: FakeWorld) => {
      const policy = fakePolicy(world, t, t.resourceOfRequest(req));
      return policy && t.answer ? t.answer(policy, req, world) : policy;
    },
  }] : [];
  return {
    spec: {},
    fake,
    async read(items: RestItem[], api: RestApi, world?: FakeWorld) {
      return mapLimit(items, CONCURRENCY, async (it: RestItem) => {
        const resource = t.resourceOf(it.instance.attributes, it.scope.account);
        if (!resource) return null;
        const policy = await readPolicy(api, t, resource);
        if (!policy) return null;
        const a = it.instance.attributes;
        return view(it.instance.type === t.types.binding ? withoutSiblingMembers(policy, world, t, resource, it.scope.account, a) : policy, a);
      });
    },
  };
}

/**
 * The readers of one family over one resource's getIamPolicy: member, binding and (when the family
 * has one) policy, the fake's route on the member reader. `binding` replaces the binding view
 * (another family may read a missing binding as the provider does for it).
 */
export function iamFamily(t: IamTarget, binding: (policy: Policy, a: Record<string, any>) => LiveAttributes | null = bindingView): Record<string, RestReader> {
  return {
    [t.types.member]: iamReader(t, memberView, true),
    [t.types.binding]: iamReader(t, binding, false),
    ...(t.types.policy ? { [t.types.policy]: iamReader(t, policyView, false) } : {}),
  };
}
