// Attributes of the more/ types never reported as drift (spread into
// AZURE_IGNORED, cloud/azure/index.ts): what ARM computes from the name or assigns (a record set's FQDN, a public
// zone's name servers and counts, a container group's address and FQDN). The readers leave them
// unmapped; listed for .driftignore reviews.
import { PRIVATE_DNS_RECORD_TYPES, PUBLIC_DNS_RECORD_TYPES } from './dns-records.ts';

export const AZURE_MORE_IGNORED: Record<string, string[]> = {
  ...Object.fromEntries([...PRIVATE_DNS_RECORD_TYPES, ...PUBLIC_DNS_RECORD_TYPES].map((t) => [t, ['fqdn']])),
  azurerm_dns_zone: ['name_servers', 'number_of_record_sets', 'max_number_of_record_sets', 'soa_record.*.serial_number', 'soa_record.*.fqdn', 'soa_record.*.host_name'],
  azurerm_container_group: ['ip_address', 'fqdn'],
};
