// google_compute_route (global, the project's list when several are read: one paged call however
// many subnet and peering routes the project holds) and google_compute_network_peering: no
// resource of its own in the API but an element of its network's `peerings[]`, so each network
// holding peerings is read once per scan (api.once) and its peerings found by name.
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import type { RestApi } from '../../rest/api.ts';
import type { FakeRequest, FakeWorld, RestItem, RestReader, Scope } from '../../rest/reader.ts';
import { API, computeReader, globalPath, link, list, nameOf, ownSelfLink, strings, type Attrs } from '../compute/common.ts';
import { CONCURRENCY, last, ownProject, type GJson } from '../kit.ts';
import { full } from './links.ts';

const routes = (a: Attrs, scope: Scope) => globalPath('routes', a, scope);
/** next_hop_ilb: a forwarding rule's link, or its IP address (kept as written). */
const ilb = (live: unknown, state: unknown) => (typeof live === 'string' && live.includes('/') ? link(live, state) : (live ?? ''));

export const routeReader = computeReader({
  type: 'google_compute_route',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/routes/:name',
  globalList: 'routes',
  pathOf: routes,
  toState: (j, i) => {
    const a = i.attributes;
    return {
      name: j.name, description: j.description ?? '', dest_range: j.destRange ?? '', network: link(j.network, a.network), priority: j.priority ?? 1000,
      tags: strings(j.tags), next_hop_gateway: link(j.nextHopGateway, a.next_hop_gateway), next_hop_instance: link(j.nextHopInstance, a.next_hop_instance),
      next_hop_ip: j.nextHopIp ?? '', next_hop_vpn_tunnel: link(j.nextHopVpnTunnel, a.next_hop_vpn_tunnel), next_hop_ilb: ilb(j.nextHopIlb, a.next_hop_ilb),
    };
  },
  fromState: (a) => {
    // A gateway the state names short (`default-internet-gateway`): the API's full link.
    const gw = typeof a.next_hop_gateway === 'string' && a.next_hop_gateway && !a.next_hop_gateway.includes('/')
      ? `https://www.googleapis.com/compute/v1/projects/${ownProject(a) ?? ''}/global/gateways/${a.next_hop_gateway}` : full(a.next_hop_gateway);
    return {
      kind: 'compute#route', name: nameOf(a), description: a.description ?? '', destRange: a.dest_range, network: full(a.network), priority: a.priority,
      tags: a.tags ?? undefined, nextHopGateway: gw, nextHopInstance: full(a.next_hop_instance), nextHopIp: a.next_hop_ip || undefined,
      nextHopVpnTunnel: full(a.next_hop_vpn_tunnel), nextHopIlb: a.next_hop_ilb ? (String(a.next_hop_ilb).includes('/') ? full(a.next_hop_ilb) : a.next_hop_ilb) : undefined,
      nextHopNetwork: a.next_hop_network || undefined, selfLink: ownSelfLink(a, routes),
    };
  },
});

const PEERING = 'google_compute_network_peering';
/** The network a peering sits on, as an API path; its project from the link, else the scope. */
function networkPath(a: Attrs, scope: Scope): string | undefined {
  const n = typeof a.network === 'string' ? a.network : '';
  const rel = /projects\/([^/]+)\/global\/networks\/([^/]+)$/.exec(n);
  if (rel) return `${API}/${rel[1]}/global/networks/${rel[2]}`;
  return n && scope.account ? `${API}/${scope.account}/global/networks/${last(n)}` : undefined;
}
/** A peering's name: its own, else the last part of its `{network}/{name}` id. */
const peeringName = (a: Attrs) => (typeof a.name === 'string' && a.name ? a.name : last(a.id));

function peeringToState(p: GJson, a: Attrs): LiveAttributes {
  return {
    name: p.name, network: a.network, peer_network: link(p.network, a.peer_network),
    export_custom_routes: p.exportCustomRoutes ?? false, import_custom_routes: p.importCustomRoutes ?? false,
    export_subnet_routes_with_public_ip: p.exportSubnetRoutesWithPublicIp ?? true, import_subnet_routes_with_public_ip: p.importSubnetRoutesWithPublicIp ?? false,
    // Newer providers only: compared where the state holds it.
    stack_type: p.stackType,
  };
}
function peeringJson(a: Attrs): GJson {
  return {
    name: peeringName(a), network: full(a.peer_network), state: a.state || 'ACTIVE', stateDetails: a.state_details || undefined, exchangeSubnetRoutes: true,
    exportCustomRoutes: a.export_custom_routes ?? false, importCustomRoutes: a.import_custom_routes ?? false,
    exportSubnetRoutesWithPublicIp: a.export_subnet_routes_with_public_ip ?? true, importSubnetRoutesWithPublicIp: a.import_subnet_routes_with_public_ip ?? false,
    stackType: a.stack_type || undefined,
  };
}

export const networkPeeringReader: RestReader = {
  spec: {},
  // The network's GET holds the state's peerings on it (merged into the network reader's answer when the state holds the network too).
  fake: [{
    method: 'GET', service: 'compute', path: `${API}/:project/global/networks/:name`,
    answer: (req: FakeRequest, world: FakeWorld) => {
      const scope: Scope = { account: req.params.project, location: null, source: 'fake' };
      const mine = world.of(PEERING).filter((i) => networkPath(i.attributes, { ...scope, account: ownProject(i.attributes) ?? scope.account }) === req.path);
      return mine.length ? { kind: 'compute#network', name: req.params.name, selfLink: `https://www.googleapis.com${req.path}`, peerings: mine.map((i) => peeringJson(i.attributes)) } : undefined;
    },
  }],
  async read(items: RestItem[], api: RestApi) {
    return mapLimit(items, CONCURRENCY, async (it) => {
      const a = it.instance.attributes;
      const path = networkPath(a, it.scope);
      if (!path) return null;
      const net = await api.once(`gcp-get:${path}`, () => api.get<GJson>('compute', path, `GET network ${path} (peerings)`));
      const p = list(net?.peerings).find((x: GJson) => x.name === peeringName(a));
      return p ? peeringToState(p, a) : null;
    });
  },
};
