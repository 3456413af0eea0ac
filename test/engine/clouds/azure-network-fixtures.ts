// State instances of the Microsoft.Network types, shaped as the azurerm provider writes them
// (v2, v3 and v4 attribute sets, as in the corpus states), for azure-network.test.ts.
import { instance } from './harness.ts';

export const SUB = '00000000-0000-0000-0000-0000000000aa';
export const RG = `/subscriptions/${SUB}/resourceGroups/net-rg`;
const NET = `${RG}/providers/Microsoft.Network`;
export const ids = {
  vnet: (n: string) => `${NET}/virtualNetworks/${n}`,
  subnet: (v: string, s: string) => `${NET}/virtualNetworks/${v}/subnets/${s}`,
  nsg: (n: string) => `${NET}/networkSecurityGroups/${n}`,
  nic: (n: string) => `${NET}/networkInterfaces/${n}`,
  pip: (n: string) => `${NET}/publicIPAddresses/${n}`,
  zone: (n: string) => `${NET}/privateDnsZones/${n}`,
  lb: (n: string) => `${NET}/loadBalancers/${n}`,
};

export const vnet = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_virtual_network', name, {
  id: ids.vnet(name), name, location: 'westeurope', resource_group_name: 'net-rg', address_space: ['10.0.0.0/16'], bgp_community: '',
  ddos_protection_plan: [], dns_servers: [], edge_zone: '', encryption: [], flow_timeout_in_minutes: 0, guid: '6d2b8b55-0000-4000-8000-000000000001',
  subnet: [{ address_prefix: '10.0.9.0/24', id: ids.subnet(name, 'inline'), name: 'inline', security_group: '' }], tags: { env: 'prod' }, timeouts: null, ...attrs,
});

/** A v4 subnet. */
export const subnet = (v: string, name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_subnet', `${v}_${name}`, {
  id: ids.subnet(v, name), name, resource_group_name: 'net-rg', virtual_network_name: v, address_prefixes: ['10.0.1.0/24'],
  default_outbound_access_enabled: true, delegation: [], private_endpoint_network_policies: 'Disabled', private_link_service_network_policies_enabled: true,
  service_endpoint_policy_ids: [], service_endpoints: ['Microsoft.Storage'], timeouts: null, ...attrs,
});

/** A v2 subnet (address_prefix, enforce_* booleans, a delegation). */
export const subnetV2 = (v: string, name: string) => instance('azurerm_subnet', `${v}_${name}`, {
  id: ids.subnet(v, name), name, resource_group_name: 'net-rg', virtual_network_name: v, address_prefix: '10.0.2.0/24', address_prefixes: ['10.0.2.0/24'],
  delegation: [{ name: 'aci', service_delegation: [{ actions: ['Microsoft.Network/virtualNetworks/subnets/action'], name: 'Microsoft.ContainerInstance/containerGroups' }] }],
  enforce_private_link_endpoint_network_policies: true, enforce_private_link_service_network_policies: false, service_endpoints: [], timeouts: null,
});

export const subnetAssoc = (v: string, s: string, nsg: string) => instance('azurerm_subnet_network_security_group_association', `${v}_${s}`, {
  id: ids.subnet(v, s), subnet_id: ids.subnet(v, s), network_security_group_id: ids.nsg(nsg), timeouts: null,
});

export const rule = (name: string, attrs: Record<string, unknown> = {}) => ({
  access: 'Allow', description: '', destination_address_prefix: '*', destination_address_prefixes: [], destination_application_security_group_ids: [],
  destination_port_range: '443', destination_port_ranges: [], direction: 'Inbound', name, priority: 100, protocol: 'Tcp',
  source_address_prefix: '10.0.0.0/8', source_address_prefixes: [], source_application_security_group_ids: [], source_port_range: '*', source_port_ranges: [], ...attrs,
});

export const nsg = (name: string, rules: Record<string, unknown>[] = [rule('https')], attrs: Record<string, unknown> = {}) => instance('azurerm_network_security_group', name, {
  id: ids.nsg(name), name, location: 'westeurope', resource_group_name: 'net-rg', security_rule: rules, tags: { env: 'prod' }, timeouts: null, ...attrs,
});

/** A standalone rule as the v2 provider writes it (null lists). */
export const nsgRule = (g: string, name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_network_security_rule', `${g}_${name}`, {
  ...rule(name), destination_address_prefixes: null, destination_application_security_group_ids: null, destination_port_ranges: null,
  source_address_prefixes: null, source_application_security_group_ids: null, source_port_ranges: null,
  id: `${ids.nsg(g)}/securityRules/${name}`, network_security_group_name: g, resource_group_name: 'net-rg', priority: 200, timeouts: null, ...attrs,
});

