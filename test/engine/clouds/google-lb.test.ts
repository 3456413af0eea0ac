// The load-balancing and routing readers of issue 33 (URL maps, HTTP(S) proxies, backend services
// and buckets, SSL policies, target pools, legacy HTTP health checks, routes, network peerings)
// against the fake Google APIs: the written corpus state read back is no drift; each compared
// attribute changed live is a drift at its path with its rule; gone is deleted; a project's
// routes or URL maps are one paged list, a network's peerings one GET of the network.
import t from 'tap';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { LB_READERS } from '../../../runner-agent/src/engine/cloud/google/lb/index.ts';
import { compareAgainst } from './harness.ts';
import { at, C, LB, renamed, swap } from './google-lb-fixtures.ts';

const IGW = `${C}/global/gateways/default-internet-gateway`;

t.test('every load-balancing and routing type of the written state read back is no drift', async (t) => {
  const { drifts, compared, stats } = await compareAgainst('google', LB);
  t.equal(compared, LB.length);
  t.same(stats.unsupported, {});
  t.same(drifts, []);
  t.same([...new Set(LB.map((i) => i.type))].filter((x) => !LB_READERS[x] && x !== 'google_compute_network'), [], 'the state holds only types read here (and their network)');
  t.equal(Object.keys(LB_READERS).filter((x) => !LB.some((i) => i.type === x)).length, 0, 'every reader has an instance in the state');
});

