// The private DNS record types (azurerm_private_dns_{a,aaaa,cname,mx,ptr,srv,txt}_record):
// Microsoft.Network/privateDnsZones/Z/{A,AAAA,CNAME,MX,PTR,SRV,TXT}/N (api 2024-06-01), three or
// more of one type in one zone read with the zone's list of that type. A record set's tags are
// ARM's `metadata`; a TXT record's value is its 255-character chunks joined, as the provider
// writes it; IPv6 addresses compare as addresses (the state keeps the configuration's spelling,
// ARM its compressed form).
import type { RestReader } from '../../rest/reader.ts';
import { armReader, type ArmJson } from '../kit.ts';
import { clean, list, opt, withParentList, type Attrs } from './util.ts';

const API = '2024-06-01';
const ZONES = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Network/privateDnsZones';

/** An IPv6 address in full (eight groups of four hex digits), for comparing spellings. */
function fullIpv6(a: string): string {
  const [head, tail] = a.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail !== undefined && tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return groups.map((g) => g.padStart(4, '0')).join(':');
}
/** ARM's addresses, each as the state spells it when it is the same address. */
const ipv6AsState = (live: string[], state: unknown) =>
  live.map((ip) => list(state).find((s) => typeof s === 'string' && fullIpv6(s) === fullIpv6(ip)) ?? ip);

interface Kind {
  type: string;
  /** The record type's path segment in ARM. */
  segment: string;
  /** ARM's record properties as the provider's record attributes. */
  toState(p: ArmJson, state: Attrs): Attrs;
  fromState(a: Attrs): ArmJson;
  sets?: Record<string, (e: unknown) => string[]>;
}

const KINDS: Kind[] = [
  { type: 'azurerm_private_dns_a_record', segment: 'A',
    toState: (p) => ({ records: list(p.aRecords).map((r) => r.ipv4Address) }),
    fromState: (a) => ({ aRecords: list(a.records).map((ipv4Address) => ({ ipv4Address })) }) },
  { type: 'azurerm_private_dns_aaaa_record', segment: 'AAAA',
    toState: (p, s) => ({ records: ipv6AsState(list(p.aaaaRecords).map((r) => r.ipv6Address), s.records) }),
    fromState: (a) => ({ aaaaRecords: list(a.records).map((ipv6Address) => ({ ipv6Address })) }) },
  { type: 'azurerm_private_dns_cname_record', segment: 'CNAME',
    toState: (p) => ({ record: opt(p.cnameRecord?.cname) }),
    fromState: (a) => ({ cnameRecord: { cname: a.record } }) },
  { type: 'azurerm_private_dns_mx_record', segment: 'MX',
    toState: (p) => ({ record: list(p.mxRecords).map((r) => ({ preference: r.preference, exchange: r.exchange })) }),
    fromState: (a) => ({ mxRecords: list(a.record).map((r) => ({ preference: r.preference, exchange: r.exchange })) }),
    sets: { record: (e) => [`${(e as Attrs).preference}|${(e as Attrs).exchange}`] } },
  { type: 'azurerm_private_dns_ptr_record', segment: 'PTR',
    toState: (p) => ({ records: list(p.ptrRecords).map((r) => r.ptrdname) }),
    fromState: (a) => ({ ptrRecords: list(a.records).map((ptrdname) => ({ ptrdname })) }) },
  { type: 'azurerm_private_dns_srv_record', segment: 'SRV',
    toState: (p) => ({ record: list(p.srvRecords).map((r) => ({ priority: r.priority, weight: r.weight, port: r.port, target: r.target })) }),
    fromState: (a) => ({ srvRecords: list(a.record).map((r) => ({ priority: r.priority, weight: r.weight, port: r.port, target: r.target })) }),
    sets: { record: (e) => { const r = e as Attrs; return [`${r.priority}|${r.weight}|${r.port}|${r.target}`]; } } },
  { type: 'azurerm_private_dns_txt_record', segment: 'TXT',
    toState: (p) => ({ record: list(p.txtRecords).map((r) => ({ value: list(r.value).join('') })) }),
    // ARM keeps a long value as 255-character chunks.
    fromState: (a) => ({ txtRecords: list(a.record).map((r) => ({ value: String(r.value ?? '').match(/[\s\S]{1,255}/g) ?? [''] })) }),
    sets: { record: (e) => [String((e as Attrs).value ?? '')] } },
];

const zoneOf = (id: string) => /^(.+\/privateDnsZones\/[^/]+)\/[^/]+\/[^/]+$/i.exec(id)?.[1];
const idOf = (a: Attrs) => (typeof a.id === 'string' && a.id ? a.id : undefined);

function recordReader(k: Kind): RestReader {
  const toState = (json: ArmJson, instance: { attributes: Attrs }): Attrs => {
    const p = json.properties ?? {};
    // The zone (zone_name, private_dns_zone_id) is part of the id the record is read by: not compared.
    return {
      name: json.name, ttl: opt(p.ttl), fqdn: opt(p.fqdn), tags: p.metadata ?? {}, ...k.toState(p, instance.attributes),
    };
  };
  const fromState = (a: Attrs): ArmJson => ({
    type: `Microsoft.Network/privateDnsZones/${k.segment}`,
    properties: clean({ ttl: a.ttl, fqdn: a.fqdn || undefined, metadata: a.tags ?? {}, ...k.fromState(a) }),
  });
  const path = `${ZONES}/:zone/${k.segment}`;
  const base = armReader({ type: k.type, apiVersion: API, path: `${path}/:name`, toState, fromState, spec: k.sets ? { sets: k.sets } : {} });
  return withParentList({ type: k.type, apiVersion: API, base, idOf, parentOf: zoneOf, suffix: `/${k.segment}`, route: path, toState, fromState });
}

export const PRIVATE_DNS_RECORD_READERS: Record<string, RestReader> = Object.fromEntries(KINDS.map((k) => [k.type, recordReader(k)]));
