// azurerm_virtual_network, azurerm_subnet, azurerm_subnet_network_security_group_association:
// Microsoft.Network/virtualNetworks (api NETWORK_API). A vnet's JSON embeds its subnets, and a
// subnet's its NSG reference, so the three types read the vnets once (a group's list when the
// state names LIST_FROM or more vnets there, else one GET each) and pick their part.
import type { StateInstance } from '../../../types.ts';
import { text, type FakeWorld } from '../../rest/reader.ts';
import { location, lower, nameOf, type ArmJson } from '../kit.ts';
import { byId, childOf, familyRoutes, idList, list, netReader, NETWORK_API, parentOf, ref, str } from './shared.ts';
import { PEERING_TYPE, peeringFromState } from '../more/peering-arm.ts';

const VNET = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Network/virtualNetworks/:vnet';
const SUBNET_ASSOC = 'azurerm_subnet_network_security_group_association';
const subnetIdOf = (a: Record<string, any>) => str(a.subnet_id) || str(a.id);
/** Association types that are one reference on a subnet: [type, ARM key, the state's attribute]. */
export const SUBNET_REFS = [
  ['azurerm_subnet_route_table_association', 'routeTable', 'route_table_id'],
  ['azurerm_subnet_nat_gateway_association', 'natGateway', 'nat_gateway_id'],
] as const;

/** Every vnet id the state knows: vnets, and the parents of subnets, subnet associations and peerings. */
export function vnetIds(world: FakeWorld): string[] {
  return [
    ...world.of('azurerm_virtual_network').map((i) => str(i.attributes.id)),
    ...world.of('azurerm_subnet').map((i) => parentOf(str(i.attributes.id))),
    ...world.of(SUBNET_ASSOC).map((i) => parentOf(subnetIdOf(i.attributes))),
    ...world.of(PEERING_TYPE).map((i) => parentOf(str(i.attributes.id))),
    ...SUBNET_REFS.flatMap(([type]) => world.of(type).map((i) => parentOf(subnetIdOf(i.attributes)))),
  ].filter(Boolean);
}

const prefixesOf = (p: ArmJson): string[] => list(p.addressPrefixes).length ? p.addressPrefixes : p.addressPrefix ? [p.addressPrefix] : [];

// The provider writes the deprecated booleans of each version next to the newer string (true
// `enforce_*` means Disabled). Its newest versions hold the subnet's NSG and route table again:
// compared here unless an association resource of the state manages them (it compares its own).
function subnetToState(s: ArmJson, instance: StateInstance, world?: FakeWorld): Record<string, unknown> {
  const p = s.properties ?? {};
  const endpoint = lower(p.privateEndpointNetworkPolicies);
  const service = lower(p.privateLinkServiceNetworkPolicies);
  const id = lower(str(instance.attributes.id));
  const associated = (type: string) => (world?.of(type) ?? []).some((i) => lower(subnetIdOf(i.attributes)) === id);
  return {
    ...(associated(SUBNET_ASSOC) ? {} : { network_security_group_id: p.networkSecurityGroup?.id ?? '' }),
    ...(associated('azurerm_subnet_route_table_association') ? {} : { route_table_id: p.routeTable?.id ?? '' }),
    service_endpoint: list(p.serviceEndpoints).map((e) => ({ service: str(e.service), ...(e.networkIdentifier ? { network_identifier: str(e.networkIdentifier.id) } : {}) })),
    address_prefixes: prefixesOf(p),
    address_prefix: p.addressPrefix ?? '',
    service_endpoints: list(p.serviceEndpoints).map((e) => str(e.service)),
    service_endpoint_policy_ids: idList(p.serviceEndpointPolicies),
    delegation: list(p.delegations).map((d) => ({
      name: str(d.name),
      service_delegation: [{ name: str(d.properties?.serviceName), actions: list(d.properties?.actions) }],
    })),
    private_endpoint_network_policies: str(p.privateEndpointNetworkPolicies),
    private_endpoint_network_policies_enabled: endpoint === 'enabled',
    enforce_private_link_endpoint_network_policies: endpoint === 'disabled',
    private_link_service_network_policies_enabled: service === 'enabled',
    enforce_private_link_service_network_policies: service === 'disabled',
    default_outbound_access_enabled: p.defaultOutboundAccess ?? true,
  };
}

