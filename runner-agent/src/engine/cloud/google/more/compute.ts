// google_compute_forwarding_rule (regional: the project's aggregatedList when several are read),
// google_compute_global_forwarding_rule and google_compute_health_check (global: the project's
// list when several are read), compute/v1, through the Compute area's helpers. Fields newer
// providers added and older states lack stay undefined when the API omits them (not compared).
import { last, ownProject, type GJson } from '../kit.ts';
import { anyLocation, computeReader, globalPath, link, list, nameOf, ownSelfLink, regionalPath, stateLabels, strings, type Attrs } from '../compute/common.ts';
import type { Scope } from '../../rest/reader.ts';
import { setOfNonEmpty } from '../data/kit.ts';

const regional = (a: Attrs, scope: Scope) => regionalPath('forwardingRules', a, scope);
const global = (a: Attrs, scope: Scope) => globalPath('forwardingRules', a, scope);
const checks = (a: Attrs, scope: Scope) => globalPath('healthChecks', a, scope);

/** The API answers a single port as a range (`80-80`); the provider keeps what was written (`80`). */
const samePortRange = (state: unknown, live: string): string => {
  const [lo, hi] = live.split('-');
  return typeof state === 'string' && lo === hi && state === lo ? state : live;
};

const rule = (j: GJson, a: Attrs) => ({
  name: j.name, description: j.description ?? '', ip_address: j.IPAddress ?? '', ip_protocol: j.IPProtocol ?? '',
  load_balancing_scheme: j.loadBalancingScheme ?? '', port_range: samePortRange(a.port_range, j.portRange ?? ''),
  target: link(j.target, a.target), network: link(j.network, a.network), labels: j.labels ?? {},
});
const ruleJson = (a: Attrs, path: (a: Attrs, s: Scope) => string | undefined) => ({
  kind: 'compute#forwardingRule', name: nameOf(a), description: a.description ?? '', IPAddress: a.ip_address || undefined,
  IPProtocol: a.ip_protocol || undefined, loadBalancingScheme: a.load_balancing_scheme || undefined,
  // What the API answers for a single port: a range.
  portRange: a.port_range ? (String(a.port_range).includes('-') ? a.port_range : `${a.port_range}-${a.port_range}`) : undefined,
  target: a.target || undefined, network: a.network || undefined, labels: stateLabels(a), labelFingerprint: a.label_fingerprint,
  creationTimestamp: a.creation_timestamp, selfLink: ownSelfLink(a, path),
});

export const forwardingRuleReader = anyLocation({
  type: 'google_compute_forwarding_rule',
  service: 'compute',
  route: '/compute/v1/projects/:project/regions/:region/forwardingRules/:name',
  aggregated: 'forwardingRules',
  pathOf: regional,
  toState: (j, i) => {
    const a = i.attributes;
    return {
      ...rule(j, a), ports: strings(j.ports), all_ports: j.allPorts ?? false, allow_global_access: j.allowGlobalAccess ?? false,
      backend_service: link(j.backendService, a.backend_service), subnetwork: link(j.subnetwork, a.subnetwork),
      network_tier: j.networkTier ?? '', service_label: j.serviceLabel ?? '', is_mirroring_collector: j.isMirroringCollector ?? false,
    };
  },
  fromState: (a) => ({
    ...ruleJson(a, regional), region: `https://www.googleapis.com/compute/v1/projects/${ownProject(a) ?? ''}/regions/${last(a.region)}`,
    ports: list(a.ports).length ? a.ports : undefined, allPorts: a.all_ports || undefined, allowGlobalAccess: a.allow_global_access || undefined,
    backendService: a.backend_service || undefined, subnetwork: a.subnetwork || undefined, networkTier: a.network_tier || undefined,
    serviceLabel: a.service_label || undefined, isMirroringCollector: a.is_mirroring_collector || undefined,
  }),
});

export const globalForwardingRuleReader = computeReader({
  type: 'google_compute_global_forwarding_rule',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/forwardingRules/:name',
  globalList: 'forwardingRules',
  pathOf: global,
  toState: (j, i) => ({ ...rule(j, i.attributes), ip_version: j.ipVersion ?? '' }),
  fromState: (a) => ({ ...ruleJson(a, global), ipVersion: a.ip_version || undefined }),
});

// The probe blocks of a health check: state block -> API object, with the fields each kind holds.
const PROBES: Record<string, { key: string; fields: string[] }> = {
  http_health_check: { key: 'httpHealthCheck', fields: ['host', 'port', 'port_name', 'port_specification', 'proxy_header', 'request_path', 'response'] },
  https_health_check: { key: 'httpsHealthCheck', fields: ['host', 'port', 'port_name', 'port_specification', 'proxy_header', 'request_path', 'response'] },
  http2_health_check: { key: 'http2HealthCheck', fields: ['host', 'port', 'port_name', 'port_specification', 'proxy_header', 'request_path', 'response'] },
  tcp_health_check: { key: 'tcpHealthCheck', fields: ['port', 'port_name', 'port_specification', 'proxy_header', 'request', 'response'] },
  ssl_health_check: { key: 'sslHealthCheck', fields: ['port', 'port_name', 'port_specification', 'proxy_header', 'request', 'response'] },
  grpc_health_check: { key: 'grpcHealthCheck', fields: ['port', 'port_name', 'port_specification', 'grpc_service_name'] },
};
const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

function probeState(p: GJson | undefined, fields: string[]): Attrs[] {
  if (!p) return [];
  return [Object.fromEntries(fields.map((f) => [f, p[camel(f)] ?? (f === 'port' ? 0 : f === 'proxy_header' ? 'NONE' : '')]))];
}

export const healthCheckReader = computeReader({
  type: 'google_compute_health_check',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/healthChecks/:name',
  globalList: 'healthChecks',
  pathOf: checks,
  toState: (j) => ({
    name: j.name, description: j.description ?? '', type: j.type ?? '', check_interval_sec: j.checkIntervalSec ?? 5, timeout_sec: j.timeoutSec ?? 5,
    healthy_threshold: j.healthyThreshold ?? 2, unhealthy_threshold: j.unhealthyThreshold ?? 2,
    ...Object.fromEntries(Object.entries(PROBES).map(([k, { key, fields }]) => [k, probeState(j[key], fields)])),
    // The provider writes `[{enable = false}]` for a check without logging; older states `[]`: compared by its value.
    log_config: [{ enable: j.logConfig?.enable ?? false }],
  }),
  fromState: (a) => ({
    kind: 'compute#healthCheck', name: nameOf(a), description: a.description ?? '', type: a.type, checkIntervalSec: a.check_interval_sec,
    timeoutSec: a.timeout_sec, healthyThreshold: a.healthy_threshold, unhealthyThreshold: a.unhealthy_threshold,
    ...Object.fromEntries(Object.entries(PROBES).filter(([k]) => list(a[k]).length).map(([k, { key, fields }]) => [key, Object.fromEntries(
      fields.filter((f) => a[k][0][f] !== '' && a[k][0][f] !== undefined && a[k][0][f] !== null && !(f === 'port' && a[k][0][f] === 0)).map((f) => [camel(f), a[k][0][f]]),
    )])),
    logConfig: { enable: list(a.log_config)[0]?.enable ?? false },
    creationTimestamp: a.creation_timestamp, selfLink: ownSelfLink(a, checks),
  }),
  spec: { sets: { log_config: setOfNonEmpty((e) => ({ enable: e.enable })) } },
});
