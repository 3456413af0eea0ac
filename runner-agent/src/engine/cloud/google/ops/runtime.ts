// google_cloudfunctions2_function (Cloud Functions v2: the project's functions in every region,
// `locations/-`, one paged list when several are read) and google_tpu_v2_vm (Cloud TPU v2 nodes:
// the zone's list when several are read there). A function's build (image, source generation,
// worker pool) and the service the platform derives are not mapped; what it runs as, who may call
// it, its scaling and environment are.
import type { Scope } from '../../rest/reader.ts';
import { ownProject } from '../kit.ts';
import { listedReader, opt, sameAs, setOfNonEmpty, short } from '../data/kit.ts';
import { ownLocation } from '../scope.ts';

type A = Record<string, any>;
const list = (v: unknown): A[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
const first = (v: unknown): A => list(v)[0] ?? {};
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => typeof x === 'string') : []);
const projectOf = (a: A, scope: Scope) => ownProject(a) ?? scope.account;
/** A link compared by its last segment (a connector, network or topic written short or long). */
const sameShort = (state: unknown, live: unknown) => sameAs(state, typeof live === 'string' ? live : '', (x, y) => short(x) === short(y));

const fnPath = (a: A, scope: Scope) => {
  const p = projectOf(a, scope);
  const l = ownLocation(a) ?? scope.location;
  return a.name && p && l ? `/v2/projects/${p}/locations/${l}/functions/${short(a.name)}` : undefined;
};

export const cloudFunction2Reader = listedReader({
  type: 'google_cloudfunctions2_function',
  service: 'cloudfunctions',
  route: '/v2/projects/:project/locations/:location/functions/:name',
  pathOf: fnPath,
  toState: (j, i) => {
    const a = i.attributes as A;
    const bc = j.buildConfig;
    const sc = j.serviceConfig;
    const et = j.eventTrigger;
    const sState = first(a.service_config);
    return {
      description: j.description ?? '', labels: j.labels ?? {}, kms_key_name: j.kmsKeyName ?? '',
      build_config: opt(bc, () => ({
        runtime: bc.runtime ?? '', entry_point: bc.entryPoint ?? '', environment_variables: bc.environmentVariables ?? {},
        // The API fills these with its defaults (gcf-artifacts, the default build account); the
        // provider keeps '' when the code sets none: compared only where the state names one.
        docker_repository: first(a.build_config).docker_repository ? bc.dockerRepository ?? '' : undefined,
        service_account: first(a.build_config).service_account ? bc.serviceAccount ?? '' : undefined,
      })),
      service_config: opt(sc, () => ({
        timeout_seconds: sc.timeoutSeconds ?? 60, available_memory: sc.availableMemory ?? '', available_cpu: sc.availableCpu ?? '',
        max_instance_count: sc.maxInstanceCount ?? 0, min_instance_count: sc.minInstanceCount ?? 0, max_instance_request_concurrency: sc.maxInstanceRequestConcurrency ?? 0,
        vpc_connector: sameShort(sState.vpc_connector, sc.vpcConnector), vpc_connector_egress_settings: sc.vpcConnectorEgressSettings ?? '',
        ingress_settings: sc.ingressSettings ?? 'ALLOW_ALL', service_account_email: sc.serviceAccountEmail ?? '',
        all_traffic_on_latest_revision: sc.allTrafficOnLatestRevision, environment_variables: sc.environmentVariables ?? {},
      })),
      event_trigger: opt(et, () => ({
        event_type: et.eventType ?? '', trigger_region: et.triggerRegion ?? '', pubsub_topic: sameShort(first(a.event_trigger).pubsub_topic, et.pubsubTopic),
        service_account_email: et.serviceAccountEmail ?? '', retry_policy: et.retryPolicy ?? '',
      })),
    };
  },
  fromState: (a) => {
    const bc = first(a.build_config);
    const sc = first(a.service_config);
    const et = first(a.event_trigger);
    return {
      name: `projects/${ownProject(a) ?? ''}/locations/${ownLocation(a) ?? ''}/functions/${short(a.name)}`, description: a.description || undefined,
      labels: a.effective_labels ?? a.labels ?? undefined, kmsKeyName: a.kms_key_name || undefined, environment: a.environment || 'GEN_2', state: 'ACTIVE', url: a.url || undefined,
      buildConfig: list(a.build_config).length ? {
        runtime: bc.runtime, entryPoint: bc.entry_point, environmentVariables: bc.environment_variables ?? undefined,
        dockerRepository: bc.docker_repository || undefined, serviceAccount: bc.service_account || undefined,
      } : undefined,
      serviceConfig: list(a.service_config).length ? {
        timeoutSeconds: sc.timeout_seconds, availableMemory: sc.available_memory || undefined, availableCpu: sc.available_cpu || undefined,
        maxInstanceCount: sc.max_instance_count || undefined, minInstanceCount: sc.min_instance_count || undefined,
        maxInstanceRequestConcurrency: sc.max_instance_request_concurrency || undefined, vpcConnector: sc.vpc_connector || undefined,
        vpcConnectorEgressSettings: sc.vpc_connector_egress_settings || undefined, ingressSettings: sc.ingress_settings || undefined,
        serviceAccountEmail: sc.service_account_email || undefined, allTrafficOnLatestRevision: sc.all_traffic_on_latest_revision ?? undefined,
        environmentVariables: sc.environment_variables ?? undefined, uri: sc.uri || undefined, service: sc.service || undefined,
      } : undefined,
      eventTrigger: list(a.event_trigger).length ? {
        eventType: et.event_type, triggerRegion: et.trigger_region || undefined, pubsubTopic: et.pubsub_topic || undefined,
        serviceAccountEmail: et.service_account_email || undefined, retryPolicy: et.retry_policy || undefined,
      } : undefined,
    };
  },
}, {
  path: (a, scope) => { const p = projectOf(a, scope); return p ? `/v2/projects/${p}/locations/-/functions` : undefined; },
  route: '/v2/projects/:project/locations/:location/functions', key: 'functions',
  pathOfItem: (j) => (j.name ? `/v2/${j.name}` : undefined),
  discover: { path: (p) => `/v2/projects/${p}/locations/-/functions`, id: (j) => j.name, location: (j) => /\/locations\/([^/]+)/.exec(String(j.name ?? ''))?.[1] ?? null },
});

