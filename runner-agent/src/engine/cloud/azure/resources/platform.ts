// azurerm_container_registry: Microsoft.ContainerRegistry/registries (api 2023-07-01);
// azurerm_log_analytics_workspace: Microsoft.OperationalInsights/workspaces (api 2022-10-01);
// azurerm_application_insights: Microsoft.Insights/components (api 2020-02-02). Each read with its
// group's list when several share a group. The admin password, shared keys, instrumentation
// key and connection string are secrets, never mapped.
import { armReader, location } from '../kit.ts';
import { clean, enabled, flag, identityFromState, identityToState, idAsState, opt, tags } from './util.ts';

const group = (rp: string) => `/subscriptions/:sub/resourceGroups/:rg/providers/${rp}`;
const REGISTRIES = group('Microsoft.ContainerRegistry/registries');
const status = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() === 'enabled' : undefined);

export const containerRegistryReader = armReader({
  type: 'azurerm_container_registry', apiVersion: '2023-07-01', path: `${REGISTRIES}/:name`, list: REGISTRIES,
  toState: (json, instance) => {
    const p = json.properties ?? {};
    return {
      name: json.name, location: location(json.location), tags: tags(json), sku: opt(json.sku?.tier ?? json.sku?.name),
      admin_enabled: opt(p.adminUserEnabled), login_server: opt(p.loginServer),
      public_network_access_enabled: enabled(p.publicNetworkAccess), zone_redundancy_enabled: enabled(p.zoneRedundancy),
      anonymous_pull_enabled: !!p.anonymousPullEnabled, data_endpoint_enabled: !!p.dataEndpointEnabled,
      network_rule_bypass_option: opt(p.networkRuleBypassOptions),
      export_policy_enabled: status(p.policies?.exportPolicy?.status), quarantine_policy_enabled: status(p.policies?.quarantinePolicy?.status),
      identity: identityToState(json.identity, instance.attributes.identity),
    };
  },
  fromState: (a) => clean({
    location: a.location, tags: a.tags ?? {}, sku: { name: a.sku, tier: a.sku }, identity: identityFromState(a.identity),
    properties: clean({
      adminUserEnabled: a.admin_enabled, loginServer: a.login_server, publicNetworkAccess: flag(a.public_network_access_enabled),
      zoneRedundancy: flag(a.zone_redundancy_enabled), anonymousPullEnabled: a.anonymous_pull_enabled, dataEndpointEnabled: a.data_endpoint_enabled,
      networkRuleBypassOptions: a.network_rule_bypass_option,
      policies: clean({
        exportPolicy: typeof a.export_policy_enabled === 'boolean' ? { status: a.export_policy_enabled ? 'enabled' : 'disabled' } : undefined,
        quarantinePolicy: typeof a.quarantine_policy_enabled === 'boolean' ? { status: a.quarantine_policy_enabled ? 'enabled' : 'disabled' } : undefined,
      }),
      provisioningState: 'Succeeded',
    }),
  }),
});

// ARM answers workspace SKUs in lowercase (`pergb2018`); the provider writes its own spelling.
const LAW_SKUS = ['Free', 'PerGB2018', 'PerNode', 'Premium', 'Standalone', 'Standard', 'Unlimited', 'CapacityReservation', 'LACluster'];
const lawSku = (v: unknown) => (typeof v === 'string' ? LAW_SKUS.find((s) => s.toLowerCase() === v.toLowerCase()) ?? v : undefined);
const WORKSPACES = group('Microsoft.OperationalInsights/workspaces');

