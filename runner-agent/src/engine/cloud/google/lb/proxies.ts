// google_compute_url_map, google_compute_target_http_proxy, google_compute_target_https_proxy,
// google_compute_backend_bucket and google_compute_ssl_policy: global compute/v1 resources, each
// type read from one paged list of the project when three or more are read there, else one GET.
// A URL map's advanced routing blocks (route rules, route actions, header actions, redirects)
// are not mapped: the backends it points at (default and per path) and its host rules are.
import { computeReader, globalPath, link, list, nameOf, ownSelfLink, strings, type Attrs } from '../compute/common.ts';
import type { GJson } from '../kit.ts';
import type { Scope } from '../../rest/reader.ts';
import { full, links, nth } from './links.ts';

const at = (kind: string) => (a: Attrs, scope: Scope) => globalPath(kind, a, scope);
const urlMaps = at('urlMaps');

const pathRules = (live: unknown, state: unknown) => list(live).map((r: GJson, n) => ({
  paths: strings(r.paths), service: link(r.service, nth(state, n).service),
}));

export const urlMapReader = computeReader({
  type: 'google_compute_url_map',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/urlMaps/:name',
  globalList: 'urlMaps',
  pathOf: urlMaps,
  toState: (j, i) => {
    const a = i.attributes;
    return {
      name: j.name, description: j.description ?? '', default_service: link(j.defaultService, a.default_service),
      host_rule: list(j.hostRules).map((h: GJson) => ({ hosts: strings(h.hosts), path_matcher: h.pathMatcher ?? '', description: h.description ?? '' })),
      path_matcher: list(j.pathMatchers).map((m: GJson, n) => ({
        name: m.name, description: m.description ?? '', default_service: link(m.defaultService, nth(a.path_matcher, n).default_service),
        path_rule: pathRules(m.pathRules, nth(a.path_matcher, n).path_rule),
      })),
      test: list(j.tests).map((x: GJson, n) => ({ host: x.host ?? '', path: x.path ?? '', description: x.description ?? '', service: link(x.service, nth(a.test, n).service) })),
    };
  },
  fromState: (a) => ({
    kind: 'compute#urlMap', name: nameOf(a), description: a.description ?? '', defaultService: full(a.default_service),
    hostRules: list(a.host_rule).map((h: Attrs) => ({ hosts: h.hosts, pathMatcher: h.path_matcher, description: h.description || undefined })),
    pathMatchers: list(a.path_matcher).map((m: Attrs) => ({
      name: m.name, description: m.description || undefined, defaultService: full(m.default_service),
      pathRules: list(m.path_rule).map((r: Attrs) => ({ paths: r.paths, service: full(r.service) })),
    })),
    tests: list(a.test).map((x: Attrs) => ({ host: x.host, path: x.path, description: x.description || undefined, service: full(x.service) })),
    fingerprint: a.fingerprint, id: a.map_id ? String(a.map_id) : undefined, creationTimestamp: a.creation_timestamp, selfLink: ownSelfLink(a, urlMaps),
  }),
  // host_rule is a set in the provider: compared by its hosts and path matcher.
  spec: { sets: { host_rule: (e) => [`${strings((e as Attrs).hosts).sort().join(',')}>${(e as Attrs).path_matcher ?? ''}`] } },
});

const proxy = (j: GJson, a: Attrs) => ({
  name: j.name, description: j.description ?? '', url_map: link(j.urlMap, a.url_map), proxy_bind: j.proxyBind ?? false,
  // Newer providers only: compared where the state holds it.
  http_keep_alive_timeout_sec: j.httpKeepAliveTimeoutSec,
});
const proxyJson = (a: Attrs, kind: string, path: (a: Attrs, s: Scope) => string | undefined) => ({
  kind, name: nameOf(a), description: a.description ?? '', urlMap: full(a.url_map), proxyBind: a.proxy_bind || undefined,
  httpKeepAliveTimeoutSec: a.http_keep_alive_timeout_sec || undefined, id: a.proxy_id ? String(a.proxy_id) : undefined,
  creationTimestamp: a.creation_timestamp, selfLink: ownSelfLink(a, path),
});

const httpProxies = at('targetHttpProxies');
export const targetHttpProxyReader = computeReader({
  type: 'google_compute_target_http_proxy',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/targetHttpProxies/:name',
  globalList: 'targetHttpProxies',
  pathOf: httpProxies,
  toState: (j, i) => proxy(j, i.attributes),
  fromState: (a) => proxyJson(a, 'compute#targetHttpProxy', httpProxies),
});

const httpsProxies = at('targetHttpsProxies');
export const targetHttpsProxyReader = computeReader({
  type: 'google_compute_target_https_proxy',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/targetHttpsProxies/:name',
  globalList: 'targetHttpsProxies',
  pathOf: httpsProxies,
  toState: (j, i) => {
    const a = i.attributes;
    return {
      ...proxy(j, a), ssl_certificates: links(j.sslCertificates, a.ssl_certificates), ssl_policy: link(j.sslPolicy, a.ssl_policy),
      quic_override: j.quicOverride ?? 'NONE', certificate_map: j.certificateMap ?? '',
    };
  },
  fromState: (a) => ({
    ...proxyJson(a, 'compute#targetHttpsProxy', httpsProxies), sslCertificates: strings(a.ssl_certificates).map(full),
    sslPolicy: full(a.ssl_policy), quicOverride: a.quic_override || undefined, certificateMap: a.certificate_map || undefined,
  }),
});

const buckets = at('backendBuckets');
export const backendBucketReader = computeReader({
  type: 'google_compute_backend_bucket',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/backendBuckets/:name',
  globalList: 'backendBuckets',
  pathOf: buckets,
  toState: (j, i) => ({
    name: j.name, description: j.description ?? '', bucket_name: j.bucketName ?? '', enable_cdn: j.enableCdn ?? false,
    custom_response_headers: strings(j.customResponseHeaders), edge_security_policy: link(j.edgeSecurityPolicy, i.attributes.edge_security_policy),
    compression_mode: j.compressionMode,
  }),
  fromState: (a) => ({
    kind: 'compute#backendBucket', name: nameOf(a), description: a.description ?? '', bucketName: a.bucket_name, enableCdn: a.enable_cdn ?? false,
    customResponseHeaders: a.custom_response_headers ?? undefined, edgeSecurityPolicy: full(a.edge_security_policy),
    compressionMode: a.compression_mode || undefined, creationTimestamp: a.creation_timestamp, selfLink: ownSelfLink(a, buckets),
  }),
});

const sslPolicies = at('sslPolicies');
export const sslPolicyReader = computeReader({
  type: 'google_compute_ssl_policy',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/sslPolicies/:name',
  globalList: 'sslPolicies',
  pathOf: sslPolicies,
  // The API's defaults, as the provider writes them: COMPATIBLE and TLS 1.0.
  toState: (j) => ({
    name: j.name, description: j.description ?? '', profile: j.profile ?? 'COMPATIBLE', min_tls_version: j.minTlsVersion ?? 'TLS_1_0',
    custom_features: strings(j.customFeatures),
  }),
  fromState: (a) => ({
    kind: 'compute#sslPolicy', name: nameOf(a), description: a.description ?? '', profile: a.profile || undefined, minTlsVersion: a.min_tls_version || undefined,
    customFeatures: a.custom_features ?? undefined, enabledFeatures: a.enabled_features ?? undefined, fingerprint: a.fingerprint,
    creationTimestamp: a.creation_timestamp, selfLink: ownSelfLink(a, sslPolicies),
  }),
});
