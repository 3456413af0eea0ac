// GKE (container v1) cluster and node pool JSON <-> the google provider's attributes. Versions
// (auto-upgraded), node counts (autoscaled), endpoints and fingerprints are not mapped: they move
// without anyone touching the code. A block the API leaves out is not compared (undefined), except
// where its absence is the meaning: master authorized networks off, no private cluster.
import type { LiveAttributes } from '../../../types.ts';
import { last, type GJson } from '../kit.ts';

type A = Record<string, any>;
const first = (v: unknown): A => (Array.isArray(v) && v[0] && typeof v[0] === 'object' ? v[0] : {});
/** A reference (network, subnetwork) as the state spells it when it names the same resource. */
const sameRef = (state: unknown, live: unknown) => (typeof state === 'string' && typeof live === 'string' && last(state) === last(live) ? state : live);
/** A value the provider compares without case (image types): the state's spelling when equal. */
const noCase = (state: unknown, live: unknown) => (typeof state === 'string' && typeof live === 'string' && state.toLowerCase() === live.toLowerCase() ? state : live);
const flag = (v: unknown) => v === true;
/** A default block as the state has it: [] where an older provider wrote nothing for the default. */
const orNone = (state: unknown, isDefault: boolean, block: unknown[]) => (isDefault && Array.isArray(state) && state.length === 0 ? [] : block);
const addon = (block: unknown) => (Array.isArray(block) && block.length ? { disabled: first(block).disabled || undefined } : undefined);

/** Drops undefined keys at every depth: inside blocks, a key present on both sides is compared, so an unknown one must be absent. */
export function compact<T>(v: T): T {
  if (Array.isArray(v)) return v.map(compact) as T;
  if (v && typeof v === 'object') {
    return Object.fromEntries(Object.entries(v).filter(([, x]) => x !== undefined).map(([k, x]) => [k, compact(x)])) as T;
  }
  return v;
}