t.test('a live change of each compared attribute is a drift at its path, with its rule', async (t) => {
  const api = at(LB, 'google_compute_backend_service.api').attributes;
  const backends = api.backend as Record<string, unknown>[];
  // The same backend service as a provider-5 state writes it: an IAP block without `enabled`.
  const V5 = swap(LB, 'google_compute_backend_service.api', { iap: [{ oauth2_client_id: '81723649-edge.apps.googleusercontent.com', oauth2_client_secret: 'x', oauth2_client_secret_sha256: 'y' }] });
  const rows: [string, StateInstance[], string, string, string, StateInstance[]?][] = [
    ['route now sends 0.0.0.0/0 to the internet gateway', swap(LB, 'google_compute_route.onprem', { dest_range: '0.0.0.0/0', next_hop_ip: '', next_hop_gateway: IGW }),
      'dest_range,next_hop_gateway,next_hop_ip', 'gcp-route-default-to-internet', 'high'],
    ['default route re-prioritised', swap(LB, 'google_compute_route.egress', { priority: 100 }), 'priority', 'changed', 'medium'],
    ['default route tags', swap(LB, 'google_compute_route.egress', { tags: ['egress', 'all'] }), 'tags', 'gcp-route-scope-changed', 'medium'],
    ['SSL policy min TLS lowered', swap(LB, 'google_compute_ssl_policy.modern', { min_tls_version: 'TLS_1_0' }), 'min_tls_version', 'gcp-ssl-policy-weakened', 'high'],
    ['SSL policy made COMPATIBLE', swap(LB, 'google_compute_ssl_policy.modern', { profile: 'COMPATIBLE' }), 'profile', 'gcp-ssl-policy-weakened', 'high'],
    ['SSL policy min TLS raised', swap(LB, 'google_compute_ssl_policy.modern', { min_tls_version: 'TLS_1_3' }), 'min_tls_version', 'changed', 'medium'],
    ['Cloud Armor policy removed', swap(LB, 'google_compute_backend_service.api', { security_policy: '' }), 'security_policy', 'gcp-backend-service-armor-removed', 'critical'],
    ['IAP turned off (no block)', swap(LB, 'google_compute_backend_service.api', { iap: [] }), 'iap.0.enabled,iap.0.oauth2_client_id', 'gcp-backend-service-iap-disabled', 'critical'],
    ['IAP turned off (enabled = false)', swap(LB, 'google_compute_backend_service.api', { iap: [{ enabled: false, oauth2_client_id: '', oauth2_client_secret: '', oauth2_client_secret_sha256: '' }] }),
      'iap.0.enabled,iap.0.oauth2_client_id', 'gcp-backend-service-iap-disabled', 'critical'],
    ['IAP turned off in a provider-5 state (no enabled)', swap(LB, 'google_compute_backend_service.api', { iap: [] }), 'iap.0.oauth2_client_id', 'gcp-backend-service-iap-disabled', 'critical', V5],
    ['IAP OAuth client replaced', swap(LB, 'google_compute_backend_service.api', { iap: [{ enabled: true, oauth2_client_id: 'other.apps.googleusercontent.com', oauth2_client_secret: 's', oauth2_client_secret_sha256: 'h' }] }),
      'iap.0.oauth2_client_id', 'changed', 'medium'],
    ['backend capacity', swap(LB, 'google_compute_backend_service.api', { backend: [backends[0], { ...backends[1], capacity_scaler: 1 }] }), 'backend', 'changed', 'medium'],
    ['backend service timeout', swap(LB, 'google_compute_backend_service.api', { timeout_sec: 600 }), 'timeout_sec', 'changed', 'medium'],
    ['backend service health checks', swap(LB, 'google_compute_backend_service.api', { health_checks: [`${C}/global/healthChecks/other`] }), 'health_checks', 'changed', 'medium'],
    ['backend service logging off', swap(LB, 'google_compute_backend_service.api', { log_config: [{ enable: false, sample_rate: 0 }] }), 'log_config', 'changed', 'medium'],
    ['backend bucket serves another bucket', swap(LB, 'google_compute_backend_bucket.static', { bucket_name: 'mallory-bucket' }), 'bucket_name', 'gcp-lb-retargeted', 'high'],
    ['backend bucket CDN off', swap(LB, 'google_compute_backend_bucket.static', { enable_cdn: false }), 'enable_cdn', 'changed', 'medium'],
    ['URL map default backend', swap(LB, 'google_compute_url_map.edge', { default_service: `${C}/global/backendBuckets/other` }), 'default_service', 'gcp-lb-retargeted', 'high'],
    ['URL map path rule backend', swap(LB, 'google_compute_url_map.edge', { path_matcher: [
      { ...(at(LB, 'google_compute_url_map.edge').attributes.path_matcher as any[])[0], path_rule: [{ paths: ['/v1/*', '/v2/*'], service: `${C}/global/backendServices/other` }] },
      (at(LB, 'google_compute_url_map.edge').attributes.path_matcher as any[])[1],
    ] }), 'path_matcher.0.path_rule.0.service', 'gcp-lb-retargeted', 'high'],
    ['URL map path matcher description', swap(LB, 'google_compute_url_map.edge', { path_matcher: [
      { ...(at(LB, 'google_compute_url_map.edge').attributes.path_matcher as any[])[0], description: 'edited' },
      (at(LB, 'google_compute_url_map.edge').attributes.path_matcher as any[])[1],
    ] }), 'path_matcher.0.description', 'changed', 'medium'],
    ['URL map path rule paths', swap(LB, 'google_compute_url_map.edge', { path_matcher: [
      { ...(at(LB, 'google_compute_url_map.edge').attributes.path_matcher as any[])[0], path_rule: [{ paths: ['/*'], service: `${C}/global/backendServices/edge-api` }] },
      (at(LB, 'google_compute_url_map.edge').attributes.path_matcher as any[])[1],
    ] }), 'path_matcher.0.path_rule.0.paths', 'gcp-lb-retargeted', 'high'],
    ['URL map host rule', swap(LB, 'google_compute_url_map.edge', { host_rule: [{ description: '', hosts: ['evil.example'], path_matcher: 'api' }, (at(LB, 'google_compute_url_map.edge').attributes.host_rule as any[])[1]] }),
      'host_rule', 'changed', 'medium'],
    ['HTTPS proxy serves another URL map', swap(LB, 'google_compute_target_https_proxy.edge', { url_map: `${C}/global/urlMaps/other` }), 'url_map', 'gcp-lb-retargeted', 'high'],
    ['HTTPS proxy SSL policy dropped', swap(LB, 'google_compute_target_https_proxy.edge', { ssl_policy: '' }), 'ssl_policy', 'changed', 'medium'],
    ['HTTPS proxy certificates', swap(LB, 'google_compute_target_https_proxy.edge', { ssl_certificates: [`${C}/global/sslCertificates/other`] }), 'ssl_certificates', 'changed', 'medium'],
    ['HTTP proxy serves another URL map', swap(LB, 'google_compute_target_http_proxy.redirect', { url_map: `${C}/global/urlMaps/other` }), 'url_map', 'gcp-lb-retargeted', 'high'],
    ['target pool gains an instance', swap(LB, 'google_compute_target_pool.web', { instances: ['europe-west1-b/web-1', 'europe-west1-c/web-2', 'europe-west1-d/rogue'] }), 'instances', 'changed', 'medium'],
    ['target pool affinity', swap(LB, 'google_compute_target_pool.web', { session_affinity: 'NONE' }), 'session_affinity', 'changed', 'medium'],
    ['HTTP health check path', swap(LB, 'google_compute_http_health_check.legacy', { request_path: '/' }), 'request_path', 'changed', 'medium'],
    ['peering exports no custom routes', swap(LB, 'google_compute_network_peering.shared', { export_custom_routes: false }), 'export_custom_routes', 'changed', 'medium'],
    ['peering imports custom routes', swap(LB, 'google_compute_network_peering.shared', { import_custom_routes: true }), 'import_custom_routes', 'changed', 'medium'],
  ];
  for (const [what, live, attribute, ruleId, severity, state = LB] of rows) {
    const { drifts } = await compareAgainst('google', state, live);
    t.equal(drifts.length, 1, `${what}: one drift`);
    t.match(drifts[0], { changeType: 'changed', ruleId, severity }, what);
    t.same(drifts[0]?.diff.map((d) => d.attribute), attribute.split(','), `${what}: at ${attribute}`);
  }
});

