// google_container_cluster and google_container_node_pool (GKE, container v1). A cluster's JSON
// embeds its node pools, so both types read the cluster once per scan (api.once); a project with
// LIST_FROM or more clusters in the batch is read with one `locations/-/clusters` list instead.
import { mapLimit } from '../../../limit.ts';
import type { StateInstance } from '../../../types.ts';
import type { RestApi } from '../../rest/api.ts';
import { fakeList, type FakeRequest, type FakeRoute, type FakeWorld, type RestItem, type RestReader, type Scope } from '../../rest/reader.ts';
import { CONCURRENCY, LIST_FROM, last, ownProject, type GJson } from '../kit.ts';
import { clusterFromState, clusterToState, nodePoolFromState, nodePoolToState } from './container-map.ts';

interface ClusterRef { project: string; location: string; name: string }
const CLUSTER = 'google_container_cluster';
const POOL = 'google_container_node_pool';

/** project/location/name of a cluster instance, or of a node pool's cluster (`cluster` is a name or a full id). */
function clusterRef(i: StateInstance, scope: Scope): ClusterRef | undefined {
  const a = i.attributes as Record<string, any>;
  const fromId = (v: unknown) => (typeof v === 'string' ? /projects\/([^/]+)\/(?:locations|zones)\/([^/]+)\/clusters\/([^/]+)/.exec(v) : null);
  const m = fromId(i.type === POOL ? a.cluster : a.id) ?? fromId(a.id);
  const project = ownProject(a) ?? m?.[1] ?? scope.account;
  const location = (typeof a.location === 'string' && a.location) || (typeof a.zone === 'string' && a.zone) || m?.[2] || scope.location || '';
  const name = i.type === POOL ? (m?.[3] ?? last(a.cluster)) : a.name ?? m?.[3];
  return project && location && name ? { project, location, name } : undefined;
}
const clusterPath = (r: ClusterRef) => `/v1/projects/${r.project}/locations/${r.location}/clusters/${r.name}`;
const listPath = (project: string) => `/v1/projects/${project}/locations/-/clusters`;
const listKey = (project: string) => `gke-list:${project}`;

/** The cluster's JSON: from the project's list when this batch (or an earlier type's) listed it, else one GET. */
async function clusterJson(api: RestApi, r: ClusterRef, listed: boolean): Promise<GJson | null> {
  if (listed || api.cache.has(listKey(r.project))) {
    const all = await api.once(listKey(r.project), () => api.list<GJson>('container', listPath(r.project), `list GKE clusters in ${r.project}`, { style: 'pageToken', items: 'clusters' }));
    return all.find((c) => c.name === r.name && c.location === r.location) ?? null;
  }
  return api.once(`gke:${clusterPath(r)}`, () => api.get<GJson>('container', clusterPath(r), `GET GKE cluster ${clusterPath(r)}`));
}

function clusterReader(view: (cluster: GJson, i: StateInstance) => Record<string, unknown> | null, fake: FakeRoute[]): RestReader {
  return {
    spec: {
      sets: { 'master_authorized_networks_config.0.cidr_blocks': (e: any) => [String(e?.cidr_block ?? '')] },
    },
    fake,
    async read(items: RestItem[], api: RestApi) {
      const refs = items.map((it) => clusterRef(it.instance, it.scope));
      const perProject = new Map<string, Set<string>>();
      for (const r of refs) if (r) perProject.set(r.project, (perProject.get(r.project) ?? new Set()).add(clusterPath(r)));
      return mapLimit(items, CONCURRENCY, async (it, k) => {
        const r = refs[k];
        if (!r) return null;
        const cluster = await clusterJson(api, r, (perProject.get(r.project)?.size ?? 0) >= LIST_FROM);
        return cluster ? view(cluster, it.instance) : null;
      });
    },
  };
}

/** The cluster the fake answers: the cluster instance's JSON (or a bare one when only pools are in the state) with its pools. */
function fakeCluster(world: FakeWorld, r: ClusterRef): GJson | undefined {
  const same = (x: ClusterRef | undefined) => !!x && x.project === r.project && x.location === r.location && x.name === r.name;
  const none: Scope = { account: r.project, location: r.location, source: 'fake' };
  const cluster = world.of(CLUSTER).find((i) => same(clusterRef(i, none)));
  const pools = world.of(POOL).filter((i) => same(clusterRef(i, none)));
  if (!cluster && pools.length === 0) return undefined;
  const base = cluster ? clusterFromState(cluster.attributes) : { name: r.name, status: 'RUNNING' };
  return { ...base, location: r.location, nodePools: pools.map((p) => nodePoolFromState(p.attributes)) };
}

function fakeClusters(world: FakeWorld, project: string): GJson[] {
  const refs = new Map<string, ClusterRef>();
  const none: Scope = { account: project, location: null, source: 'fake' };
  for (const i of [...world.of(CLUSTER), ...world.of(POOL)]) {
    const r = clusterRef(i, none);
    if (r && r.project === project) refs.set(clusterPath(r), r);
  }
  return [...refs.values()].map((r) => fakeCluster(world, r)).filter((c): c is GJson => !!c);
}

const FAKE: FakeRoute[] = [
  {
    method: 'GET', service: 'container', path: '/v1/projects/:project/locations/:location/clusters/:name',
    answer: (req: FakeRequest, world: FakeWorld) => fakeCluster(world, { project: req.params.project, location: req.params.location, name: req.params.name }),
  },
  {
    method: 'GET', service: 'container', path: '/v1/projects/:project/locations/-/clusters',
    answer: (req: FakeRequest, world: FakeWorld) => fakeList(fakeClusters(world, req.params.project), 'clusters'),
  },
];

export const containerClusterReader = clusterReader((c, i) => clusterToState(c, i.attributes), FAKE);

export const containerNodePoolReader = clusterReader((c, i) => {
  const a = i.attributes as Record<string, any>;
  const name = a.name ?? (typeof a.id === 'string' ? last(a.id) : undefined);
  const pool = (c.nodePools ?? []).find((p: GJson) => p.name === name);
  return pool ? nodePoolToState(pool, a) : null;
}, []);
