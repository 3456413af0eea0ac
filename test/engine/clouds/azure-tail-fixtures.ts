// State instances of the tail/ azurerm types (issue 33), shaped as azurerm 3.x/4.x writes them
// (attribute names, defaults, computed values), for azure-tail.test.ts and the written-* states
// of test/engine/corpus-azurerm.
import { instance } from './harness.ts';

export const SUB = '00000000-0000-0000-0000-0000000000dd';
export const RG = `/subscriptions/${SUB}/resourceGroups/tail-rg`;
const NET = `${RG}/providers/Microsoft.Network`;
const COMPUTE = `${RG}/providers/Microsoft.Compute`;
export const ids = {
  vnet: `${NET}/virtualNetworks/core`,
  subnet: (s: string) => `${NET}/virtualNetworks/core/subnets/${s}`,
  pip: (n: string) => `${NET}/publicIPAddresses/${n}`,
  nat: (n: string) => `${NET}/natGateways/${n}`,
  routeTable: (n: string) => `${NET}/routeTables/${n}`,
  lb: `${NET}/loadBalancers/web-lb`,
  nic: (n: string) => `${NET}/networkInterfaces/${n}`,
  vm: (n: string) => `${COMPUTE}/virtualMachines/${n}`,
  disk: (n: string) => `${COMPUTE}/disks/${n}`,
  workspace: `${RG}/providers/Microsoft.OperationalInsights/workspaces/logs`,
  vault: `${RG}/providers/Microsoft.KeyVault/vaults/tail-kv`,
  pg: `${RG}/providers/Microsoft.DBforPostgreSQL/flexibleServers/pg-tail`,
  mysql: `${RG}/providers/Microsoft.DBforMySQL/flexibleServers/my-tail`,
  cosmos: `${RG}/providers/Microsoft.DocumentDB/databaseAccounts/cosmos-tail`,
  env: `${RG}/providers/Microsoft.App/managedEnvironments/apps-env`,
  storage: `${RG}/providers/Microsoft.Storage/storageAccounts/tailstore`,
};
type A = Record<string, unknown>;
const tags = { env: 'prod' };

