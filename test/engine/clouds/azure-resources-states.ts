// State instances of the compute, storage, identity and platform azurerm types, shaped as the
// provider (3.x unless named) writes them: every attribute of the schema, mapped or not, with
// the provider's empty values, so a read back through the fake also shows that unmapped and
// computed attributes stay out of the comparison.
import type { DetectedDrift, StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { instance } from './harness.ts';

export const SUB = '3f2c8a4e-1b7d-4c55-9e0a-6d2b1f8c7a90';
export const TENANT = '72f988bf-86f1-41af-91ab-2d7cd011db47';
export const RG = `/subscriptions/${SUB}/resourceGroups/rg-app`;
const NIC = `${RG}/providers/Microsoft.Network/networkInterfaces`;
const UAI = `${RG}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/id-app`;
const KEY = 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7Vw2 generated-by-azure';

export function linuxVm(name: string, attrs: Record<string, unknown> = {}): StateInstance {
  return instance('azurerm_linux_virtual_machine', name, {
    id: `${RG}/providers/Microsoft.Compute/virtualMachines/${name}`, name, resource_group_name: 'rg-app', location: 'westeurope',
    size: 'Standard_B2s', admin_username: 'azureuser', admin_password: null, computer_name: name, custom_data: null,
    admin_ssh_key: [{ public_key: KEY, username: 'azureuser' }], disable_password_authentication: true,
    network_interface_ids: [`${NIC}/${name}-nic`], zone: '', availability_set_id: '', allow_extension_operations: true,
    boot_diagnostics: [{ storage_account_uri: '' }], encryption_at_host_enabled: false, eviction_policy: '', extensions_time_budget: 'PT1H30M',
    identity: [{ type: 'SystemAssigned, UserAssigned', identity_ids: [UAI], principal_id: '11111111-2222-3333-4444-555555555555', tenant_id: TENANT }],
    license_type: '', max_bid_price: -1, os_disk: [{
      caching: 'ReadWrite', diff_disk_settings: [], disk_encryption_set_id: '', disk_size_gb: 30, name: `${name}_OsDisk_1_4c1f`,
      secure_vm_disk_encryption_set_id: '', security_encryption_type: '', storage_account_type: 'Premium_LRS', write_accelerator_enabled: false,
    }],
    patch_assessment_mode: 'ImageDefault', patch_mode: 'ImageDefault', platform_fault_domain: -1, priority: 'Regular',
    private_ip_address: '10.0.1.4', private_ip_addresses: ['10.0.1.4'], provision_vm_agent: true, public_ip_address: '20.1.2.3', public_ip_addresses: ['20.1.2.3'],
    secure_boot_enabled: false, source_image_id: '', source_image_reference: [{ offer: '0001-com-ubuntu-server-jammy', publisher: 'Canonical', sku: '22_04-lts-gen2', version: 'latest' }],
    tags: { env: 'prod' }, timeouts: null, user_data: '', virtual_machine_id: '5e3b1c2d-0000-4000-8000-000000000001', vtpm_enabled: false,
    additional_capabilities: [], gallery_application: [], plan: [], secret: [], termination_notification: [], ...attrs,
  }, [[ 'admin_password' ], [ 'custom_data' ]]);
}

export function windowsVm(name: string, attrs: Record<string, unknown> = {}): StateInstance {
  return instance('azurerm_windows_virtual_machine', name, {
    id: `${RG}/providers/Microsoft.Compute/virtualMachines/${name}`, name, resource_group_name: 'rg-app', location: 'westeurope',
    size: 'Standard_D2s_v3', admin_username: 'adminuser', admin_password: 'P@ssw0rd1234!', computer_name: name,
    network_interface_ids: [`${NIC}/${name}-nic`], zone: '1', allow_extension_operations: true, enable_automatic_updates: true,
    boot_diagnostics: [], encryption_at_host_enabled: false, hotpatching_enabled: false, identity: [], license_type: '',
    os_disk: [{ caching: 'ReadWrite', disk_size_gb: 127, name: `${name}-osdisk`, storage_account_type: 'Standard_LRS', write_accelerator_enabled: false, disk_encryption_set_id: '' }],
    patch_mode: 'AutomaticByOS', priority: 'Regular', provision_vm_agent: true, timezone: '',
    source_image_reference: [{ offer: 'WindowsServer', publisher: 'MicrosoftWindowsServer', sku: '2019-Datacenter', version: 'latest' }],
    tags: {}, virtual_machine_id: '5e3b1c2d-0000-4000-8000-000000000002', winrm_listener: [], ...attrs,
  }, [['admin_password']]);
}

export function legacyVm(name: string, attrs: Record<string, unknown> = {}): StateInstance {
  return instance('azurerm_virtual_machine', name, {
    id: `${RG}/providers/Microsoft.Compute/virtualMachines/${name}`, name, resource_group_name: 'rg-app', location: 'eastus',
    vm_size: 'Standard_DS1_v2', availability_set_id: '', delete_data_disks_on_termination: true, delete_os_disk_on_termination: true,
    network_interface_ids: [`${NIC}/${name}-nic`], primary_network_interface_id: '', zones: [], license_type: '', tags: { team: 'ops' },
    boot_diagnostics: [{ enabled: true, storage_uri: 'https://diagsa.blob.core.windows.net/' }], identity: [], plan: [], additional_capabilities: [],
    os_profile: [{ admin_password: '', admin_username: 'testadmin', computer_name: 'hostname', custom_data: '' }], os_profile_secrets: [],
    os_profile_linux_config: [{ disable_password_authentication: false, ssh_keys: [] }], os_profile_windows_config: [],
    storage_image_reference: [{ id: '', offer: 'UbuntuServer', publisher: 'Canonical', sku: '16.04-LTS', version: 'latest' }],
    storage_os_disk: [{ caching: 'ReadWrite', create_option: 'FromImage', disk_size_gb: 30, image_uri: '', managed_disk_id: `${RG}/providers/Microsoft.Compute/disks/myosdisk1`,
      managed_disk_type: 'Standard_LRS', name: 'myosdisk1', os_type: 'Linux', vhd_uri: '', write_accelerator_enabled: false }],
    storage_data_disk: [
      { caching: 'None', create_option: 'Empty', disk_size_gb: 64, lun: 0, managed_disk_id: `${RG}/providers/Microsoft.Compute/disks/data0`, managed_disk_type: 'Standard_LRS', name: 'data0', vhd_uri: '', write_accelerator_enabled: false },
      { caching: 'ReadOnly', create_option: 'Attach', disk_size_gb: 128, lun: 1, managed_disk_id: `${RG}/providers/Microsoft.Compute/disks/data1`, managed_disk_type: 'Premium_LRS', name: 'data1', vhd_uri: '', write_accelerator_enabled: false },
    ],
    ...attrs,
  }, [['os_profile']]);
}

export function disk(name: string, attrs: Record<string, unknown> = {}): StateInstance {
  return instance('azurerm_managed_disk', name, {
    id: `${RG}/providers/Microsoft.Compute/disks/${name}`, name, resource_group_name: 'rg-app', location: 'westeurope',
    storage_account_type: 'Premium_LRS', create_option: 'Empty', disk_size_gb: 64, zone: '', os_type: '', tier: 'P6',
    disk_iops_read_write: 240, disk_mbps_read_write: 50, disk_iops_read_only: 0, disk_mbps_read_only: 0, max_shares: 0,
    network_access_policy: 'AllowAll', public_network_access_enabled: true, on_demand_bursting_enabled: false, trusted_launch_enabled: false,
    source_resource_id: '', source_uri: '', image_reference_id: '', gallery_image_reference_id: '', disk_encryption_set_id: '', disk_access_id: '',
    edge_zone: '', encryption_settings: [], hyper_v_generation: '', logical_sector_size: 4096, storage_account_id: '', tags: { env: 'prod' }, ...attrs,
  });
}

export function aks(name: string, attrs: Record<string, unknown> = {}): StateInstance {
  return instance('azurerm_kubernetes_cluster', name, {
    id: `${RG}/providers/Microsoft.ContainerService/managedClusters/${name}`, name, resource_group_name: 'rg-app', location: 'westeurope',
    dns_prefix: `${name}-dns`, kubernetes_version: '1.29', node_resource_group: `MC_rg-app_${name}_westeurope`, sku_tier: 'Free',
    private_cluster_enabled: false, private_dns_zone_id: '', api_server_authorized_ip_ranges: ['203.0.113.0/24'],
    api_server_access_profile: [{ authorized_ip_ranges: ['203.0.113.0/24'], subnet_id: '', vnet_integration_enabled: false }],
    default_node_pool: [{
      name: 'default', vm_size: 'Standard_D2s_v3', node_count: 2, enable_auto_scaling: false, min_count: 0, max_count: 0, max_pods: 30,
      os_disk_size_gb: 128, os_disk_type: 'Managed', type: 'VirtualMachineScaleSets', vnet_subnet_id: '', zones: [], node_labels: {},
      orchestrator_version: '1.29.2', tags: {}, upgrade_settings: [{ max_surge: '10%' }],
    }],
    identity: [{ type: 'SystemAssigned', identity_ids: [], principal_id: 'aaaaaaaa-0000-4000-8000-000000000001', tenant_id: TENANT }],
    network_profile: [{ network_plugin: 'azure', network_policy: 'azure', service_cidr: '10.0.0.0/16', dns_service_ip: '10.0.0.10', pod_cidr: '', outbound_type: 'loadBalancer', load_balancer_sku: 'standard' }],
    role_based_access_control_enabled: true, local_account_disabled: false, oidc_issuer_enabled: false, workload_identity_enabled: false,
    azure_policy_enabled: false, http_application_routing_enabled: false, fqdn: `${name}-dns-abc.hcp.westeurope.azmk8s.io`, private_fqdn: '', portal_fqdn: 'x',
    kube_config_raw: 'apiVersion: v1\nclusters: []', kube_config: [{ client_key: 'secret', host: 'https://x' }], kube_admin_config: [], kube_admin_config_raw: '',
    kubelet_identity: [{ client_id: 'c', object_id: 'o', user_assigned_identity_id: 'u' }], tags: { env: 'prod' }, ...attrs,
  }, [['kube_config_raw'], ['kube_config'], ['kube_admin_config'], ['kube_admin_config_raw']]);
}

export const OWNER = '8e3af657-a8ff-443c-a75c-2fe8c4bcb635';
export const READER = 'acdd72a7-3c0f-4bb6-b7e5-8b5f7f8e4f19';
export function role(name: string, guid: string, scope: string, roleId: string, roleName: string | null, attrs: Record<string, unknown> = {}): StateInstance {
  return instance('azurerm_role_assignment', name, {
    id: `${scope}/providers/Microsoft.Authorization/roleAssignments/${guid}`, name: guid, scope,
    role_definition_id: `/subscriptions/${SUB}/providers/Microsoft.Authorization/roleDefinitions/${roleId}`, role_definition_name: roleName,
    principal_id: 'c0ffee00-0000-4000-8000-000000000001', principal_type: 'ServicePrincipal', description: '', condition: '', condition_version: '',
    delegated_managed_identity_resource_id: '', skip_service_principal_aad_check: false, ...attrs,
  });
}

export function storageAccount(name: string, attrs: Record<string, unknown> = {}): StateInstance {
  return instance('azurerm_storage_account', name, {
    id: `${RG}/providers/Microsoft.Storage/storageAccounts/${name}`, name, resource_group_name: 'rg-app', location: 'westeurope',
    account_kind: 'StorageV2', account_tier: 'Standard', account_replication_type: 'GRS', access_tier: 'Hot', enable_https_traffic_only: true,
    min_tls_version: 'TLS1_2', allow_nested_items_to_be_public: false, shared_access_key_enabled: true, public_network_access_enabled: true,
    is_hns_enabled: false, nfsv3_enabled: false, large_file_share_enabled: false, cross_tenant_replication_enabled: true,
    default_to_oauth_authentication: false, infrastructure_encryption_enabled: false, sftp_enabled: false, local_user_enabled: true,
    network_rules: [{ default_action: 'Deny', bypass: ['AzureServices'], ip_rules: ['198.51.100.7'], virtual_network_subnet_ids: [], private_link_access: [] }],
    identity: [], blob_properties: [{ versioning_enabled: false, delete_retention_policy: [] }], queue_properties: [], static_website: [],
    primary_access_key: 'k1==', secondary_access_key: 'k2==', primary_connection_string: 'DefaultEndpointsProtocol=https;AccountKey=k1==',
    primary_blob_endpoint: `https://${name}.blob.core.windows.net/`, primary_location: 'westeurope', tags: { env: 'prod' }, ...attrs,
  }, [['primary_access_key'], ['secondary_access_key'], ['primary_connection_string']]);
}

/** A 3.x container (id the data-plane URL, ARM id in resource_manager_id) or, with `arm`, a 4.x one. */
export function container(account: string, name: string, attrs: Record<string, unknown> = {}, arm = false): StateInstance {
  const rmId = `${RG}/providers/Microsoft.Storage/storageAccounts/${account}/blobServices/default/containers/${name}`;
  return instance('azurerm_storage_container', `${account}_${name}`, {
    id: arm ? rmId : `https://${account}.blob.core.windows.net/${name}`, name, ...(arm ? { storage_account_id: `${RG}/providers/Microsoft.Storage/storageAccounts/${account}` } : { storage_account_name: account, resource_manager_id: rmId }),
    container_access_type: 'private', metadata: {}, has_immutability_policy: false, has_legal_hold: false,
    default_encryption_scope: '$account-encryption-key', encryption_scope_override_enabled: true, ...attrs,
  });
}

const group = (rp: string, name: string) => `${RG}/providers/${rp}/${name}`;
export const registry = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_container_registry', name, {
  id: group('Microsoft.ContainerRegistry/registries', name), name, resource_group_name: 'rg-app', location: 'westeurope', sku: 'Standard',
  admin_enabled: false, admin_username: '', admin_password: '', login_server: `${name}.azurecr.io`, public_network_access_enabled: true,
  zone_redundancy_enabled: false, anonymous_pull_enabled: false, data_endpoint_enabled: false, export_policy_enabled: true, quarantine_policy_enabled: false,
  network_rule_bypass_option: 'AzureServices', network_rule_set: [], retention_policy: [], trust_policy: [], encryption: [], georeplications: [], identity: [], tags: {}, ...attrs,
}, [['admin_password']]);