export function clusterToState(j: GJson, a: A): LiveAttributes {
  const man = j.masterAuthorizedNetworksConfig;
  const stateMan = first(a.master_authorized_networks_config);
  let masterNets: unknown[] = [];
  if (man?.enabled) {
    masterNets = [{
      cidr_blocks: (man.cidrBlocks ?? []).map((c: A) => ({ cidr_block: c.cidrBlock, display_name: c.displayName ?? '' })),
      gcp_public_cidrs_access_enabled: flag(man.gcpPublicCidrsAccessEnabled),
    }];
  } else if (Array.isArray(a.master_authorized_networks_config) && a.master_authorized_networks_config.length && !(stateMan.cidr_blocks ?? []).length) {
    // The provider writes a block without CIDRs for a cluster whose authorized networks are off.
    masterNets = [{ cidr_blocks: [], gcp_public_cidrs_access_enabled: flag(man?.gcpPublicCidrsAccessEnabled) }];
  }
  const pcc = j.privateClusterConfig;
  const isPrivate = !!(pcc?.enablePrivateNodes || pcc?.enablePrivateEndpoint || pcc?.masterIpv4CidrBlock);
  const statePcc = Array.isArray(a.private_cluster_config) && a.private_cluster_config.length > 0;
  const labels = j.resourceLabels ?? {};
  const addons = j.addonsConfig ?? {};
  const ipa = j.ipAllocationPolicy;
  const location = j.location ?? a.location;
  return compact({
    name: j.name, description: j.description ?? '', location,
    network: sameRef(a.network, j.networkConfig?.network ?? j.network),
    subnetwork: sameRef(a.subnetwork, j.networkConfig?.subnetwork ?? j.subnetwork),
    logging_service: j.loggingService, monitoring_service: j.monitoringService,
    cluster_ipv4_cidr: j.clusterIpv4Cidr,
    enable_legacy_abac: flag(j.legacyAbac?.enabled),
    enable_shielded_nodes: j.shieldedNodes ? flag(j.shieldedNodes.enabled) : undefined,
    enable_kubernetes_alpha: flag(j.enableKubernetesAlpha),
    enable_autopilot: flag(j.autopilot?.enabled),
    enable_intranode_visibility: j.networkConfig ? flag(j.networkConfig.enableIntraNodeVisibility) : undefined,
    master_authorized_networks_config: masterNets,
    private_cluster_config: isPrivate || statePcc ? [{
      enable_private_endpoint: flag(pcc?.enablePrivateEndpoint), enable_private_nodes: flag(pcc?.enablePrivateNodes),
      master_ipv4_cidr_block: pcc?.masterIpv4CidrBlock ?? '',
      ...(pcc?.masterGlobalAccessConfig ? { master_global_access_config: [{ enabled: flag(pcc.masterGlobalAccessConfig.enabled) }] } : {}),
    }] : [],
    // The provider writes these defaults when the API leaves the block out.
    network_policy: orNone(a.network_policy, !j.networkPolicy?.enabled && !j.networkPolicy?.provider, [{ enabled: flag(j.networkPolicy?.enabled), provider: j.networkPolicy?.provider ?? 'PROVIDER_UNSPECIFIED' }]),
    release_channel: orNone(a.release_channel, !j.releaseChannel?.channel, [{ channel: j.releaseChannel?.channel || 'UNSPECIFIED' }]),
    workload_identity_config: j.workloadIdentityConfig?.workloadPool
      ? [{ workload_pool: j.workloadIdentityConfig.workloadPool, identity_namespace: j.workloadIdentityConfig.workloadPool }] : [],
    database_encryption: j.databaseEncryption ? [{ state: j.databaseEncryption.state, key_name: j.databaseEncryption.keyName ?? '' }] : undefined,
    default_max_pods_per_node: j.defaultMaxPodsConstraint?.maxPodsPerNode !== undefined ? Number(j.defaultMaxPodsConstraint.maxPodsPerNode) : undefined,
    ip_allocation_policy: ipa?.useIpAliases ? [{
      cluster_ipv4_cidr_block: ipa.clusterIpv4CidrBlock ?? '', cluster_secondary_range_name: ipa.clusterSecondaryRangeName ?? '',
      services_ipv4_cidr_block: ipa.servicesIpv4CidrBlock ?? '', services_secondary_range_name: ipa.servicesSecondaryRangeName ?? '',
    }] : undefined,
    // A zonal cluster's own zone is not among node_locations in state.
    node_locations: Array.isArray(j.locations) ? j.locations.filter((z: string) => z !== location) : undefined,
    // Each addon block only when the API names the addon (the provider writes [] otherwise).
    addons_config: [{
      ...(addons.httpLoadBalancing ? { http_load_balancing: [{ disabled: flag(addons.httpLoadBalancing.disabled) }] } : {}),
      ...(addons.horizontalPodAutoscaling ? { horizontal_pod_autoscaling: [{ disabled: flag(addons.horizontalPodAutoscaling.disabled) }] } : {}),
      ...(addons.networkPolicyConfig ? { network_policy_config: [{ disabled: flag(addons.networkPolicyConfig.disabled) }] } : {}),
    }],
    // Provider 5+ compares `effective_labels` (every label) as `labels`; older states keep them in resource_labels.
    ...(a.effective_labels !== undefined ? { labels } : { resource_labels: labels }),
  });
}

