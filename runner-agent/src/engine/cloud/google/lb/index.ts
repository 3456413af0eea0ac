// The load-balancing and routing readers of issue 33 (compute/v1): URL maps, target HTTP(S)
// proxies, backend services and buckets, SSL policies, target pools, legacy HTTP health checks,
// routes and network peerings. Spread into GOOGLE_READERS, IGNORED_ATTRIBUTES and GOOGLE_RULES
// with one line each.
import type { RestReader } from '../../rest/reader.ts';
import { backendServiceReader, httpHealthCheckReader, targetPoolReader } from './backends.ts';
import { backendBucketReader, sslPolicyReader, targetHttpProxyReader, targetHttpsProxyReader, urlMapReader } from './proxies.ts';
import { networkPeeringReader, routeReader } from './route.ts';

export { LB_IGNORED } from './ignored.ts';
export { LB_RULES } from './rules.ts';

export const LB_READERS: Record<string, RestReader> = {
  google_compute_url_map: urlMapReader,
  google_compute_target_http_proxy: targetHttpProxyReader,
  google_compute_target_https_proxy: targetHttpsProxyReader,
  google_compute_backend_service: backendServiceReader,
  google_compute_backend_bucket: backendBucketReader,
  google_compute_ssl_policy: sslPolicyReader,
  google_compute_target_pool: targetPoolReader,
  google_compute_http_health_check: httpHealthCheckReader,
  google_compute_route: routeReader,
  google_compute_network_peering: networkPeeringReader,
};
