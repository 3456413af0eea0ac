// Attributes of the load-balancing and routing types never reported (spread into ignore.ts
// IGNORED_ATTRIBUTES); no imports, so the ignore table loads without the readers. Server-set
// links, ids, fingerprints and timestamps; an SSL policy's enabled_features (derived from its
// profile and minimum TLS version, which are compared); a peering's state (follows the other
// side); the IAP client secret (write-only: the API answers only its hash).
const COMPUTED = ['self_link', 'creation_timestamp', 'fingerprint'];

export const LB_IGNORED: Record<string, string[]> = {
  google_compute_url_map: [...COMPUTED, 'map_id'],
  google_compute_target_http_proxy: [...COMPUTED, 'proxy_id'],
  google_compute_target_https_proxy: [...COMPUTED, 'proxy_id'],
  google_compute_backend_service: [
    ...COMPUTED, 'generated_id', 'iap.*.oauth2_client_secret', 'iap.*.oauth2_client_secret_sha256', 'cdn_policy', 'outlier_detection', 'circuit_breakers',
    'consistent_hash',
  ],
  google_compute_backend_bucket: [...COMPUTED, 'cdn_policy'],
  google_compute_ssl_policy: [...COMPUTED, 'enabled_features'],
  google_compute_target_pool: [...COMPUTED],
  google_compute_http_health_check: [...COMPUTED],
  google_compute_route: [...COMPUTED, 'next_hop_network', 'next_hop_instance_zone', 'next_hop_hub', 'next_hop_inter_region_cost', 'next_hop_med', 'next_hop_origin', 'as_paths', 'route_status', 'route_type', 'warnings'],
  google_compute_network_peering: ['state', 'state_details', 'import_subnet_routes_with_public_ip_state'],
};
