// google_cloud_run_v2_service (Cloud Run Admin API v2, global endpoint): a region holding
// LIST_FROM or more of the services is read with one paged `projects/P/locations/L/services`
// list (v2 lists one region at a time: no wildcard location), the others with one GET each.
import { genericKey } from '../../../diff.ts';
import type { LiveAttributes } from '../../../types.ts';
import { last, type GJson } from '../kit.ts';
import { compact } from './container-map.ts';
import { listedReader } from './listed.ts';

type A = Record<string, any>;
export const first = (v: unknown): A => (Array.isArray(v) && v[0] && typeof v[0] === 'object' ? v[0] : {});
export const list = (v: unknown): A[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const ENV_SETS = Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`template.0.containers.${k}.env`, genericKey]));

/** `/v2/projects/P/locations/L/<kind>/N` of a Cloud Run v2 service or job. */
export const v2Path = (kind: 'services' | 'jobs') => (a: A, project: string) => {
  const name = typeof a.name === 'string' ? a.name.split('/').pop() : undefined;
  return name && project && a.location ? `/v2/projects/${project}/locations/${a.location}/${kind}/${name}` : undefined;
};
const path = v2Path('services');

export function containers(cs: A[] | undefined): A[] {
  return (cs ?? []).map((c) => ({
    name: c.name ?? '', image: c.image, command: c.command ?? [], args: c.args ?? [], working_dir: c.workingDir ?? '',
    env: (c.env ?? []).map((e: A) => compact({
      name: e.name, value: e.value ?? '',
      ...(e.valueSource ? { value_source: [{ secret_key_ref: [{ secret: e.valueSource.secretKeyRef?.secret, version: e.valueSource.secretKeyRef?.version }] }] } : {}),
    })),
    ports: (c.ports ?? []).map((p: A) => ({ name: p.name ?? '', container_port: p.containerPort })),
    resources: c.resources ? [{ limits: c.resources.limits ?? {}, cpu_idle: c.resources.cpuIdle ?? false, startup_cpu_boost: c.resources.startupCpuBoost ?? false }] : [],
  }));
}

export function runV2ToState(j: GJson, a: A): LiveAttributes {
  const t = j.template ?? {};
  return compact({
    name: j.name?.split('/').pop(), description: j.description ?? '', ingress: j.ingress, launch_stage: j.launchStage,
    // Provider 5+ keeps the configuration's annotations apart from every one (effective_annotations); labels: compare.ts.
    ...('effective_annotations' in a ? { effective_annotations: j.annotations ?? {} } : { annotations: j.annotations ?? {} }),
    labels: j.labels ?? {},
    custom_audiences: j.customAudiences ?? [],
    template: [{
      revision: t.revision ?? '', labels: t.labels ?? {}, annotations: t.annotations ?? {}, timeout: t.timeout, service_account: t.serviceAccount,
      execution_environment: t.executionEnvironment ?? '', encryption_key: t.encryptionKey ?? '', session_affinity: t.sessionAffinity ?? false,
      max_instance_request_concurrency: t.maxInstanceRequestConcurrency,
      scaling: t.scaling ? [{ min_instance_count: t.scaling.minInstanceCount ?? 0, max_instance_count: t.scaling.maxInstanceCount ?? 0 }] : [],
      vpc_access: t.vpcAccess ? [{ connector: t.vpcAccess.connector ?? '', egress: t.vpcAccess.egress ?? '' }] : [],
      containers: containers(t.containers),
    }],
    traffic: (j.traffic ?? []).map((x: A) => ({ type: x.type ?? '', revision: x.revision ?? '', percent: x.percent ?? 0, tag: x.tag ?? '' })),
  });
}

/** The fake's containers for state ones (the same mapping as containers(), the other way). */
export function containersFromState(cs: unknown): GJson[] {
  return list(cs).map((c) => ({
    name: c.name || undefined, image: c.image, command: c.command ?? undefined, args: c.args ?? undefined, workingDir: c.working_dir || undefined,
    env: list(c.env).map((e) => {
      const ref = first(first(e.value_source).secret_key_ref);
      return { name: e.name, value: e.value || undefined, valueSource: ref.secret ? { secretKeyRef: { secret: ref.secret, version: ref.version } } : undefined };
    }),
    ports: list(c.ports).map((p) => ({ name: p.name || undefined, containerPort: p.container_port })),
    resources: list(c.resources).length ? { limits: first(c.resources).limits, cpuIdle: first(c.resources).cpu_idle, startupCpuBoost: first(c.resources).startup_cpu_boost || undefined } : undefined,
  }));
}

export function runV2FromState(a: A, project: string): GJson {
  const t = first(a.template);
  const sc = first(t.scaling);
  const vpc = first(t.vpc_access);
  return {
    name: `projects/${project}/locations/${a.location}/services/${a.name}`, uid: a.uid, generation: a.generation, etag: a.etag,
    description: a.description || undefined, ingress: a.ingress, launchStage: a.launch_stage,
    labels: a.effective_labels ?? a.labels ?? undefined, annotations: a.effective_annotations ?? a.annotations ?? undefined,
    customAudiences: a.custom_audiences ?? undefined,
    template: {
      revision: t.revision || undefined, labels: t.labels ?? undefined, annotations: t.annotations ?? undefined, timeout: t.timeout, serviceAccount: t.service_account,
      executionEnvironment: t.execution_environment || undefined, encryptionKey: t.encryption_key || undefined, sessionAffinity: t.session_affinity || undefined,
      maxInstanceRequestConcurrency: t.max_instance_request_concurrency,
      scaling: list(t.scaling).length ? { minInstanceCount: sc.min_instance_count || undefined, maxInstanceCount: sc.max_instance_count || undefined } : undefined,
      vpcAccess: list(t.vpc_access).length ? { connector: vpc.connector || undefined, egress: vpc.egress || undefined } : undefined,
      containers: containersFromState(t.containers),
    },
    traffic: list(a.traffic).map((x) => ({ type: x.type || undefined, revision: x.revision || undefined, percent: x.percent, tag: x.tag || undefined })),
    uri: a.uri,
  };
}

export const cloudRunV2ServiceReader = listedReader({
  type: 'google_cloud_run_v2_service',
  service: 'run',
  route: '/v2/projects/:project/locations/:location/services/:name',
  pathOf: (a, scope) => path(a, scope.account),
  listPath: (project, a) => `/v2/projects/${project}/locations/${a.location}/services?pageSize=100`,
  listRoute: '/v2/projects/:project/locations/:location/services',
  items: 'services',
  inList: (i, req) => i.attributes.location === req.params.location,
  // One list is one location: the service id is the key (the API may name the project by number).
  keyOfState: (a) => (typeof a.name === 'string' ? last(a.name) : undefined),
  keyOfJson: (j) => last(j.name),
  toState: (j, i) => runV2ToState(j, i.attributes),
  fromState: (a) => runV2FromState(a, String(a.project ?? '')),
  spec: { sets: ENV_SETS },
});