const tpuPath = (a: A, scope: Scope) => {
  const p = projectOf(a, scope);
  const z = ownLocation(a) ?? scope.location;
  return a.name && p && z ? `/v2/projects/${p}/locations/${z}/nodes/${short(a.name)}` : undefined;
};

export const tpuV2VmReader = listedReader({
  type: 'google_tpu_v2_vm',
  service: 'tpu',
  route: '/v2/projects/:project/locations/:location/nodes/:name',
  pathOf: tpuPath,
  // The API leaves out a scheduling config whose flags are all off; the provider may write one.
  spec: { sets: { scheduling_config: setOfNonEmpty((e) => ({ preemptible: e.preemptible, reserved: e.reserved, spot: e.spot })) } },
  toState: (j, i) => {
    const a = i.attributes as A;
    const nc = j.networkConfig;
    const ncState = first(a.network_config);
    return {
      description: j.description ?? '', runtime_version: j.runtimeVersion ?? '', accelerator_type: j.acceleratorType ?? '', cidr_block: j.cidrBlock ?? '',
      labels: j.labels ?? {}, tags: strs(j.tags), metadata: j.metadata ?? {},
      network_config: opt(nc, () => ({
        network: sameShort(ncState.network, nc.network), subnetwork: sameShort(ncState.subnetwork, nc.subnetwork),
        enable_external_ips: nc.enableExternalIps ?? false, can_ip_forward: nc.canIpForward ?? false,
      })),
      service_account: opt(j.serviceAccount, () => ({ email: j.serviceAccount.email ?? '', scope: strs(j.serviceAccount.scope) })),
      scheduling_config: opt(j.schedulingConfig, () => ({ preemptible: j.schedulingConfig.preemptible ?? false, reserved: j.schedulingConfig.reserved ?? false, spot: j.schedulingConfig.spot ?? false })),
    };
  },
  fromState: (a) => {
    const nc = first(a.network_config);
    const sa = first(a.service_account);
    const sch = first(a.scheduling_config);
    return {
      name: `projects/${ownProject(a) ?? ''}/locations/${ownLocation(a) ?? ''}/nodes/${short(a.name)}`, description: a.description || undefined,
      runtimeVersion: a.runtime_version, acceleratorType: a.accelerator_type || undefined, cidrBlock: a.cidr_block || undefined,
      labels: a.effective_labels ?? a.labels ?? undefined, tags: a.tags ?? undefined, metadata: a.metadata ?? undefined, state: 'READY',
      networkConfig: list(a.network_config).length ? { network: nc.network || undefined, subnetwork: nc.subnetwork || undefined, enableExternalIps: nc.enable_external_ips || undefined, canIpForward: nc.can_ip_forward || undefined } : undefined,
      serviceAccount: list(a.service_account).length ? { email: sa.email, scope: sa.scope ?? undefined } : undefined,
      schedulingConfig: list(a.scheduling_config).length ? { preemptible: sch.preemptible || undefined, reserved: sch.reserved || undefined, spot: sch.spot || undefined } : undefined,
    };
  },
}, {
  path: (a, scope) => { const p = projectOf(a, scope); const z = ownLocation(a) ?? scope.location; return p && z ? `/v2/projects/${p}/locations/${z}/nodes` : undefined; },
  route: '/v2/projects/:project/locations/:location/nodes', key: 'nodes',
  pathOfItem: (j) => (j.name ? `/v2/${j.name}` : undefined),
});