function subnetFromState(a: Record<string, any>): ArmJson {
  const endpoint = typeof a.private_endpoint_network_policies === 'string' ? a.private_endpoint_network_policies
    : typeof a.private_endpoint_network_policies_enabled === 'boolean' ? (a.private_endpoint_network_policies_enabled ? 'Enabled' : 'Disabled')
      : typeof a.enforce_private_link_endpoint_network_policies === 'boolean' ? (a.enforce_private_link_endpoint_network_policies ? 'Disabled' : 'Enabled') : 'Disabled';
  const service = typeof a.private_link_service_network_policies_enabled === 'boolean' ? (a.private_link_service_network_policies_enabled ? 'Enabled' : 'Disabled')
    : typeof a.enforce_private_link_service_network_policies === 'boolean' ? (a.enforce_private_link_service_network_policies ? 'Disabled' : 'Enabled') : 'Enabled';
  const prefixes = list<string>(a.address_prefixes).length ? list<string>(a.address_prefixes) : [str(a.address_prefix)].filter(Boolean);
  return {
    name: str(a.name) || nameOf(str(a.id)), id: a.id,
    properties: {
      ...prefixFields(prefixes),
      serviceEndpoints: [
        ...list<string>(a.service_endpoints).map((service) => ({ service })),
        ...list(a.service_endpoint).map((e) => ({ service: e.service, ...(text(e.network_identifier) ? { networkIdentifier: { id: e.network_identifier } } : {}) })),
      ].map((e) => ({ ...e, locations: ['*'], provisioningState: 'Succeeded' })),
      networkSecurityGroup: ref(a.network_security_group_id), routeTable: ref(a.route_table_id),
      serviceEndpointPolicies: list<string>(a.service_endpoint_policy_ids).map((id) => ({ id })),
      delegations: list(a.delegation).map((d) => ({
        name: d.name, properties: { serviceName: d.service_delegation?.[0]?.name, actions: d.service_delegation?.[0]?.actions ?? [] },
      })),
      privateEndpointNetworkPolicies: endpoint, privateLinkServiceNetworkPolicies: service,
      ...(typeof a.default_outbound_access_enabled === 'boolean' ? { defaultOutboundAccess: a.default_outbound_access_enabled } : {}),
      provisioningState: 'Succeeded',
    },
  };
}

/** ARM answers a single prefix as `addressPrefix`, however it was set, and two or more as `addressPrefixes`. */
const prefixFields = (prefixes: string[]) => (prefixes.length === 1 ? { addressPrefix: prefixes[0] } : prefixes.length ? { addressPrefixes: prefixes } : {});

/** A vnet's inline `subnet` block as ARM's embedded subnet (what the state knows of it). */
const inlineSubnet = (s: Record<string, any>) => ({
  name: s.name, id: s.id,
  properties: {
    ...prefixFields(list<string>(s.address_prefixes).length ? s.address_prefixes : [str(s.address_prefix)].filter(Boolean)),
    networkSecurityGroup: ref(s.security_group),
  },
});

