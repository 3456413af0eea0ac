// The Compute Engine readers (compute/v1), their ignore lists and (rules.ts) severity rules.
import type { RestReader } from '../../rest/reader.ts';
import { computeAddressReader, computeGlobalAddressReader } from './address.ts';
import { computeDiskReader } from './disk.ts';
import { computeFirewallReader } from './firewall.ts';
import { computeInstanceReader } from './instance.ts';
import { computeNetworkReader } from './network.ts';
import { computeRouterNatReader, computeRouterReader } from './router.ts';
import { computeSubnetworkReader } from './subnetwork.ts';
import { computeInstanceTemplateReader } from './template.ts';

export const COMPUTE_READERS: Record<string, RestReader> = {
  google_compute_instance: computeInstanceReader,
  google_compute_subnetwork: computeSubnetworkReader,
  google_compute_network: computeNetworkReader,
  google_compute_firewall: computeFirewallReader,
  google_compute_disk: computeDiskReader,
  google_compute_router: computeRouterReader,
  google_compute_router_nat: computeRouterNatReader,
  google_compute_address: computeAddressReader,
  google_compute_global_address: computeGlobalAddressReader,
  google_compute_instance_template: computeInstanceTemplateReader,
};

export { COMPUTE_IGNORED } from './ignored.ts';
