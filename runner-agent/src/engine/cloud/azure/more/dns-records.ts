// DNS record sets: azurerm_private_dns_{a,aaaa,cname,mx,ptr,srv,txt}_record, children of a
// Private DNS zone (`Microsoft.Network/privateDnsZones/{zone}/{TYPE}/{name}`, api PRIVATE_DNS_API),
// and azurerm_dns_{a,cname,txt}_record, of a public zone (`Microsoft.Network/dnsZones/...`, api
// PUBLIC_DNS_API, whose JSON spells `TTL`, `ARecords`...). Every record type of one zone shares one
// read: when the state names LIST_FROM or more record sets of a zone (any types), the zone's list
// of all record sets is read once (paged) for every reader; else one GET each. A record set's tags
// are ARM's `metadata`; its values compare as sets (the provider's TypeSet).
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes, StateInstance } from '../../../types.ts';
import type { RestApi } from '../../rest/api.ts';
import { fakeList, indexBy, text, type FakeRoute, type FakeWorld, type RestReader } from '../../rest/reader.ts';
import { ARM, CONCURRENCY, LIST_FROM, lower, nameOf, type ArmJson } from '../kit.ts';
import { byId, list, parentOf, PRIVATE_DNS_API, str } from '../network/shared.ts';

export const PUBLIC_DNS_API = '2018-05-01';

/** A DNS API family: where its zones live, its version, its list of all record sets and its TTL's spelling. */
interface Family { zones: string; api: string; all: string; ttl: string }
const PRIVATE: Family = { zones: 'privateDnsZones', api: PRIVATE_DNS_API, all: 'ALL', ttl: 'ttl' };
const PUBLIC: Family = { zones: 'dnsZones', api: PUBLIC_DNS_API, all: 'recordsets', ttl: 'TTL' };
const zonePath = (f: Family) => `/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Network/${f.zones}/:zone`;

/** IPv6 in one spelling (`fd5d::0:7334` and `fd5d:0000::7334` are one address): the URL parser's. */
export function ipv6(v: string): string {
  try { return new URL(`http://[${v}]/`).hostname.slice(1, -1); } catch { return lower(v); }
}

interface RecordKind {
  family: Family;
  /** The ARM type segment (`A`, `AAAA`...) and the provider type. */
  segment: string;
  type: string;
  /** The record values as the provider's attributes. */
  toState(p: ArmJson, instance: StateInstance): Record<string, unknown>;
  fromState(a: Record<string, any>): ArmJson;
  sets?: Record<string, (e: any) => string[]>;
}

const num = (v: unknown) => (typeof v === 'number' ? v : Number(v ?? 0));
/** ARM's TXT value is a list of strings (the provider writes 254 characters each, and joins them back). */
const chunks = (s: string) => (s.length ? s.match(/[\s\S]{1,254}/g)! : ['']);

