// azurerm_nat_gateway (+ azurerm_nat_gateway_public_ip_association), azurerm_route_table,
// azurerm_bastion_host, azurerm_virtual_network_gateway, azurerm_private_endpoint:
// Microsoft.Network (api NETWORK_API), one GET each or the group's list from LIST_FROM in a group.
// A NAT gateway's public IP association (`<nat id>|<ip id>`) is a reference in its gateway's
// `publicIpAddresses`, read from the gateway's GET. Computed attributes (a gateway's resource
// GUID, a bastion's DNS name, an endpoint's NIC and DNS configs) are left unmapped (ignore.ts).
import type { FakeWorld } from '../../rest/reader.ts';
import { ARM, armReader, location, lower, nameOf, type ArmJson } from '../kit.ts';
import { NETWORK_API, ref } from '../network/shared.ts';
import { asState, bool, either, list, refReader, str, type Attrs } from './kit.ts';

const NET = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Network';
const NATS = `${NET}/natGateways`;
const PIP_ASSOC = 'azurerm_nat_gateway_public_ip_association';
const [natOf, pipOf] = [(a: Attrs) => str(a.nat_gateway_id) || str(a.id).split('|')[0], (a: Attrs) => str(a.public_ip_address_id) || str(a.id).split('|')[1] || ''];
const zones = (j: ArmJson) => list<string>(j.zones);

export const natGatewayReader = armReader({
  type: 'azurerm_nat_gateway', apiVersion: NETWORK_API, path: `${NATS}/:name`, list: NATS,
  toState: (j) => ({
    location: location(j.location), tags: j.tags ?? {}, sku_name: j.sku?.name ?? 'Standard',
    idle_timeout_in_minutes: j.properties?.idleTimeoutInMinutes ?? 4, zones: zones(j),
  }),
  fromState: (a) => ({
    type: 'Microsoft.Network/natGateways', location: a.location, tags: a.tags ?? {}, sku: { name: a.sku_name ?? 'Standard' },
    ...(list(a.zones).length ? { zones: a.zones } : {}),
    properties: { idleTimeoutInMinutes: a.idle_timeout_in_minutes ?? 4, resourceGuid: a.resource_guid, provisioningState: 'Succeeded' },
  }),
  // The gateway's public IPs, from the association instances (the gateway's own state does not list them).
  fake: [{
    method: 'GET', service: ARM, path: `${NATS}/:name`,
    answer: (req, world: FakeWorld) => {
      const mine = world.of(PIP_ASSOC).filter((i) => lower(natOf(i.attributes)) === lower(req.path));
      return mine.length ? { id: req.path, name: nameOf(req.path), properties: { publicIpAddresses: mine.map((i) => ({ id: pipOf(i.attributes) })) } } : undefined;
    },
  }],
});

export const natPublicIpAssociationReader = refReader({
  type: PIP_ASSOC, apiVersion: NETWORK_API, source: natOf, fake: [],
  toState: (j, i) => {
    const ip = list(j.properties?.publicIpAddresses).find((x) => lower(x.id) === lower(pipOf(i.attributes)));
    return ip ? { public_ip_address_id: asState(ip.id, i.attributes.public_ip_address_id) } : null;
  },
});

// Routes: a set keyed by name; routes azurerm_route resources manage are theirs, the table's
// element for them is the state's own (as a vnet's managed subnets).
const ROUTES = `${NET}/routeTables`;
const routeOf = (r: ArmJson) => ({
  name: str(r.name), address_prefix: str(r.properties?.addressPrefix), next_hop_type: str(r.properties?.nextHopType),
  next_hop_in_ip_address: str(r.properties?.nextHopIpAddress),
});
const routeKey = (e: any): string[] => [`${lower(e?.name)}|${e?.address_prefix}|${lower(e?.next_hop_type)}|${str(e?.next_hop_in_ip_address)}`];

