// azurerm_dns_zone: a public DNS zone, Microsoft.Network/dnsZones (api PUBLIC_DNS_API), a top-level
// type (a group's list from LIST_FROM, Cloud Discovery's subscription list). Only the tags are
// the code's: the name servers, counts and limits are Azure's; the SOA record is a record set
// (another call per zone), not compared.
import { armReader } from '../kit.ts';
import { PUBLIC_DNS_API } from './dns-records.ts';

const ZONES = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Network/dnsZones';

export const dnsZoneReader = armReader({
  type: 'azurerm_dns_zone', apiVersion: PUBLIC_DNS_API, path: `${ZONES}/:name`, list: ZONES,
  toState: (j) => ({ tags: j.tags ?? {} }),
  fromState: (a) => ({
    type: 'Microsoft.Network/dnsZones', location: 'global', tags: a.tags ?? {}, etag: '00000000-0000-0000-0000-000000000000',
    properties: { maxNumberOfRecordSets: a.max_number_of_record_sets, numberOfRecordSets: a.number_of_record_sets, nameServers: a.name_servers ?? [], zoneType: 'Public' },
  }),
});
