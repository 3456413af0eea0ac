// google_dns_record_set (Cloud DNS v1: a zone's record sets, one paged list when several are read
// in it) and google_service_networking_connection (Service Networking v1: a network's private
// services connections, one call per network and service, which names the network by project
// number: the project's number is read once per scan from Resource Manager, as the provider does).
import { mapLimit } from '../../../limit.ts';
import type { RestApi } from '../../rest/api.ts';
import { fakeList, type FakeRequest, type FakeWorld, type RestItem, type RestReader, type Scope } from '../../rest/reader.ts';
import { CONCURRENCY, ownProject, type GJson } from '../kit.ts';
import { listedReader, short } from '../data/kit.ts';

type A = Record<string, any>;
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
const projectOf = (a: A, scope: Scope) => ownProject(a) ?? scope.account;
const zonePath = (a: A, scope: Scope) => { const p = projectOf(a, scope); return p && a.managed_zone ? `/dns/v1/projects/${p}/managedZones/${short(a.managed_zone)}/rrsets` : undefined; };

export const dnsRecordSetReader = listedReader({
  type: 'google_dns_record_set',
  service: 'dns',
  route: '/dns/v1/projects/:project/managedZones/:zone/rrsets/:name/:type',
  pathOf: (a, scope) => { const z = zonePath(a, scope); return z && a.name && a.type ? `${z}/${a.name}/${a.type}` : undefined; },
  // Routing policies (geo, weighted, failover) are not mapped: the records a plain set answers are.
  toState: (j) => ({ name: j.name, type: j.type, ttl: j.ttl ?? 0, rrdatas: strs(j.rrdatas) }),
  fromState: (a) => ({ kind: 'dns#resourceRecordSet', name: a.name, type: a.type, ttl: a.ttl || undefined, rrdatas: a.rrdatas ?? undefined }),
}, {
  path: zonePath, route: '/dns/v1/projects/:project/managedZones/:zone/rrsets', key: 'rrsets',
  pathOfItem: (j, parent) => (j.name && j.type ? `${parent}/${j.name}/${j.type}` : undefined),
});

const CONNECTION = 'google_service_networking_connection';
/** The connection's network as `{project, name}`: from its link, else the scope's project and its name. */
function networkOf(a: A, scope: Scope): { project: string; name: string } | undefined {
  const n = typeof a.network === 'string' ? a.network : '';
  const m = /projects\/([^/]+)\/global\/networks\/([^/]+)$/.exec(n);
  if (m) return { project: m[1], name: m[2] };
  return n && scope.account ? { project: scope.account, name: short(n) } : undefined;
}
/** The fake's project number for a project id (Resource Manager answers it; the connections query uses it). */
const fakeNumber = (project: string) => String([...project].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1e12, 7)).padStart(12, '1');

function connectionToState(c: GJson, a: A) {
  return { network: a.network, service: c.service ?? a.service, reserved_peering_ranges: strs(c.reservedPeeringRanges) };
}

export const serviceNetworkingConnectionReader: RestReader = {
  spec: {},
  fake: [
    { method: 'GET', service: 'cloudresourcemanager', path: '/v1/projects/:project',
      answer: (req: FakeRequest) => ({ projectId: req.params.project, projectNumber: fakeNumber(req.params.project), lifecycleState: 'ACTIVE' }) },
    { method: 'GET', service: 'servicenetworking', path: '/v1/services/:service/connections',
      answer: (req: FakeRequest, world: FakeWorld) => {
        const m = /^projects\/([^/]+)\/global\/networks\/([^/]+)$/.exec(req.query.get('network') ?? '');
        if (!m) return undefined;
        const mine = world.of(CONNECTION).filter((i) => {
          const n = networkOf(i.attributes, { account: '', location: null, source: 'fake' });
          return n && fakeNumber(n.project) === m[1] && n.name === m[2] && i.attributes.service === req.params.service;
        });
        return fakeList(mine.map((i) => ({
          network: req.query.get('network'), service: i.attributes.service, reservedPeeringRanges: i.attributes.reserved_peering_ranges ?? [],
          peering: i.attributes.peering || 'servicenetworking-googleapis-com',
        })), 'connections');
      } },
  ],
  async read(items: RestItem[], api: RestApi) {
    return mapLimit(items, CONCURRENCY, async (it) => {
      const a = it.instance.attributes;
      const n = networkOf(a, it.scope);
      if (!n || typeof a.service !== 'string' || !a.service) return null;
      const project = await api.once(`gcp-project:${n.project}`, () => api.get<GJson>('cloudresourcemanager', `/v1/projects/${n.project}`, `GET project ${n.project} (its number)`));
      if (!project?.projectNumber) return null;
      const network = `projects/${project.projectNumber}/global/networks/${n.name}`;
      const path = `/v1/services/${a.service}/connections?network=${encodeURIComponent(network)}`;
      const all = await api.once(`gcp-list:servicenetworking${path}`, () => api.list<GJson>('servicenetworking', path, `list connections of ${n.project}/${n.name}`, { style: 'pageToken', items: 'connections' }));
      const c = all.find((x) => (x.service ?? a.service) === a.service);
      return c ? connectionToState(c, a) : null;
    });
  },
};
