// Attributes of the Microsoft.Network types never reported as drift (spread into
// AZURE_IGNORED, cloud/azure/index.ts): values ARM computes (GUIDs, addresses it assigns, FQDNs, counts, the ids
// of what refers to the resource) and which change without anyone editing the resource. The
// readers leave most of them unmapped; listed here so a .driftignore review sees them.
export const AZURE_NETWORK_IGNORED: Record<string, string[]> = {
  azurerm_virtual_network: ['guid'],
  azurerm_network_interface: ['applied_dns_servers', 'mac_address', 'internal_domain_name_suffix', 'virtual_machine_id', 'private_ip_address', 'private_ip_addresses'],
  azurerm_public_ip: ['ip_address', 'fqdn'],
  azurerm_private_dns_zone: ['number_of_record_sets', 'max_number_of_record_sets', 'max_number_of_virtual_network_links', 'max_number_of_virtual_network_links_with_registration', 'soa_record.*.serial_number', 'soa_record.*.fqdn', 'soa_record.*.host_name'],
  azurerm_lb: ['private_ip_address', 'private_ip_addresses', 'frontend_ip_configuration.*.id', 'frontend_ip_configuration.*.inbound_nat_rules', 'frontend_ip_configuration.*.load_balancer_rules', 'frontend_ip_configuration.*.outbound_rules'],
  azurerm_lb_backend_address_pool: ['backend_ip_configurations', 'load_balancing_rules', 'outbound_rules', 'inbound_nat_rules'],
  azurerm_lb_probe: ['load_balancer_rules'],
};