function vnetJson(world: FakeWorld, id: string): ArmJson | undefined {
  const vnet = byId(world, 'azurerm_virtual_network', id);
  const subnets = world.of('azurerm_subnet').filter((i) => lower(parentOf(str(i.attributes.id))) === lower(id));
  const assocs = world.of(SUBNET_ASSOC).filter((i) => lower(parentOf(subnetIdOf(i.attributes))) === lower(id));
  const peerings = world.of(PEERING_TYPE).filter((i) => lower(parentOf(str(i.attributes.id))) === lower(id));
  const refs = SUBNET_REFS.flatMap(([type, key, attr]) => world.of(type).filter((i) => lower(parentOf(subnetIdOf(i.attributes))) === lower(id)).map((i) => [i, key, i.attributes[attr]] as const));
  if (!vnet && subnets.length === 0 && assocs.length === 0 && peerings.length === 0 && refs.length === 0) return undefined;
  const byName = new Map<string, ArmJson>();
  for (const s of list(vnet?.attributes.subnet)) byName.set(lower(s.name), inlineSubnet(s));
  for (const s of subnets) byName.set(lower(str(s.attributes.name) || nameOf(str(s.attributes.id))), subnetFromState(s.attributes));
  // Associations are references on the subnet: an NSG's, and a route table's (another area's type).
  for (const [as, key, value] of [...assocs.map((i) => [i, 'networkSecurityGroup', i.attributes.network_security_group_id] as const), ...refs]) {
    const name = lower(nameOf(subnetIdOf(as.attributes)));
    const s = byName.get(name) ?? { name: nameOf(subnetIdOf(as.attributes)), id: subnetIdOf(as.attributes), properties: {} };
    s.properties[key] = { id: value };
    byName.set(name, s);
  }
  const base: ArmJson = vnet ? vnetFromState(vnet.attributes) : { properties: {} };
  return { ...base, type: 'Microsoft.Network/virtualNetworks', properties: { ...base.properties, subnets: [...byName.values()], virtualNetworkPeerings: peerings.map((i) => peeringFromState(i.attributes)) } };
}

function vnetFromState(a: Record<string, any>): ArmJson {
  const ddos = list(a.ddos_protection_plan)[0];
  const enc = list(a.encryption)[0];
  return {
    location: a.location, tags: a.tags ?? {}, ...(text(a.edge_zone) ? { extendedLocation: { name: a.edge_zone, type: 'EdgeZone' } } : {}),
    etag: 'W/"00000000-0000-0000-0000-000000000000"',
    properties: {
      addressSpace: { addressPrefixes: list(a.address_space) }, dhcpOptions: { dnsServers: list(a.dns_servers) },
      ...(text(a.bgp_community) ? { bgpCommunities: { virtualNetworkCommunity: a.bgp_community } } : {}),
      ...(ddos ? { ddosProtectionPlan: { id: ddos.id }, enableDdosProtection: !!ddos.enable } : { enableDdosProtection: false }),
      ...(enc ? { encryption: { enabled: true, enforcement: enc.enforcement } } : {}),
      ...(a.flow_timeout_in_minutes ? { flowTimeoutInMinutes: a.flow_timeout_in_minutes } : {}),
      ...(text(a.private_endpoint_vnet_policies) ? { privateEndpointVNetPolicies: a.private_endpoint_vnet_policies } : {}),
      resourceGuid: a.guid, provisioningState: 'Succeeded',
    },
  };
}

/** Names of the subnets under `vnetId` that azurerm_subnet resources of the state manage. */
const managedSubnets = (world: FakeWorld | undefined, vnetId: string) =>
  new Set((world?.of('azurerm_subnet') ?? []).filter((i) => lower(parentOf(str(i.attributes.id))) === lower(vnetId)).map((i) => lower(str(i.attributes.name) || nameOf(str(i.attributes.id)))));

