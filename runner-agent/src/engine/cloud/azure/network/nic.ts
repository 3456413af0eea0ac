// azurerm_network_interface and azurerm_network_interface_security_group_association:
// Microsoft.Network/networkInterfaces (api NETWORK_API). The association is the NIC's
// `networkSecurityGroup` reference (its state id is `<nic id>|<nsg id>`), read from the same NIC
// read as the NIC's own type; so is azurerm_network_interface_backend_address_pool_association
// (`<nic id>/ipConfigurations/<name>|<pool id>`), a pool reference of one IP configuration.
import { text, type FakeWorld } from '../../rest/reader.ts';
import { location, lower, type ArmJson } from '../kit.ts';
import { byId, familyRoutes, list, netReader, NETWORK_API, ref, str } from './shared.ts';

const NIC = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Network/networkInterfaces/:nic';
const NIC_ASSOC = 'azurerm_network_interface_security_group_association';
const nicIdOf = (a: Record<string, any>) => str(a.network_interface_id) || str(a.id).split('|')[0];
const POOL_ASSOC = 'azurerm_network_interface_backend_address_pool_association';
const poolNicOf = (a: Record<string, any>) => str(a.network_interface_id) || str(a.id).split('|')[0].replace(/\/ipConfigurations\/[^/]+$/i, '');
const poolIpcOf = (a: Record<string, any>) => str(a.ip_configuration_name) || (/\/ipConfigurations\/([^/|]+)/i.exec(str(a.id))?.[1] ?? '');
const poolIdOf = (a: Record<string, any>) => str(a.backend_address_pool_id) || str(a.id).split('|')[1] || '';

const nicIds = (world: FakeWorld) => [
  ...world.of('azurerm_network_interface').map((i) => str(i.attributes.id)),
  ...world.of(NIC_ASSOC).map((i) => nicIdOf(i.attributes)),
  ...world.of(POOL_ASSOC).map((i) => poolNicOf(i.attributes)),
].filter(Boolean);

// ARM's `None` auxiliary mode is the provider's empty value.
const aux = (v: unknown) => (v && v !== 'None' ? String(v) : '');

function nicToState(j: ArmJson) {
  const p = j.properties ?? {};
  const dns = p.dnsSettings ?? {};
  const accelerated = p.enableAcceleratedNetworking ?? false;
  const forwarding = p.enableIPForwarding ?? false;
  return {
    location: location(j.location), tags: j.tags ?? {}, edge_zone: j.extendedLocation?.name ?? '',
    dns_servers: list(dns.dnsServers), internal_dns_name_label: dns.internalDnsNameLabel ?? '',
    // v3 names and v4 names of the same two switches.
    enable_accelerated_networking: accelerated, accelerated_networking_enabled: accelerated,
    enable_ip_forwarding: forwarding, ip_forwarding_enabled: forwarding,
    auxiliary_mode: aux(p.auxiliaryMode), auxiliary_sku: aux(p.auxiliarySku),
    ip_configuration: list(p.ipConfigurations).map((c) => {
      const q = c.properties ?? {};
      return {
        name: str(c.name), primary: q.primary ?? false, private_ip_address: q.privateIPAddress ?? '',
        private_ip_address_allocation: q.privateIPAllocationMethod ?? '', private_ip_address_version: q.privateIPAddressVersion ?? '',
        public_ip_address_id: q.publicIPAddress?.id ?? '', subnet_id: q.subnet?.id ?? '',
        gateway_load_balancer_frontend_ip_configuration_id: q.gatewayLoadBalancer?.id ?? '',
      };
    }),
  };
}

