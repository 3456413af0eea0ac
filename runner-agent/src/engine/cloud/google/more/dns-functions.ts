// google_dns_managed_zone (Cloud DNS v1 `dns/v1/projects/P/managedZones/Z`) and
// google_cloudfunctions_function (Cloud Functions v1 `projects/P/locations/R/functions/F`). A
// project's zones, or its functions in every region (`locations/-`), are read with one paged list
// when the state holds several; the lists answer full resources.
import { ownProject, type GJson } from '../kit.ts';
import type { RestApi } from '../../rest/api.ts';
import type { RestReader, Scope } from '../../rest/reader.ts';
import { listedReader, opt, sameAs, setOfNonEmpty, short } from '../data/kit.ts';

type A = Record<string, any>;
const first = (v: unknown): A => (Array.isArray(v) && v[0] && typeof v[0] === 'object' ? v[0] : {});
const list = (v: unknown): A[] => (Array.isArray(v) ? v.filter((x) => x && typeof x === 'object') : []);
/** A network named by URL, relative path or name: `projects/P/global/networks/N` (or the name). */
const network = (v: unknown) => (typeof v === 'string' ? (/projects\/.*$/.exec(v)?.[0] ?? v) : '');

const zonePath = (a: A, scope: Scope) => (a.name && scope.account ? `/dns/v1/projects/${scope.account}/managedZones/${short(a.name)}` : undefined);
const zonesPath = (project: string) => `/dns/v1/projects/${project}/managedZones`;

const zoneBase = listedReader({
  type: 'google_dns_managed_zone',
  service: 'dns',
  route: '/dns/v1/projects/:project/managedZones/:name',
  pathOf: zonePath,
  toState: (j) => {
    const pvc = j.privateVisibilityConfig;
    const fc = j.forwardingConfig;
    const pc = j.peeringConfig;
    return {
      name: j.name, dns_name: j.dnsName, description: j.description ?? '', visibility: j.visibility ?? 'public', labels: j.labels ?? {},
      dnssec_config: opt(j.dnssecConfig, () => ({ kind: j.dnssecConfig.kind ?? 'dns#managedZoneDnsSecConfig', non_existence: j.dnssecConfig.nonExistence ?? '', state: j.dnssecConfig.state ?? '' })),
      private_visibility_config: opt(pvc?.networks?.length, () => ({ networks: pvc.networks.map((n: GJson) => ({ network_url: n.networkUrl })) })),
      forwarding_config: opt(fc?.targetNameServers?.length, () => ({
        target_name_servers: fc.targetNameServers.map((t: GJson) => ({ ipv4_address: t.ipv4Address, forwarding_path: t.forwardingPath ?? '' })),
      })),
      peering_config: opt(pc?.targetNetwork, () => ({ target_network: [{ network_url: pc.targetNetwork.networkUrl }] })),
    };
  },
  fromState: (a) => {
    const ds = first(a.dnssec_config);
    return {
      kind: 'dns#managedZone', name: a.name, dnsName: a.dns_name, description: a.description ?? '', visibility: a.visibility || undefined,
      labels: a.effective_labels ?? a.labels ?? undefined, nameServers: a.name_servers ?? undefined, id: a.managed_zone_id ? String(a.managed_zone_id) : '4242',
      dnssecConfig: list(a.dnssec_config).length ? { kind: ds.kind || undefined, nonExistence: ds.non_existence || undefined, state: ds.state } : undefined,
      privateVisibilityConfig: list(a.private_visibility_config).length ? { networks: list(first(a.private_visibility_config).networks).map((n) => ({ networkUrl: n.network_url })) } : undefined,
      forwardingConfig: list(a.forwarding_config).length ? {
        targetNameServers: list(first(a.forwarding_config).target_name_servers).map((t) => ({ ipv4Address: t.ipv4_address, forwardingPath: t.forwarding_path || undefined })),
      } : undefined,
      peeringConfig: list(a.peering_config).length ? { targetNetwork: { networkUrl: first(first(a.peering_config).target_network).network_url } } : undefined,
    };
  },
  spec: {
    sets: {
      // DNSSEC off is the same as no block (the provider writes [] for it).
      dnssec_config: setOfNonEmpty((e) => ({ state: e.state === 'off' ? '' : e.state, non_existence: e.state === 'off' ? '' : e.non_existence })),
      private_visibility_config: setOfNonEmpty((e) => ({ networks: list(e.networks).map((n) => network(n.network_url)).sort() })),
      forwarding_config: setOfNonEmpty((e) => ({ servers: list(e.target_name_servers).map((t) => `${t.ipv4_address}/${t.forwarding_path ?? ''}`).sort() })),
      peering_config: setOfNonEmpty((e) => ({ network: network(first(e.target_network).network_url) })),
    },
  },
}, {
  path: (_a, scope) => (scope.account ? zonesPath(scope.account) : undefined),
  route: '/dns/v1/projects/:project/managedZones',
  key: 'managedZones',
  pathOfItem: (j, parent) => (j.name ? `${parent}/${j.name}` : undefined),
  discover: { path: zonesPath, id: (j) => j.name, location: () => null },
});

