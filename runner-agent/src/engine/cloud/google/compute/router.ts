// google_compute_router and google_compute_router_nat: a NAT is no resource of its own in the API
// but an element of its router's `nats[]`, so both types read routers, each router once per scan
// (api.once), from one aggregatedList of the project when three or more routers are wanted there
// (or when the other type already listed them), else by GET. The fake answers routers with the
// NATs of the state attached (a NAT whose router is not in the state gets a bare router).
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes, StateInstance } from '../../../types.ts';
import type { RestApi } from '../../rest/api.ts';
import { indexBy, text, type FakeRequest, type FakeWorld, type RestItem, type RestReader, type Scope } from '../../rest/reader.ts';
import { CONCURRENCY, last, LIST_FROM, ownProject, selfLink, type GJson } from '../kit.ts';
import { aggregated, API, defined, int, link, list, nameOf, ownSelfLink, projectIn, regionalPath, strings, type Attrs } from './common.ts';

const ROUTER = 'google_compute_router';
const NAT = 'google_compute_router_nat';
const routerPath = (a: Attrs, scope: Scope) => regionalPath('routers', a, scope);
/** A NAT's router; its region and project from its `{project}/{region}/{router}/{name}` id when the state lacks them. */
const natRouter = (a: Attrs): Attrs => {
  const parts = typeof a.id === 'string' && !a.id.startsWith('projects/') ? a.id.split('/') : [];
  const fromId = parts.length === 4 ? { project: parts[0], region: parts[1] } : {};
  return { project: text(a.project) ?? fromId.project, region: text(a.region) ?? fromId.region, name: last(a.router) };
};
const natRouterPath = (a: Attrs, scope: Scope) => (a.router ? regionalPath('routers', natRouter(a), scope) : undefined);
const aggregatedKey = (project: string) => `${API}/${project}/aggregated/routers?returnPartialSuccess=true`;

/** The routers at `paths` (null where missing), each read once for the scan. */
async function readRouters(paths: (string | undefined)[], api: RestApi, what: string): Promise<(GJson | null)[]> {
  const perProject = new Map<string, Set<string>>();
  for (const p of paths) if (p) perProject.set(projectIn(p), (perProject.get(projectIn(p)) ?? new Set()).add(p.toLowerCase()));
  const listed = new Map<string, Map<string, GJson>>();
  for (const [project, wanted] of perProject) {
    const path = aggregatedKey(project);
    // The same key as the kit's aggregated lists: one list of the project's routers for both types.
    if (wanted.size < LIST_FROM && !api.cache.has(`gcp-agg:${path}`)) continue;
    const all = await api.once(`gcp-agg:${path}`, () => api.list<GJson>('compute', path, `aggregatedList routers in ${project}`, { style: 'pageToken' }));
    listed.set(project, indexBy(all, (x) => (typeof x.selfLink === 'string' ? new URL(x.selfLink).pathname : undefined)));
  }
  return mapLimit(paths, CONCURRENCY, async (p) => {
    if (!p) return null;
    const inList = listed.get(projectIn(p));
    if (inList) return inList.get(p.toLowerCase()) ?? null;
    return api.once(`gcp-get:${p}`, () => api.get<GJson>('compute', p, `GET ${what} ${p}`));
  });
}

function routerToState(j: GJson, i: StateInstance): LiveAttributes {
  const bgp: GJson | undefined = j.bgp;
  return {
    name: j.name, description: j.description ?? '', network: link(j.network, i.attributes.network),
    bgp: bgp ? [defined({
      asn: int(bgp.asn), advertise_mode: bgp.advertiseMode ?? 'DEFAULT', advertised_groups: strings(bgp.advertisedGroups),
      advertised_ip_ranges: list(bgp.advertisedIpRanges).map((r: GJson) => ({ range: r.range ?? '', description: r.description ?? '' })),
      keepalive_interval: bgp.keepaliveInterval, identifier_range: bgp.identifierRange,
    })] : [],
    encrypted_interconnect_router: j.encryptedInterconnectRouter ?? false,
  };
}
function routerFromState(a: Attrs): GJson {
  const bgp: Attrs | undefined = list(a.bgp)[0];
  return {
    kind: 'compute#router', name: nameOf(a), description: a.description ?? '', network: a.network,
    region: `https://www.googleapis.com/compute/v1/projects/${ownProject(a) ?? ''}/regions/${last(a.region)}`,
    ...(bgp ? { bgp: {
      asn: bgp.asn, advertiseMode: bgp.advertise_mode, advertisedGroups: bgp.advertised_groups ?? [],
      advertisedIpRanges: list(bgp.advertised_ip_ranges).map((r: Attrs) => ({ range: r.range, description: r.description || undefined })),
      keepaliveInterval: bgp.keepalive_interval || undefined, identifierRange: bgp.identifier_range || undefined,
    } } : {}),
    encryptedInterconnectRouter: a.encrypted_interconnect_router || undefined, selfLink: ownSelfLink(a, routerPath),
  };
}

