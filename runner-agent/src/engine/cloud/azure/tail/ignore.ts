// Attributes of the tail/ types never reported as drift (spread into the engine's
// IGNORED_ATTRIBUTES): what ARM computes or assigns (GUIDs, addresses, DNS names, endpoints),
// secrets the readers never read (keys, connection strings, credentials), write-only inputs (an
// extension's protected settings, a server's administrator password). The readers leave them
// unmapped; listed for .driftignore reviews.
export const AZURE_TAIL_IGNORED: Record<string, string[]> = {
  azurerm_key_vault_secret: ['versionless_id', 'resource_id', 'resource_versionless_id', 'value_wo', 'value_wo_version'],
  azurerm_nat_gateway: ['resource_guid', 'public_ip_address_ids', 'public_ip_prefix_ids'],
  azurerm_route_table: ['subnets'],
  azurerm_bastion_host: ['dns_name'],
  azurerm_virtual_network_gateway: ['bgp_settings', 'vpn_client_configuration'],
  azurerm_private_endpoint: ['network_interface', 'custom_dns_configs', 'private_dns_zone_configs', 'private_dns_zone_group', 'private_service_connection.*.private_ip_address'],
  azurerm_lb_nat_rule: ['backend_ip_configuration_id'],
  azurerm_virtual_machine_extension: ['protected_settings', 'protected_settings_from_key_vault'],
  azurerm_cosmosdb_account: ['endpoint', 'read_endpoints', 'write_endpoints', 'primary_key', 'secondary_key', 'primary_readonly_key', 'secondary_readonly_key', 'connection_strings', 'primary_sql_connection_string', 'secondary_sql_connection_string', 'primary_readonly_sql_connection_string', 'secondary_readonly_sql_connection_string', 'primary_master_key', 'secondary_master_key', 'primary_readonly_master_key', 'secondary_readonly_master_key'],
  azurerm_mysql_flexible_server: ['fqdn', 'administrator_password', 'administrator_password_wo', 'replica_capacity'],
  azurerm_container_app: ['latest_revision_fqdn', 'latest_revision_name', 'outbound_ip_addresses', 'custom_domain_verification_id', 'secret', 'ingress.*.fqdn'],
  azurerm_container_app_environment: ['default_domain', 'static_ip_address', 'docker_bridge_cidr', 'platform_reserved_cidr', 'platform_reserved_dns_ip_address', 'custom_domain_verification_id', 'log_analytics_workspace_id', 'dapr_application_insights_connection_string'],
  azurerm_app_service: ['default_site_hostname', 'outbound_ip_addresses', 'possible_outbound_ip_addresses', 'site_credential', 'custom_domain_verification_id', 'outbound_ip_address_list', 'possible_outbound_ip_address_list'],
  azurerm_app_service_plan: ['maximum_number_of_workers'],
  azurerm_storage_share: ['url', 'resource_manager_id'],
};