export function clusterFromState(a: A): GJson {
  const man = first(a.master_authorized_networks_config);
  const pcc = first(a.private_cluster_config);
  const ipa = first(a.ip_allocation_policy);
  const addons = first(a.addons_config);
  const wi = first(a.workload_identity_config);
  const de = first(a.database_encryption);
  return {
    name: a.name, description: a.description || undefined, location: a.location,
    network: last(a.network), subnetwork: last(a.subnetwork),
    networkConfig: { network: a.network, subnetwork: a.subnetwork, enableIntraNodeVisibility: a.enable_intranode_visibility || undefined },
    loggingService: a.logging_service, monitoringService: a.monitoring_service, clusterIpv4Cidr: a.cluster_ipv4_cidr,
    legacyAbac: a.enable_legacy_abac ? { enabled: true } : {},
    shieldedNodes: a.enable_shielded_nodes === undefined ? undefined : { enabled: a.enable_shielded_nodes },
    enableKubernetesAlpha: a.enable_kubernetes_alpha || undefined,
    autopilot: a.enable_autopilot ? { enabled: true } : undefined,
    masterAuthorizedNetworksConfig: (man.cidr_blocks ?? []).length
      ? { enabled: true, cidrBlocks: man.cidr_blocks.map((c: A) => ({ cidrBlock: c.cidr_block, displayName: c.display_name || undefined })), gcpPublicCidrsAccessEnabled: man.gcp_public_cidrs_access_enabled }
      : { gcpPublicCidrsAccessEnabled: man.gcp_public_cidrs_access_enabled },
    privateClusterConfig: {
      enablePrivateNodes: pcc.enable_private_nodes || undefined, enablePrivateEndpoint: pcc.enable_private_endpoint || undefined,
      masterIpv4CidrBlock: pcc.master_ipv4_cidr_block || undefined, privateEndpoint: pcc.private_endpoint, publicEndpoint: pcc.public_endpoint ?? a.endpoint,
      masterGlobalAccessConfig: Array.isArray(pcc.master_global_access_config) && pcc.master_global_access_config.length ? { enabled: !!first(pcc.master_global_access_config).enabled } : undefined,
    },
    networkPolicy: Array.isArray(a.network_policy) && a.network_policy.length ? { enabled: first(a.network_policy).enabled || undefined, provider: first(a.network_policy).provider } : undefined,
    releaseChannel: Array.isArray(a.release_channel) && a.release_channel.length ? { channel: first(a.release_channel).channel } : undefined,
    workloadIdentityConfig: wi.workload_pool || wi.identity_namespace ? { workloadPool: wi.workload_pool || wi.identity_namespace } : undefined,
    databaseEncryption: de.state ? { state: de.state, keyName: de.key_name || undefined } : undefined,
    defaultMaxPodsConstraint: a.default_max_pods_per_node ? { maxPodsPerNode: String(a.default_max_pods_per_node) } : undefined,
    ipAllocationPolicy: Array.isArray(a.ip_allocation_policy) && a.ip_allocation_policy.length ? {
      useIpAliases: true, clusterIpv4CidrBlock: ipa.cluster_ipv4_cidr_block, clusterSecondaryRangeName: ipa.cluster_secondary_range_name || undefined,
      servicesIpv4CidrBlock: ipa.services_ipv4_cidr_block, servicesSecondaryRangeName: ipa.services_secondary_range_name || undefined,
    } : undefined,
    locations: [...new Set([...(a.node_locations ?? []), ...(/-[a-z]$/.test(a.location ?? '') ? [a.location] : [])])],
    addonsConfig: {
      httpLoadBalancing: addon(addons.http_load_balancing), horizontalPodAutoscaling: addon(addons.horizontal_pod_autoscaling),
      networkPolicyConfig: addon(addons.network_policy_config),
    },
    resourceLabels: a.effective_labels ?? a.resource_labels ?? undefined,
    endpoint: a.endpoint, status: 'RUNNING', selfLink: a.self_link,
  };
}

