// ARM response bodies from the documented examples of Microsoft.Network 2024-07-01
// (github.com/Azure/azure-rest-api-specs, MIT licence: specification/network/resource-manager/
// Microsoft.Network/stable/2024-07-01/examples/{NetworkSecurityGroupGet, VirtualNetworkGetWithSubnetDelegation,
// NetworkInterfaceGet, PublicIpAddressGet, LoadBalancerGet}.json; a few computed lists shortened),
// and the state the azurerm provider writes for each: the readers must map one onto the other.
import { instance } from './harness.ts';

const N = (sub: string) => `/subscriptions/${sub}/resourceGroups/rg1/providers/Microsoft.Network`;
const rule = (name: string, p: Record<string, unknown>) => ({ name, id: `${N('subid')}/networkSecurityGroups/testnsg/${name.startsWith('Allow') || name.startsWith('Deny') ? 'defaultSecurityRules' : 'securityRules'}/${name}`, properties: { provisioningState: 'Succeeded', ...p } });

export const EXAMPLES: Record<string, Record<string, unknown>> = {
  [`${N('subid')}/networkSecurityGroups/testnsg`]: {
    name: 'testnsg', id: `${N('subid')}/networkSecurityGroups/testnsg`, type: 'Microsoft.Network/networkSecurityGroups', location: 'westus',
    properties: {
      provisioningState: 'Succeeded',
      securityRules: [rule('rule1', { protocol: '*', sourcePortRange: '*', destinationPortRange: '80', sourceAddressPrefix: '*', destinationAddressPrefix: '*', access: 'Allow', priority: 130, direction: 'Inbound' })],
      defaultSecurityRules: [
        rule('AllowVnetInBound', { description: 'Allow inbound traffic from all VMs in VNET', protocol: '*', sourcePortRange: '*', destinationPortRange: '*', sourceAddressPrefix: 'VirtualNetwork', destinationAddressPrefix: 'VirtualNetwork', access: 'Allow', priority: 65000, direction: 'Inbound' }),
        rule('DenyAllInBound', { description: 'Deny all inbound traffic', protocol: '*', sourcePortRange: '*', destinationPortRange: '*', sourceAddressPrefix: '*', destinationAddressPrefix: '*', access: 'Deny', priority: 65500, direction: 'Inbound' }),
      ],
    },
  },
  [`${N('subId')}/virtualNetworks/test-vnet`]: {
    name: 'test-vnet', id: `${N('subId')}/virtualNetworks/test-vnet`, type: 'Microsoft.Network/virtualNetworks', location: 'westus',
    properties: {
      provisioningState: 'Succeeded', addressSpace: { addressPrefixes: ['10.0.0.0/16'] },
      subnets: [{
        name: 'subnet1', id: `${N('subId')}/virtualNetworks/test-vnet/subnets/subnet1`,
        properties: {
          provisioningState: 'Succeeded', addressPrefix: '10.0.1.0/24', ipConfigurations: [{ id: `${N('subId')}/loadBalancers/lb/frontendIPConfigurations/fe` }],
          delegations: [{ name: 'myDelegation', id: `${N('subId')}/virtualNetworks/test-vnet/subnets/subnet1/delegations/myDelegation`, properties: { provisioningState: 'Succeeded', serviceName: 'Microsoft.Provider/resourceType', actions: [] } }],
          purpose: '',
        },
      }],
      virtualNetworkPeerings: [],
    },
  },
  [`${N('subid')}/networkInterfaces/test-nic`]: {
    name: 'test-nic', id: `${N('subid')}/networkInterfaces/test-nic`, location: 'eastus', type: 'Microsoft.Network/networkInterfaces',
    properties: {
      provisioningState: 'Succeeded',
      ipConfigurations: [
        { name: 'ipconfig1', id: `${N('subid')}/networkInterfaces/test-nic/ipConfigurations/ipconfig1`, properties: { provisioningState: 'Succeeded', privateIPAddress: '172.20.2.4', privateIPAllocationMethod: 'Dynamic', publicIPAddress: { id: `${N('subid')}/publicIPAddresses/test-ip` }, subnet: { id: `${N('subid')}/virtualNetworks/rg1-vnet/subnets/default` }, primary: true, privateIPAddressVersion: 'IPv4' } },
        { name: 'ipconfig2', id: `${N('subid')}/networkInterfaces/test-nic/ipConfigurations/ipconfig2`, properties: { provisioningState: 'Succeeded', privateIPAddress: '172.20.2.16/28', privateIPAddressPrefixLength: 28, privateIPAllocationMethod: 'Dynamic', subnet: { id: `${N('subid')}/virtualNetworks/rg1-vnet/subnets/default` }, primary: false, privateIPAddressVersion: 'IPv4' } },
      ],
      dnsSettings: { dnsServers: [], appliedDnsServers: [], internalDomainNameSuffix: 'test.bx.internal.cloudapp.net' },
      macAddress: '00-0D-3A-1B-C7-21', enableAcceleratedNetworking: true, disableTcpStateTracking: true, enableIPForwarding: false,
      networkSecurityGroup: { id: `${N('subid')}/networkSecurityGroups/nsg` }, primary: true,
      virtualMachine: { id: '/subscriptions/subid/resourceGroups/rg1/providers/Microsoft.Compute/virtualMachines/vm1' }, vnetEncryptionSupported: false,
    },
  },
  [`${N('subid')}/publicIPAddresses/testDNS-ip`]: {
    name: 'testDNS-ip', id: `${N('subid')}/publicIPAddresses/testDNS-ip`, location: 'westus', type: 'Microsoft.Network/publicIPAddresses',
    properties: {
      provisioningState: 'Succeeded', publicIPAddressVersion: 'IPv4', publicIPAllocationMethod: 'Dynamic', idleTimeoutInMinutes: 4,
      ipConfiguration: { id: `${N('subid')}/networkInterfaces/testDNS649/ipConfigurations/ipconfig1` },
      ddosSettings: { protectionMode: 'Enabled', ddosProtectionPlan: { id: `${N('subid')}/ddosProtectionPlans/test-plan` } },
      ipTags: [{ ipTagType: 'FirstPartyUsage', tag: 'SQL' }, { ipTagType: 'FirstPartyUsage', tag: 'Storage' }],
    },
  },
  [`${N('subid')}/loadBalancers/lb`]: {
    name: 'lb', id: `${N('subid')}/loadBalancers/lb`, etag: 'W/"00000000-0000-0000-0000-00000000"', type: 'Microsoft.Network/loadBalancers', location: 'westus', sku: { name: 'Basic' },
    properties: {
      provisioningState: 'Succeeded', resourceGuid: '00000000-0000-0000-0000-00000000',
      frontendIPConfigurations: [{
        name: 'fe-lb', id: `${N('subid')}/loadBalancers/lb/frontendIPConfigurations/fe-lb`, type: 'Microsoft.Network/loadBalancers/frontendIPConfigurations',
        properties: {
          provisioningState: 'Succeeded', privateIPAddress: '10.0.1.4', privateIPAllocationMethod: 'Dynamic', privateIPAddressVersion: 'IPv4',
          subnet: { id: `${N('subid')}/virtualNetworks/vnetlb/subnets/subnetlb` }, loadBalancingRules: [{ id: `${N('subid')}/loadBalancers/lb/loadBalancingRules/rulelb` }],
        },
      }],
      backendAddressPools: [{ name: 'be-lb', id: `${N('subid')}/loadBalancers/lb/backendAddressPools/be-lb`, properties: { provisioningState: 'Succeeded', loadBalancingRules: [{ id: `${N('subid')}/loadBalancers/lb/loadBalancingRules/rulelb` }] } }],
      loadBalancingRules: [{
        name: 'rulelb', id: `${N('subid')}/loadBalancers/lb/loadBalancingRules/rulelb`,
        properties: {
          provisioningState: 'Succeeded', frontendIPConfiguration: { id: `${N('subid')}/loadBalancers/lb/frontendIPConfigurations/fe-lb` }, frontendPort: 80, backendPort: 80,
          enableFloatingIP: true, idleTimeoutInMinutes: 15, protocol: 'Tcp', enableTcpReset: true, loadDistribution: 'Default',
          backendAddressPool: { id: `${N('subid')}/loadBalancers/lb/backendAddressPools/be-lb` }, probe: { id: `${N('subid')}/loadBalancers/lb/probes/probe-lb` }, disableOutboundSnat: false,
        },
      }],
      probes: [{ name: 'probe-lb', id: `${N('subid')}/loadBalancers/lb/probes/probe-lb`, properties: { provisioningState: 'Succeeded', protocol: 'Http', port: 80, requestPath: 'healthcheck.aspx', intervalInSeconds: 15, numberOfProbes: 2, probeThreshold: 1 } }],
      inboundNatRules: [], inboundNatPools: [],
    },
  },
};

