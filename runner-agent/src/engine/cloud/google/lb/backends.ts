// google_compute_backend_service (global, the project's list when several are read),
// google_compute_target_pool (regional, the project's aggregatedList when several are read) and
// google_compute_http_health_check (global, legacy checks). A backend service's CDN policy and
// outlier/circuit-breaker tuning are not mapped (server defaults fill them); its backends, health
// checks, Cloud Armor policy, IAP, protocol, timeouts and logging are.
import { anyLocation, computeReader, globalPath, int, link, list, nameOf, ownSelfLink, regionalPath, strings, type Attrs } from '../compute/common.ts';
import { last, ownProject, type GJson } from '../kit.ts';
import type { Scope } from '../../rest/reader.ts';
import { setOfNonEmpty } from '../data/kit.ts';
import { full, links } from './links.ts';

const services = (a: Attrs, scope: Scope) => globalPath('backendServices', a, scope);
/** A Compute link compared by its path from `projects/` (full URL, relative path and beta URL alike). */
const rel = (v: unknown) => (typeof v === 'string' ? (/projects\/.*$/.exec(v)?.[0] ?? v) : '');
const num = (v: unknown) => (v === undefined || v === null || v === '' ? 0 : Number(v));

export const backendServiceReader = computeReader({
  type: 'google_compute_backend_service',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/backendServices/:name',
  globalList: 'backendServices',
  pathOf: services,
  toState: (j, i) => {
    const a = i.attributes;
    return {
      // Computed by the API (no provider default): compared where it answers them.
      name: j.name, description: j.description ?? '', protocol: j.protocol ?? 'HTTP', port_name: j.portName, timeout_sec: j.timeoutSec,
      enable_cdn: j.enableCdn ?? false, load_balancing_scheme: j.loadBalancingScheme ?? 'EXTERNAL', session_affinity: j.sessionAffinity ?? 'NONE',
      affinity_cookie_ttl_sec: j.affinityCookieTtlSec ?? 0, connection_draining_timeout_sec: j.connectionDraining?.drainingTimeoutSec,
      health_checks: links(j.healthChecks, a.health_checks), security_policy: link(j.securityPolicy, a.security_policy),
      edge_security_policy: link(j.edgeSecurityPolicy, a.edge_security_policy),
      custom_request_headers: strings(j.customRequestHeaders), custom_response_headers: strings(j.customResponseHeaders),
      locality_lb_policy: j.localityLbPolicy ?? '', compression_mode: j.compressionMode,
      backend: list(j.backends).map((b: GJson) => ({
        group: b.group ?? '', balancing_mode: b.balancingMode ?? 'UTILIZATION', capacity_scaler: b.capacityScaler ?? 0, description: b.description ?? '',
        max_rate_per_instance: b.maxRatePerInstance ?? 0, max_utilization: b.maxUtilization ?? 0, max_connections: b.maxConnections ?? 0,
      })),
      // Where the state holds an IAP block, its fields one by one (a disabled IAP answers enabled
      // false and no client), so a change shows at iap.0.enabled / iap.0.oauth2_client_id and not
      // at `iap`, which the state's sensitive client secret would mask; older providers wrote no
      // `enabled`, newer ones `enabled = false` for IAP off.
      iap: list(a.iap).length || j.iap?.enabled ? [{ enabled: j.iap?.enabled ?? false, oauth2_client_id: j.iap?.enabled ? j.iap.oauth2ClientId ?? '' : '' }] : [],
      log_config: j.logConfig ? [{ enable: j.logConfig.enable ?? false, sample_rate: j.logConfig.sampleRate ?? 0 }] : [],
    };
  },
  fromState: (a) => {
    const iap: Attrs | undefined = list(a.iap)[0];
    const log: Attrs | undefined = list(a.log_config)[0];
    return {
      kind: 'compute#backendService', name: nameOf(a), description: a.description ?? '', protocol: a.protocol || undefined, portName: a.port_name || undefined,
      timeoutSec: a.timeout_sec, enableCdn: a.enable_cdn ?? false, loadBalancingScheme: a.load_balancing_scheme || undefined,
      sessionAffinity: a.session_affinity || undefined, affinityCookieTtlSec: a.affinity_cookie_ttl_sec || undefined,
      connectionDraining: { drainingTimeoutSec: a.connection_draining_timeout_sec ?? 0 },
      healthChecks: strings(a.health_checks).map(full), securityPolicy: full(a.security_policy), edgeSecurityPolicy: full(a.edge_security_policy),
      customRequestHeaders: a.custom_request_headers ?? undefined, customResponseHeaders: a.custom_response_headers ?? undefined,
      localityLbPolicy: a.locality_lb_policy || undefined, compressionMode: a.compression_mode || undefined,
      backends: list(a.backend).map((b: Attrs) => ({
        group: full(b.group), balancingMode: b.balancing_mode, capacityScaler: b.capacity_scaler, description: b.description || undefined,
        maxRatePerInstance: b.max_rate_per_instance || undefined, maxUtilization: b.max_utilization || undefined, maxConnections: b.max_connections || undefined,
      })),
      iap: iap ? (iap.enabled !== false ? { enabled: true, oauth2ClientId: iap.oauth2_client_id, oauth2ClientSecretSha256: iap.oauth2_client_secret_sha256 } : { enabled: false }) : undefined,
      logConfig: log ? { enable: log.enable, sampleRate: log.sample_rate } : undefined,
      fingerprint: a.fingerprint, id: a.generated_id ? String(a.generated_id) : undefined, creationTimestamp: a.creation_timestamp, selfLink: ownSelfLink(a, services),
    };
  },
  spec: { sets: {
    // A set in the provider: one backend per instance group or NEG, with how it is balanced.
    backend: (e) => { const b = e as Attrs; return [`${rel(b.group)}|${b.balancing_mode ?? ''}|${num(b.capacity_scaler)}|${num(b.max_rate_per_instance)}|${num(b.max_utilization)}|${num(b.max_connections)}`]; },
    log_config: setOfNonEmpty((e) => ({ enable: e.enable, sample_rate: e.enable ? e.sample_rate : undefined })),
  } },
});

