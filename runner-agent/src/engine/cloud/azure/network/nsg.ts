// azurerm_network_security_group and azurerm_network_security_rule:
// Microsoft.Network/networkSecurityGroups (api NETWORK_API). An NSG's JSON embeds its rules
// (`securityRules`; the built-in `defaultSecurityRules` are no resource's), so a standalone rule
// is read from its NSG's one read, shared with the NSG type.
import type { StateInstance } from '../../../types.ts';
import type { FakeWorld } from '../../rest/reader.ts';
import { location, lower, nameOf, type ArmJson } from '../kit.ts';
import { byId, childOf, familyRoutes, idList, list, netReader, NETWORK_API, parentOf, str } from './shared.ts';

const NSG = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Network/networkSecurityGroups/:nsg';
const RULE = 'azurerm_network_security_rule';

const nsgIds = (world: FakeWorld) => [
  ...world.of('azurerm_network_security_group').map((i) => str(i.attributes.id)),
  ...world.of(RULE).map((i) => parentOf(str(i.attributes.id))),
].filter(Boolean);

/** One ARM security rule as the provider's rule attributes (inline block or standalone resource). */
export function ruleToState(r: ArmJson): Record<string, unknown> {
  const p = r.properties ?? {};
  return {
    name: str(r.name), priority: p.priority, direction: str(p.direction), access: str(p.access), protocol: str(p.protocol),
    description: p.description ?? '',
    source_address_prefix: p.sourceAddressPrefix ?? '', source_address_prefixes: list(p.sourceAddressPrefixes),
    source_port_range: p.sourcePortRange ?? '', source_port_ranges: list(p.sourcePortRanges),
    source_application_security_group_ids: idList(p.sourceApplicationSecurityGroups),
    destination_address_prefix: p.destinationAddressPrefix ?? '', destination_address_prefixes: list(p.destinationAddressPrefixes),
    destination_port_range: p.destinationPortRange ?? '', destination_port_ranges: list(p.destinationPortRanges),
    destination_application_security_group_ids: idList(p.destinationApplicationSecurityGroups),
  };
}

function ruleFromState(a: Record<string, any>, id?: string): ArmJson {
  const opt = (v: unknown) => (typeof v === 'string' && v ? v : undefined);
  return {
    name: str(a.name), ...(id ? { id } : {}), type: 'Microsoft.Network/networkSecurityGroups/securityRules',
    properties: {
      priority: a.priority, direction: a.direction, access: a.access, protocol: a.protocol, description: opt(a.description),
      sourceAddressPrefix: opt(a.source_address_prefix), sourceAddressPrefixes: list(a.source_address_prefixes),
      sourcePortRange: opt(a.source_port_range), sourcePortRanges: list(a.source_port_ranges),
      sourceApplicationSecurityGroups: list<string>(a.source_application_security_group_ids).map((x) => ({ id: x })),
      destinationAddressPrefix: opt(a.destination_address_prefix), destinationAddressPrefixes: list(a.destination_address_prefixes),
      destinationPortRange: opt(a.destination_port_range), destinationPortRanges: list(a.destination_port_ranges),
      destinationApplicationSecurityGroups: list<string>(a.destination_application_security_group_ids).map((x) => ({ id: x })),
      provisioningState: 'Succeeded',
    },
  };
}

// What ARM adds to every NSG; the readers must leave them out.
const DEFAULT_RULES = [
  { name: 'AllowVnetInBound', properties: { priority: 65000, direction: 'Inbound', access: 'Allow', protocol: '*', sourceAddressPrefix: 'VirtualNetwork', sourcePortRange: '*', destinationAddressPrefix: 'VirtualNetwork', destinationPortRange: '*' } },
  { name: 'DenyAllInBound', properties: { priority: 65500, direction: 'Inbound', access: 'Deny', protocol: '*', sourceAddressPrefix: '*', sourcePortRange: '*', destinationAddressPrefix: '*', destinationPortRange: '*' } },
];

function nsgJson(world: FakeWorld, id: string): ArmJson | undefined {
  const nsg = byId(world, 'azurerm_network_security_group', id);
  const rules = world.of(RULE).filter((i) => lower(parentOf(str(i.attributes.id))) === lower(id));
  if (!nsg && rules.length === 0) return undefined;
  const byName = new Map<string, ArmJson>();
  for (const r of list(nsg?.attributes.security_rule)) byName.set(lower(r.name), ruleFromState(r, `${id}/securityRules/${r.name}`));
  for (const r of rules) byName.set(lower(str(r.attributes.name)), ruleFromState(r.attributes, str(r.attributes.id)));
  const a = nsg?.attributes ?? {};
  return {
    type: 'Microsoft.Network/networkSecurityGroups', location: a.location, tags: a.tags ?? {}, etag: 'W/"1"',
    properties: { securityRules: [...byName.values()], defaultSecurityRules: DEFAULT_RULES, resourceGuid: '00000000-0000-0000-0000-000000000000', provisioningState: 'Succeeded' },
  };
}

