// azurerm_private_dns_zone and azurerm_private_dns_zone_virtual_network_link:
// Microsoft.Network/privateDnsZones (api PRIVATE_DNS_API). Zones come from the group's list when
// the state names LIST_FROM or more there; links are children ARM does not embed in the zone, read
// from the zone's list of links when the state names LIST_FROM or more of one zone's, else by GET.
// The zone's `soa_record` lives in a record set (another call per zone): not compared.
import type { FakeWorld } from '../../rest/reader.ts';
import type { ArmJson } from '../kit.ts';
import { byId, familyRoutes, netReader, PRIVATE_DNS_API, ref, str } from './shared.ts';

const ZONE = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Network/privateDnsZones/:zone';
const LINK = `${ZONE}/virtualNetworkLinks/:name`;
const LINK_TYPE = 'azurerm_private_dns_zone_virtual_network_link';

const zoneIds = (world: FakeWorld) => world.of('azurerm_private_dns_zone').map((i) => str(i.attributes.id)).filter(Boolean);
const linkIds = (world: FakeWorld) => world.of(LINK_TYPE).map((i) => str(i.attributes.id)).filter(Boolean);

function zoneJson(world: FakeWorld, id: string): ArmJson | undefined {
  const a = byId(world, 'azurerm_private_dns_zone', id)?.attributes;
  return a && {
    type: 'Microsoft.Network/privateDnsZones', location: 'global', tags: a.tags ?? {}, etag: '00000000-0000-0000-0000-000000000000',
    properties: {
      maxNumberOfRecordSets: a.max_number_of_record_sets, numberOfRecordSets: a.number_of_record_sets,
      maxNumberOfVirtualNetworkLinks: a.max_number_of_virtual_network_links,
      maxNumberOfVirtualNetworkLinksWithRegistration: a.max_number_of_virtual_network_links_with_registration,
      provisioningState: 'Succeeded',
    },
  };
}

function linkJson(world: FakeWorld, id: string): ArmJson | undefined {
  const a = byId(world, LINK_TYPE, id)?.attributes;
  return a && {
    type: 'Microsoft.Network/privateDnsZones/virtualNetworkLinks', location: 'global', tags: a.tags ?? {},
    properties: {
      virtualNetwork: ref(a.virtual_network_id), registrationEnabled: !!a.registration_enabled,
      ...(typeof a.resolution_policy === 'string' ? { resolutionPolicy: a.resolution_policy } : {}),
      virtualNetworkLinkState: 'Completed', provisioningState: 'Succeeded',
    },
  };
}

export const privateDnsZoneReader = netReader({
  type: 'azurerm_private_dns_zone', apiVersion: PRIVATE_DNS_API,
  source: (a) => str(a.id), known: zoneIds,
  toState: (j) => ({ tags: j.tags ?? {} }),
  subscriptionList: 'Microsoft.Network/privateDnsZones',
  fake: familyRoutes(ZONE, zoneIds, zoneJson),
});

export const privateDnsZoneLinkReader = netReader({
  type: LINK_TYPE, apiVersion: PRIVATE_DNS_API,
  source: (a) => str(a.id), known: linkIds,
  toState: (j) => ({
    tags: j.tags ?? {}, virtual_network_id: j.properties?.virtualNetwork?.id ?? '', registration_enabled: j.properties?.registrationEnabled ?? false,
    resolution_policy: j.properties?.resolutionPolicy ?? '',
  }),
  fake: familyRoutes(LINK, linkIds, linkJson),
});