const pools = (a: Attrs, scope: Scope) => regionalPath('targetPools', a, scope);
/** The provider writes a pool's instances as `zone/name`. */
const zoneName = (u: string) => { const m = /zones\/([^/]+)\/instances\/([^/]+)$/.exec(u); return m ? `${m[1]}/${m[2]}` : u; };

export const targetPoolReader = anyLocation({
  type: 'google_compute_target_pool',
  service: 'compute',
  route: '/compute/v1/projects/:project/regions/:region/targetPools/:name',
  aggregated: 'targetPools',
  pathOf: pools,
  toState: (j, i) => {
    const a = i.attributes;
    return {
      name: j.name, description: j.description ?? '', session_affinity: j.sessionAffinity ?? 'NONE', failover_ratio: j.failoverRatio ?? 0,
      backup_pool: link(j.backupPool, a.backup_pool), health_checks: links(j.healthChecks, a.health_checks),
      instances: strings(j.instances).map((u) => strings(a.instances).find((s) => zoneName(s) === zoneName(u)) ?? zoneName(u)),
    };
  },
  fromState: (a) => {
    const project = ownProject(a) ?? '';
    return {
      kind: 'compute#targetPool', name: nameOf(a), description: a.description ?? '', sessionAffinity: a.session_affinity || undefined,
      failoverRatio: a.failover_ratio || undefined, backupPool: full(a.backup_pool), healthChecks: strings(a.health_checks).map(full),
      instances: strings(a.instances).map((s) => (s.includes('/instances/') ? full(s) : `https://www.googleapis.com/compute/v1/projects/${project}/zones/${s.split('/')[0]}/instances/${last(s)}`)),
      region: `https://www.googleapis.com/compute/v1/projects/${project}/regions/${last(a.region)}`, selfLink: ownSelfLink(a, pools),
    };
  },
});

const checks = (a: Attrs, scope: Scope) => globalPath('httpHealthChecks', a, scope);
export const httpHealthCheckReader = computeReader({
  type: 'google_compute_http_health_check',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/httpHealthChecks/:name',
  globalList: 'httpHealthChecks',
  pathOf: checks,
  // The API's defaults, as the provider writes them.
  toState: (j) => ({
    name: j.name, description: j.description ?? '', host: j.host ?? '', port: int(j.port, 80), request_path: j.requestPath ?? '/',
    check_interval_sec: j.checkIntervalSec ?? 5, timeout_sec: j.timeoutSec ?? 5, healthy_threshold: j.healthyThreshold ?? 2, unhealthy_threshold: j.unhealthyThreshold ?? 2,
  }),
  fromState: (a) => ({
    kind: 'compute#httpHealthCheck', name: nameOf(a), description: a.description ?? '', host: a.host || undefined, port: a.port, requestPath: a.request_path,
    checkIntervalSec: a.check_interval_sec, timeoutSec: a.timeout_sec, healthyThreshold: a.healthy_threshold, unhealthyThreshold: a.unhealthy_threshold,
    creationTimestamp: a.creation_timestamp, selfLink: ownSelfLink(a, checks),
  }),
});