/** A v3 NIC. */
export const nic = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_network_interface', name, {
  id: ids.nic(name), name, location: 'westeurope', resource_group_name: 'net-rg', applied_dns_servers: [], dns_servers: [], edge_zone: '',
  enable_accelerated_networking: false, enable_ip_forwarding: false, internal_dns_name_label: '', internal_domain_name_suffix: 'abc.ax.internal.cloudapp.net',
  ip_configuration: [{
    gateway_load_balancer_frontend_ip_configuration_id: '', name: 'internal', primary: true, private_ip_address: '10.0.1.4', private_ip_address_allocation: 'Dynamic',
    private_ip_address_version: 'IPv4', public_ip_address_id: ids.pip('pip-a'), subnet_id: ids.subnet('v1', 'app'),
  }],
  mac_address: '00-0D-3A-1B-C7-21', private_ip_address: '10.0.1.4', private_ip_addresses: ['10.0.1.4'], tags: {}, timeouts: null, virtual_machine_id: '', ...attrs,
});

export const nicAssoc = (n: string, g: string) => instance('azurerm_network_interface_security_group_association', n, {
  id: `${ids.nic(n)}|${ids.nsg(g)}`, network_interface_id: ids.nic(n), network_security_group_id: ids.nsg(g), timeouts: null,
});

/** A v3 public IP. */
export const pip = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_public_ip', name, {
  id: ids.pip(name), name, location: 'westeurope', resource_group_name: 'net-rg', allocation_method: 'Static', ddos_protection_mode: 'VirtualNetworkInherited',
  ddos_protection_plan_id: null, domain_name_label: null, edge_zone: '', fqdn: null, idle_timeout_in_minutes: 4, ip_address: '20.1.2.3', ip_tags: {},
  ip_version: 'IPv4', public_ip_prefix_id: null, reverse_fqdn: null, sku: 'Standard', sku_tier: 'Regional', tags: { env: 'prod' }, timeouts: null, zones: ['1', '2', '3'], ...attrs,
});

export const zone = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_private_dns_zone', name.replace(/\W/g, '_'), {
  id: ids.zone(name), name, resource_group_name: 'net-rg', max_number_of_record_sets: 25000, max_number_of_virtual_network_links: 1000,
  max_number_of_virtual_network_links_with_registration: 100, number_of_record_sets: 1,
  soa_record: [{ email: 'azureprivatedns-host.microsoft.com', expire_time: 2419200, fqdn: `${name}.`, host_name: 'azureprivatedns.net', minimum_ttl: 10, refresh_time: 3600, retry_time: 300, serial_number: 1, tags: {}, ttl: 3600 }],
  tags: null, timeouts: null, ...attrs,
});

export const zoneLink = (z: string, name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_private_dns_zone_virtual_network_link', name, {
  id: `${ids.zone(z)}/virtualNetworkLinks/${name}`, name, private_dns_zone_name: z, resource_group_name: 'net-rg', registration_enabled: false,
  tags: {}, timeouts: null, virtual_network_id: ids.vnet('v1'), ...attrs,
});

export const lb = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_lb', name, {
  id: ids.lb(name), name, location: 'westus', resource_group_name: 'net-rg', sku: 'Basic', tags: null, timeouts: null, private_ip_address: '', private_ip_addresses: [],
  frontend_ip_configuration: [{
    availability_zone: 'No-Zone', id: `${ids.lb(name)}/frontendIPConfigurations/PublicIPAddress`, inbound_nat_rules: [], load_balancer_rules: [], name: 'PublicIPAddress',
    outbound_rules: [], private_ip_address: '', private_ip_address_allocation: 'Dynamic', private_ip_address_version: '', public_ip_address_id: ids.pip('pip-lb'),
    public_ip_prefix_id: '', subnet_id: '', zones: [],
  }], ...attrs,
});

export const lbPool = (l: string, name: string) => instance('azurerm_lb_backend_address_pool', name, {
  id: `${ids.lb(l)}/backendAddressPools/${name}`, name, loadbalancer_id: ids.lb(l), backend_ip_configurations: [], inbound_nat_rules: [], load_balancing_rules: [],
  outbound_rules: [], tunnel_interface: [], virtual_network_id: '', timeouts: null,
});

/** A v2 load-balancing rule (the corpus's shape). */
export const lbRule = (l: string, name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_lb_rule', name, {
  backend_address_pool_id: `${ids.lb(l)}/backendAddressPools/pool`, backend_port: 80, disable_outbound_snat: false, enable_floating_ip: false, enable_tcp_reset: false,
  frontend_ip_configuration_id: `${ids.lb(l)}/frontendIPConfigurations/PublicIPAddress`, frontend_ip_configuration_name: 'PublicIPAddress', frontend_port: 80,
  id: `${ids.lb(l)}/loadBalancingRules/${name}`, idle_timeout_in_minutes: 4, load_distribution: 'Default', loadbalancer_id: ids.lb(l), name,
  probe_id: `${ids.lb(l)}/probes/http`, protocol: 'Tcp', resource_group_name: 'net-rg', timeouts: null, ...attrs,
});

export const lbProbe = (l: string, name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_lb_probe', name, {
  id: `${ids.lb(l)}/probes/${name}`, name, loadbalancer_id: ids.lb(l), interval_in_seconds: 15, load_balancer_rules: [], number_of_probes: 2,
  port: 80, probe_threshold: 1, protocol: 'Http', request_path: '/health', timeouts: null, ...attrs,
});