export const workspace = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_log_analytics_workspace', name, {
  id: group('Microsoft.OperationalInsights/workspaces', name), name, resource_group_name: 'rg-app', location: 'westeurope', sku: 'PerGB2018',
  retention_in_days: 30, daily_quota_gb: -1, internet_ingestion_enabled: true, internet_query_enabled: true, local_authentication_disabled: false,
  reservation_capacity_in_gb_per_day: null, workspace_id: '0f1e2d3c-0000-4000-8000-000000000001', primary_shared_key: 'psk==', secondary_shared_key: 'ssk==',
  allow_resource_only_permissions: true, cmk_for_query_forced: false, tags: { env: 'prod' }, ...attrs,
}, [['primary_shared_key'], ['secondary_shared_key']]);

export const pgServer = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_postgresql_flexible_server', name, {
  id: group('Microsoft.DBforPostgreSQL/flexibleServers', name), name, resource_group_name: 'rg-app', location: 'westeurope', version: '16',
  sku_name: 'B_Standard_B1ms', storage_mb: 32768, storage_tier: 'P4', auto_grow_enabled: false, backup_retention_days: 7, geo_redundant_backup_enabled: false,
  zone: '1', high_availability: [], public_network_access_enabled: false, delegated_subnet_id: `${RG}/providers/Microsoft.Network/virtualNetworks/vnet/subnets/pg`,
  private_dns_zone_id: '', administrator_login: 'psqladmin', administrator_password: 'H@Sh1CoR3!', fqdn: `${name}.postgres.database.azure.com`,
  authentication: [{ active_directory_auth_enabled: false, password_auth_enabled: true, tenant_id: '' }], maintenance_window: [], customer_managed_key: [], identity: [],
  create_mode: null, source_server_id: null, replication_role: '', tags: {}, ...attrs,
}, [['administrator_password']]);