const lbId = `${N('subid')}/loadBalancers/lb`;
/** What the v4 provider writes for the resources of those answers. */
export const EXAMPLE_STATE = [
  instance('azurerm_network_security_group', 'testnsg', {
    id: `${N('subid')}/networkSecurityGroups/testnsg`, name: 'testnsg', location: 'westus', resource_group_name: 'rg1', tags: {},
    security_rule: [{
      access: 'Allow', description: '', destination_address_prefix: '*', destination_address_prefixes: [], destination_application_security_group_ids: [], destination_port_range: '80',
      destination_port_ranges: [], direction: 'Inbound', name: 'rule1', priority: 130, protocol: '*', source_address_prefix: '*', source_address_prefixes: [],
      source_application_security_group_ids: [], source_port_range: '*', source_port_ranges: [],
    }],
  }),
  instance('azurerm_virtual_network', 'test', {
    id: `${N('subId')}/virtualNetworks/test-vnet`, name: 'test-vnet', location: 'westus', resource_group_name: 'rg1', address_space: ['10.0.0.0/16'], bgp_community: '',
    ddos_protection_plan: [], dns_servers: [], edge_zone: '', encryption: [], flow_timeout_in_minutes: 0, private_endpoint_vnet_policies: '', subnet: [], tags: {},
  }),
  instance('azurerm_subnet', 'subnet1', {
    id: `${N('subId')}/virtualNetworks/test-vnet/subnets/subnet1`, name: 'subnet1', resource_group_name: 'rg1', virtual_network_name: 'test-vnet', address_prefixes: ['10.0.1.0/24'],
    default_outbound_access_enabled: true, delegation: [{ name: 'myDelegation', service_delegation: [{ actions: [], name: 'Microsoft.Provider/resourceType' }] }],
    private_endpoint_network_policies: '', private_link_service_network_policies_enabled: false, service_endpoint_policy_ids: [], service_endpoints: [],
  }),
  instance('azurerm_network_interface', 'test', {
    id: `${N('subid')}/networkInterfaces/test-nic`, name: 'test-nic', location: 'eastus', resource_group_name: 'rg1', accelerated_networking_enabled: true, ip_forwarding_enabled: false,
    applied_dns_servers: [], dns_servers: [], edge_zone: '', auxiliary_mode: '', auxiliary_sku: '', internal_dns_name_label: '', internal_domain_name_suffix: 'test.bx.internal.cloudapp.net',
    ip_configuration: [
      { gateway_load_balancer_frontend_ip_configuration_id: '', name: 'ipconfig1', primary: true, private_ip_address: '172.20.2.4', private_ip_address_allocation: 'Dynamic', private_ip_address_version: 'IPv4', public_ip_address_id: `${N('subid')}/publicIPAddresses/test-ip`, subnet_id: `${N('subid')}/virtualNetworks/rg1-vnet/subnets/default` },
      { gateway_load_balancer_frontend_ip_configuration_id: '', name: 'ipconfig2', primary: false, private_ip_address: '172.20.2.16/28', private_ip_address_allocation: 'Dynamic', private_ip_address_version: 'IPv4', public_ip_address_id: '', subnet_id: `${N('subid')}/virtualNetworks/rg1-vnet/subnets/default` },
    ],
    mac_address: '00-0D-3A-1B-C7-21', private_ip_address: '172.20.2.4', private_ip_addresses: ['172.20.2.4', '172.20.2.16/28'], tags: {}, virtual_machine_id: '/subscriptions/subid/resourceGroups/rg1/providers/Microsoft.Compute/virtualMachines/vm1',
  }),
  instance('azurerm_network_interface_security_group_association', 'test', {
    id: `${N('subid')}/networkInterfaces/test-nic|${N('subid')}/networkSecurityGroups/nsg`, network_interface_id: `${N('subid')}/networkInterfaces/test-nic`, network_security_group_id: `${N('subid')}/networkSecurityGroups/nsg`,
  }),
  instance('azurerm_public_ip', 'test', {
    id: `${N('subid')}/publicIPAddresses/testDNS-ip`, name: 'testDNS-ip', location: 'westus', resource_group_name: 'rg1', allocation_method: 'Dynamic', ddos_protection_mode: 'Enabled',
    ddos_protection_plan_id: `${N('subid')}/ddosProtectionPlans/test-plan`, domain_name_label: null, domain_name_label_scope: null, edge_zone: '', fqdn: null, idle_timeout_in_minutes: 4, ip_address: '',
    ip_tags: { FirstPartyUsage: 'Storage' }, ip_version: 'IPv4', public_ip_prefix_id: null, reverse_fqdn: null, sku: 'Basic', sku_tier: 'Regional', tags: {}, zones: [],
  }),
  instance('azurerm_lb', 'test', {
    id: lbId, name: 'lb', location: 'westus', resource_group_name: 'rg1', sku: 'Basic', sku_tier: 'Regional', edge_zone: '', tags: {}, private_ip_address: '10.0.1.4', private_ip_addresses: ['10.0.1.4'],
    frontend_ip_configuration: [{
      gateway_load_balancer_frontend_ip_configuration_id: '', id: `${lbId}/frontendIPConfigurations/fe-lb`, inbound_nat_rules: [], load_balancer_rules: [`${lbId}/loadBalancingRules/rulelb`],
      name: 'fe-lb', outbound_rules: [], private_ip_address: '10.0.1.4', private_ip_address_allocation: 'Dynamic', private_ip_address_version: 'IPv4', public_ip_address_id: '',
      public_ip_prefix_id: '', subnet_id: `${N('subid')}/virtualNetworks/vnetlb/subnets/subnetlb`, zones: [],
    }],
  }),
  instance('azurerm_lb_backend_address_pool', 'test', {
    id: `${lbId}/backendAddressPools/be-lb`, name: 'be-lb', loadbalancer_id: lbId, backend_ip_configurations: [], inbound_nat_rules: [], load_balancing_rules: [`${lbId}/loadBalancingRules/rulelb`],
    outbound_rules: [], synchronous_mode: '', tunnel_interface: [], virtual_network_id: '',
  }),
  instance('azurerm_lb_rule', 'test', {
    id: `${lbId}/loadBalancingRules/rulelb`, name: 'rulelb', loadbalancer_id: lbId, backend_address_pool_ids: [`${lbId}/backendAddressPools/be-lb`], backend_port: 80, disable_outbound_snat: false,
    enable_floating_ip: true, enable_tcp_reset: true, frontend_ip_configuration_id: `${lbId}/frontendIPConfigurations/fe-lb`, frontend_ip_configuration_name: 'fe-lb', frontend_port: 80,
    idle_timeout_in_minutes: 15, load_distribution: 'Default', probe_id: `${lbId}/probes/probe-lb`, protocol: 'Tcp',
  }),
  instance('azurerm_lb_probe', 'test', {
    id: `${lbId}/probes/probe-lb`, name: 'probe-lb', loadbalancer_id: lbId, interval_in_seconds: 15, load_balancer_rules: [`${lbId}/loadBalancingRules/rulelb`], number_of_probes: 2,
    port: 80, probe_threshold: 1, protocol: 'Http', request_path: 'healthcheck.aspx',
  }),
];
