// Edge and serverless networking readers (Cloud Armor security policies, serverless network
// endpoint groups, Serverless VPC Access connectors), their ignore lists and severity rules.
// Spread into GOOGLE_READERS, GOOGLE_IGNORED and GOOGLE_RULES with one line each.
import type { SeverityRule } from '../../../rules.ts';
import type { DiffEntry } from '../../../types.ts';
import type { RestReader } from '../../rest/reader.ts';
import { regionNegReader, securityPolicyReader, vpcAccessConnectorReader } from './readers.ts';

export const EDGE_READERS: Record<string, RestReader> = {
  google_compute_security_policy: securityPolicyReader,
  google_compute_region_network_endpoint_group: regionNegReader,
  google_vpc_access_connector: vpcAccessConnectorReader,
};

/** Computed by the API, or Terraform-side only. */
export const EDGE_IGNORED: Record<string, string[]> = {
  google_compute_security_policy: ['fingerprint', 'self_link', 'project'],
  google_compute_region_network_endpoint_group: ['self_link', 'project', 'region'],
  google_vpc_access_connector: ['self_link', 'state', 'connected_projects', 'project', 'region'],
};

type Rule = Record<string, unknown>;
const first = (v: unknown): Rule => (Array.isArray(v) && v[0] && typeof v[0] === 'object' ? v[0] as Rule : {});
/** The priorities of rules letting every source in: action allow, source ranges `*`. */
function allowsAnyone(rules: unknown): Set<number> {
  const out = new Set<number>();
  for (const r of Array.isArray(rules) ? rules as Rule[] : []) {
    const ranges = first(first(r.match).config).src_ip_ranges;
    if (r.action === 'allow' && Array.isArray(ranges) && ranges.includes('*')) out.add(Number(r.priority));
  }
  return out;
}

export const EDGE_RULES: SeverityRule[] = [
  { id: 'gcp-armor-allow-all-added', severity: 'critical', description: 'Cloud Armor policy gained a rule allowing every source (*)',
    rationale: 'Traffic the policy blocked before may now reach the backends it protects.',
    types: ['google_compute_security_policy'], attributes: ['rule'],
    test: { describe: 'now holds an allow rule for source * at a priority that held none', fn: (d: DiffEntry) => [...allowsAnyone(d.after)].some((p) => !allowsAnyone(d.before).has(p)) } },
  { id: 'gcp-armor-rules-changed', severity: 'high', description: 'Cloud Armor policy rules changed',
    rationale: 'Which requests reach the protected backends changed outside review.',
    types: ['google_compute_security_policy'], attributes: ['rule'] },
  { id: 'gcp-serverless-neg-retargeted', severity: 'high', description: 'Serverless network endpoint group now points at another service or function',
    rationale: 'Traffic from the load balancer reaches another backend than the code declares.',
    types: ['google_compute_region_network_endpoint_group'], attributes: ['cloud_run*', 'cloud_function*', 'app_engine*', 'psc_target_service'] },
  { id: 'gcp-vpc-connector-network-changed', severity: 'high', description: 'VPC Access connector moved to another network or range',
    rationale: 'Which private network serverless workloads reach changed outside review.',
    types: ['google_vpc_access_connector'], attributes: ['network', 'ip_cidr_range', 'subnet*'] },
];