/** Order-free identity of a rule with everything it allows (lists sorted, enums and ids caseless). */
export function ruleKey(e: any): string[] {
  const sorted = (v: unknown) => list(v).map((x) => String(x)).sort();
  const ids = (v: unknown) => sorted(v).map(lower);
  return [JSON.stringify([
    lower(e?.name), Number(e?.priority ?? 0), lower(e?.direction), lower(e?.access), lower(e?.protocol), str(e?.description),
    str(e?.source_address_prefix), sorted(e?.source_address_prefixes), str(e?.source_port_range), sorted(e?.source_port_ranges), ids(e?.source_application_security_group_ids),
    str(e?.destination_address_prefix), sorted(e?.destination_address_prefixes), str(e?.destination_port_range), sorted(e?.destination_port_ranges), ids(e?.destination_application_security_group_ids),
  ])];
}

function nsgToState(j: ArmJson, instance: StateInstance, world?: FakeWorld) {
  // The provider keeps standalone rules in `security_rule` once it refreshes; a state written
  // before they existed lacks them: those count only when the state's block has them.
  const id = str(instance.attributes.id);
  const managed = new Set((world?.of(RULE) ?? []).filter((i) => lower(parentOf(str(i.attributes.id))) === lower(id)).map((i) => lower(str(i.attributes.name))));
  const inState = new Set(list(instance.attributes.security_rule).map((r) => lower(str(r?.name))));
  const rules = list(j.properties?.securityRules).filter((r) => !managed.has(lower(r.name)) || inState.has(lower(r.name)));
  return { location: location(j.location), tags: j.tags ?? {}, security_rule: rules.map(ruleToState) };
}

export const networkSecurityGroupReader = netReader({
  type: 'azurerm_network_security_group', apiVersion: NETWORK_API,
  source: (a) => str(a.id), known: nsgIds, toState: nsgToState,
  spec: { sets: { security_rule: ruleKey } },
  subscriptionList: 'Microsoft.Network/networkSecurityGroups',
  fake: familyRoutes(NSG, nsgIds, nsgJson),
});

export const networkSecurityRuleReader = netReader({
  type: RULE, apiVersion: NETWORK_API,
  source: (a) => parentOf(str(a.id)), known: nsgIds,
  pick: (nsg, a) => childOf(nsg, 'securityRules', str(a.name) || nameOf(str(a.id))),
  toState: (r) => { const { name: _n, ...rest } = ruleToState(r); return rest; },
});

// --- the must-have severity condition: SSH or RDP open to the internet ---
const ANYWHERE = new Set(['*', '0.0.0.0/0', '0.0.0.0', '::/0', 'internet', 'any']);
const ADMIN_PORTS = [22, 3389];
// RDP answers on UDP 3389 too: only protocols without ports are no exposure.
const PORTLESS = new Set(['icmp', 'esp', 'ah']);

function covers(range: string, port: number): boolean {
  const r = range.trim();
  if (r === '*') return true;
  const m = /^(\d+)\s*-\s*(\d+)$/.exec(r);
  return m ? Number(m[1]) <= port && port <= Number(m[2]) : Number(r) === port;
}

/** `name:port` of each admin port (22, 3389) a rule lets in from anywhere. */
export function openAdminPorts(rule: unknown): string[] {
  const r = (rule ?? {}) as Record<string, unknown>;
  if (lower(str(r.direction)) !== 'inbound' || lower(str(r.access)) !== 'allow' || PORTLESS.has(lower(str(r.protocol)))) return [];
  const sources = [str(r.source_address_prefix), ...list<string>(r.source_address_prefixes)].map((s) => lower(s.trim()));
  if (!sources.some((s) => ANYWHERE.has(s))) return [];
  const ranges = [str(r.destination_port_range), ...list<string>(r.destination_port_ranges)].filter(Boolean);
  return ADMIN_PORTS.filter((p) => ranges.some((x) => covers(String(x), p))).map((p) => `${lower(str(r.name))}:${p}`);
}

/** Whether `after` (rules) lets in from anywhere an admin port that `before` did not. */
export function opensAdminPorts(before: unknown, after: unknown): boolean {
  const had = new Set(list(before).flatMap(openAdminPorts));
  return list(after).flatMap(openAdminPorts).some((x) => !had.has(x));
}
