// google_compute_address (regional, from the project's aggregatedList when several are read) and
// google_compute_global_address (global, from the project's list when several are read). `users`
// (what holds the address now) and `status` follow attachments: not mapped.
import { last, ownProject, type GJson } from '../kit.ts';
import { anyLocation, computeReader, globalPath, link, nameOf, ownSelfLink, regionalPath, stateLabels, type Attrs } from './common.ts';
import type { Scope } from '../../rest/reader.ts';

const regional = (a: Attrs, scope: Scope) => regionalPath('addresses', a, scope);
const global = (a: Attrs, scope: Scope) => globalPath('addresses', a, scope);

const common = (j: GJson, a: Attrs) => ({
  name: j.name, description: j.description ?? '', address: j.address ?? '', address_type: j.addressType ?? 'EXTERNAL',
  purpose: j.purpose ?? '', network: link(j.network, a.network), prefix_length: j.prefixLength ?? 0, labels: j.labels ?? {},
});
const commonJson = (a: Attrs, path: (a: Attrs, s: Scope) => string | undefined) => ({
  kind: 'compute#address', name: nameOf(a), description: a.description ?? '', address: a.address, addressType: a.address_type || undefined,
  purpose: a.purpose || undefined, network: a.network || undefined, prefixLength: a.prefix_length || undefined,
  labels: stateLabels(a), status: 'RESERVED', users: a.users ?? undefined, selfLink: ownSelfLink(a, path),
});

export const computeAddressReader = anyLocation({
  type: 'google_compute_address',
  service: 'compute',
  route: '/compute/v1/projects/:project/regions/:region/addresses/:name',
  aggregated: 'addresses',
  pathOf: regional,
  toState: (j, i) => ({
    ...common(j, i.attributes), subnetwork: link(j.subnetwork, i.attributes.subnetwork), network_tier: j.networkTier ?? '',
    // Newer providers only: compared where the state holds it.
    ip_version: j.ipVersion, ipv6_endpoint_type: j.ipv6EndpointType,
  }),
  fromState: (a) => ({
    ...commonJson(a, regional), region: `https://www.googleapis.com/compute/v1/projects/${ownProject(a) ?? ''}/regions/${last(a.region)}`,
    subnetwork: a.subnetwork || undefined, networkTier: a.network_tier || undefined, ipVersion: a.ip_version || undefined,
    ipv6EndpointType: a.ipv6_endpoint_type || undefined,
  }),
});

export const computeGlobalAddressReader = computeReader({
  type: 'google_compute_global_address',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/addresses/:name',
  globalList: 'addresses',
  pathOf: global,
  toState: (j, i) => ({ ...common(j, i.attributes), ip_version: j.ipVersion ?? '' }),
  fromState: (a) => ({ ...commonJson(a, global), ipVersion: a.ip_version || undefined }),
});
