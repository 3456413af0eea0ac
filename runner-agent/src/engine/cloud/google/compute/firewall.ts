// google_compute_firewall: compute/v1 firewalls (global), listed per project when several are read.
// allow/deny blocks are sets in the provider: compared order-free by protocol and ports.
import { computeReader, globalPath, link, list, nameOf, ownSelfLink, strings, type Attrs } from './common.ts';
import type { Scope } from '../../rest/reader.ts';
import type { GJson } from '../kit.ts';

const path = (a: Attrs, scope: Scope) => globalPath('firewalls', a, scope);
const rules = (v: unknown) => list(v).map((r: GJson) => ({ protocol: r.IPProtocol ?? '', ports: strings(r.ports) }));
const ruleKey = (e: unknown) => { const r = e as Attrs; return [`${String(r.protocol ?? '').toLowerCase()}:${strings(r.ports).sort().join(',')}`]; };

export const computeFirewallReader = computeReader({
  type: 'google_compute_firewall',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/firewalls/:name',
  globalList: 'firewalls',
  pathOf: path,
  toState: (j, i) => ({
    name: j.name, description: j.description ?? '', network: link(j.network, i.attributes.network), priority: j.priority ?? 1000,
    direction: j.direction ?? 'INGRESS', disabled: j.disabled ?? false,
    allow: rules(j.allowed), deny: rules(j.denied),
    source_ranges: strings(j.sourceRanges), destination_ranges: strings(j.destinationRanges),
    source_tags: strings(j.sourceTags), target_tags: strings(j.targetTags),
    source_service_accounts: strings(j.sourceServiceAccounts), target_service_accounts: strings(j.targetServiceAccounts),
    // The provider writes log_config only while logging is on.
    log_config: j.logConfig?.enable ? [{ metadata: j.logConfig.metadata ?? '' }] : [],
  }),
  fromState: (a) => ({
    kind: 'compute#firewall', name: nameOf(a), description: a.description ?? '', network: a.network, priority: a.priority,
    direction: a.direction, disabled: a.disabled ?? false,
    allowed: list(a.allow).map((r: Attrs) => ({ IPProtocol: r.protocol, ...(strings(r.ports).length ? { ports: r.ports } : {}) })),
    denied: list(a.deny).map((r: Attrs) => ({ IPProtocol: r.protocol, ...(strings(r.ports).length ? { ports: r.ports } : {}) })),
    sourceRanges: a.source_ranges ?? undefined, destinationRanges: a.destination_ranges ?? undefined,
    sourceTags: a.source_tags ?? undefined, targetTags: a.target_tags ?? undefined,
    sourceServiceAccounts: a.source_service_accounts ?? undefined, targetServiceAccounts: a.target_service_accounts ?? undefined,
    logConfig: { enable: list(a.log_config).length > 0, ...(list(a.log_config)[0]?.metadata ? { metadata: list(a.log_config)[0].metadata } : {}) },
    creationTimestamp: a.creation_timestamp, selfLink: ownSelfLink(a, path),
  }),
  spec: { sets: { allow: ruleKey, deny: ruleKey } },
});
