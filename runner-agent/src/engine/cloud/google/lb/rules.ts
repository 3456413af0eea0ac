// Severity rules of the load-balancing and routing types (rules.ts explains the conditions), tried
// before the generic labels-only, deleted and changed rules. Type-only imports: the rule table
// loads without the readers.
import type { SeverityRule } from '../../../rules.ts';
import type { DiffEntry } from '../../../types.ts';

type Attrs = Record<string, any>;
const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);
const str = (v: unknown) => (typeof v === 'string' ? v : '');

/** The resource after a drift: the state with every top-level entry of the diff applied. */
function after(state: Attrs, diff: DiffEntry[]): Attrs {
  const out: Attrs = { ...state };
  for (const d of diff) if (!d.attribute.includes('.')) out[d.attribute] = d.after;
  return out;
}

/** Whether a route sends every destination to the internet (the default internet gateway). */
export const defaultToInternet = (r: Attrs) => ['0.0.0.0/0', '::/0'].includes(str(r.dest_range).trim()) && /(^|\/)default-internet-gateway$/.test(str(r.next_hop_gateway));

const TLS = ['TLS_1_0', 'TLS_1_1', 'TLS_1_2', 'TLS_1_3'];
const tls = (v: unknown) => TLS.indexOf(str(v) || 'TLS_1_0');

/** An IAP block that is on: present and not `enabled = false`. */
const iapOn = (v: unknown) => list(v).some((b: Attrs) => b && typeof b === 'object' && b.enabled !== false);

export const LB_RULES: SeverityRule[] = [
  { id: 'gcp-route-default-to-internet', severity: 'high', description: 'Route now sends 0.0.0.0/0 to the default internet gateway',
    rationale: 'Instances the route covers now reach (and are reached from) the internet directly, bypassing the NAT, proxy or appliance the code routes through.',
    types: ['google_compute_route'], changeTypes: ['changed'],
    test: { describe: 'changed so that dest_range is 0.0.0.0/0 (or ::/0) and next_hop_gateway the default internet gateway, which it was not before',
      fn: (d, state, diff) => defaultToInternet(after(state, diff ?? [d])) && !defaultToInternet(state) } },
  // A route's `tags` are network tags choosing the instances it applies to, not labels (the generic tags-only rule must not take them).
  { id: 'gcp-route-scope-changed', severity: 'medium', description: 'Route applies to other instances (network tags changed)',
    rationale: 'Instances the route did not cover now send their traffic through its next hop, or covered ones no longer do.',
    types: ['google_compute_route'], changeTypes: ['changed'], attributes: ['tags'] },
  { id: 'gcp-ssl-policy-weakened', severity: 'high', description: 'SSL policy minimum TLS version lowered, or profile made COMPATIBLE',
    rationale: 'The load balancer now accepts older TLS versions or weak cipher suites that the code excluded.',
    types: ['google_compute_ssl_policy'], changeTypes: ['changed'], attributes: ['min_tls_version', 'profile'],
    test: { describe: 'min_tls_version now lower than before, or profile now COMPATIBLE',
      fn: (d) => (d.attribute === 'min_tls_version' ? tls(d.after) < tls(d.before) : d.after === 'COMPATIBLE') } },
  { id: 'gcp-backend-service-armor-removed', severity: 'critical', description: 'Backend service lost its Cloud Armor security policy',
    rationale: 'Requests reach the backends without the WAF and IP allow/deny rules the code attaches.',
    types: ['google_compute_backend_service'], changeTypes: ['changed'], attributes: ['security_policy'], becomes: [''] },
  { id: 'gcp-backend-service-iap-disabled', severity: 'critical', description: 'Identity-Aware Proxy turned off on a backend service',
    rationale: 'The backends behind the load balancer are now reachable without the Google sign-in and access check IAP enforced.',
    types: ['google_compute_backend_service'], changeTypes: ['changed'], attributes: ['iap', 'iap.*'],
    test: { describe: 'iap.0.enabled becomes false or iap.0.oauth2_client_id empty (IAP off), or an IAP block that was on is gone',
      fn: (d) => (d.attribute === 'iap.0.enabled' && d.after === false) || (d.attribute === 'iap.0.oauth2_client_id' && !d.after)
        || (d.attribute === 'iap' && iapOn(d.before) && !iapOn(d.after)) } },
  { id: 'gcp-lb-retargeted', severity: 'high', description: 'URL map, backend bucket or proxy points at another backend, bucket or URL map',
    rationale: 'Requests to the load balancer are now served by a backend service or bucket the code does not name.',
    types: ['google_compute_url_map', 'google_compute_backend_bucket', 'google_compute_target_http_proxy', 'google_compute_target_https_proxy'], changeTypes: ['changed'],
    // Where requests go: the default backend, a path matcher's backends and path rules (not a description).
    attributes: ['default_service', 'bucket_name', 'url_map', 'path_matcher', 'path_matcher.*.default_service', 'path_matcher.*.path_rule*'] },
];
