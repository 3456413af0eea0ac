// azurerm_virtual_network_peering: a child ARM embeds in its vnet's JSON (`virtualNetworkPeerings`),
// so it is read from the vnet's one read (network/vnet.ts's family: a group's list when the state
// names LIST_FROM or more vnets there, else one GET), shared with the vnet and subnet readers.
import { lower, nameOf } from '../kit.ts';
import { list, netReader, NETWORK_API, parentOf, str } from '../network/shared.ts';
import { vnetIds } from '../network/vnet.ts';
import { PEERING_TYPE, peeringToState } from './peering-arm.ts';

export const virtualNetworkPeeringReader = netReader({
  type: PEERING_TYPE, apiVersion: NETWORK_API,
  source: (a) => parentOf(str(a.id)), known: vnetIds,
  pick: (vnet, a) => list(vnet.properties?.virtualNetworkPeerings).find((x) => lower(x?.name) === lower(str(a.name) || nameOf(str(a.id)))),
  toState: (j) => peeringToState(j),
});
