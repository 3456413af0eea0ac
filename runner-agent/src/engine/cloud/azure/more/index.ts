// More azurerm readers (Private and public DNS record sets, public DNS zones, vnet peerings, SSH
// public keys, images, container groups, function apps), spread into AZURE_READERS.
import type { RestReader } from '../../rest/reader.ts';
import { imageReader, sshPublicKeyReader } from './compute.ts';
import { containerGroupReader } from './container-group.ts';
import { DNS_RECORD_READERS } from './dns-records.ts';
import { dnsZoneReader } from './dns-zone.ts';
import { linuxFunctionAppReader, windowsFunctionAppReader } from './function-app.ts';
import { virtualNetworkPeeringReader } from './peering.ts';

export const AZURE_MORE_READERS: Record<string, RestReader> = {
  ...DNS_RECORD_READERS,
  azurerm_dns_zone: dnsZoneReader,
  azurerm_virtual_network_peering: virtualNetworkPeeringReader,
  azurerm_ssh_public_key: sshPublicKeyReader,
  azurerm_image: imageReader,
  azurerm_container_group: containerGroupReader,
  azurerm_linux_function_app: linuxFunctionAppReader,
  azurerm_windows_function_app: windowsFunctionAppReader,
};
