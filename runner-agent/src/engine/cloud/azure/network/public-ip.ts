// azurerm_public_ip: Microsoft.Network/publicIPAddresses (api NETWORK_API), read from the group's
// list when the state names LIST_FROM or more in one group, else one GET each. The address itself
// and its FQDN are computed (a dynamic address comes and goes with its attachment): not compared.
import type { StateInstance } from '../../../types.ts';
import { text, type FakeWorld } from '../../rest/reader.ts';
import { location, type ArmJson } from '../kit.ts';
import { byId, familyRoutes, list, netReader, NETWORK_API, ref, str } from './shared.ts';

const PIP = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Network/publicIPAddresses/:name';
const pipIds = (world: FakeWorld) => world.of('azurerm_public_ip').map((i) => str(i.attributes.id)).filter(Boolean);

/** The v2 provider's `availability_zone` from ARM's zones. */
export const zoneWord = (zones: string[]) => (zones.length === 0 ? 'No-Zone' : zones.length > 1 ? 'Zone-Redundant' : zones[0]);
/** Provider 2 (the one with `availability_zone`) writes `zones` only for a single zone. */
export const v2Zones = (zones: string[], v2: boolean) => (v2 && zones.length !== 1 ? [] : zones);
export const zonesOf = (a: Record<string, any>): string[] => {
  if (list(a.zones).length) return a.zones;
  const w = str(a.availability_zone);
  return !w || w === 'No-Zone' ? [] : w === 'Zone-Redundant' ? ['1', '2', '3'] : [w];
};

function pipToState(j: ArmJson, instance: StateInstance) {
  const p = j.properties ?? {};
  const dns = p.dnsSettings ?? {};
  const zones = list<string>(j.zones);
  const v2 = 'availability_zone' in instance.attributes;
  return {
    location: location(j.location), tags: j.tags ?? {}, edge_zone: j.extendedLocation?.name ?? '',
    allocation_method: str(p.publicIPAllocationMethod), ip_version: p.publicIPAddressVersion ?? 'IPv4',
    sku: j.sku?.name ?? 'Basic', sku_tier: j.sku?.tier ?? 'Regional', idle_timeout_in_minutes: p.idleTimeoutInMinutes ?? 4,
    zones: v2Zones(zones, v2), availability_zone: zoneWord(zones),
    domain_name_label: dns.domainNameLabel ?? '', domain_name_label_scope: dns.domainNameLabelScope ?? '', reverse_fqdn: dns.reverseFqdn ?? '',
    ip_tags: Object.fromEntries(list(p.ipTags).map((t) => [str(t.ipTagType), str(t.tag)])),
    public_ip_prefix_id: p.publicIPPrefix?.id ?? '',
    ddos_protection_mode: p.ddosSettings?.protectionMode ?? 'VirtualNetworkInherited',
    ddos_protection_plan_id: p.ddosSettings?.ddosProtectionPlan?.id ?? '',
  };
}

function pipJson(world: FakeWorld, id: string): ArmJson | undefined {
  const i = byId(world, 'azurerm_public_ip', id);
  if (!i) return undefined;
  const a = i.attributes;
  return {
    type: 'Microsoft.Network/publicIPAddresses', location: a.location, tags: a.tags ?? {},
    ...(text(a.edge_zone) ? { extendedLocation: { name: a.edge_zone, type: 'EdgeZone' } } : {}),
    sku: { name: a.sku ?? 'Basic', tier: a.sku_tier ?? 'Regional' }, ...(zonesOf(a).length ? { zones: zonesOf(a) } : {}),
    properties: {
      publicIPAllocationMethod: a.allocation_method ?? a.public_ip_address_allocation, publicIPAddressVersion: a.ip_version ?? 'IPv4',
      ...(text(a.ip_address) ? { ipAddress: a.ip_address } : {}), idleTimeoutInMinutes: a.idle_timeout_in_minutes ?? 4,
      ...(text(a.domain_name_label) || text(a.reverse_fqdn) ? {
        dnsSettings: {
          domainNameLabel: text(a.domain_name_label), fqdn: text(a.fqdn), reverseFqdn: text(a.reverse_fqdn),
          domainNameLabelScope: text(a.domain_name_label_scope),
        },
      } : {}),
      ipTags: Object.entries(a.ip_tags ?? {}).map(([ipTagType, tag]) => ({ ipTagType, tag })),
      publicIPPrefix: ref(a.public_ip_prefix_id),
      ...(text(a.ddos_protection_mode) ? { ddosSettings: { protectionMode: a.ddos_protection_mode, ddosProtectionPlan: ref(a.ddos_protection_plan_id) } } : {}),
      provisioningState: 'Succeeded',
    },
  };
}

export const publicIpReader = netReader({
  type: 'azurerm_public_ip', apiVersion: NETWORK_API,
  source: (a) => str(a.id), known: pipIds, toState: pipToState,
  subscriptionList: 'Microsoft.Network/publicIPAddresses',
  fake: familyRoutes(PIP, pipIds, pipJson),
});