export const dnsManagedZoneReader: RestReader = {
  ...zoneBase,
  // List mode: the provider's id, `projects/P/managedZones/Z` (the API's zone names no project).
  ...(zoneBase.list ? { list: async (api: RestApi, project: string) => (await zoneBase.list!(api, project)).map((l) => ({ ...l, id: `projects/${project}/managedZones/${l.id}` })) } : {}),
};

const region = (a: A) => (a.region || (typeof a.id === 'string' ? /\/locations\/([^/]+)/.exec(a.id)?.[1] : '') || '') as string;
const fnPath = (a: A, scope: Scope) => {
  const r = region(a);
  return a.name && r && scope.account ? `/v1/projects/${scope.account}/locations/${r}/functions/${short(a.name)}` : undefined;
};
const functionsPath = (project: string) => `/v1/projects/${project}/locations/-/functions`;
const seconds = (v: unknown) => (typeof v === 'string' && v ? parseInt(v, 10) : 60);
const archive = (url: unknown) => /^gs:\/\/([^/]+)\/(.+)$/.exec(typeof url === 'string' ? url : '');

export const cloudFunctionReader = listedReader({
  type: 'google_cloudfunctions_function',
  service: 'cloudfunctions',
  route: '/v1/projects/:project/locations/:location/functions/:name',
  pathOf: fnPath,
  toState: (j, i) => {
    const a = i.attributes as A;
    const src = archive(j.sourceArchiveUrl);
    const et = j.eventTrigger;
    return {
      name: short(j.name), description: j.description ?? '', runtime: j.runtime, entry_point: j.entryPoint ?? '',
      available_memory_mb: j.availableMemoryMb ?? 256, timeout: seconds(j.timeout), service_account_email: j.serviceAccountEmail ?? '',
      ingress_settings: j.ingressSettings ?? 'ALLOW_ALL', max_instances: j.maxInstances ?? 0, labels: j.labels ?? {},
      // Only an HTTP function holds `trigger_http`; the provider leaves it null on an event function.
      trigger_http: j.httpsTrigger ? true : undefined,
      environment_variables: j.environmentVariables ?? {}, build_environment_variables: j.buildEnvironmentVariables ?? {},
      vpc_connector: sameAs(a.vpc_connector, j.vpcConnector ?? '', (x, y) => short(x) === short(y)),
      vpc_connector_egress_settings: j.vpcConnectorEgressSettings ?? '',
      source_archive_bucket: src?.[1] ?? '', source_archive_object: src?.[2] ?? '',
      source_repository: opt(j.sourceRepository, () => ({ url: j.sourceRepository.url ?? '', deployed_url: j.sourceRepository.deployedUrl ?? '' })),
      event_trigger: opt(et, () => ({
        event_type: et.eventType, resource: sameAs(first(a.event_trigger).resource, et.resource ?? '', (x, y) => short(x) === short(y)),
        failure_policy: [{ retry: Boolean(et.failurePolicy?.retry) }],
      })),
    };
  },
  fromState: (a) => {
    const et = first(a.event_trigger);
    return {
      name: `projects/${ownProject(a) ?? ''}/locations/${region(a)}/functions/${short(a.name)}`, description: a.description || undefined, runtime: a.runtime,
      entryPoint: a.entry_point || undefined, availableMemoryMb: a.available_memory_mb, timeout: `${a.timeout ?? 60}s`,
      serviceAccountEmail: a.service_account_email || undefined, ingressSettings: a.ingress_settings || undefined, maxInstances: a.max_instances || undefined,
      labels: a.effective_labels ?? a.labels ?? undefined, environmentVariables: a.environment_variables ?? undefined,
      buildEnvironmentVariables: a.build_environment_variables ?? undefined, vpcConnector: a.vpc_connector || undefined,
      vpcConnectorEgressSettings: a.vpc_connector_egress_settings || undefined,
      sourceArchiveUrl: a.source_archive_bucket ? `gs://${a.source_archive_bucket}/${a.source_archive_object}` : undefined,
      sourceRepository: list(a.source_repository).length ? { url: first(a.source_repository).url, deployedUrl: first(a.source_repository).deployed_url } : undefined,
      httpsTrigger: a.trigger_http ? { url: a.https_trigger_url, securityLevel: 'SECURE_OPTIONAL' } : undefined,
      eventTrigger: list(a.event_trigger).length ? { eventType: et.event_type, resource: et.resource, failurePolicy: first(et.failure_policy).retry ? { retry: {} } : undefined } : undefined,
      status: 'ACTIVE', versionId: '1', updateTime: '2022-01-01T00:00:00Z',
    };
  },
}, {
  path: (_a, scope) => (scope.account ? functionsPath(scope.account) : undefined),
  route: '/v1/projects/:project/locations/:location/functions',
  key: 'functions',
  pathOfItem: (j) => (j.name ? `/v1/${j.name}` : undefined),
  discover: { path: functionsPath, id: (j) => j.name, location: (j) => /\/locations\/([^/]+)/.exec(String(j.name ?? ''))?.[1] ?? null },
});
