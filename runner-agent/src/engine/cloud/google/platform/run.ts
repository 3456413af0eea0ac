// google_cloud_run_service (Cloud Run Admin API v1, Knative form) and google_cloud_run_v2_service
// (Admin API v2). v1: the global endpoint `run.googleapis.com` answers only list methods (a GET
// needs the service's regional endpoint), and its list of `namespaces/P/services` holds every
// region's services: so a project's v1 services are read with ONE paged list (Knative `continue`
// paging), whatever their regions. v2: `projects/P/locations/L/services/S` on the global
// endpoint, one GET each at bounded concurrency.
import { genericKey } from '../../../diff.ts';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes, StateInstance } from '../../../types.ts';
import type { RestApi } from '../../rest/api.ts';
import type { FakeRequest, FakeRoute, FakeWorld, RestItem, RestReader } from '../../rest/reader.ts';
import { CONCURRENCY, ownProject, type GJson } from '../kit.ts';
import { compact } from './container-map.ts';

type A = Record<string, any>;
const LOCATION = 'cloud.googleapis.com/location';
/** Items per page of the v1 list (tests shorten it to exercise paging). */
export const RUN_PAGING = { limit: 500 };
const first = (v: unknown): A => (Array.isArray(v) && v[0] && typeof v[0] === 'object' ? v[0] : {});
const list = (v: unknown): A[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
/** Env lists are sets in the provider: compared order-free, for the first containers of a service. */
const ENV_SETS = Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`template.0.spec.0.containers.${k}.env`, genericKey]));

function containersToState(cs: A[] | undefined): A[] {
  return (cs ?? []).map((c) => ({
    image: c.image, args: c.args ?? [], command: c.command ?? [], working_dir: c.workingDir ?? '',
    env: (c.env ?? []).map((e: A) => compact({ name: e.name, value: e.value ?? '', ...(e.valueFrom ? { value_from: [{ secret_key_ref: [{ name: e.valueFrom.secretKeyRef?.name, key: e.valueFrom.secretKeyRef?.key }] }] } : {}) })),
    ports: (c.ports ?? []).map((p: A) => ({ container_port: p.containerPort, name: p.name ?? '', protocol: p.protocol ?? '' })),
    resources: [{ limits: c.resources?.limits ?? {}, requests: c.resources?.requests ?? {} }],
  }));
}

function containersFromState(cs: unknown): A[] {
  return list(cs).map((c) => ({
    image: c.image, args: c.args ?? undefined, command: c.command ?? undefined, workingDir: c.working_dir || undefined,
    env: list(c.env).map((e) => ({ name: e.name, value: e.value || undefined, valueFrom: list(e.value_from).length ? { secretKeyRef: { name: first(first(e.value_from).secret_key_ref).name, key: first(first(e.value_from).secret_key_ref).key } } : undefined })),
    ports: list(c.ports).map((p) => ({ containerPort: p.container_port, name: p.name || undefined, protocol: p.protocol || undefined })),
    resources: { limits: first(c.resources).limits ?? undefined, requests: first(c.resources).requests ?? undefined },
  }));
}

export function runV1ToState(j: GJson, a: A): LiveAttributes {
  const sm = first(a.metadata);
  const tm = j.spec?.template?.metadata ?? {};
  const ts = j.spec?.template?.spec ?? {};
  const stateSpec = first(first(a.template).spec);
  // Provider 5+ keeps the configuration's labels and annotations apart from every one the API has (effective_*).
  const annotations = j.metadata?.annotations ?? {};
  const labels = j.metadata?.labels ?? {};
  return compact({
    name: j.metadata?.name, location: labels[LOCATION],
    metadata: [{ ...('effective_annotations' in sm ? { effective_annotations: annotations } : { annotations }), ...('effective_labels' in sm ? { effective_labels: labels } : { labels }) }],
    template: [{
      metadata: [{ annotations: tm.annotations ?? {}, labels: tm.labels ?? {}, name: tm.name ?? '' }],
      spec: [{
        container_concurrency: ts.containerConcurrency, timeout_seconds: ts.timeoutSeconds,
        // The API names the default compute account where the state (older providers) holds "".
        service_account_name: stateSpec.service_account_name ? ts.serviceAccountName ?? '' : undefined,
        containers: containersToState(ts.containers),
      }],
    }],
    traffic: (j.spec?.traffic ?? []).map((x: A) => ({ latest_revision: x.latestRevision ?? false, percent: x.percent ?? 0, revision_name: x.revisionName ?? '', tag: x.tag ?? '' })),
  });
}

