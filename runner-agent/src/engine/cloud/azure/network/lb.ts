// azurerm_lb, azurerm_lb_backend_address_pool, azurerm_lb_rule, azurerm_lb_probe:
// Microsoft.Network/loadBalancers (api NETWORK_API). A load balancer's JSON embeds its frontends,
// pools, rules and probes: the four types read each load balancer once (the group's list when
// the state names LIST_FROM or more there) and pick their part.
import type { StateInstance } from '../../../types.ts';
import { text, type FakeWorld } from '../../rest/reader.ts';
import { location, lower, nameOf, type ArmJson } from '../kit.ts';
import { v2Zones, zonesOf, zoneWord } from './public-ip.ts';
import { byId, childOf, familyRoutes, idList, list, netReader, NETWORK_API, parentOf, ref, str } from './shared.ts';

const LB = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Network/loadBalancers/:lb';
const CHILDREN = { azurerm_lb_backend_address_pool: 'backendAddressPools', azurerm_lb_rule: 'loadBalancingRules', azurerm_lb_probe: 'probes', azurerm_lb_nat_rule: 'inboundNatRules' } as const;
/** A pool's address (`<pool id>/addresses/<name>`): embedded in its pool's `loadBalancerBackendAddresses`. */
export const POOL_ADDRESS = 'azurerm_lb_backend_address_pool_address';
const poolOf = (a: Record<string, any>) => str(a.backend_address_pool_id) || parentOf(str(a.id));
type Child = keyof typeof CHILDREN;
const lbOf = (a: Record<string, any>) => str(a.loadbalancer_id) || parentOf(str(a.id));

const lbIds = (world: FakeWorld) => [
  ...world.of('azurerm_lb').map((i) => str(i.attributes.id)),
  ...(Object.keys(CHILDREN) as Child[]).flatMap((t) => world.of(t).map((i) => lbOf(i.attributes))),
  ...world.of(POOL_ADDRESS).map((i) => parentOf(poolOf(i.attributes))),
].filter(Boolean);


function lbToState(j: ArmJson, instance: StateInstance) {
  const v2 = list(instance.attributes.frontend_ip_configuration).some((c) => c && 'availability_zone' in c);
  return {
    location: location(j.location), tags: j.tags ?? {}, sku: j.sku?.name ?? 'Basic', sku_tier: j.sku?.tier ?? 'Regional', edge_zone: j.extendedLocation?.name ?? '',
    frontend_ip_configuration: list(j.properties?.frontendIPConfigurations).map((f) => {
      const p = f.properties ?? {};
      const zones = list<string>(f.zones);
      return {
        name: str(f.name), zones: v2Zones(zones, v2), availability_zone: zoneWord(zones),
        private_ip_address: p.privateIPAddress ?? '', private_ip_address_allocation: p.privateIPAllocationMethod ?? '', private_ip_address_version: p.privateIPAddressVersion ?? '',
        public_ip_address_id: p.publicIPAddress?.id ?? '', public_ip_prefix_id: p.publicIPPrefix?.id ?? '', subnet_id: p.subnet?.id ?? '',
        gateway_load_balancer_frontend_ip_configuration_id: p.gatewayLoadBalancer?.id ?? '',
      };
    }),
  };
}

const poolToState = (j: ArmJson) => ({
  virtual_network_id: j.properties?.virtualNetwork?.id ?? '', synchronous_mode: j.properties?.syncMode ?? '',
  tunnel_interface: list(j.properties?.tunnelInterfaces).map((t) => ({ identifier: t.identifier, type: str(t.type), protocol: str(t.protocol), port: t.port })),
});

function ruleToState(j: ArmJson) {
  const p = j.properties ?? {};
  // ARM answers both; the provider reads the single pool but for a gateway's (up to two) pools.
  const pools = list(p.backendAddressPools).length > 1 || !p.backendAddressPool ? list(p.backendAddressPools) : [p.backendAddressPool];
  const floating = p.enableFloatingIP ?? false;
  const reset = p.enableTcpReset ?? false;
  return {
    protocol: str(p.protocol), frontend_port: p.frontendPort, backend_port: p.backendPort,
    frontend_ip_configuration_id: p.frontendIPConfiguration?.id ?? '', frontend_ip_configuration_name: nameOf(str(p.frontendIPConfiguration?.id)),
    backend_address_pool_id: p.backendAddressPool?.id ?? '', backend_address_pool_ids: idList(pools), probe_id: p.probe?.id ?? '',
    // v3 names and v4 names of the same switches.
    enable_floating_ip: floating, floating_ip_enabled: floating, enable_tcp_reset: reset, tcp_reset_enabled: reset,
    disable_outbound_snat: p.disableOutboundSnat ?? false, idle_timeout_in_minutes: p.idleTimeoutInMinutes ?? 4, load_distribution: p.loadDistribution ?? 'Default',
  };
}

