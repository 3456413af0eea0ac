// Parent attributes that standalone resources of the same state manage, for the ec2net types.
// The provider writes a parent's copy (an ACL's ingress, egress and subnet_ids; an endpoint's
// route_table_ids; an EIP's instance) when the parent is created and refreshes it later: right
// after an apply that adds the standalone resources, the parent's copy lacks them. Each standalone
// resource compares its own part; the parent compares the rest (standalone.ts applies this view).
import { isObject, scalarKey } from '../../../values.ts';
import type { StateInstance } from '../../../types.ts';

export const MANAGED_ACL = Symbol('managedAcl');
export const MANAGED_ROUTE_TABLES = Symbol('managedRouteTables');
export interface ManagedAcl { entries: Set<string>; subnets: Set<string> }

export const entryId = (egress: boolean, ruleNo: unknown) => `${egress}:${Number(ruleNo)}`;
/** The EIP attributes an aws_eip_association of the same state owns. */
const EIP_ASSOCIATED = ['instance', 'network_interface', 'association_id', 'private_ip'];

const group = <V>(map: Map<string, V>, key: string, make: () => V): V => {
  let v = map.get(key);
  if (!v) map.set(key, v = make());
  return v;
};

/** The state attributes to compare for an ec2net parent type, or undefined for the state's own. */
export function ec2netView(instances: StateInstance[]): (i: StateInstance) => Record<string, unknown> | undefined {
  const acls = new Map<string, ManagedAcl>();
  const endpoints = new Map<string, Set<string>>();
  const eips = new Set<string>();
  for (const i of instances) {
    const a = i.attributes;
    if (i.type === 'aws_network_acl_rule') {
      group(acls, scalarKey(a.network_acl_id), () => ({ entries: new Set(), subnets: new Set() })).entries.add(entryId(a.egress === true || a.egress === 'true', a.rule_number));
    } else if (i.type === 'aws_network_acl_association') {
      group(acls, scalarKey(a.network_acl_id), () => ({ entries: new Set(), subnets: new Set() })).subnets.add(scalarKey(a.subnet_id));
    } else if (i.type === 'aws_vpc_endpoint_route_table_association') {
      group(endpoints, scalarKey(a.vpc_endpoint_id), () => new Set<string>()).add(scalarKey(a.route_table_id));
    } else if (i.type === 'aws_eip_association') eips.add(scalarKey(a.allocation_id));
  }
  return (i) => {
    const a = i.attributes;
    if (i.type === 'aws_network_acl' || i.type === 'aws_default_network_acl') {
      const managed = acls.get(scalarKey(i.type === 'aws_network_acl' ? a.id : a.default_network_acl_id || a.id));
      return managed ? Object.assign({ ...a }, { [MANAGED_ACL]: managed }) : undefined;
    }
    if (i.type === 'aws_vpc_endpoint') {
      const managed = endpoints.get(scalarKey(a.id));
      return managed ? Object.assign({ ...a }, { [MANAGED_ROUTE_TABLES]: managed }) : undefined;
    }
    if (i.type === 'aws_eip' && eips.has(scalarKey(a.allocation_id || a.id))) {
      return Object.fromEntries(Object.entries(a).filter(([k]) => !EIP_ASSOCIATED.includes(k)));
    }
    return undefined;
  };
}

/** What the owner's standalone resources manage (none when the state has no such resources). */
export const managedOf = (owner: Record<string, unknown>): ManagedAcl | undefined =>
  (owner as { [MANAGED_ACL]?: ManagedAcl })[MANAGED_ACL];

/** Whether an ingress/egress element is managed by an aws_network_acl_rule (attribute: which list). */
export const isManagedEntry = (e: unknown, owner: Record<string, unknown>, attribute: string) =>
  isObject(e) && Boolean(managedOf(owner)?.entries.has(entryId(attribute === 'egress', e.rule_no)));

/** Route tables of an endpoint that aws_vpc_endpoint_route_table_association resources manage. */
export const managedRouteTables = (owner: Record<string, unknown>): Set<string> | undefined =>
  (owner as { [MANAGED_ROUTE_TABLES]?: Set<string> })[MANAGED_ROUTE_TABLES];