export const pgRule = (server: string, name: string, start: string, end: string) => instance('azurerm_postgresql_flexible_server_firewall_rule', `${server}_${name}`, {
  id: `${group('Microsoft.DBforPostgreSQL/flexibleServers', server)}/firewallRules/${name}`, name,
  server_id: group('Microsoft.DBforPostgreSQL/flexibleServers', server), start_ip_address: start, end_ip_address: end,
});

export const keyVault = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_key_vault', name, {
  id: group('Microsoft.KeyVault/vaults', name), name, resource_group_name: 'rg-app', location: 'westeurope', tenant_id: TENANT, sku_name: 'standard',
  enabled_for_deployment: false, enabled_for_disk_encryption: true, enabled_for_template_deployment: false, enable_rbac_authorization: false,
  purge_protection_enabled: true, soft_delete_retention_days: 7, public_network_access_enabled: true, vault_uri: `https://${name}.vault.azure.net/`,
  network_acls: [{ bypass: 'AzureServices', default_action: 'Deny', ip_rules: ['198.51.100.0/24'], virtual_network_subnet_ids: [] }],
  access_policy: [{ tenant_id: TENANT, object_id: 'c0ffee00-0000-4000-8000-000000000002', application_id: '', key_permissions: ['Get', 'List'], secret_permissions: ['Get', 'Set', 'Delete'], certificate_permissions: [], storage_permissions: [] }],
  contact: [], tags: {}, ...attrs,
});

