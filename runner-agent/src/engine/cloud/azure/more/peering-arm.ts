// A virtual network peering as ARM embeds it in its vnet's JSON (`virtualNetworkPeerings`): the
// fake's answer for an azurerm_virtual_network_peering instance, and the provider's attributes
// from ARM's. Kept apart from the reader so the vnet's fake (network/vnet.ts) can embed peerings
// without importing the reader, which imports the vnet's family of ids.
import type { ArmJson } from '../kit.ts';
import { list, ref, str } from '../network/shared.ts';

export const PEERING_TYPE = 'azurerm_virtual_network_peering';

const bool = (v: unknown, dflt: boolean) => (typeof v === 'boolean' ? v : dflt);

export function peeringFromState(a: Record<string, any>): ArmJson {
  return {
    name: a.name, id: a.id, type: 'Microsoft.Network/virtualNetworks/virtualNetworkPeerings',
    properties: {
      remoteVirtualNetwork: ref(a.remote_virtual_network_id),
      allowVirtualNetworkAccess: bool(a.allow_virtual_network_access, true), allowForwardedTraffic: bool(a.allow_forwarded_traffic, false),
      allowGatewayTransit: bool(a.allow_gateway_transit, false), useRemoteGateways: bool(a.use_remote_gateways, false),
      peerCompleteVnets: bool(a.peer_complete_virtual_networks_enabled, true), enableOnlyIPv6Peering: bool(a.only_ipv6_peering_enabled, false),
      ...(list(a.local_subnet_names).length ? { localSubnetNames: a.local_subnet_names } : {}),
      ...(list(a.remote_subnet_names).length ? { remoteSubnetNames: a.remote_subnet_names } : {}),
      peeringState: 'Connected', peeringSyncLevel: 'FullyInSync', provisioningState: 'Succeeded',
    },
  };
}

export function peeringToState(j: ArmJson): Record<string, unknown> {
  const p = j.properties ?? {};
  return {
    remote_virtual_network_id: str(p.remoteVirtualNetwork?.id),
    allow_virtual_network_access: p.allowVirtualNetworkAccess ?? true, allow_forwarded_traffic: p.allowForwardedTraffic ?? false,
    allow_gateway_transit: p.allowGatewayTransit ?? false, use_remote_gateways: p.useRemoteGateways ?? false,
    // The provider writes false for a flag ARM leaves out (its zero value), true when ARM says so.
    peer_complete_virtual_networks_enabled: p.peerCompleteVnets ?? false, only_ipv6_peering_enabled: p.enableOnlyIPv6Peering ?? false,
    local_subnet_names: list(p.localSubnetNames), remote_subnet_names: list(p.remoteSubnetNames),
  };
}