export const routeTableReader = armReader({
  type: 'azurerm_route_table', apiVersion: NETWORK_API, path: `${ROUTES}/:name`, list: ROUTES,
  spec: { sets: { route: routeKey } },
  toState: (j, i) => {
    const p = j.properties ?? {};
    const disabled = p.disableBgpRoutePropagation ?? false;
    const state = new Map(list(i.attributes.route).map((r) => [lower(str(r?.name)), r]));
    return {
      location: location(j.location), tags: j.tags ?? {},
      // 3.x disable_bgp_route_propagation, 4.x bgp_route_propagation_enabled (the other way round).
      disable_bgp_route_propagation: disabled, bgp_route_propagation_enabled: !disabled,
      route: list(p.routes).map((r) => {
        const live = routeOf(r);
        const st = state.get(lower(live.name));
        // The provider matches the next hop type case-insensitively.
        return st ? { ...live, next_hop_type: asState(live.next_hop_type, st.next_hop_type) } : live;
      }),
    };
  },
  fromState: (a) => ({
    type: 'Microsoft.Network/routeTables', location: a.location, tags: a.tags ?? {},
    properties: {
      disableBgpRoutePropagation: typeof a.bgp_route_propagation_enabled === 'boolean' ? !a.bgp_route_propagation_enabled : !!a.disable_bgp_route_propagation,
      routes: list(a.route).map((r) => ({
        name: r.name, id: `${a.id}/routes/${r.name}`,
        properties: { addressPrefix: r.address_prefix, nextHopType: r.next_hop_type, ...(r.next_hop_in_ip_address ? { nextHopIpAddress: r.next_hop_in_ip_address } : {}), provisioningState: 'Succeeded' },
      })),
      subnets: list<string>(a.subnets).map((id) => ({ id })), provisioningState: 'Succeeded',
    },
  }),
});

const BASTIONS = `${NET}/bastionHosts`;
const ipConfigs = (p: ArmJson, state: unknown) => list(p.ipConfigurations).map((c, k) => {
  const st = list(state)[k] ?? {};
  return {
    name: str(c.name), subnet_id: asState(c.properties?.subnet?.id, st.subnet_id), public_ip_address_id: asState(c.properties?.publicIPAddress?.id, st.public_ip_address_id),
    ...(c.properties?.privateIPAllocationMethod ? { private_ip_address_allocation: asState(c.properties.privateIPAllocationMethod, st.private_ip_address_allocation) } : {}),
  };
});

export const bastionHostReader = armReader({
  type: 'azurerm_bastion_host', apiVersion: NETWORK_API, path: `${BASTIONS}/:name`, list: BASTIONS,
  toState: (j, i) => {
    const p = j.properties ?? {};
    return {
      location: location(j.location), tags: j.tags ?? {}, sku: j.sku?.name ?? 'Basic', scale_units: p.scaleUnits ?? 2,
      copy_paste_enabled: !(p.disableCopyPaste ?? false), file_copy_enabled: p.enableFileCopy ?? false, ip_connect_enabled: p.enableIpConnect ?? false,
      shareable_link_enabled: p.enableShareableLink ?? false, tunneling_enabled: p.enableTunneling ?? false,
      kerberos_enabled: p.enableKerberos ?? false, session_recording_enabled: p.enableSessionRecording ?? false,
      virtual_network_id: asState(p.virtualNetwork?.id, i.attributes.virtual_network_id), zones: list(j.zones),
      ip_configuration: ipConfigs(p, i.attributes.ip_configuration),
    };
  },
  fromState: (a) => ({
    type: 'Microsoft.Network/bastionHosts', location: a.location, tags: a.tags ?? {}, sku: { name: a.sku ?? 'Basic' }, ...(list(a.zones).length ? { zones: a.zones } : {}),
    properties: {
      scaleUnits: a.scale_units ?? 2, disableCopyPaste: !bool(a.copy_paste_enabled, true), enableFileCopy: !!a.file_copy_enabled,
      enableIpConnect: !!a.ip_connect_enabled, enableShareableLink: !!a.shareable_link_enabled, enableTunneling: !!a.tunneling_enabled,
      enableKerberos: !!a.kerberos_enabled, enableSessionRecording: !!a.session_recording_enabled, virtualNetwork: ref(a.virtual_network_id),
      ipConfigurations: list(a.ip_configuration).map((c) => ({ name: c.name, properties: { subnet: ref(c.subnet_id), publicIPAddress: ref(c.public_ip_address_id), privateIPAllocationMethod: 'Dynamic' } })),
      dnsName: a.dns_name, provisioningState: 'Succeeded',
    },
  }),
});