export const identity = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_user_assigned_identity', name, {
  id: group('Microsoft.ManagedIdentity/userAssignedIdentities', name), name, resource_group_name: 'rg-app', location: 'westeurope',
  principal_id: 'dddddddd-0000-4000-8000-000000000001', client_id: 'eeeeeeee-0000-4000-8000-000000000001', tenant_id: TENANT, tags: {}, ...attrs,
});

export const plan = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_service_plan', name, {
  id: group('Microsoft.Web/serverFarms', name), name, resource_group_name: 'rg-app', location: 'westeurope', os_type: 'Linux', sku_name: 'P1v3',
  worker_count: 1, maximum_elastic_worker_count: 1, per_site_scaling_enabled: false, zone_balancing_enabled: false, app_service_environment_id: '',
  kind: 'linux', reserved: true, tags: {}, ...attrs,
});

export const webApp = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_linux_web_app', name, {
  id: group('Microsoft.Web/sites', name), name, resource_group_name: 'rg-app', location: 'westeurope', service_plan_id: group('Microsoft.Web/serverFarms', 'plan-a'),
  enabled: true, https_only: true, client_affinity_enabled: false, client_certificate_enabled: false, client_certificate_mode: 'Required',
  public_network_access_enabled: true, default_hostname: `${name}.azurewebsites.net`, kind: 'app,linux', identity: [], app_settings: { KEY: 'v' },
  connection_string: [], site_config: [{ always_on: true, minimum_tls_version: '1.2' }], site_credential: [{ name: '$x', password: 'p' }], tags: {}, ...attrs,
}, [['site_credential'], ['app_settings'], ['connection_string']]);