const probeToState = (j: ArmJson) => {
  const p = j.properties ?? {};
  return {
    protocol: str(p.protocol), port: p.port, request_path: p.requestPath ?? '', interval_in_seconds: p.intervalInSeconds ?? 15,
    number_of_probes: p.numberOfProbes ?? 2, probe_threshold: p.probeThreshold ?? 1,
  };
};

// A single-port NAT rule (frontend_port/backend_port) or a pool's port range (v3.x+ frontend_port_start/end).
const natRuleToState = (j: ArmJson) => {
  const p = j.properties ?? {};
  return {
    protocol: str(p.protocol), frontend_port: p.frontendPort ?? 0, backend_port: p.backendPort ?? 0,
    frontend_port_start: p.frontendPortRangeStart ?? 0, frontend_port_end: p.frontendPortRangeEnd ?? 0,
    frontend_ip_configuration_id: p.frontendIPConfiguration?.id ?? '', frontend_ip_configuration_name: nameOf(str(p.frontendIPConfiguration?.id)),
    backend_address_pool_id: p.backendAddressPool?.id ?? '', idle_timeout_in_minutes: p.idleTimeoutInMinutes ?? 4,
    enable_floating_ip: p.enableFloatingIP ?? false, floating_ip_enabled: p.enableFloatingIP ?? false,
    enable_tcp_reset: p.enableTcpReset ?? false, tcp_reset_enabled: p.enableTcpReset ?? false,
  };
};
const natRuleFromState = (a: Record<string, any>, id: string, lbId: string): ArmJson => ({ name: a.name, id, properties: {
  protocol: a.protocol, ...(a.frontend_port ? { frontendPort: a.frontend_port } : {}), backendPort: a.backend_port,
  ...(a.frontend_port_start ? { frontendPortRangeStart: a.frontend_port_start, frontendPortRangeEnd: a.frontend_port_end } : {}),
  frontendIPConfiguration: ref(a.frontend_ip_configuration_id || `${lbId}/frontendIPConfigurations/${a.frontend_ip_configuration_name}`),
  backendAddressPool: ref(a.backend_address_pool_id), idleTimeoutInMinutes: a.idle_timeout_in_minutes ?? 4,
  enableFloatingIP: typeof a.floating_ip_enabled === 'boolean' ? a.floating_ip_enabled : !!a.enable_floating_ip,
  enableTcpReset: typeof a.tcp_reset_enabled === 'boolean' ? a.tcp_reset_enabled : !!a.enable_tcp_reset, provisioningState: 'Succeeded',
} });

/** The pool address as the provider writes it; the pool's JSON embeds it by name. */
const addressToState = (j: ArmJson) => ({
  virtual_network_id: j.properties?.virtualNetwork?.id ?? '', ip_address: j.properties?.ipAddress ?? '',
  backend_address_ip_configuration_id: j.properties?.loadBalancerFrontendIPConfiguration?.id ?? '',
});
const addressFromState = (a: Record<string, any>): ArmJson => ({ name: a.name || nameOf(str(a.id)), properties: {
  ...(text(a.virtual_network_id) ? { virtualNetwork: { id: a.virtual_network_id } } : {}), ...(text(a.ip_address) ? { ipAddress: a.ip_address } : {}),
  ...(text(a.backend_address_ip_configuration_id) ? { loadBalancerFrontendIPConfiguration: { id: a.backend_address_ip_configuration_id } } : {}),
} });

function childFromState(type: Child, a: Record<string, any>, lbId: string, world?: FakeWorld): ArmJson {
  const bool = (v3: string, v4: string) => (typeof a[v4] === 'boolean' ? a[v4] : !!a[v3]);
  const id = str(a.id) || `${lbId}/${CHILDREN[type]}/${a.name}`;
  if (type === 'azurerm_lb_nat_rule') return natRuleFromState(a, id, lbId);
  if (type === 'azurerm_lb_backend_address_pool') {
    return { name: a.name, id, properties: {
      virtualNetwork: ref(a.virtual_network_id), ...(text(a.synchronous_mode) ? { syncMode: a.synchronous_mode } : {}), provisioningState: 'Succeeded',
      tunnelInterfaces: list(a.tunnel_interface).map((t) => ({ identifier: t.identifier, type: t.type, protocol: t.protocol, port: t.port })),
      loadBalancerBackendAddresses: (world?.of(POOL_ADDRESS) ?? []).filter((i) => lower(poolOf(i.attributes)) === lower(id)).map((i) => addressFromState(i.attributes)),
    } };
  }
  if (type === 'azurerm_lb_probe') {
    return { name: a.name, id, properties: {
      protocol: a.protocol, port: a.port, ...(text(a.request_path) ? { requestPath: a.request_path } : {}),
      intervalInSeconds: a.interval_in_seconds, numberOfProbes: a.number_of_probes, probeThreshold: a.probe_threshold, provisioningState: 'Succeeded',
    } };
  }
  const pools: string[] = list<string>(a.backend_address_pool_ids).length ? a.backend_address_pool_ids : text(a.backend_address_pool_id) ? [a.backend_address_pool_id] : [];
  return { name: a.name, id, properties: {
    protocol: a.protocol, frontendPort: a.frontend_port, backendPort: a.backend_port,
    frontendIPConfiguration: ref(a.frontend_ip_configuration_id || `${lbId}/frontendIPConfigurations/${a.frontend_ip_configuration_name}`),
    ...(pools.length ? { backendAddressPool: { id: pools[0] }, backendAddressPools: pools.map((x) => ({ id: x })) } : {}),
    probe: ref(a.probe_id), enableFloatingIP: bool('enable_floating_ip', 'floating_ip_enabled'), enableTcpReset: bool('enable_tcp_reset', 'tcp_reset_enabled'),
    disableOutboundSnat: !!a.disable_outbound_snat, idleTimeoutInMinutes: a.idle_timeout_in_minutes, loadDistribution: a.load_distribution, provisioningState: 'Succeeded',
  } };
}