export function runV1FromState(a: A): GJson {
  const m = first(a.metadata);
  const tm = first(first(a.template).metadata);
  const ts = first(first(a.template).spec);
  return {
    apiVersion: 'serving.knative.dev/v1', kind: 'Service',
    metadata: {
      name: a.name, namespace: a.project, uid: m.uid, generation: m.generation, resourceVersion: m.resource_version, selfLink: m.self_link,
      labels: { ...(m.effective_labels ?? m.labels ?? {}), [LOCATION]: a.location }, annotations: m.effective_annotations ?? m.annotations ?? {},
    },
    spec: {
      template: {
        metadata: { name: tm.name || undefined, annotations: tm.annotations ?? undefined, labels: tm.labels ?? undefined },
        spec: { containerConcurrency: ts.container_concurrency, timeoutSeconds: ts.timeout_seconds, serviceAccountName: ts.service_account_name || undefined, containers: containersFromState(ts.containers) },
      },
      traffic: list(a.traffic).map((x) => ({ latestRevision: x.latest_revision || undefined, percent: x.percent, revisionName: x.revision_name || undefined, tag: x.tag || undefined })),
    },
    status: { url: first(a.status).url, observedGeneration: m.generation },
  };
}

const v1Project = (i: StateInstance, fallback: string) => ownProject(i.attributes)
  ?? (typeof i.attributes.id === 'string' ? /namespaces\/([^/]+)/.exec(i.attributes.id)?.[1] : undefined) ?? fallback;
const v1ListPath = (project: string) => `/apis/serving.knative.dev/v1/namespaces/${project}/services`;

/** Every v1 service of a project, all regions, following Knative's `metadata.continue`. */
async function listV1(api: RestApi, project: string): Promise<Map<string, GJson>> {
  const out = new Map<string, GJson>();
  let token = '';
  do {
    const q = new URLSearchParams({ limit: String(RUN_PAGING.limit), ...(token ? { continue: token } : {}) });
    const page = await api.get<GJson>('run', `${v1ListPath(project)}?${q}`, `list Cloud Run services in ${project}`);
    for (const s of page?.items ?? []) out.set(`${s.metadata?.labels?.[LOCATION] ?? ''}/${s.metadata?.name}`, s);
    token = typeof page?.metadata?.continue === 'string' ? page.metadata.continue : '';
  } while (token);
  return out;
}

const V1_FAKE: FakeRoute[] = [{
  method: 'GET', service: 'run', path: '/apis/serving.knative.dev/v1/namespaces/:project/services',
  answer: (req: FakeRequest, world: FakeWorld) => {
    const all = world.of('google_cloud_run_service').filter((i) => v1Project(i, req.params.project) === req.params.project).map((i) => runV1FromState(i.attributes));
    const from = Number(req.query.get('continue') ?? 0) || 0;
    const limit = Number(req.query.get('limit') ?? 500) || 500;
    return { apiVersion: 'serving.knative.dev/v1', kind: 'ServiceList', metadata: from + limit < all.length ? { continue: String(from + limit) } : {}, items: all.slice(from, from + limit) };
  },
}];

export const cloudRunServiceReader: RestReader = {
  spec: { sets: ENV_SETS },
  fake: V1_FAKE,
  async read(items: RestItem[], api: RestApi) {
    return mapLimit(items, CONCURRENCY, async (it) => {
      const project = v1Project(it.instance, it.scope.account);
      const a = it.instance.attributes as A;
      const location = a.location || it.scope.location;
      if (!project || !a.name || !location) return null;
      const all = await api.once(`run-v1:${project}`, () => listV1(api, project));
      const json = all.get(`${location}/${a.name}`);
      return json ? runV1ToState(json, a) : null;
    });
  },
};