const PRIVATE_KINDS: Omit<RecordKind, 'family'>[] = [
  { segment: 'A', type: 'azurerm_private_dns_a_record',
    toState: (p) => ({ records: list(p.aRecords).map((r) => str(r.ipv4Address)) }),
    fromState: (a) => ({ aRecords: list<string>(a.records).map((ipv4Address) => ({ ipv4Address })) }) },
  { segment: 'AAAA', type: 'azurerm_private_dns_aaaa_record',
    // The provider hashes the set by the address, so the state keeps the spelling it was given.
    toState: (p, i) => {
      const spelled = new Map(list<string>(i.attributes.records).map((s) => [ipv6(s), s]));
      return { records: list(p.aaaaRecords).map((r) => spelled.get(ipv6(str(r.ipv6Address))) ?? str(r.ipv6Address)) };
    },
    fromState: (a) => ({ aaaaRecords: list<string>(a.records).map((s) => ({ ipv6Address: ipv6(s) })) }) },
  { segment: 'CNAME', type: 'azurerm_private_dns_cname_record',
    toState: (p) => ({ record: str(p.cnameRecord?.cname) }),
    fromState: (a) => ({ cnameRecord: { cname: a.record } }) },
  { segment: 'MX', type: 'azurerm_private_dns_mx_record',
    toState: (p) => ({ record: list(p.mxRecords).map((r) => ({ preference: num(r.preference), exchange: str(r.exchange) })) }),
    fromState: (a) => ({ mxRecords: list(a.record).map((r) => ({ preference: num(r.preference), exchange: r.exchange })) }),
    sets: { record: (e) => [`${num(e?.preference)}|${lower(e?.exchange)}`] } },
  { segment: 'PTR', type: 'azurerm_private_dns_ptr_record',
    toState: (p) => ({ records: list(p.ptrRecords).map((r) => str(r.ptrdname)) }),
    fromState: (a) => ({ ptrRecords: list<string>(a.records).map((ptrdname) => ({ ptrdname })) }) },
  { segment: 'SRV', type: 'azurerm_private_dns_srv_record',
    toState: (p) => ({ record: list(p.srvRecords).map((r) => ({ priority: num(r.priority), weight: num(r.weight), port: num(r.port), target: str(r.target) })) }),
    fromState: (a) => ({ srvRecords: list(a.record).map((r) => ({ priority: num(r.priority), weight: num(r.weight), port: num(r.port), target: r.target })) }),
    sets: { record: (e) => [`${num(e?.priority)}|${num(e?.weight)}|${num(e?.port)}|${lower(e?.target)}`] } },
  { segment: 'TXT', type: 'azurerm_private_dns_txt_record',
    toState: (p) => ({ record: list(p.txtRecords).map((r) => ({ value: list<string>(r.value).join('') })) }),
    fromState: (a) => ({ txtRecords: list(a.record).map((r) => ({ value: chunks(str(r.value)) })) }),
    sets: { record: (e) => [str(e?.value)] } },
];

// A public A or CNAME record may be an alias of an Azure resource instead of values.
const target = (p: ArmJson) => ({ target_resource_id: str(p.targetResource?.id) });
const targetFrom = (a: Record<string, any>) => (text(a.target_resource_id) ? { targetResource: { id: a.target_resource_id } } : {});
const PUBLIC_KINDS: Omit<RecordKind, 'family'>[] = [
  { segment: 'A', type: 'azurerm_dns_a_record',
    toState: (p) => ({ records: list(p.ARecords).map((r) => str(r.ipv4Address)), ...target(p) }),
    fromState: (a) => ({ ...(list(a.records).length ? { ARecords: list<string>(a.records).map((ipv4Address) => ({ ipv4Address })) } : {}), ...targetFrom(a) }) },
  { segment: 'CNAME', type: 'azurerm_dns_cname_record',
    toState: (p) => ({ record: str(p.CNAMERecord?.cname), ...target(p) }),
    fromState: (a) => ({ ...(text(a.record) ? { CNAMERecord: { cname: a.record } } : {}), ...targetFrom(a) }) },
  { segment: 'TXT', type: 'azurerm_dns_txt_record',
    toState: (p) => ({ record: list(p.TXTRecords).map((r) => ({ value: list<string>(r.value).join('') })) }),
    fromState: (a) => ({ TXTRecords: list(a.record).map((r) => ({ value: chunks(str(r.value)) })) }),
    sets: { record: (e) => [str(e?.value)] } },
];

const KINDS: RecordKind[] = [...PRIVATE_KINDS.map((k) => ({ ...k, family: PRIVATE })), ...PUBLIC_KINDS.map((k) => ({ ...k, family: PUBLIC }))];
export const PRIVATE_DNS_RECORD_TYPES = PRIVATE_KINDS.map((k) => k.type);
export const PUBLIC_DNS_RECORD_TYPES = PUBLIC_KINDS.map((k) => k.type);
const kindsOf = (f: Family) => KINDS.filter((k) => k.family === f);

/** Every record set id of every kind of the family the state knows (one zone's read is shared by all kinds). */
const recordIds = (world: FakeWorld, f: Family) => kindsOf(f).flatMap((k) => world.of(k.type).map((i) => str(i.attributes.id))).filter(Boolean);