function nicFromState(a: Record<string, any>, id: string): ArmJson {
  const flag = (v3: string, v4: string) => (typeof a[v4] === 'boolean' ? a[v4] : !!a[v3]);
  return {
    location: a.location, tags: a.tags ?? {}, ...(text(a.edge_zone) ? { extendedLocation: { name: a.edge_zone, type: 'EdgeZone' } } : {}),
    properties: {
      ipConfigurations: list(a.ip_configuration).map((c) => ({
        name: c.name, id: `${id}/ipConfigurations/${c.name}`,
        properties: {
          primary: !!c.primary, ...(text(c.private_ip_address) ? { privateIPAddress: c.private_ip_address } : {}),
          privateIPAllocationMethod: c.private_ip_address_allocation, ...(text(c.private_ip_address_version) ? { privateIPAddressVersion: c.private_ip_address_version } : {}),
          publicIPAddress: ref(c.public_ip_address_id), subnet: ref(c.subnet_id), gatewayLoadBalancer: ref(c.gateway_load_balancer_frontend_ip_configuration_id),
          provisioningState: 'Succeeded',
        },
      })),
      dnsSettings: {
        dnsServers: list(a.dns_servers), appliedDnsServers: list(a.applied_dns_servers),
        ...(text(a.internal_dns_name_label) ? { internalDnsNameLabel: a.internal_dns_name_label } : {}),
        internalDomainNameSuffix: a.internal_domain_name_suffix,
      },
      enableAcceleratedNetworking: flag('enable_accelerated_networking', 'accelerated_networking_enabled'),
      enableIPForwarding: flag('enable_ip_forwarding', 'ip_forwarding_enabled'),
      ...(text(a.auxiliary_mode) ? { auxiliaryMode: a.auxiliary_mode } : {}), ...(text(a.auxiliary_sku) ? { auxiliarySku: a.auxiliary_sku } : {}),
      macAddress: a.mac_address, virtualMachine: ref(a.virtual_machine_id), provisioningState: 'Succeeded',
    },
  };
}

function nicJson(world: FakeWorld, id: string): ArmJson | undefined {
  const nic = byId(world, 'azurerm_network_interface', id);
  const assoc = byId(world, NIC_ASSOC, id, nicIdOf);
  const pools = world.of(POOL_ASSOC).filter((i) => lower(poolNicOf(i.attributes)) === lower(id));
  if (!nic && !assoc && !pools.length) return undefined;
  const json: ArmJson = nic ? nicFromState(nic.attributes, id) : { properties: { ipConfigurations: [] } };
  if (assoc) json.properties.networkSecurityGroup = { id: assoc.attributes.network_security_group_id };
  for (const p of pools) {
    const name = poolIpcOf(p.attributes);
    let ipc = list(json.properties.ipConfigurations).find((c) => lower(c.name) === lower(name));
    if (!ipc) json.properties.ipConfigurations.push(ipc = { name, id: `${id}/ipConfigurations/${name}`, properties: {} });
    (ipc.properties.loadBalancerBackendAddressPools ??= []).push({ id: poolIdOf(p.attributes) });
  }
  return { type: 'Microsoft.Network/networkInterfaces', ...json };
}

export const networkInterfaceReader = netReader({
  type: 'azurerm_network_interface', apiVersion: NETWORK_API,
  source: (a) => str(a.id), known: nicIds, toState: nicToState,
  subscriptionList: 'Microsoft.Network/networkInterfaces',
  fake: familyRoutes(NIC, nicIds, nicJson),
});

/** Gone when the NIC has no NSG any more (or no longer exists). */
export const nicNsgAssociationReader = netReader({
  type: NIC_ASSOC, apiVersion: NETWORK_API,
  source: nicIdOf, known: nicIds,
  toState: (nic) => (nic.properties?.networkSecurityGroup?.id ? { network_security_group_id: nic.properties.networkSecurityGroup.id } : null),
});

/** Gone when the IP configuration no longer sends to the pool (or the NIC is gone). */
export const nicPoolAssociationReader = netReader({
  type: POOL_ASSOC, apiVersion: NETWORK_API,
  source: poolNicOf, known: nicIds,
  toState: (nic, instance) => {
    const a = instance.attributes;
    const ipc = list(nic.properties?.ipConfigurations).find((c) => lower(c.name) === lower(poolIpcOf(a)));
    const pool = list(ipc?.properties?.loadBalancerBackendAddressPools).find((x) => lower(x.id) === lower(poolIdOf(a)));
    return pool ? { backend_address_pool_id: str(pool.id), ip_configuration_name: str(ipc.name) } : null;
  },
});
