// google_compute_network: compute/v1 networks.
import { googleReader, ownProject, selfLink } from './kit.ts';

const path = (a: Record<string, any>, project: string) => (a.name && project ? `/compute/v1/projects/${project}/global/networks/${a.name}` : undefined);

export const computeNetworkReader = googleReader({
  type: 'google_compute_network',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/networks/:name',
  projectList: (project) => `/compute/v1/projects/${project}/global/networks`,
  pathOf: (a, scope) => path(a, scope.account),
  toState: (j) => ({
    name: j.name, description: j.description ?? '', auto_create_subnetworks: j.autoCreateSubnetworks ?? false,
    routing_mode: j.routingConfig?.routingMode ?? '', mtu: j.mtu ?? 0,
  }),
  fromState: (a) => ({
    kind: 'compute#network', name: a.name, description: a.description ?? '', autoCreateSubnetworks: a.auto_create_subnetworks,
    routingConfig: { routingMode: a.routing_mode }, mtu: a.mtu, selfLink: a.self_link ?? selfLink(path(a, ownProject(a) ?? '') ?? ''),
  }),
});
