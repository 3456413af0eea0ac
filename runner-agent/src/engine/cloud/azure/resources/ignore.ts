// Attributes of the compute, storage, identity and platform azurerm types never reported as drift:
// computed ids and addresses, identities' principal and tenant ids (Azure sets them), values the
// platform moves by itself (the AKS autoscaler's node count lives in its own mapping), and the
// secrets and endpoints ARM computes. Spread into AZURE_IGNORED (cloud/azure/index.ts).
const IDENTITY = ['identity.*.principal_id', 'identity.*.tenant_id'];
const VM = [...IDENTITY, 'virtual_machine_id', 'private_ip_address', 'private_ip_addresses', 'public_ip_address', 'public_ip_addresses'];

export const AZURE_RESOURCES_IGNORED: Record<string, string[]> = {
  azurerm_linux_virtual_machine: VM,
  azurerm_windows_virtual_machine: VM,
  azurerm_virtual_machine: [...IDENTITY, 'storage_os_disk.*.managed_disk_id', 'storage_data_disk.*.managed_disk_id'],
  azurerm_managed_disk: ['disk_iops_read_only', 'disk_mbps_read_only'],
  azurerm_kubernetes_cluster: [
    ...IDENTITY, 'fqdn', 'private_fqdn', 'portal_fqdn', 'current_kubernetes_version', 'node_resource_group_id', 'oidc_issuer_url',
    'kube_config', 'kube_config_raw', 'kube_admin_config', 'kube_admin_config_raw', 'kubelet_identity', 'http_application_routing_zone_name',
  ],
  azurerm_role_assignment: ['principal_type', 'skip_service_principal_aad_check'],
  azurerm_storage_account: [
    ...IDENTITY, 'primary_*', 'secondary_*', 'queue_properties', 'blob_properties', 'share_properties', 'static_website',
  ],
  azurerm_storage_container: ['has_immutability_policy', 'has_legal_hold', 'resource_manager_id'],
  azurerm_container_registry: [...IDENTITY, 'login_server', 'admin_username', 'admin_password'],
  azurerm_log_analytics_workspace: ['workspace_id', 'primary_shared_key', 'secondary_shared_key'],
  azurerm_postgresql_flexible_server: ['fqdn'],
  azurerm_key_vault: ['vault_uri'],
  azurerm_user_assigned_identity: [],
  azurerm_service_plan: ['kind', 'reserved'],
  azurerm_linux_web_app: [...IDENTITY, 'default_hostname', 'kind', 'outbound_ip_addresses', 'possible_outbound_ip_addresses', 'custom_domain_verification_id'],
  azurerm_application_insights: ['app_id', 'instrumentation_key', 'connection_string'],
};