/** The record sets' JSON by lowercased id (null when gone): a zone's ALL list, or one GET each. */
async function readRecords(f: Family, ids: (string | undefined)[], api: RestApi, known: string[]): Promise<Map<string, ArmJson | null>> {
  const perZone = new Map<string, Set<string>>();
  for (const id of [...ids, ...known]) {
    if (!id) continue;
    const zone = lower(parentOf(id));
    if (!perZone.has(zone)) perZone.set(zone, new Set());
    perZone.get(zone)!.add(lower(id));
  }
  const wanted = [...new Map(ids.filter((x): x is string => !!x).map((id) => [lower(id), id])).values()];
  const out = new Map<string, ArmJson | null>();
  await mapLimit(wanted, CONCURRENCY, async (id) => {
    const zone = parentOf(id);
    if ((perZone.get(lower(zone))?.size ?? 0) >= LIST_FROM) {
      const all = await api.once(`arm-list:${lower(zone)}/${f.all}?${f.api}`, async () =>
        indexBy(await api.list<ArmJson>(ARM, `${zone}/${f.all}?api-version=${f.api}`, `list the record sets of ${zone}`, { style: 'nextLink' }), (x) => text(x.id)));
      out.set(lower(id), all.get(lower(id)) ?? null);
    } else {
      out.set(lower(id), await api.once(`arm-get:${lower(id)}?${f.api}`, () => api.get<ArmJson>(ARM, `${id}?api-version=${f.api}`, `GET DNS record set ${id}`)));
    }
  });
  return out;
}

/** The record set's JSON as ARM answers it, from a state instance. */
function recordJson(kind: RecordKind, a: Record<string, any>): ArmJson {
  const id = str(a.id);
  const zone = nameOf(parentOf(id));
  return {
    id, name: nameOf(id), type: `Microsoft.Network/${kind.family.zones}/${kind.segment}`, etag: '00000000-0000-0000-0000-000000000000',
    properties: { metadata: a.tags ?? {}, [kind.family.ttl]: a.ttl, fqdn: `${nameOf(id)}.${zone}.`, ...(kind.family === PRIVATE ? { isAutoRegistered: false } : {}), ...kind.fromState(a) },
  };
}

/** The record type segment of a record set id (`.../privateDnsZones/Z/MX/name` -> `mx`). */
const segmentOf = (id: string) => lower(nameOf(id.slice(0, id.lastIndexOf('/'))));

function allOf(f: Family, world: FakeWorld, zoneId: string): ArmJson[] {
  return kindsOf(f).flatMap((k) => world.of(k.type).filter((i) => lower(parentOf(str(i.attributes.id))) === lower(zoneId)).map((i) => recordJson(k, i.attributes)));
}

/** The fake's answers: each kind's GET and per-type list, and the zone's ALL list. */
function routes(kind: RecordKind): FakeRoute[] {
  const get = (world: FakeWorld, id: string) => {
    const i = byId(world, kind.type, id);
    return i && recordJson(kind, i.attributes);
  };
  return [
    { method: 'GET', service: ARM, path: `${zonePath(kind.family)}/${kind.segment}/:name`, answer: (req, world) => get(world, req.path) },
    { method: 'GET', service: ARM, path: `${zonePath(kind.family)}/${kind.segment}`, answer: (req, world) => fakeList(allOf(kind.family, world, parentOf(`${req.path}/x`)).filter((j) => segmentOf(j.id) === lower(kind.segment))) },
  ];
}

const allRoute = (f: Family): FakeRoute => ({ method: 'GET', service: ARM, path: `${zonePath(f)}/${f.all}`, answer: (req, world) => fakeList(allOf(f, world, parentOf(`${req.path}/x`))) });

function recordReader(kind: RecordKind, first: boolean): RestReader {
  const f = kind.family;
  return {
    spec: kind.sets ? { sets: kind.sets } : {},
    fake: [...routes(kind), ...(first ? [allRoute(f)] : [])],
    async read(items, api, world) {
      const ids = items.map((it) => text(it.instance.attributes.id));
      const got = await readRecords(f, ids, api, world ? recordIds(world, f) : []);
      return items.map((it, k): LiveAttributes | null => {
        const json = ids[k] ? got.get(lower(ids[k])) : null;
        if (!json) return null;
        const p = json.properties ?? {};
        return { ttl: num(p[f.ttl]), tags: p.metadata ?? {}, ...kind.toState(p, it.instance) };
      });
    },
  };
}

/** Every record type's reader; the first of each family also answers its zone's list of all record sets in the fake. */
export const DNS_RECORD_READERS: Record<string, RestReader> = Object.fromEntries(KINDS.map((k) => [k.type, recordReader(k, k === kindsOf(k.family)[0])]));
