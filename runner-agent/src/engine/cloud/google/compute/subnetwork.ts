// google_compute_subnetwork: compute/v1 subnetworks (regional), from one aggregatedList of the
// project when several are read in it. Secondary ranges compare order-free by name.
import { last, ownProject, type GJson } from '../kit.ts';
import { anyLocation, defined, link, list, nameOf, ownSelfLink, regionalPath, strings, type Attrs } from './common.ts';
import type { Scope } from '../../rest/reader.ts';

const path = (a: Attrs, scope: Scope) => regionalPath('subnetworks', a, scope);

export const computeSubnetworkReader = anyLocation({
  type: 'google_compute_subnetwork',
  service: 'compute',
  route: '/compute/v1/projects/:project/regions/:region/subnetworks/:name',
  aggregated: 'subnetworks',
  pathOf: path,
  toState: (j, i) => ({
    name: j.name, description: j.description ?? '', ip_cidr_range: j.ipCidrRange ?? '', network: link(j.network, i.attributes.network),
    private_ip_google_access: j.privateIpGoogleAccess ?? false,
    // Absent from older answers and states: compared only when both hold them.
    private_ipv6_google_access: j.privateIpv6GoogleAccess, purpose: j.purpose, role: j.role, stack_type: j.stackType,
    ipv6_access_type: j.ipv6AccessType,
    secondary_ip_range: list(j.secondaryIpRanges).map((r: GJson) => ({ range_name: r.rangeName ?? '', ip_cidr_range: r.ipCidrRange ?? '' })),
    // The provider writes log_config only while flow logs are on.
    log_config: j.logConfig?.enable ? [defined({
      aggregation_interval: j.logConfig.aggregationInterval, flow_sampling: j.logConfig.flowSampling, metadata: j.logConfig.metadata,
      metadata_fields: j.logConfig.metadataFields ? strings(j.logConfig.metadataFields) : undefined, filter_expr: j.logConfig.filterExpr,
    })] : [],
  }),
  fromState: (a) => {
    const log: Attrs | undefined = list(a.log_config)[0];
    return {
      kind: 'compute#subnetwork', name: nameOf(a), description: a.description ?? '', ipCidrRange: a.ip_cidr_range, network: a.network,
      region: `https://www.googleapis.com/compute/v1/projects/${ownProject(a) ?? ''}/regions/${last(a.region)}`,
      gatewayAddress: a.gateway_address, fingerprint: a.fingerprint ?? undefined, privateIpGoogleAccess: a.private_ip_google_access,
      privateIpv6GoogleAccess: a.private_ipv6_google_access || undefined, purpose: a.purpose || undefined, role: a.role || undefined,
      stackType: a.stack_type || undefined, ipv6AccessType: a.ipv6_access_type || undefined,
      secondaryIpRanges: list(a.secondary_ip_range).map((r: Attrs) => ({ rangeName: r.range_name, ipCidrRange: r.ip_cidr_range })),
      logConfig: log ? { enable: true, aggregationInterval: log.aggregation_interval, flowSampling: log.flow_sampling, metadata: log.metadata, metadataFields: log.metadata_fields ?? undefined, filterExpr: log.filter_expr } : { enable: false },
      selfLink: ownSelfLink(a, path),
    };
  },
  spec: { sets: { secondary_ip_range: (e) => [`${(e as Attrs).range_name}=${(e as Attrs).ip_cidr_range}`] } },
});
