// google_compute_network: compute/v1 networks (global), listed per project when several are read.
import { computeReader, globalPath, nameOf, ownSelfLink } from './common.ts';

const path = (a: Record<string, any>, scope: { account: string; location: string | null; source: string }) => globalPath('networks', a, scope);

export const computeNetworkReader = computeReader({
  type: 'google_compute_network',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/networks/:name',
  globalList: 'networks',
  pathOf: path,
  // Fields newer providers write (ULA IPv6, firewall policy order) are absent from older states,
  // so not compared there; an absent API field stays undefined (not compared) rather than guessed.
  toState: (j) => ({
    name: j.name, description: j.description ?? '', auto_create_subnetworks: j.autoCreateSubnetworks ?? false,
    routing_mode: j.routingConfig?.routingMode ?? '', mtu: j.mtu ?? 0,
    enable_ula_internal_ipv6: j.enableUlaInternalIpv6 ?? false,
    network_firewall_policy_enforcement_order: j.networkFirewallPolicyEnforcementOrder,
    internal_ipv6_range: j.internalIpv6Range,
  }),
  fromState: (a) => ({
    kind: 'compute#network', name: nameOf(a), description: a.description ?? '', autoCreateSubnetworks: a.auto_create_subnetworks,
    routingConfig: { routingMode: a.routing_mode }, mtu: a.mtu, enableUlaInternalIpv6: a.enable_ula_internal_ipv6,
    networkFirewallPolicyEnforcementOrder: a.network_firewall_policy_enforcement_order || undefined,
    internalIpv6Range: a.internal_ipv6_range || undefined,
    gatewayIPv4: a.gateway_ipv4 || undefined, id: a.numeric_id,
    selfLink: ownSelfLink(a, path),
  }),
});
