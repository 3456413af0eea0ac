// Apps and platform: azurerm_container_app_environment, azurerm_container_app (Microsoft.App),
// azurerm_app_service_plan and azurerm_app_service (the 2.x/3.x Microsoft.Web types: one GET each,
// never the group's list, which the service plan and web app readers answer for their own types),
// azurerm_log_analytics_solution (Microsoft.OperationsManagement), azurerm_storage_share
// (Microsoft.Storage fileServices/default/shares; a 2.x/3.x state's id is the data-plane URL and
// its resource_manager_id the ARM id). Secrets (an app's site credentials, connection strings,
// an environment's keys) and computed addresses are left unmapped.
import { armReader, location, lower } from '../kit.ts';
import { STORAGE_API } from '../resources/storage.ts';
import { clean, first } from '../resources/util.ts';
import { WEB_API } from '../more/function-app.ts';
import { asState, bool, list, str, type Attrs } from './kit.ts';

const RG = '/subscriptions/:sub/resourceGroups/:rg/providers';
const APP_API = '2024-03-01';

export const containerAppEnvironmentReader = armReader({
  type: 'azurerm_container_app_environment', apiVersion: APP_API, path: `${RG}/Microsoft.App/managedEnvironments/:name`,
  toState: (j, i) => {
    const p = j.properties ?? {};
    return {
      location: location(j.location), tags: j.tags ?? {},
      infrastructure_subnet_id: asState(p.vnetConfiguration?.infrastructureSubnetId, i.attributes.infrastructure_subnet_id),
      internal_load_balancer_enabled: p.vnetConfiguration?.internal ?? false, zone_redundancy_enabled: p.zoneRedundant ?? false,
      mutual_tls_enabled: p.peerAuthentication?.mtls?.enabled ?? false,
    };
  },
  fromState: (a) => ({
    type: 'Microsoft.App/managedEnvironments', location: a.location, tags: a.tags ?? {},
    properties: {
      ...(str(a.infrastructure_subnet_id) ? { vnetConfiguration: { infrastructureSubnetId: a.infrastructure_subnet_id, internal: !!a.internal_load_balancer_enabled } } : {}),
      zoneRedundant: !!a.zone_redundancy_enabled, peerAuthentication: { mtls: { enabled: !!a.mutual_tls_enabled } },
      defaultDomain: a.default_domain, staticIp: a.static_ip_address, provisioningState: 'Succeeded',
    },
  }),
});

// A container app: its environment, revision mode, ingress and each container's image and size.
// Nested blocks compare on the keys both sides hold, so the settings not mapped stay out.
export const containerAppReader = armReader({
  type: 'azurerm_container_app', apiVersion: APP_API, path: `${RG}/Microsoft.App/containerApps/:name`,
  toState: (j, i) => {
    const p = j.properties ?? {};
    const c = p.configuration ?? {};
    const ing = c.ingress;
    const t = p.template ?? {};
    return {
      tags: j.tags ?? {}, container_app_environment_id: asState(p.environmentId ?? p.managedEnvironmentId, i.attributes.container_app_environment_id),
      revision_mode: asState(c.activeRevisionsMode ?? 'Single', i.attributes.revision_mode), workload_profile_name: str(p.workloadProfileName),
      ingress: ing ? [{
        external_enabled: ing.external ?? false, target_port: ing.targetPort ?? 0, allow_insecure_connections: ing.allowInsecure ?? false,
        transport: lower(ing.transport ?? 'auto'),
      }] : [],
      template: [{
        min_replicas: t.scale?.minReplicas ?? 0, max_replicas: t.scale?.maxReplicas ?? 10,
        container: list(t.containers).map((x) => ({ name: str(x.name), image: str(x.image), cpu: x.resources?.cpu, memory: str(x.resources?.memory) })),
      }],
    };
  },
  fromState: (a) => {
    const ing = first(a.ingress);
    const t = first(a.template);
    return {
      type: 'Microsoft.App/containerApps', location: a.location, tags: a.tags ?? {},
      properties: {
        environmentId: a.container_app_environment_id, managedEnvironmentId: a.container_app_environment_id, ...(a.workload_profile_name ? { workloadProfileName: a.workload_profile_name } : {}),
        configuration: { activeRevisionsMode: a.revision_mode ?? 'Single', ...(Object.keys(ing).length ? { ingress: { external: !!ing.external_enabled, targetPort: ing.target_port, allowInsecure: !!ing.allow_insecure_connections, transport: ing.transport ?? 'auto', fqdn: ing.fqdn } } : {}) },
        template: {
          scale: { minReplicas: t.min_replicas ?? 0, maxReplicas: t.max_replicas ?? 10 },
          containers: list(t.container).map((x) => ({ name: x.name, image: x.image, resources: { cpu: x.cpu, memory: x.memory } })),
        },
        latestRevisionFqdn: a.latest_revision_fqdn, provisioningState: 'Succeeded',
      },
    };
  },
});