export const logAnalyticsWorkspaceReader = armReader({
  type: 'azurerm_log_analytics_workspace', apiVersion: '2022-10-01', path: `${WORKSPACES}/:name`, list: WORKSPACES,
  toState: (json, instance) => {
    const p = json.properties ?? {};
    // Older providers wrote ARM's lowercase spelling (`pergb2018`), later ones their own; the
    // provider compares SKUs case-insensitively, so a SKU equal but for case is the state's.
    const sku = lawSku(p.sku?.name);
    const stateSku = instance.attributes.sku;
    return {
      name: json.name, location: location(json.location), tags: tags(json),
      sku: typeof sku === 'string' && typeof stateSku === 'string' && sku.toLowerCase() === stateSku.toLowerCase() ? stateSku : sku,
      retention_in_days: opt(p.retentionInDays), daily_quota_gb: p.workspaceCapping?.dailyQuotaGb ?? -1,
      internet_ingestion_enabled: enabled(p.publicNetworkAccessForIngestion), internet_query_enabled: enabled(p.publicNetworkAccessForQuery),
      local_authentication_disabled: !!p.features?.disableLocalAuth, workspace_id: opt(p.customerId),
      // Later provider versions: the access types as ARM words, local authentication the other way round.
      internet_ingestion_access_type: opt(p.publicNetworkAccessForIngestion), internet_query_access_type: opt(p.publicNetworkAccessForQuery),
      local_authentication_enabled: !p.features?.disableLocalAuth,
      reservation_capacity_in_gb_per_day: opt(p.sku?.capacityReservationLevel),
    };
  },
  fromState: (a) => ({
    location: a.location, tags: a.tags ?? {},
    properties: clean({
      customerId: a.workspace_id, sku: clean({ name: a.sku ? String(a.sku).toLowerCase() : undefined, capacityReservationLevel: a.reservation_capacity_in_gb_per_day || undefined }),
      retentionInDays: a.retention_in_days, workspaceCapping: a.daily_quota_gb === undefined ? undefined : { dailyQuotaGb: a.daily_quota_gb },
      publicNetworkAccessForIngestion: a.internet_ingestion_access_type ?? flag(a.internet_ingestion_enabled), publicNetworkAccessForQuery: a.internet_query_access_type ?? flag(a.internet_query_enabled),
      features: { disableLocalAuth: a.local_authentication_enabled === undefined ? !!a.local_authentication_disabled : !a.local_authentication_enabled }, provisioningState: 'Succeeded',
    }),
  }),
});

const COMPONENTS = group('Microsoft.Insights/components');
const appType = (v: unknown) => (typeof v !== 'string' ? undefined : ['web', 'other'].includes(v.toLowerCase()) ? v.toLowerCase() : v);
export const applicationInsightsReader = armReader({
  type: 'azurerm_application_insights', apiVersion: '2020-02-02', path: `${COMPONENTS}/:name`, list: COMPONENTS,
  toState: (json, instance) => {
    const p = json.properties ?? {};
    return {
      // `web` and `other` are written lowercase whatever ARM's case; the rest as ARM answers them.
      name: json.name, location: location(json.location), tags: tags(json), application_type: appType(p.Application_Type),
      workspace_id: idAsState(p.WorkspaceResourceId, instance.attributes.workspace_id) ?? '', retention_in_days: opt(p.RetentionInDays), sampling_percentage: opt(p.SamplingPercentage),
      disable_ip_masking: !!p.DisableIpMasking, local_authentication_disabled: !!p.DisableLocalAuth,
      // azurerm 4.x+ names, the other way round.
      ip_masking_enabled: !p.DisableIpMasking, local_authentication_enabled: !p.DisableLocalAuth,
      internet_ingestion_enabled: enabled(p.publicNetworkAccessForIngestion), internet_query_enabled: enabled(p.publicNetworkAccessForQuery),
      force_customer_storage_for_profiler: !!p.ForceCustomerStorageForProfiler, app_id: opt(p.AppId),
    };
  },
  fromState: (a) => ({
    location: a.location, tags: a.tags ?? {}, kind: a.application_type,
    properties: clean({
      Application_Type: a.application_type, WorkspaceResourceId: a.workspace_id || undefined, RetentionInDays: a.retention_in_days,
      SamplingPercentage: a.sampling_percentage,
      DisableIpMasking: a.ip_masking_enabled === undefined ? !!a.disable_ip_masking : !a.ip_masking_enabled,
      DisableLocalAuth: a.local_authentication_enabled === undefined ? !!a.local_authentication_disabled : !a.local_authentication_enabled,
      publicNetworkAccessForIngestion: flag(a.internet_ingestion_enabled), publicNetworkAccessForQuery: flag(a.internet_query_enabled),
      ForceCustomerStorageForProfiler: !!a.force_customer_storage_for_profiler, AppId: a.app_id, provisioningState: 'Succeeded',
    }),
  }),
});
