// The two azurerm false drifts issue 33 measured on hidden states, replayed: a Log Analytics
// workspace whose state spells the SKU as ARM does (older providers wrote `pergb2018`) or holds
// none, and a virtual network whose state's `subnet` block lists subnets that azurerm_subnet
// resources manage (the block was refreshed before the subnet resources changed them).
import t from 'tap';
import { replayState } from '../../../runner-agent/src/engine/replay.ts';

const SUB = '00000000-0000-0000-0000-0000000000cc';
const RG = `/subscriptions/${SUB}/resourceGroups/tail-rg`;
const VNET = `${RG}/providers/Microsoft.Network/virtualNetworks/hub`;
const res = (type: string, name: string, attributes: Record<string, unknown>) => ({
  mode: 'managed', type, name, provider: 'provider["registry.terraform.io/hashicorp/azurerm"]', instances: [{ schema_version: 0, attributes }],
});
const doc = (resources: unknown[]) => JSON.stringify({ version: 4, terraform_version: '1.5.7', serial: 3, lineage: 'l', outputs: {}, resources });

t.test('a workspace SKU spelled as ARM spells it, or left empty by the provider, is no drift', async (t) => {
  const ws = (name: string, sku: unknown) => res('azurerm_log_analytics_workspace', name, {
    id: `${RG}/providers/Microsoft.OperationalInsights/workspaces/${name}`, name, location: 'westeurope', resource_group_name: 'tail-rg',
    sku, retention_in_days: 30, daily_quota_gb: -1, internet_ingestion_enabled: true, internet_query_enabled: true, tags: {},
    workspace_id: '11111111-2222-3333-4444-555555555555', local_authentication_disabled: false, reservation_capacity_in_gb_per_day: null,
  });
  const r = await replayState(doc([ws('lower', 'pergb2018'), ws('empty', ''), ws('free', 'Free'), ws('capacity', 'CapacityReservation')]), 'ws.tfstate');
  t.equal(r.compared, 4);
  t.same(r.drifts.map((d) => `${d.resourceAddress} ${JSON.stringify(d.attributes)}`), []);
});

t.test('a vnet whose subnet block lists subnets azurerm_subnet resources manage reports none of them', async (t) => {
  const vnet = res('azurerm_virtual_network', 'hub', {
    id: VNET, name: 'hub', location: 'westeurope', resource_group_name: 'tail-rg', address_space: ['10.1.0.0/16'], dns_servers: [],
    bgp_community: '', ddos_protection_plan: [], edge_zone: '', encryption: [], flow_timeout_in_minutes: 0, guid: 'g', tags: {},
    // Refreshed before the subnet resource moved `app` to another prefix and gave it an NSG.
    subnet: [
      { address_prefixes: ['10.1.1.0/24'], id: `${VNET}/subnets/app`, name: 'app', security_group: '', default_outbound_access_enabled: true, delegation: [], private_endpoint_network_policies: 'Disabled', private_link_service_network_policies_enabled: true, route_table_id: '', service_endpoint_policy_ids: [], service_endpoints: [] },
      { address_prefixes: ['10.1.9.0/24'], id: `${VNET}/subnets/inline`, name: 'inline', security_group: '', default_outbound_access_enabled: true, delegation: [], private_endpoint_network_policies: 'Disabled', private_link_service_network_policies_enabled: true, route_table_id: '', service_endpoint_policy_ids: [], service_endpoints: [] },
    ],
  });
  const subnet = res('azurerm_subnet', 'app', {
    id: `${VNET}/subnets/app`, name: 'app', resource_group_name: 'tail-rg', virtual_network_name: 'hub', address_prefixes: ['10.1.2.0/24'],
    default_outbound_access_enabled: true, delegation: [], private_endpoint_network_policies: 'Disabled', private_link_service_network_policies_enabled: true,
    service_endpoint_policy_ids: [], service_endpoints: [],
  });
  const nsg = res('azurerm_subnet_network_security_group_association', 'app', {
    id: `${VNET}/subnets/app`, subnet_id: `${VNET}/subnets/app`, network_security_group_id: `${RG}/providers/Microsoft.Network/networkSecurityGroups/app`,
  });
  const r = await replayState(doc([vnet, subnet, nsg]), 'vnet.tfstate');
  t.equal(r.compared, 3);
  t.same(r.drifts.map((d) => `${d.resourceAddress} ${JSON.stringify(d.attributes)}`), []);
});

t.test('an inline subnet (no azurerm_subnet resource) changed live is still a drift on the vnet', async (t) => {
  const { compareAgainst, instance, changed } = await import('./harness.ts');
  const inline = [{ address_prefixes: ['10.1.9.0/24'], id: `${VNET}/subnets/inline`, name: 'inline', security_group: '' }];
  const vnet = instance('azurerm_virtual_network', 'hub', {
    id: VNET, name: 'hub', location: 'westeurope', resource_group_name: 'tail-rg', address_space: ['10.1.0.0/16'], dns_servers: [], tags: {}, subnet: inline,
  });
  const got = await compareAgainst('azure', [vnet], [changed(vnet, { subnet: [{ ...inline[0], address_prefixes: ['10.1.8.0/24'] }] })]);
  t.same(got.drifts.map((d) => d.diff.map((x) => x.attribute)), [['subnet']]);
});