export const insights = (name: string, attrs: Record<string, unknown> = {}) => instance('azurerm_application_insights', name, {
  id: group('Microsoft.Insights/components', name), name, resource_group_name: 'rg-app', location: 'westeurope', application_type: 'web',
  workspace_id: group('Microsoft.OperationalInsights/workspaces', 'law-a'), retention_in_days: 90, sampling_percentage: 100, daily_data_cap_in_gb: 100,
  disable_ip_masking: false, local_authentication_disabled: false, internet_ingestion_enabled: true, internet_query_enabled: true,
  force_customer_storage_for_profiler: false, app_id: 'aaaa-bbbb', instrumentation_key: 'ik', connection_string: 'InstrumentationKey=ik', tags: {}, ...attrs,
}, [['instrumentation_key'], ['connection_string']]);

/** A private DNS record of `kind` (a, aaaa, cname, mx, ptr, srv, txt) in zone corp.internal, its values as the provider writes them. */
export function dnsRecord(kind: string, name: string, values: Record<string, unknown>, attrs: Record<string, unknown> = {}): StateInstance {
  return instance(`azurerm_private_dns_${kind}_record`, name, {
    id: `${RG}/providers/Microsoft.Network/privateDnsZones/corp.internal/${kind.toUpperCase()}/${name}`, name, resource_group_name: 'rg-app',
    zone_name: 'corp.internal', ttl: 300, fqdn: `${name}.corp.internal.`, tags: null, timeouts: null, ...values, ...attrs,
  });
}
export const DNS_VALUES: Record<string, Record<string, unknown>> = {
  a: { records: ['10.0.180.20'] },
  // The configuration's spelling of IPv6 addresses; ARM answers them compressed.
  aaaa: { records: ['fd5d:70bc:930e:d008:0000:0000:0000:7334', 'fd5d:70bc:930e:d008::7335'] },
  cname: { record: 'app.corp.example' },
  mx: { record: [{ exchange: 'backupmx.corp.internal', preference: 20 }, { exchange: 'mx.corp.internal', preference: 10 }] },
  ptr: { records: ['ptr1.corp.internal'] },
  srv: { record: [{ port: 8080, priority: 10, target: 'srv2.corp.internal', weight: 10 }] },
  txt: { record: [{ value: 'v=spf1 -all' }, { value: 'x'.repeat(300) }] },
};