/** The provider writes the API's defaults for timeouts the API leaves out. */
function natToState(router: GJson, i: StateInstance): LiveAttributes | null {
  const a = i.attributes;
  const n: GJson | undefined = list(router.nats).find((x: GJson) => x.name === a.name);
  if (!n) return null;
  const stateIp = (u: string) => strings(a.nat_ips).find((s) => last(s) === last(u));
  return {
    name: n.name, nat_ip_allocate_option: n.natIpAllocateOption ?? '', source_subnetwork_ip_ranges_to_nat: n.sourceSubnetworkIpRangesToNat ?? '',
    nat_ips: strings(n.natIps).map((u) => link(u, stateIp(u))), drain_nat_ips: strings(n.drainNatIps).map((u) => link(u, stateIp(u))),
    subnetwork: list(n.subnetworks).map((s: GJson) => ({
      name: link(s.name, list(a.subnetwork).find((x: Attrs) => last(x?.name) === last(s.name))?.name),
      source_ip_ranges_to_nat: strings(s.sourceIpRangesToNat), secondary_ip_range_names: strings(s.secondaryIpRangeNames),
    })),
    min_ports_per_vm: int(n.minPortsPerVm), max_ports_per_vm: n.maxPortsPerVm === undefined ? undefined : int(n.maxPortsPerVm),
    enable_dynamic_port_allocation: n.enableDynamicPortAllocation ?? false,
    enable_endpoint_independent_mapping: n.enableEndpointIndependentMapping ?? false,
    udp_idle_timeout_sec: int(n.udpIdleTimeoutSec, 30), icmp_idle_timeout_sec: int(n.icmpIdleTimeoutSec, 30),
    tcp_established_idle_timeout_sec: int(n.tcpEstablishedIdleTimeoutSec, 1200), tcp_transitory_idle_timeout_sec: int(n.tcpTransitoryIdleTimeoutSec, 30),
    tcp_time_wait_timeout_sec: int(n.tcpTimeWaitTimeoutSec, 120),
    log_config: n.logConfig && Object.keys(n.logConfig).length ? [{ enable: n.logConfig.enable ?? false, filter: n.logConfig.filter ?? '' }] : [],
    type: n.type, auto_network_tier: n.autoNetworkTier,
  };
}
function natFromState(a: Attrs): GJson {
  const log: Attrs | undefined = list(a.log_config)[0];
  const num = (v: unknown) => (v === undefined || v === null || v === 0 ? undefined : v);
  return defined({
    name: nameOf(a), natIpAllocateOption: a.nat_ip_allocate_option || undefined, sourceSubnetworkIpRangesToNat: a.source_subnetwork_ip_ranges_to_nat || undefined,
    natIps: a.nat_ips ?? undefined, drainNatIps: a.drain_nat_ips ?? undefined,
    subnetworks: list(a.subnetwork).map((s: Attrs) => ({ name: s.name, sourceIpRangesToNat: s.source_ip_ranges_to_nat ?? [], secondaryIpRangeNames: s.secondary_ip_range_names ?? undefined })),
    minPortsPerVm: num(a.min_ports_per_vm), maxPortsPerVm: num(a.max_ports_per_vm), enableDynamicPortAllocation: a.enable_dynamic_port_allocation || undefined,
    enableEndpointIndependentMapping: a.enable_endpoint_independent_mapping ?? undefined,
    udpIdleTimeoutSec: num(a.udp_idle_timeout_sec), icmpIdleTimeoutSec: num(a.icmp_idle_timeout_sec),
    tcpEstablishedIdleTimeoutSec: num(a.tcp_established_idle_timeout_sec), tcpTransitoryIdleTimeoutSec: num(a.tcp_transitory_idle_timeout_sec),
    tcpTimeWaitTimeoutSec: num(a.tcp_time_wait_timeout_sec),
    logConfig: log ? { enable: log.enable, filter: log.filter } : undefined, type: a.type || undefined, autoNetworkTier: a.auto_network_tier || undefined,
  });
}