// The legacy plan: its sku block {tier, size, capacity}; kind as the provider wrote it (ARM
// lowercases `Linux`, and answers `app` for the provider's default `Windows`).
const planKind = (live: unknown, state: unknown) => (lower(str(live)) === 'app' && lower(str(state)) === 'windows' ? str(state) : asState(live, state));
export const appServicePlanReader = armReader({
  type: 'azurerm_app_service_plan', apiVersion: WEB_API, path: `${RG}/Microsoft.Web/serverfarms/:name`,
  toState: (j, i) => {
    const p = j.properties ?? {};
    const st = first(i.attributes.sku);
    return {
      location: location(j.location), tags: j.tags ?? {}, kind: planKind(j.kind, i.attributes.kind), reserved: p.reserved ?? false,
      per_site_scaling: p.perSiteScaling ?? false, is_xenon: p.isXenon ?? false, zone_redundant: p.zoneRedundant ?? false,
      maximum_elastic_worker_count: p.maximumElasticWorkerCount ?? 0,
      sku: [{ tier: asState(j.sku?.tier, st.tier), size: asState(j.sku?.size ?? j.sku?.name, st.size), capacity: j.sku?.capacity ?? 0 }],
    };
  },
  fromState: (a) => {
    const sku = first(a.sku);
    return {
      type: 'Microsoft.Web/serverfarms', location: a.location, tags: a.tags ?? {}, kind: a.kind,
      sku: { tier: sku.tier, name: sku.size, capacity: sku.capacity },
      properties: { reserved: !!a.reserved, perSiteScaling: !!a.per_site_scaling, isXenon: !!a.is_xenon, zoneRedundant: !!a.zone_redundant, maximumElasticWorkerCount: a.maximum_elastic_worker_count ?? 0 },
    };
  },
});

export const appServiceReader = armReader({
  type: 'azurerm_app_service', apiVersion: WEB_API, path: `${RG}/Microsoft.Web/sites/:name`,
  toState: (j, i) => {
    const p = j.properties ?? {};
    return {
      location: location(j.location), tags: j.tags ?? {}, app_service_plan_id: asState(p.serverFarmId, i.attributes.app_service_plan_id),
      enabled: p.enabled ?? true, https_only: p.httpsOnly ?? false, client_affinity_enabled: p.clientAffinityEnabled ?? false,
      client_cert_enabled: p.clientCertEnabled ?? false, ...(p.clientCertMode ? { client_cert_mode: p.clientCertMode } : {}),
    };
  },
  fromState: (a) => ({
    type: 'Microsoft.Web/sites', kind: 'app', location: a.location, tags: a.tags ?? {},
    properties: {
      serverFarmId: str(a.app_service_plan_id).replace(/\/serverFarms\//i, '/serverfarms/'), enabled: bool(a.enabled, true), httpsOnly: !!a.https_only,
      clientAffinityEnabled: !!a.client_affinity_enabled, clientCertEnabled: !!a.client_cert_enabled, ...(a.client_cert_mode ? { clientCertMode: a.client_cert_mode } : {}),
      defaultHostName: a.default_site_hostname, state: 'Running',
    },
  }),
});

export const logAnalyticsSolutionReader = armReader({
  type: 'azurerm_log_analytics_solution', apiVersion: '2015-11-01-preview', path: `${RG}/Microsoft.OperationsManagement/solutions/:name`,
  toState: (j, i) => {
    const plan = j.plan ?? {};
    const st = first(i.attributes.plan);
    return {
      location: location(j.location), tags: j.tags ?? {}, workspace_resource_id: asState(j.properties?.workspaceResourceId, i.attributes.workspace_resource_id),
      plan: [clean({ publisher: str(plan.publisher), product: str(plan.product), ...('promotion_code' in st ? { promotion_code: str(plan.promotionCode) } : {}) })],
    };
  },
  fromState: (a) => {
    const plan = first(a.plan);
    return {
      type: 'Microsoft.OperationsManagement/solutions', location: a.location, tags: a.tags ?? {},
      plan: { name: plan.name, publisher: plan.publisher, product: plan.product, promotionCode: plan.promotion_code ?? '' },
      properties: { workspaceResourceId: a.workspace_resource_id, provisioningState: 'Succeeded' },
    };
  },
});

/** The share's ARM id: its id when it is one, else the resource_manager_id a 2.x/3.x state holds next to the URL. */
export function shareId(a: Attrs): string | undefined {
  for (const v of [a.id, a.resource_manager_id]) if (typeof v === 'string' && /^\/subscriptions\//i.test(v)) return v;
  return undefined;
}
export const storageShareReader = armReader({
  type: 'azurerm_storage_share', apiVersion: STORAGE_API, idOf: shareId,
  path: `${RG}/Microsoft.Storage/storageAccounts/:account/fileServices/default/shares/:name`,
  toState: (j, i) => {
    const p = j.properties ?? {};
    return clean({
      // Metadata and access policies are compared when ARM answers them (some api paths leave them out).
      quota: p.shareQuota, metadata: p.metadata, enabled_protocol: p.enabledProtocols ?? 'SMB',
      access_tier: 'access_tier' in i.attributes ? p.accessTier : undefined,
      acl: p.signedIdentifiers === undefined ? undefined : list(p.signedIdentifiers).map((s) => ({
        id: str(s.id), access_policy: s.accessPolicy ? [{ permissions: str(s.accessPolicy.permission), start: str(s.accessPolicy.startTime), expiry: str(s.accessPolicy.expiryTime) }] : [],
      })),
    });
  },
  fromState: (a) => ({
    type: 'Microsoft.Storage/storageAccounts/fileServices/shares',
    properties: clean({
      shareQuota: a.quota, metadata: a.metadata ?? {}, enabledProtocols: a.enabled_protocol ?? 'SMB', accessTier: a.access_tier || undefined,
      signedIdentifiers: list(a.acl).map((s) => {
        const pol = first(s.access_policy);
        return { id: s.id, ...(Object.keys(pol).length ? { accessPolicy: { permission: pol.permissions, startTime: pol.start ?? '', expiryTime: pol.expiry ?? '' } } : {}) };
      }),
    }),
  }),
});