const GATEWAYS = `${NET}/virtualNetworkGateways`;
export const virtualNetworkGatewayReader = armReader({
  type: 'azurerm_virtual_network_gateway', apiVersion: NETWORK_API, path: `${GATEWAYS}/:name`, list: GATEWAYS,
  toState: (j, i) => {
    const p = j.properties ?? {};
    const a = i.attributes;
    const bgp = p.enableBgp ?? false;
    const active = p.activeActive ?? false;
    return {
      location: location(j.location), tags: j.tags ?? {}, type: asState(p.gatewayType, a.type), vpn_type: asState(p.vpnType ?? 'RouteBased', a.vpn_type),
      sku: asState(p.sku?.name, a.sku), generation: asState(p.vpnGatewayGeneration ?? 'None', a.generation),
      // 3.x active_active / enable_bgp, 4.x the same switches renamed.
      active_active: active, active_active_enabled: active, enable_bgp: bgp, bgp_enabled: bgp,
      private_ip_address_enabled: p.enablePrivateIpAddress ?? false,
      // Later 3.x/4.x switches (compared when the state holds them).
      ip_sec_replay_protection_enabled: !(p.disableIPSecReplayProtection ?? false), bgp_route_translation_for_nat_enabled: p.enableBgpRouteTranslationForNat ?? false,
      dns_forwarding_enabled: p.enableDnsForwarding ?? false, remote_vnet_traffic_enabled: p.allowRemoteVnetTraffic ?? false, virtual_wan_traffic_enabled: p.allowVirtualWanTraffic ?? false,
      ip_configuration: ipConfigs(p, a.ip_configuration),
    };
  },
  fromState: (a) => ({
    type: 'Microsoft.Network/virtualNetworkGateways', location: a.location, tags: a.tags ?? {},
    properties: {
      gatewayType: a.type, vpnType: a.vpn_type ?? 'RouteBased', sku: { name: a.sku, tier: a.sku }, vpnGatewayGeneration: a.generation ?? 'None',
      activeActive: either(a, ['active_active_enabled', 'active_active'], false), enableBgp: either(a, ['bgp_enabled', 'enable_bgp'], false),
      enablePrivateIpAddress: !!a.private_ip_address_enabled, disableIPSecReplayProtection: a.ip_sec_replay_protection_enabled === false,
      enableBgpRouteTranslationForNat: !!a.bgp_route_translation_for_nat_enabled, enableDnsForwarding: !!a.dns_forwarding_enabled,
      allowRemoteVnetTraffic: !!a.remote_vnet_traffic_enabled, allowVirtualWanTraffic: !!a.virtual_wan_traffic_enabled,
      ipConfigurations: list(a.ip_configuration).map((c) => ({
        name: c.name, properties: { subnet: ref(c.subnet_id), publicIPAddress: ref(c.public_ip_address_id), privateIPAllocationMethod: c.private_ip_address_allocation ?? 'Dynamic' },
      })),
      provisioningState: 'Succeeded',
    },
  }),
});

const ENDPOINTS = `${NET}/privateEndpoints`;
export const privateEndpointReader = armReader({
  type: 'azurerm_private_endpoint', apiVersion: NETWORK_API, path: `${ENDPOINTS}/:name`, list: ENDPOINTS,
  toState: (j, i) => {
    const p = j.properties ?? {};
    const a = i.attributes;
    const manual = list(p.manualPrivateLinkServiceConnections);
    const connections = [...list(p.privateLinkServiceConnections).map((c) => [c, false] as const), ...manual.map((c) => [c, true] as const)];
    return {
      location: location(j.location), tags: j.tags ?? {}, subnet_id: asState(p.subnet?.id, a.subnet_id),
      custom_network_interface_name: str(p.customNetworkInterfaceName),
      private_service_connection: connections.map(([c, isManual], k) => {
        const st = list(a.private_service_connection)[k] ?? {};
        const q = c.properties ?? {};
        return {
          name: str(c.name), is_manual_connection: isManual, private_connection_resource_id: asState(q.privateLinkServiceId, st.private_connection_resource_id),
          subresource_names: list(q.groupIds), request_message: str(q.requestMessage),
        };
      }),
    };
  },
  fromState: (a) => {
    const conn = (c: Attrs) => ({ name: c.name, properties: { privateLinkServiceId: c.private_connection_resource_id, groupIds: list(c.subresource_names), ...(c.request_message ? { requestMessage: c.request_message } : {}) } });
    const all = list(a.private_service_connection);
    return {
      type: 'Microsoft.Network/privateEndpoints', location: a.location, tags: a.tags ?? {},
      properties: {
        subnet: ref(a.subnet_id), ...(a.custom_network_interface_name ? { customNetworkInterfaceName: a.custom_network_interface_name } : {}),
        privateLinkServiceConnections: all.filter((c) => !c.is_manual_connection).map(conn),
        manualPrivateLinkServiceConnections: all.filter((c) => c.is_manual_connection).map(conn), provisioningState: 'Succeeded',
      },
    };
  },
});

