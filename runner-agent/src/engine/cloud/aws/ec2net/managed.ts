// Network ACL entries and subnets that standalone resources of the same state manage
// (aws_network_acl_rule, aws_network_acl_association). The provider writes an ACL's ingress,
// egress and subnet_ids when the ACL is created and refreshes them later: right after an apply
// that adds rules or associations, the ACL's copy lacks them. Each standalone resource compares
// its own entry or subnet; the ACL compares the rest (standalone.ts puts this on its attributes).
import { isObject, scalarKey } from '../../../values.ts';
import type { StateInstance } from '../../../types.ts';

export const MANAGED_ACL = Symbol('managedAcl');
export interface ManagedAcl { entries: Set<string>; subnets: Set<string> }

export const entryId = (egress: boolean, ruleNo: unknown) => `${egress}:${Number(ruleNo)}`;

/** Per ACL id, what its rule and association resources in the state manage. */
export function managedAcls(instances: StateInstance[]): Map<string, ManagedAcl> {
  const out = new Map<string, ManagedAcl>();
  const of = (id: string) => {
    let m = out.get(id);
    if (!m) out.set(id, m = { entries: new Set(), subnets: new Set() });
    return m;
  };
  for (const i of instances) {
    const a = i.attributes;
    if (i.type === 'aws_network_acl_rule') of(scalarKey(a.network_acl_id)).entries.add(entryId(a.egress === true || a.egress === 'true', a.rule_number));
    if (i.type === 'aws_network_acl_association') of(scalarKey(a.network_acl_id)).subnets.add(scalarKey(a.subnet_id));
  }
  return out;
}

/** What the owner's standalone resources manage (none when the state has no such resources). */
export const managedOf = (owner: Record<string, unknown>): ManagedAcl | undefined =>
  (owner as { [MANAGED_ACL]?: ManagedAcl })[MANAGED_ACL];

/** Whether an ingress/egress element is managed by an aws_network_acl_rule (attribute: which list). */
export const isManagedEntry = (e: unknown, owner: Record<string, unknown>, attribute: string) =>
  isObject(e) && Boolean(managedOf(owner)?.entries.has(entryId(attribute === 'egress', e.rule_no)));