export const nat = (attrs: A = {}) => instance('azurerm_nat_gateway', 'egress', {
  id: ids.nat('egress'), name: 'egress', location: 'westeurope', resource_group_name: 'tail-rg', sku_name: 'Standard', idle_timeout_in_minutes: 10,
  zones: ['1'], resource_guid: '7b1c2d3e-0000-4000-8000-000000000001', tags, timeouts: null, ...attrs,
});
export const natPip = () => instance('azurerm_nat_gateway_public_ip_association', 'egress', {
  id: `${ids.nat('egress')}|${ids.pip('nat-ip')}`, nat_gateway_id: ids.nat('egress'), public_ip_address_id: ids.pip('nat-ip'), timeouts: null,
});
export const subnetNat = () => instance('azurerm_subnet_nat_gateway_association', 'app', {
  id: ids.subnet('app'), subnet_id: ids.subnet('app'), nat_gateway_id: ids.nat('egress'), timeouts: null,
});
export const routeTable = (attrs: A = {}) => instance('azurerm_route_table', 'spoke', {
  id: ids.routeTable('spoke'), name: 'spoke', location: 'westeurope', resource_group_name: 'tail-rg', bgp_route_propagation_enabled: true,
  route: [
    { name: 'to-hub', address_prefix: '10.0.0.0/16', next_hop_type: 'VirtualNetworkGateway', next_hop_in_ip_address: '' },
    { name: 'onprem', address_prefix: '192.168.0.0/16', next_hop_type: 'VirtualAppliance', next_hop_in_ip_address: '10.0.9.4' },
  ],
  subnets: [ids.subnet('app')], tags, timeouts: null, ...attrs,
});
export const subnetRoute = () => instance('azurerm_subnet_route_table_association', 'app', {
  id: ids.subnet('app'), subnet_id: ids.subnet('app'), route_table_id: ids.routeTable('spoke'), timeouts: null,
});
export const bastion = (attrs: A = {}) => instance('azurerm_bastion_host', 'jump', {
  id: `${NET}/bastionHosts/jump`, name: 'jump', location: 'westeurope', resource_group_name: 'tail-rg', sku: 'Standard', scale_units: 2,
  copy_paste_enabled: true, file_copy_enabled: false, ip_connect_enabled: false, shareable_link_enabled: false, tunneling_enabled: false,
  kerberos_enabled: false, session_recording_enabled: false, virtual_network_id: '', zones: [], dns_name: 'bst-0000.bastion.azure.com',
  ip_configuration: [{ name: 'configuration', subnet_id: ids.subnet('AzureBastionSubnet'), public_ip_address_id: ids.pip('bastion-ip') }], tags, timeouts: null, ...attrs,
});
export const vpnGateway = (attrs: A = {}) => instance('azurerm_virtual_network_gateway', 'vpn', {
  id: `${NET}/virtualNetworkGateways/vpn`, name: 'vpn', location: 'westeurope', resource_group_name: 'tail-rg', type: 'Vpn', vpn_type: 'RouteBased',
  sku: 'VpnGw1', generation: 'Generation1', active_active: false, enable_bgp: false, private_ip_address_enabled: false, default_local_network_gateway_id: '',
  ip_sec_replay_protection_enabled: true, bgp_route_translation_for_nat_enabled: false, dns_forwarding_enabled: false, remote_vnet_traffic_enabled: false, virtual_wan_traffic_enabled: false,
  edge_zone: '', bgp_settings: [{ asn: 65515, peer_weight: 0, peering_addresses: [{ apipa_addresses: [], default_addresses: ['10.0.255.30'], ip_configuration_name: 'vnetGatewayConfig', tunnel_ip_addresses: [] }] }],
  ip_configuration: [{ name: 'vnetGatewayConfig', private_ip_address_allocation: 'Dynamic', public_ip_address_id: ids.pip('vpn-ip'), subnet_id: ids.subnet('GatewaySubnet') }],
  vpn_client_configuration: [], custom_route: [], tags, timeouts: null, ...attrs,
});
export const endpoint = (attrs: A = {}) => instance('azurerm_private_endpoint', 'kv', {
  id: `${NET}/privateEndpoints/kv-pe`, name: 'kv-pe', location: 'westeurope', resource_group_name: 'tail-rg', subnet_id: ids.subnet('endpoints'),
  custom_network_interface_name: '', custom_dns_configs: [{ fqdn: 'tail-kv.vault.azure.net', ip_addresses: ['10.0.3.4'] }],
  network_interface: [{ id: ids.nic('kv-pe.nic.0000'), name: 'kv-pe.nic.0000' }], private_dns_zone_configs: [], private_dns_zone_group: [], ip_configuration: [],
  private_service_connection: [{ name: 'kv', is_manual_connection: false, private_connection_resource_id: ids.vault, private_connection_resource_alias: '', private_ip_address: '10.0.3.4', request_message: '', subresource_names: ['vault'] }],
  tags, timeouts: null, ...attrs,
});
export const natRule = (attrs: A = {}) => instance('azurerm_lb_nat_rule', 'ssh', {
  id: `${ids.lb}/inboundNatRules/ssh`, name: 'ssh', loadbalancer_id: ids.lb, resource_group_name: 'tail-rg', protocol: 'Tcp', frontend_port: 50001, backend_port: 22,
  frontend_port_start: 0, frontend_port_end: 0, backend_address_pool_id: '', frontend_ip_configuration_name: 'public',
  frontend_ip_configuration_id: `${ids.lb}/frontendIPConfigurations/public`, backend_ip_configuration_id: '', idle_timeout_in_minutes: 4,
  enable_floating_ip: false, enable_tcp_reset: false, timeouts: null, ...attrs,
});
export const poolAddress = (attrs: A = {}) => instance('azurerm_lb_backend_address_pool_address', 'web1', {
  id: `${ids.lb}/backendAddressPools/web/addresses/web1`, name: 'web1', backend_address_pool_id: `${ids.lb}/backendAddressPools/web`,
  virtual_network_id: ids.vnet, ip_address: '10.0.1.10', backend_address_ip_configuration_id: '', inbound_nat_rule_port_mapping: [], timeouts: null, ...attrs,
});
export const nicPool = () => instance('azurerm_network_interface_backend_address_pool_association', 'web1', {
  id: `${ids.nic('web1')}/ipConfigurations/internal|${ids.lb}/backendAddressPools/web`, network_interface_id: ids.nic('web1'),
  ip_configuration_name: 'internal', backend_address_pool_id: `${ids.lb}/backendAddressPools/web`, timeouts: null,
});
export const availabilitySet = (attrs: A = {}) => instance('azurerm_availability_set', 'web', {
  id: `${COMPUTE}/availabilitySets/web`, name: 'web', location: 'westeurope', resource_group_name: 'tail-rg', managed: true,
  platform_fault_domain_count: 2, platform_update_domain_count: 5, proximity_placement_group_id: '', tags, timeouts: null, ...attrs,
});
export const diskAttachment = (attrs: A = {}) => instance('azurerm_virtual_machine_data_disk_attachment', 'data', {
  id: `${ids.vm('web1')}/dataDisks/web1-data`, virtual_machine_id: ids.vm('web1'), managed_disk_id: ids.disk('web1-data'), lun: 10, caching: 'ReadWrite',
  create_option: 'Attach', write_accelerator_enabled: false, timeouts: null, ...attrs,
});
export const extension = (attrs: A = {}) => instance('azurerm_virtual_machine_extension', 'monitor', {
  id: `${ids.vm('web1')}/extensions/AzureMonitorLinuxAgent`, name: 'AzureMonitorLinuxAgent', virtual_machine_id: ids.vm('web1'),
  publisher: 'Microsoft.Azure.Monitor', type: 'AzureMonitorLinuxAgent', type_handler_version: '1.0', auto_upgrade_minor_version: true, automatic_upgrade_enabled: true,
  failure_suppression_enabled: false, provision_after_extensions: [], protected_settings: null, protected_settings_from_key_vault: [],
  settings: '{"workspaceId":"11111111-2222-3333-4444-555555555555", "stopOnMultipleConnections": false}', tags: {}, timeouts: null, ...attrs,
});
export const shutdown = (attrs: A = {}) => instance('azurerm_dev_test_global_vm_shutdown_schedule', 'web1', {
  id: `${RG}/providers/Microsoft.DevTestLab/schedules/shutdown-computevm-web1`, location: 'westeurope', virtual_machine_id: ids.vm('web1'), enabled: true,
  daily_recurrence_time: '1900', timezone: 'W. Europe Standard Time',
  notification_settings: [{ enabled: true, email: 'ops@example.com', time_in_minutes: 30, webhook_url: '' }], tags: {}, timeouts: null, ...attrs,
});
export const pgDatabase = (attrs: A = {}) => instance('azurerm_postgresql_flexible_server_database', 'app', {
  id: `${ids.pg}/databases/app`, name: 'app', server_id: ids.pg, charset: 'UTF8', collation: 'en_US.utf8', timeouts: null, ...attrs,
});
export const mysql = (attrs: A = {}) => instance('azurerm_mysql_flexible_server', 'main', {
  id: ids.mysql, name: 'my-tail', location: 'westeurope', resource_group_name: 'tail-rg', administrator_login: 'mysqladmin', administrator_password: 'Xxxxxxxx0000!',
  sku_name: 'B_Standard_B1ms', version: '8.0.21', zone: '1', backup_retention_days: 7, geo_redundant_backup_enabled: false,
  delegated_subnet_id: '', private_dns_zone_id: '', public_network_access_enabled: true, replication_role: 'None', replica_capacity: 10,
  fqdn: 'my-tail.mysql.database.azure.com', high_availability: [], maintenance_window: [], customer_managed_key: [], identity: [],
  storage: [{ auto_grow_enabled: true, io_scaling_enabled: false, iops: 360, log_on_disk_enabled: false, size_gb: 20 }], tags, timeouts: null, ...attrs,
});
export const mysqlDatabase = (attrs: A = {}) => instance('azurerm_mysql_flexible_server_database', 'app', {
  id: `${ids.mysql}/databases/app`, name: 'app', resource_group_name: 'tail-rg', server_name: 'my-tail', charset: 'utf8mb4', collation: 'utf8mb4_unicode_ci', timeouts: null, ...attrs,
});
export const cosmos = (attrs: A = {}) => instance('azurerm_cosmosdb_account', 'db', {
  id: ids.cosmos, name: 'cosmos-tail', location: 'westeurope', resource_group_name: 'tail-rg', offer_type: 'Standard', kind: 'GlobalDocumentDB',
  consistency_policy: [{ consistency_level: 'Session', max_interval_in_seconds: 5, max_staleness_prefix: 100 }],
  geo_location: [{ failover_priority: 0, id: 'cosmos-tail-westeurope', location: 'westeurope', zone_redundant: false }],
  ip_range_filter: ['203.0.113.0/24'], public_network_access_enabled: false, is_virtual_network_filter_enabled: false, virtual_network_rule: [],
  automatic_failover_enabled: false, free_tier_enabled: false, multiple_write_locations_enabled: false, analytical_storage_enabled: false,
  local_authentication_disabled: false, access_key_metadata_writes_enabled: true, capabilities: [{ name: 'EnableServerless' }], minimal_tls_version: 'Tls12',
  endpoint: 'https://cosmos-tail.documents.azure.com:443/', primary_key: 'xxxx', connection_strings: [], tags, timeouts: null, ...attrs,
});
/** An azurerm 3.x account: ip_range_filter as one string, enable_* names. */
export const cosmosV3 = (attrs: A = {}) => instance('azurerm_cosmosdb_account', 'legacy', {
  id: `${RG}/providers/Microsoft.DocumentDB/databaseAccounts/cosmos-legacy`, name: 'cosmos-legacy', location: 'westeurope', resource_group_name: 'tail-rg',
  offer_type: 'Standard', kind: 'MongoDB', consistency_policy: [{ consistency_level: 'BoundedStaleness', max_interval_in_seconds: 300, max_staleness_prefix: 100000 }],
  geo_location: [{ failover_priority: 0, id: 'cosmos-legacy-westeurope', location: 'westeurope', zone_redundant: false }, { failover_priority: 1, id: 'cosmos-legacy-northeurope', location: 'northeurope', zone_redundant: false }],
  ip_range_filter: '104.42.195.92,40.76.54.131', public_network_access_enabled: true, is_virtual_network_filter_enabled: false, virtual_network_rule: [],
  enable_automatic_failover: true, enable_free_tier: false, enable_multiple_write_locations: false, analytical_storage_enabled: false,
  local_authentication_disabled: false, access_key_metadata_writes_enabled: true, capabilities: [{ name: 'EnableMongo' }, { name: 'DisableRateLimitingResponses' }],
  tags: {}, timeouts: null, ...attrs,
});
export const cosmosDb = () => instance('azurerm_cosmosdb_sql_database', 'app', {
  id: `${ids.cosmos}/sqlDatabases/app`, name: 'app', resource_group_name: 'tail-rg', account_name: 'cosmos-tail', autoscale_settings: [], throughput: null, timeouts: null,
});
export const cosmosContainer = (attrs: A = {}) => instance('azurerm_cosmosdb_sql_container', 'orders', {
  id: `${ids.cosmos}/sqlDatabases/app/containers/orders`, name: 'orders', resource_group_name: 'tail-rg', account_name: 'cosmos-tail', database_name: 'app',
  partition_key_paths: ['/customerId'], partition_key_version: 2, default_ttl: -1, analytical_storage_ttl: null, unique_key: [{ paths: ['/orderNo'] }],
  indexing_policy: [], conflict_resolution_policy: [], autoscale_settings: [], throughput: null, timeouts: null, ...attrs,
});
export const appEnv = (attrs: A = {}) => instance('azurerm_container_app_environment', 'apps', {
  id: ids.env, name: 'apps-env', location: 'westeurope', resource_group_name: 'tail-rg', log_analytics_workspace_id: ids.workspace,
  infrastructure_subnet_id: ids.subnet('apps'), internal_load_balancer_enabled: false, zone_redundancy_enabled: false, mutual_tls_enabled: false,
  default_domain: 'bluesky-0000.westeurope.azurecontainerapps.io', static_ip_address: '20.0.0.10', docker_bridge_cidr: '', platform_reserved_cidr: '',
  platform_reserved_dns_ip_address: '', workload_profile: [], tags, timeouts: null, ...attrs,
});
export const containerApp = (attrs: A = {}) => instance('azurerm_container_app', 'api', {
  id: `${RG}/providers/Microsoft.App/containerApps/api`, name: 'api', resource_group_name: 'tail-rg', location: 'westeurope', container_app_environment_id: ids.env,
  revision_mode: 'Single', workload_profile_name: '', latest_revision_fqdn: 'api--0000.bluesky-0000.westeurope.azurecontainerapps.io', latest_revision_name: 'api--0000',
  outbound_ip_addresses: ['20.0.0.11'], secret: [], identity: [], registry: [], dapr: [],
  ingress: [{ allow_insecure_connections: false, external_enabled: true, target_port: 8080, transport: 'auto', fqdn: 'api.bluesky-0000.westeurope.azurecontainerapps.io', exposed_port: 0, traffic_weight: [{ latest_revision: true, percentage: 100, label: '', revision_suffix: '' }], custom_domain: [], ip_security_restriction: [] }],
  template: [{ min_replicas: 1, max_replicas: 3, revision_suffix: '', container: [{ name: 'api', image: 'ghcr.io/example/api:1.4.2', cpu: 0.5, memory: '1Gi', env: [], args: [], command: [], ephemeral_storage: '2Gi' }] }],
  tags, timeouts: null, ...attrs,
});
export const plan = (attrs: A = {}) => instance('azurerm_app_service_plan', 'legacy', {
  id: `${RG}/providers/Microsoft.Web/serverfarms/legacy-plan`, name: 'legacy-plan', location: 'westeurope', resource_group_name: 'tail-rg', kind: 'Linux', reserved: true,
  per_site_scaling: false, is_xenon: false, zone_redundant: false, maximum_elastic_worker_count: 1, maximum_number_of_workers: 3,
  sku: [{ tier: 'Basic', size: 'B1', capacity: 1 }], app_service_environment_id: '', tags, timeouts: null, ...attrs,
});
export const appService = (attrs: A = {}) => instance('azurerm_app_service', 'legacy', {
  id: `${RG}/providers/Microsoft.Web/sites/legacy-app`, name: 'legacy-app', location: 'westeurope', resource_group_name: 'tail-rg',
  app_service_plan_id: `${RG}/providers/Microsoft.Web/serverfarms/legacy-plan`, enabled: true, https_only: true, client_affinity_enabled: false,
  client_cert_enabled: false, client_cert_mode: 'Required', default_site_hostname: 'legacy-app.azurewebsites.net', site_credential: [{ username: '$legacy-app', password: 'xxxx' }],
  app_settings: {}, connection_string: [], site_config: [], tags, timeouts: null, ...attrs,
});
export const solution = (attrs: A = {}) => instance('azurerm_log_analytics_solution', 'containers', {
  id: `${RG}/providers/Microsoft.OperationsManagement/solutions/ContainerInsights(logs)`, location: 'westeurope', resource_group_name: 'tail-rg',
  solution_name: 'ContainerInsights', workspace_name: 'logs', workspace_resource_id: ids.workspace,
  plan: [{ name: 'ContainerInsights(logs)', product: 'OMSGallery/ContainerInsights', promotion_code: '', publisher: 'Microsoft' }], tags: {}, timeouts: null, ...attrs,
});
/** An azurerm 3.x share: the data-plane URL as id, the ARM id beside it. */
export const share = (attrs: A = {}) => instance('azurerm_storage_share', 'data', {
  id: 'https://tailstore.file.core.windows.net/data', name: 'data', storage_account_name: 'tailstore', quota: 100, enabled_protocol: 'SMB', access_tier: 'TransactionOptimized',
  metadata: { team: 'ops' }, acl: [{ id: 'MTIzNDU2Nzg5MDEyMzQ1Njc4OTAxMjM0NTY3ODkwMTI', access_policy: [{ permissions: 'rwdl', start: '2024-01-01T00:00:00.0000000Z', expiry: '2025-01-01T00:00:00.0000000Z' }] }],
  resource_manager_id: `${ids.storage}/fileServices/default/shares/data`, url: 'https://tailstore.file.core.windows.net/data', timeouts: null, ...attrs,
});
export const secret = (attrs: A = {}) => instance('azurerm_key_vault_secret', 'db', {
  id: 'https://tail-kv.vault.azure.net/secrets/db-password/0a1b2c3d4e5f40718293a4b5c6d7e8f9', name: 'db-password', key_vault_id: ids.vault,
  value: 'Xxxxxxxxxx0000xxxx', content_type: 'password', not_before_date: null, expiration_date: '2027-01-01T00:00:00Z', version: '0a1b2c3d4e5f40718293a4b5c6d7e8f9',
  versionless_id: 'https://tail-kv.vault.azure.net/secrets/db-password', resource_id: `${ids.vault}/secrets/db-password/versions/0a1b2c3d4e5f40718293a4b5c6d7e8f9`,
  resource_versionless_id: `${ids.vault}/secrets/db-password`, tags: { rotation: 'yearly' }, timeouts: null, ...attrs,
});