/** The state's routers in a project as the API answers them, NATs attached, by lowercased path (no project of their own: the request's). */
function worldRouters(world: FakeWorld, project: string): Map<string, GJson> {
  const scope: Scope = { account: project, location: null, source: 'fake' };
  const mine = (a: Attrs) => (ownProject(a) ?? project) === project;
  const out = new Map<string, GJson>();
  for (const i of world.of(ROUTER).filter((x) => mine(x.attributes))) {
    const p = routerPath(i.attributes, scope);
    if (p) out.set(p.toLowerCase(), { ...routerFromState(i.attributes), selfLink: selfLink(p) });
  }
  for (const i of world.of(NAT).filter((x) => (natRouter(x.attributes).project ?? project) === project)) {
    const p = natRouterPath(i.attributes, scope);
    if (!p) continue;
    const r = out.get(p.toLowerCase()) ?? { kind: 'compute#router', name: last(i.attributes.router), region: `https://www.googleapis.com${p.replace(/\/routers\/[^/]+$/, '')}`, selfLink: selfLink(p) };
    out.set(p.toLowerCase(), { ...r, nats: [...list(r.nats), natFromState(i.attributes)] });
  }
  return out;
}
const routes = [
  { method: 'GET' as const, service: 'compute', path: `${API}/:project/regions/:region/routers/:name`,
    answer: (req: FakeRequest, world: FakeWorld) => worldRouters(world, req.params.project).get(req.path.toLowerCase()) },
  { method: 'GET' as const, service: 'compute', path: `${API}/:project/aggregated/routers`,
    answer: (req: FakeRequest, world: FakeWorld) => {
      const items: Record<string, { routers: GJson[] }> = {};
      for (const r of worldRouters(world, req.params.project).values()) {
        (items[`regions/${last(r.region)}`] ??= { routers: [] }).routers.push(r);
      }
      return { kind: 'compute#routerAggregatedList', items };
    } },
];

function routerTypeReader(
  pathOf: (a: Attrs, s: Scope) => string | undefined, routerOf: (a: Attrs) => Attrs,
  toState: (j: GJson, i: StateInstance) => LiveAttributes | null, what: string, spec: RestReader['spec'], fake: RestReader['fake'],
): RestReader {
  return {
    spec, fake,
    async read(items: RestItem[], api: RestApi) {
      const routers = await readRouters(items.map((it) => pathOf(it.instance.attributes, it.scope)), api, what);
      // A router the state places in no region is looked up by name in the project's list (never guessed deleted).
      for (const [k, it] of items.entries()) {
        const r = routerOf(it.instance.attributes);
        const project = text(r.project) ?? it.scope.account;
        if (routers[k] || pathOf(it.instance.attributes, it.scope) || !r.name || !project) continue;
        routers[k] = (await aggregated(api, project, 'routers')).find((j) => j.name === r.name) ?? null;
      }
      return items.map((it, k) => (routers[k] ? toState(routers[k]!, it.instance) : null));
    },
  };
}

export const computeRouterReader = routerTypeReader(routerPath, (a) => ({ project: a.project, name: text(a.name) ?? last(a.id) }), routerToState, ROUTER,
  { sets: { 'bgp.0.advertised_ip_ranges': (e) => [`${(e as Attrs).range}|${(e as Attrs).description ?? ''}`] } }, routes);
export const computeRouterNatReader = routerTypeReader(natRouterPath, natRouter, natToState, NAT,
  { sets: { subnetwork: (e) => [[last((e as Attrs).name), ...strings((e as Attrs).source_ip_ranges_to_nat).sort(), '|', ...strings((e as Attrs).secondary_ip_range_names).sort()].join(',')] } }, []);
