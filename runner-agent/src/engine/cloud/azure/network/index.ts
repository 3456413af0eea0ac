// The Microsoft.Network readers (virtual networks, subnets, interfaces, public IPs, NSGs, Private
// DNS, load balancers), spread into AZURE_READERS.
import type { RestReader } from '../../rest/reader.ts';
import { lbBackendPoolReader, lbNatRuleReader, lbPoolAddressReader, lbProbeReader, lbReader, lbRuleReader } from './lb.ts';
import { networkInterfaceReader, nicNsgAssociationReader, nicPoolAssociationReader } from './nic.ts';
import { networkSecurityGroupReader, networkSecurityRuleReader } from './nsg.ts';
import { privateDnsZoneLinkReader, privateDnsZoneReader } from './private-dns.ts';
import { publicIpReader } from './public-ip.ts';
import { subnetNatGatewayAssociationReader, subnetNsgAssociationReader, subnetReader, subnetRouteTableAssociationReader, virtualNetworkReader } from './vnet.ts';

export const AZURE_NETWORK_READERS: Record<string, RestReader> = {
  azurerm_virtual_network: virtualNetworkReader,
  azurerm_subnet: subnetReader,
  azurerm_network_interface: networkInterfaceReader,
  azurerm_public_ip: publicIpReader,
  azurerm_network_security_group: networkSecurityGroupReader,
  azurerm_network_security_rule: networkSecurityRuleReader,
  azurerm_subnet_network_security_group_association: subnetNsgAssociationReader,
  azurerm_network_interface_security_group_association: nicNsgAssociationReader,
  azurerm_private_dns_zone: privateDnsZoneReader,
  azurerm_private_dns_zone_virtual_network_link: privateDnsZoneLinkReader,
  azurerm_lb: lbReader,
  azurerm_lb_backend_address_pool: lbBackendPoolReader,
  azurerm_lb_rule: lbRuleReader,
  azurerm_lb_probe: lbProbeReader,
  azurerm_lb_nat_rule: lbNatRuleReader,
  azurerm_lb_backend_address_pool_address: lbPoolAddressReader,
  azurerm_network_interface_backend_address_pool_association: nicPoolAssociationReader,
  azurerm_subnet_route_table_association: subnetRouteTableAssociationReader,
  azurerm_subnet_nat_gateway_association: subnetNatGatewayAssociationReader,
};