export function nodePoolToState(p: GJson, a: A): LiveAttributes {
  const c = p.config ?? {};
  const sc = first(a.node_config);
  const as = p.autoscaling;
  return compact({
    name: p.name, initial_node_count: p.initialNodeCount,
    node_locations: Array.isArray(p.locations) ? p.locations : undefined,
    max_pods_per_node: p.maxPodsConstraint?.maxPodsPerNode !== undefined ? Number(p.maxPodsConstraint.maxPodsPerNode) : undefined,
    autoscaling: as?.enabled ? [{
      min_node_count: as.minNodeCount ?? 0, max_node_count: as.maxNodeCount ?? 0,
      total_min_node_count: as.totalMinNodeCount ?? 0, total_max_node_count: as.totalMaxNodeCount ?? 0,
      ...(as.locationPolicy ? { location_policy: as.locationPolicy } : {}),
    }] : [],
    management: [{ auto_repair: flag(p.management?.autoRepair), auto_upgrade: flag(p.management?.autoUpgrade) }],
    upgrade_settings: p.upgradeSettings ? [{ max_surge: p.upgradeSettings.maxSurge ?? 0, max_unavailable: p.upgradeSettings.maxUnavailable ?? 0, ...(p.upgradeSettings.strategy ? { strategy: p.upgradeSettings.strategy } : {}) }] : undefined,
    node_config: [{
      machine_type: c.machineType, disk_size_gb: c.diskSizeGb, disk_type: c.diskType, image_type: noCase(sc.image_type, c.imageType),
      service_account: c.serviceAccount, oauth_scopes: c.oauthScopes ?? [], preemptible: flag(c.preemptible), spot: flag(c.spot),
      tags: c.tags ?? [], labels: c.labels ?? {}, metadata: c.metadata ?? {}, local_ssd_count: c.localSsdCount ?? 0,
      min_cpu_platform: c.minCpuPlatform ?? '', boot_disk_kms_key: c.bootDiskKmsKey ?? '',
      ...(c.workloadMetadataConfig ? { workload_metadata_config: [{ mode: c.workloadMetadataConfig.mode, node_metadata: c.workloadMetadataConfig.nodeMetadata }] } : {}),
      ...(c.shieldedInstanceConfig ? { shielded_instance_config: [{ enable_integrity_monitoring: flag(c.shieldedInstanceConfig.enableIntegrityMonitoring), enable_secure_boot: flag(c.shieldedInstanceConfig.enableSecureBoot) }] } : {}),
    }],
  });
}

export function nodePoolFromState(a: A): GJson {
  const c = first(a.node_config);
  const as = first(a.autoscaling);
  const up = first(a.upgrade_settings);
  const wm = first(c.workload_metadata_config);
  const si = first(c.shielded_instance_config);
  return {
    name: a.name, initialNodeCount: a.initial_node_count, locations: a.node_locations, version: a.version,
    maxPodsConstraint: a.max_pods_per_node ? { maxPodsPerNode: String(a.max_pods_per_node) } : undefined,
    autoscaling: Array.isArray(a.autoscaling) && a.autoscaling.length ? {
      enabled: true, minNodeCount: as.min_node_count || undefined, maxNodeCount: as.max_node_count || undefined,
      totalMinNodeCount: as.total_min_node_count || undefined, totalMaxNodeCount: as.total_max_node_count || undefined, locationPolicy: as.location_policy || undefined,
    } : {},
    management: { autoRepair: first(a.management).auto_repair || undefined, autoUpgrade: first(a.management).auto_upgrade || undefined },
    upgradeSettings: Array.isArray(a.upgrade_settings) && a.upgrade_settings.length ? { maxSurge: up.max_surge || undefined, maxUnavailable: up.max_unavailable || undefined, strategy: up.strategy || undefined } : undefined,
    config: {
      machineType: c.machine_type, diskSizeGb: c.disk_size_gb, diskType: c.disk_type, imageType: typeof c.image_type === 'string' ? c.image_type.toUpperCase() : undefined,
      serviceAccount: c.service_account, oauthScopes: c.oauth_scopes, preemptible: c.preemptible || undefined, spot: c.spot || undefined,
      tags: c.tags, labels: c.labels, metadata: c.metadata, localSsdCount: c.local_ssd_count || undefined,
      minCpuPlatform: c.min_cpu_platform || undefined, bootDiskKmsKey: c.boot_disk_kms_key || undefined,
      workloadMetadataConfig: wm.mode || wm.node_metadata ? { mode: wm.mode, nodeMetadata: wm.node_metadata } : undefined,
      shieldedInstanceConfig: Array.isArray(c.shielded_instance_config) && c.shielded_instance_config.length
        ? { enableIntegrityMonitoring: si.enable_integrity_monitoring || undefined, enableSecureBoot: si.enable_secure_boot || undefined } : undefined,
    },
    status: 'RUNNING',
  };
}