function vnetToState(j: ArmJson, instance: StateInstance, world?: FakeWorld) {
  const p = j.properties ?? {};
  const ddos = p.ddosProtectionPlan?.id ? [{ id: p.ddosProtectionPlan.id, enable: p.enableDdosProtection ?? false }] : [];
  // The `subnet` block is computed: a state written when the vnet was created lacks the subnets
  // its own azurerm_subnet resources added since; those count only when the state's block has them.
  const managed = managedSubnets(world, str(instance.attributes.id));
  const inState = new Set(list(instance.attributes.subnet).map((s) => lower(str(s?.name))));
  // A subnet's NSG that an association resource manages is compared there, not on the block.
  const vnetId = lower(str(instance.attributes.id));
  const associated = new Set((world?.of(SUBNET_ASSOC) ?? []).filter((i) => lower(parentOf(subnetIdOf(i.attributes))) === vnetId).map((i) => lower(nameOf(subnetIdOf(i.attributes)))));
  const stateGroup = new Map(list(instance.attributes.subnet).map((s) => [lower(str(s?.name)), str(s?.security_group)]));
  // Provider 3 writes ARM's `addressPrefix` as the block's address_prefix ('' for a subnet with
  // `addressPrefixes`); provider 4 writes address_prefixes. The live block takes the state's shape.
  const v4 = list(instance.attributes.subnet).length === 0 || list(instance.attributes.subnet).some((s) => s && 'address_prefixes' in s);
  // A subnet an azurerm_subnet resource of the state manages is compared there (its prefixes, its
  // NSG through its association), never on the vnet: the block's element for it is the state's own.
  const stateElement = new Map(list(instance.attributes.subnet).map((s) => [lower(str(s?.name)), s]));
  const subnet = list(p.subnets).filter((s) => !managed.has(lower(s.name)) || inState.has(lower(s.name))).map((s) => (managed.has(lower(s.name)) ? stateElement.get(lower(s.name)) : {
    name: s.name, id: s.id,
    ...(v4 ? { address_prefixes: prefixesOf(s.properties ?? {}) } : { address_prefix: s.properties?.addressPrefix ?? '' }),
    security_group: associated.has(lower(s.name)) && stateGroup.has(lower(s.name)) ? stateGroup.get(lower(s.name)) : s.properties?.networkSecurityGroup?.id ?? '',
  }));
  // Deleted live, a managed subnet is its own resource's deletion, not the vnet's change.
  for (const name of managed) if (inState.has(name) && !list(p.subnets).some((s) => lower(s.name) === name)) subnet.push(stateElement.get(name));
  return {
    location: location(j.location), tags: j.tags ?? {}, address_space: list(p.addressSpace?.addressPrefixes), dns_servers: list(p.dhcpOptions?.dnsServers),
    bgp_community: p.bgpCommunities?.virtualNetworkCommunity ?? '', ddos_protection_plan: ddos, edge_zone: j.extendedLocation?.name ?? '',
    encryption: p.encryption?.enabled ? [{ enforcement: p.encryption.enforcement }] : [], flow_timeout_in_minutes: p.flowTimeoutInMinutes ?? 0,
    private_endpoint_vnet_policies: p.privateEndpointVNetPolicies ?? '', subnet,
  };
}

const subnetKey = (e: any): string[] => {
  const prefixes = e && 'address_prefixes' in e ? list<string>(e.address_prefixes) : [str(e?.address_prefix)];
  return [`${lower(e?.name)}|${[...prefixes].sort().join(',')}|${lower(e?.security_group)}`];
};

export const virtualNetworkReader = netReader({
  type: 'azurerm_virtual_network', apiVersion: NETWORK_API,
  source: (a) => str(a.id), known: vnetIds, toState: vnetToState,
  spec: { sets: { subnet: subnetKey } },
  subscriptionList: 'Microsoft.Network/virtualNetworks',
  fake: familyRoutes(VNET, vnetIds, vnetJson),
});

export const subnetReader = netReader({
  type: 'azurerm_subnet', apiVersion: NETWORK_API,
  source: (a) => parentOf(str(a.id)), known: vnetIds,
  pick: (vnet, a) => childOf(vnet, 'subnets', str(a.name) || nameOf(str(a.id))),
  toState: subnetToState,
});

/** The association is the subnet's NSG reference: gone when the subnet has none. */
export const subnetNsgAssociationReader = netReader({
  type: SUBNET_ASSOC, apiVersion: NETWORK_API,
  source: (a) => parentOf(subnetIdOf(a)), known: vnetIds,
  pick: (vnet, a) => childOf(vnet, 'subnets', nameOf(subnetIdOf(a))),
  toState: (s) => (s.properties?.networkSecurityGroup?.id ? { network_security_group_id: s.properties.networkSecurityGroup.id } : null),
});

/** One subnet reference (route table, NAT gateway) as an association: gone when the subnet no longer has it. */
const subnetRefReader = ([type, key, attr]: (typeof SUBNET_REFS)[number]) => netReader({
  type, apiVersion: NETWORK_API,
  source: (a) => parentOf(subnetIdOf(a)), known: vnetIds,
  pick: (vnet, a) => childOf(vnet, 'subnets', nameOf(subnetIdOf(a))),
  toState: (s) => (s.properties?.[key]?.id ? { [attr]: s.properties[key].id } : null),
});
export const subnetRouteTableAssociationReader = subnetRefReader(SUBNET_REFS[0]);
export const subnetNatGatewayAssociationReader = subnetRefReader(SUBNET_REFS[1]);
