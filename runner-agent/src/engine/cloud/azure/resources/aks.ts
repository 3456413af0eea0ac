// azurerm_kubernetes_cluster: Microsoft.ContainerService/managedClusters (api 2024-09-01), the
// group's list when several share a group. The kube configs and their certificates are secrets
// (never mapped; the provider marks them sensitive); computed FQDNs are ignored. The default node
// pool's node_count is left out when the autoscaler owns it (it moves by itself).
import { armReader, location, type ArmJson } from '../kit.ts';
import { clean, first, identityFromState, identityToState, list, opt, tags, type Attrs } from './util.ts';

const PATH = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.ContainerService/managedClusters';

/** An add-on's profile by name, whatever its case (`azurepolicy`, `azurePolicy`). */
const addon = (profiles: ArmJson | undefined, name: string): ArmJson | undefined =>
  Object.entries(profiles ?? {}).find(([k]) => k.toLowerCase() === name.toLowerCase())?.[1];

/** Newer API versions answer `none` where older ones answered nothing: one value, spelt as the state does. */
const noPolicy = (live: unknown, state: unknown) => {
  const empty = (v: unknown) => v === undefined || v === null || v === '' || String(v).toLowerCase() === 'none';
  return empty(live) && empty(state) ? state ?? '' : live;
};

function poolToState(pool: ArmJson | undefined): Attrs[] {
  if (!pool) return [];
  const auto = !!pool.enableAutoScaling;
  return [clean({
    name: opt(pool.name), vm_size: opt(pool.vmSize), type: opt(pool.type),
    node_count: auto ? undefined : opt(pool.count),
    // azurerm 3.x writes enable_auto_scaling, 4.x auto_scaling_enabled: only the one the state holds compares.
    enable_auto_scaling: auto, auto_scaling_enabled: auto,
    min_count: auto ? opt(pool.minCount) : undefined, max_count: auto ? opt(pool.maxCount) : undefined,
    os_disk_size_gb: opt(pool.osDiskSizeGB), max_pods: opt(pool.maxPods), vnet_subnet_id: pool.vnetSubnetID ?? '',
    zones: pool.availabilityZones ?? [], node_labels: pool.nodeLabels ?? {},
  })];
}

export const kubernetesClusterReader = armReader({
  type: 'azurerm_kubernetes_cluster', apiVersion: '2024-09-01', path: `${PATH}/:name`, list: PATH,
  toState: (json, instance) => {
    const p = json.properties ?? {};
    const access = p.apiServerAccessProfile ?? {};
    const net = p.networkProfile;
    const want = first(instance.attributes.default_node_pool).name;
    const pools = list(p.agentPoolProfiles);
    const pool = pools.find((x) => x.name === want) ?? pools.find((x) => x.mode === 'System') ?? pools[0];
    const ranges = access.authorizedIPRanges ?? [];
    return {
      name: json.name, location: location(json.location), tags: tags(json),
      dns_prefix: opt(p.dnsPrefix), kubernetes_version: opt(p.kubernetesVersion), node_resource_group: opt(p.nodeResourceGroup),
      sku_tier: json.sku?.tier || 'Free',
      private_cluster_enabled: !!access.enablePrivateCluster,
      api_server_access_profile: [clean({ authorized_ip_ranges: ranges, subnet_id: access.subnetId ?? '' })],
      // azurerm 2.x / early 3.x: the ranges at the top level.
      api_server_authorized_ip_ranges: ranges,
      default_node_pool: poolToState(pool),
      identity: identityToState(json.identity, instance.attributes.identity),
      network_profile: net ? [clean({
        network_plugin: opt(net.networkPlugin), network_policy: noPolicy(net.networkPolicy, first(instance.attributes.network_profile).network_policy), service_cidr: opt(net.serviceCidr),
        dns_service_ip: opt(net.dnsServiceIP), pod_cidr: net.podCidr ?? '', outbound_type: opt(net.outboundType),
      })] : undefined,
      role_based_access_control_enabled: p.enableRBAC ?? true,
      local_account_disabled: !!p.disableLocalAccounts,
      oidc_issuer_enabled: !!p.oidcIssuerProfile?.enabled,
      workload_identity_enabled: !!p.securityProfile?.workloadIdentity?.enabled,
      azure_policy_enabled: !!addon(p.addonProfiles, 'azurepolicy')?.enabled,
      http_application_routing_enabled: !!addon(p.addonProfiles, 'httpApplicationRouting')?.enabled,
    };
  },
  fromState: (a) => {
    const pool = first(a.default_node_pool);
    const access = first(a.api_server_access_profile);
    const ranges = list(access.authorized_ip_ranges).length ? access.authorized_ip_ranges : list(a.api_server_authorized_ip_ranges);
    const net = first(a.network_profile);
    const auto = !!(pool.enable_auto_scaling ?? pool.auto_scaling_enabled);
    const addons: ArmJson = {};
    if (a.azure_policy_enabled !== undefined) addons.azurepolicy = { enabled: !!a.azure_policy_enabled };
    if (a.http_application_routing_enabled !== undefined) addons.httpApplicationRouting = { enabled: !!a.http_application_routing_enabled };
    return clean({
      location: a.location, tags: a.tags ?? {}, identity: identityFromState(a.identity),
      sku: a.sku_tier ? { name: 'Base', tier: a.sku_tier } : undefined,
      properties: clean({
        dnsPrefix: a.dns_prefix, kubernetesVersion: a.kubernetes_version, nodeResourceGroup: a.node_resource_group,
        enableRBAC: a.role_based_access_control_enabled, disableLocalAccounts: !!a.local_account_disabled,
        oidcIssuerProfile: { enabled: !!a.oidc_issuer_enabled }, securityProfile: { workloadIdentity: { enabled: !!a.workload_identity_enabled } },
        apiServerAccessProfile: clean({ enablePrivateCluster: !!a.private_cluster_enabled, authorizedIPRanges: ranges.length ? ranges : undefined, subnetId: access.subnet_id || undefined }),
        agentPoolProfiles: pool.name ? [clean({
          name: pool.name, mode: 'System', vmSize: pool.vm_size, type: pool.type, count: pool.node_count, enableAutoScaling: auto,
          minCount: auto ? pool.min_count : undefined, maxCount: auto ? pool.max_count : undefined, osDiskSizeGB: pool.os_disk_size_gb,
          maxPods: pool.max_pods, vnetSubnetID: pool.vnet_subnet_id || undefined,
          availabilityZones: list(pool.zones).length ? pool.zones : undefined, nodeLabels: pool.node_labels ?? undefined,
        })] : undefined,
        networkProfile: net.network_plugin ? clean({
          networkPlugin: net.network_plugin, networkPolicy: net.network_policy || undefined, serviceCidr: net.service_cidr,
          dnsServiceIP: net.dns_service_ip, podCidr: net.pod_cidr || undefined, outboundType: net.outbound_type,
        }) : undefined,
        addonProfiles: addons, fqdn: a.fqdn || undefined, provisioningState: 'Succeeded',
      }),
    });
  },
});