export const blob = (attrs: A = {}) => instance('azurerm_storage_blob', 'bootstrap', {
  id: 'https://tailstore.blob.core.windows.net/scripts/bootstrap.sh', name: 'bootstrap.sh', storage_account_name: 'tailstore', storage_container_name: 'scripts',
  type: 'Block', size: 0, access_tier: 'Hot', content_type: 'text/x-shellscript', content_md5: '', cache_control: '', encryption_scope: '', metadata: {},
  parallelism: 8, source: 'bootstrap.sh', source_content: null, source_uri: null, url: 'https://tailstore.blob.core.windows.net/scripts/bootstrap.sh', timeouts: null, ...attrs,
});
export const shareFile = (attrs: A = {}) => instance('azurerm_storage_share_file', 'readme', {
  id: 'https://tailstore.file.core.windows.net/data/docs/READ ME.txt', name: 'READ ME.txt', path: 'docs', storage_share_id: 'https://tailstore.file.core.windows.net/data',
  source: 'README.txt', content_type: 'text/plain', content_md5: '9e107d9d372bb6826bd81d3542a419d6', content_encoding: '', content_disposition: '', metadata: { owner: 'ops' }, timeouts: null, ...attrs,
});

export const estate = () => [
  nat(), natPip(), subnetNat(), routeTable(), subnetRoute(), bastion(), vpnGateway(), endpoint(), natRule(), poolAddress(), nicPool(),
  availabilitySet(), diskAttachment(), extension(), shutdown(), pgDatabase(), mysql(), mysqlDatabase(), cosmos(), cosmosV3(), cosmosDb(), cosmosContainer(),
  appEnv(), containerApp(), plan(), appService(), solution(), share(), secret(), blob(), shareFile(),
];
