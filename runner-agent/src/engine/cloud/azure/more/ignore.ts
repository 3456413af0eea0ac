// Attributes of the more/ types never reported as drift (spread into the engine's
// IGNORED_ATTRIBUTES): what ARM computes from the name or assigns (a record set's FQDN, a
// container group's address and FQDN). The readers leave them unmapped; listed for .driftignore reviews.
import { PRIVATE_DNS_RECORD_TYPES } from './dns-records.ts';

export const AZURE_MORE_IGNORED: Record<string, string[]> = {
  ...Object.fromEntries(PRIVATE_DNS_RECORD_TYPES.map((t) => [t, ['fqdn']])),
  azurerm_container_group: ['ip_address', 'fqdn'],
};