function lbJson(world: FakeWorld, id: string): ArmJson | undefined {
  const lb = byId(world, 'azurerm_lb', id)?.attributes;
  const kids = (Object.keys(CHILDREN) as Child[]).map((t) => [t, world.of(t).filter((i) => lower(lbOf(i.attributes)) === lower(id))] as const);
  if (!lb && kids.every(([, l]) => l.length === 0) && !world.of(POOL_ADDRESS).some((i) => lower(parentOf(poolOf(i.attributes))) === lower(id))) return undefined;
  const properties: ArmJson = { provisioningState: 'Succeeded' };
  for (const [t, l] of kids) properties[CHILDREN[t]] = l.map((i: StateInstance) => childFromState(t, i.attributes, id, world));
  // A pool the state holds only through its addresses (its pool resource lives in another state).
  for (const i of world.of(POOL_ADDRESS).filter((x) => lower(parentOf(poolOf(x.attributes))) === lower(id))) {
    const pool = poolOf(i.attributes);
    if (list(properties.backendAddressPools).some((p) => lower(p.id) === lower(pool))) continue;
    properties.backendAddressPools.push(childFromState('azurerm_lb_backend_address_pool', { id: pool, name: nameOf(pool) }, id, world));
  }
  properties.frontendIPConfigurations = list(lb?.frontend_ip_configuration).map((c) => ({
    name: c.name, id: c.id || `${id}/frontendIPConfigurations/${c.name}`, ...(zonesOf(c).length ? { zones: zonesOf(c) } : {}),
    properties: {
      ...(text(c.private_ip_address) ? { privateIPAddress: c.private_ip_address } : {}),
      ...(text(c.private_ip_address_allocation) ? { privateIPAllocationMethod: c.private_ip_address_allocation } : {}),
      ...(text(c.private_ip_address_version) ? { privateIPAddressVersion: c.private_ip_address_version } : {}),
      publicIPAddress: ref(c.public_ip_address_id), publicIPPrefix: ref(c.public_ip_prefix_id), subnet: ref(c.subnet_id),
      gatewayLoadBalancer: ref(c.gateway_load_balancer_frontend_ip_configuration_id), provisioningState: 'Succeeded',
    },
  }));
  return {
    type: 'Microsoft.Network/loadBalancers', location: lb?.location, tags: lb?.tags ?? {},
    ...(lb ? { sku: { name: lb.sku ?? 'Basic', tier: lb.sku_tier ?? 'Regional' } } : {}),
    ...(text(lb?.edge_zone) ? { extendedLocation: { name: lb!.edge_zone, type: 'EdgeZone' } } : {}),
    properties,
  };
}

export const lbReader = netReader({
  type: 'azurerm_lb', apiVersion: NETWORK_API, source: (a) => str(a.id), known: lbIds, toState: lbToState,
  subscriptionList: 'Microsoft.Network/loadBalancers',
  fake: familyRoutes(LB, lbIds, lbJson),
});

const childReader = (type: Child, toState: (j: ArmJson) => Record<string, unknown>) => netReader({
  type, apiVersion: NETWORK_API, source: lbOf, known: lbIds, toState,
  pick: (lb, a) => childOf(lb, CHILDREN[type], str(a.name) || nameOf(str(a.id))),
});

export const lbBackendPoolReader = childReader('azurerm_lb_backend_address_pool', poolToState);
export const lbRuleReader = childReader('azurerm_lb_rule', ruleToState);
export const lbProbeReader = childReader('azurerm_lb_probe', probeToState);
export const lbNatRuleReader = childReader('azurerm_lb_nat_rule', natRuleToState);
export const lbPoolAddressReader = netReader({
  type: POOL_ADDRESS, apiVersion: NETWORK_API, source: (a) => parentOf(poolOf(a)), known: lbIds, toState: addressToState,
  pick: (lb, a) => {
    const pool = childOf(lb, 'backendAddressPools', nameOf(poolOf(a)));
    return pool && childOf(pool, 'loadBalancerBackendAddresses', str(a.name) || nameOf(str(a.id)));
  },
});