export const GUID = (n: number) => `0b6f3c2a-${String(n).padStart(4, '0')}-4e1d-9c8b-7a6f5e4d3c2b`;

/** One instance of each type, as a state holds them. */
export const one = (): StateInstance[] => [
  linuxVm('vm-a'), windowsVm('vm-w'), legacyVm('vm-l'), disk('disk-a'), aks('aks-a'),
  role('ra', GUID(1), RG, READER, 'Reader'), storageAccount('sta'), container('sta', 'logs'), container('sta', 'v4', {}, true),
  registry('acra'), workspace('law-a'), pgServer('pg-a'), pgRule('pg-a', 'office', '198.51.100.1', '198.51.100.9'),
  keyVault('kv-a'), identity('id-a'), plan('plan-a'), webApp('app-a'), insights('ai-a'),
];

/** Secret values of the fixtures: none may appear in a drift. */
export const SECRETS = ['P@ssw0rd1234!', 'H@Sh1CoR3!', 'k1==', 'psk==', 'InstrumentationKey=ik', 'apiVersion: v1'];
export const noSecrets = (t: { notOk(v: unknown, m: string): unknown }, drifts: DetectedDrift[]) => {
  const text = JSON.stringify(drifts);
  for (const s of SECRETS) t.notOk(text.includes(s), `no ${s.slice(0, 4)}… in any drift`);
};
