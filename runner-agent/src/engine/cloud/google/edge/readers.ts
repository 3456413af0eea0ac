// google_compute_security_policy (Cloud Armor, global: one paged list of the project when three
// or more are read there), google_compute_region_network_endpoint_group (serverless and PSC
// NEGs, one GET each) and google_vpc_access_connector (Serverless VPC Access, one GET each).
// A security policy's rules compare as a set keyed by what decides traffic (priority, action,
// preview, match); rate-limit, redirect and header-action options are not mapped.
import { computeReader, globalPath, link, list, nameOf, ownSelfLink, regionalPath, strings, type Attrs } from '../compute/common.ts';
import { googleReader, last, ownProject, type GJson } from '../kit.ts';
import type { Scope } from '../../rest/reader.ts';
import { ownLocation } from '../scope.ts';

const first = (v: unknown): Attrs => (Array.isArray(v) && v[0] && typeof v[0] === 'object' ? v[0] : {});

/** A rule as the provider writes it, from the API's JSON. */
const ruleToState = (r: GJson) => ({
  action: r.action ?? '', priority: Number(r.priority ?? 0), description: r.description ?? '', preview: r.preview ?? false,
  match: r.match ? [{
    versioned_expr: r.match.versionedExpr ?? '',
    config: r.match.config ? [{ src_ip_ranges: strings(r.match.config.srcIpRanges) }] : [],
    expr: r.match.expr ? [{ expression: r.match.expr.expression ?? '' }] : [],
  }] : [],
});

/** What decides a rule's traffic, in one comparable key (either side's extra option blocks left out). */
function ruleKey(e: unknown): string[] {
  const r = (e ?? {}) as Attrs;
  const m = first(r.match);
  return [JSON.stringify([
    Number(r.priority ?? 0), r.action ?? '', r.preview === true, m.versioned_expr ?? '',
    strings(first(m.config).src_ip_ranges).sort(), first(m.expr).expression ?? '', r.description ?? '',
  ])];
}

const policies = (a: Attrs, scope: Scope) => globalPath('securityPolicies', a, scope);

export const securityPolicyReader = computeReader({
  type: 'google_compute_security_policy',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/securityPolicies/:name',
  globalList: 'securityPolicies',
  pathOf: policies,
  toState: (j) => ({ name: j.name, description: j.description ?? '', type: j.type ?? 'CLOUD_ARMOR', rule: list(j.rules).map(ruleToState) }),
  fromState: (a) => ({
    kind: 'compute#securityPolicy', name: nameOf(a), description: a.description || undefined, type: a.type || undefined,
    rules: list(a.rule).map((r: Attrs) => {
      const m = first(r.match);
      return {
        action: r.action, priority: r.priority, description: r.description || undefined, preview: r.preview || undefined,
        match: Object.keys(m).length ? {
          versionedExpr: m.versioned_expr || undefined,
          config: Object.keys(first(m.config)).length ? { srcIpRanges: first(m.config).src_ip_ranges } : undefined,
          expr: Object.keys(first(m.expr)).length ? { expression: first(m.expr).expression } : undefined,
        } : undefined,
      };
    }),
    fingerprint: a.fingerprint, selfLink: ownSelfLink(a, policies),
  }),
  spec: { sets: { rule: ruleKey } },
});

const negs = (a: Attrs, scope: Scope) => regionalPath('networkEndpointGroups', a, scope);
const serverless = (b: GJson | undefined, keys: [string, string][]) =>
  (b ? [Object.fromEntries(keys.map(([api, tf]) => [tf, b[api] ?? '']))] : []);
const CLOUD_RUN: [string, string][] = [['service', 'service'], ['tag', 'tag'], ['urlMask', 'url_mask']];
const CLOUD_FUNCTION: [string, string][] = [['function', 'function'], ['urlMask', 'url_mask']];
const APP_ENGINE: [string, string][] = [['service', 'service'], ['version', 'version'], ['urlMask', 'url_mask']];
const fromBlock = (v: unknown, keys: [string, string][]) => {
  const b = first(v);
  return Object.keys(b).length ? Object.fromEntries(keys.map(([api, tf]) => [api, b[tf] || undefined])) : undefined;
};

export const regionNegReader = googleReader({
  type: 'google_compute_region_network_endpoint_group',
  service: 'compute',
  route: '/compute/v1/projects/:project/regions/:region/networkEndpointGroups/:name',
  pathOf: negs,
  toState: (j, i) => {
    const a = i.attributes;
    return {
      name: j.name, description: j.description ?? '', network_endpoint_type: j.networkEndpointType ?? 'SERVERLESS',
      network: link(j.network, a.network), subnetwork: link(j.subnetwork, a.subnetwork), psc_target_service: j.pscTargetService ?? '',
      cloud_run: serverless(j.cloudRun, CLOUD_RUN), cloud_function: serverless(j.cloudFunction, CLOUD_FUNCTION), app_engine: serverless(j.appEngine, APP_ENGINE),
    };
  },
  fromState: (a) => ({
    kind: 'compute#networkEndpointGroup', name: nameOf(a), description: a.description || undefined, networkEndpointType: a.network_endpoint_type || undefined,
    network: a.network || undefined, subnetwork: a.subnetwork || undefined, pscTargetService: a.psc_target_service || undefined,
    cloudRun: fromBlock(a.cloud_run, CLOUD_RUN), cloudFunction: fromBlock(a.cloud_function, CLOUD_FUNCTION), appEngine: fromBlock(a.app_engine, APP_ENGINE),
    region: a.region, selfLink: ownSelfLink(a, negs),
  }),
});

/** `/v1/projects/P/locations/R/connectors/N` (Serverless VPC Access). */
function connectorPath(a: Attrs, scope: Scope): string | undefined {
  const project = ownProject(a) ?? (scope.account || undefined);
  const region = ownLocation(a) ?? scope.location;
  const name = nameOf(a);
  return project && region && name ? `/v1/projects/${project}/locations/${last(region)}/connectors/${last(name)}` : undefined;
}

export const vpcAccessConnectorReader = googleReader({
  type: 'google_vpc_access_connector',
  service: 'vpcaccess',
  route: '/v1/projects/:project/locations/:region/connectors/:name',
  pathOf: connectorPath,
  toState: (j, i) => {
    const a = i.attributes;
    return {
      name: last(j.name), network: j.network ? (last(a.network) === last(j.network) ? a.network : j.network) : '', ip_cidr_range: j.ipCidrRange ?? '',
      machine_type: j.machineType ?? 'e2-micro', min_instances: j.minInstances, max_instances: j.maxInstances,
      min_throughput: j.minThroughput, max_throughput: j.maxThroughput,
      subnet: j.subnet?.name ? [{ name: j.subnet.name, project_id: j.subnet.projectId ?? '' }] : [],
    };
  },
  fromState: (a, i) => ({
    name: connectorPath(a, { account: '', location: null, source: 'fake' })?.replace(/^\/v1\//, '') ?? i.address, network: a.network ? last(a.network) : undefined,
    ipCidrRange: a.ip_cidr_range || undefined, machineType: a.machine_type || undefined, minInstances: a.min_instances ?? undefined,
    maxInstances: a.max_instances ?? undefined, minThroughput: a.min_throughput ?? undefined, maxThroughput: a.max_throughput ?? undefined,
    subnet: first(a.subnet).name ? { name: first(a.subnet).name, projectId: first(a.subnet).project_id || undefined } : undefined, state: 'READY',
  }),
});