t.test('links the state writes short or relative, and the IAP secret, are no drift', async (t) => {
  const state = swap(LB, 'google_compute_url_map.edge', { default_service: `projects/acme-edge-prod/global/backendBuckets/edge-static` });
  const shortGw = swap(state, 'google_compute_route.egress', { next_hop_gateway: 'default-internet-gateway' });
  const secret = swap(shortGw, 'google_compute_backend_service.api', { iap: [{ enabled: true, oauth2_client_id: '81723649-edge.apps.googleusercontent.com', oauth2_client_secret: 'rotated', oauth2_client_secret_sha256: 'other' }] });
  const { drifts } = await compareAgainst('google', secret, LB);
  t.same(drifts, []);
  // A state written before `enabled` existed (provider 5): the block alone means on.
  const v5 = swap(LB, 'google_compute_backend_service.api', { iap: [{ oauth2_client_id: '81723649-edge.apps.googleusercontent.com', oauth2_client_secret: 'x', oauth2_client_secret_sha256: 'y' }] });
  t.same((await compareAgainst('google', v5)).drifts, []);
});

t.test('a resource gone is deleted, a peering gone from its network too', async (t) => {
  const gone = ['google_compute_url_map.edge', 'google_compute_route.egress', 'google_compute_network_peering.shared', 'google_compute_target_pool.web', 'google_compute_ssl_policy.modern'];
  const { drifts } = await compareAgainst('google', LB, LB.filter((i) => !gone.includes(i.address)));
  t.same(drifts.map((d) => [d.resourceAddress, d.changeType]).sort(), gone.map((a) => [a, 'deleted']).sort());
});

t.test('several of a type in one project: one paged list; one GET below three; one network GET for its peerings', async (t) => {
  const routes = ['r1', 'r2', 'r3', 'r4'].map((n) => renamed(at(LB, 'google_compute_route.onprem'), n));
  const maps = ['m1', 'm2', 'm3'].map((n) => renamed(at(LB, 'google_compute_url_map.edge'), n));
  const peer = at(LB, 'google_compute_network_peering.shared');
  const peerings = [peer, { ...peer, name: 'p2', address: 'google_compute_network_peering.p2', attributes: { ...peer.attributes, name: 'p2', id: 'edge/p2' } }];
  const pools = ['a', 'b', 'c'].map((n) => renamed(at(LB, 'google_compute_target_pool.web'), n));
  const state = [...routes, ...maps, ...peerings, ...pools, at(LB, 'google_compute_ssl_policy.modern')];
  const { drifts, fake, api } = await compareAgainst('google', state, state, { pageSize: 2 });
  t.same(drifts, []);
  const calls = (re: RegExp) => fake.log.filter((l) => re.test(l)).length;
  t.equal(calls(/\/global\/routes(\?|$)/), 2, 'routes: one list, two pages of two');
  t.equal(calls(/\/global\/routes\/r/), 0, 'no route read alone');
  t.equal(calls(/\/global\/urlMaps(\?|$)/), 2, 'URL maps: one list, two pages');
  t.equal(calls(/\/aggregated\/targetPools/), 1, 'target pools: one aggregatedList');
  t.equal(calls(/\/global\/networks\/edge$/), 1, 'two peerings: their network read once');
  t.equal(calls(/\/sslPolicies\/edge-modern$/), 1, 'one SSL policy: one GET');
  t.equal(api.totalCalls, fake.log.length);
});
