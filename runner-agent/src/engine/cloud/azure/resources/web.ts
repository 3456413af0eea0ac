// azurerm_key_vault: Microsoft.KeyVault/vaults (api 2023-07-01); azurerm_service_plan:
// Microsoft.Web/serverfarms and azurerm_linux_web_app: Microsoft.Web/sites (api 2023-12-01).
// Each read with its group's list when several share a group. A web app's site_config,
// app_settings and connection strings need further calls (and hold secrets): not read.
import { armReader, location } from '../kit.ts';
import { clean, enabled, first, flag, identityFromState, identityToState, idAsState, idsAsState, list, opt, tags, type Attrs } from './util.ts';

const group = (rp: string) => `/subscriptions/:sub/resourceGroups/:rg/providers/${rp}`;
const VAULTS = group('Microsoft.KeyVault/vaults');
const lowerSet = (v: unknown) => list(v).map((x) => String(x).toLowerCase()).sort().join(',');
/** An access policy is one principal's grant; ARM keeps the permission words as sent, the provider its own case. */
const policyKey = (e: unknown) => {
  const p = e as Attrs;
  return [[p.tenant_id, p.object_id, p.application_id ?? '', lowerSet(p.key_permissions), lowerSet(p.secret_permissions),
    lowerSet(p.certificate_permissions), lowerSet(p.storage_permissions)].map((x) => String(x ?? '').toLowerCase()).join('|')];
};

export const keyVaultReader = armReader({
  type: 'azurerm_key_vault', apiVersion: '2023-07-01', path: `${VAULTS}/:name`, list: VAULTS,
  toState: (json, instance) => {
    const p = json.properties ?? {};
    const acl = p.networkAcls;
    const rbac = !!p.enableRbacAuthorization;
    return {
      name: json.name, location: location(json.location), tags: tags(json), tenant_id: opt(p.tenantId),
      sku_name: typeof p.sku?.name === 'string' ? p.sku.name.toLowerCase() : undefined,
      enabled_for_deployment: !!p.enabledForDeployment, enabled_for_disk_encryption: !!p.enabledForDiskEncryption,
      enabled_for_template_deployment: !!p.enabledForTemplateDeployment,
      // azurerm 3.x enable_rbac_authorization, 4.x rbac_authorization_enabled.
      enable_rbac_authorization: rbac, rbac_authorization_enabled: rbac,
      purge_protection_enabled: !!p.enablePurgeProtection, soft_delete_retention_days: p.softDeleteRetentionInDays || 90,
      public_network_access_enabled: p.publicNetworkAccess === undefined ? true : enabled(p.publicNetworkAccess),
      vault_uri: opt(p.vaultUri),
      // The provider writes ARM's defaults (AzureServices, Allow) when the vault has no rule set.
      network_acls: [{
        bypass: acl?.bypass ?? 'AzureServices', default_action: acl?.defaultAction ?? 'Allow', ip_rules: list(acl?.ipRules).map((r) => r.value),
        virtual_network_subnet_ids: idsAsState(list(acl?.virtualNetworkRules).map((r) => r.id), first(instance.attributes.network_acls).virtual_network_subnet_ids),
      }],
      access_policy: list(p.accessPolicies).map((x) => clean({
        tenant_id: x.tenantId, object_id: x.objectId, application_id: x.applicationId ?? '',
        key_permissions: list(x.permissions?.keys), secret_permissions: list(x.permissions?.secrets),
        certificate_permissions: list(x.permissions?.certificates), storage_permissions: list(x.permissions?.storage),
      })),
    };
  },
  fromState: (a) => {
    const acl = first(a.network_acls);
    return {
      location: a.location, tags: a.tags ?? {},
      properties: clean({
        tenantId: a.tenant_id, sku: { family: 'A', name: a.sku_name }, vaultUri: a.vault_uri,
        enabledForDeployment: !!a.enabled_for_deployment, enabledForDiskEncryption: !!a.enabled_for_disk_encryption,
        enabledForTemplateDeployment: !!a.enabled_for_template_deployment,
        enableRbacAuthorization: !!(a.enable_rbac_authorization ?? a.rbac_authorization_enabled),
        enablePurgeProtection: a.purge_protection_enabled ? true : undefined, softDeleteRetentionInDays: a.soft_delete_retention_days,
        publicNetworkAccess: flag(a.public_network_access_enabled),
        networkAcls: acl.default_action ? {
          bypass: acl.bypass, defaultAction: acl.default_action, ipRules: list(acl.ip_rules).map((value) => ({ value })),
          virtualNetworkRules: list(acl.virtual_network_subnet_ids).map((id) => ({ id })),
        } : undefined,
        accessPolicies: list(a.access_policy).map((x: Attrs) => ({
          tenantId: x.tenant_id, objectId: x.object_id, ...(x.application_id ? { applicationId: x.application_id } : {}),
          permissions: { keys: x.key_permissions ?? [], secrets: x.secret_permissions ?? [], certificates: x.certificate_permissions ?? [], storage: x.storage_permissions ?? [] },
        })),
        provisioningState: 'Succeeded',
      }),
    };
  },
  spec: { sets: { access_policy: policyKey } },
});

const PLANS = group('Microsoft.Web/serverfarms');
export const servicePlanReader = armReader({
  type: 'azurerm_service_plan', apiVersion: '2023-12-01', path: `${PLANS}/:name`, list: PLANS,
  toState: (json) => {
    const p = json.properties ?? {};
    return {
      name: json.name, location: location(json.location), tags: tags(json), sku_name: opt(json.sku?.name),
      os_type: p.hyperV ? 'WindowsContainer' : p.reserved ? 'Linux' : 'Windows',
      worker_count: opt(json.sku?.capacity), per_site_scaling_enabled: !!p.perSiteScaling, zone_balancing_enabled: !!p.zoneRedundant,
      maximum_elastic_worker_count: opt(p.maximumElasticWorkerCount), kind: opt(json.kind), reserved: !!p.reserved,
    };
  },
  fromState: (a) => clean({
    location: a.location, tags: a.tags ?? {}, kind: a.kind ?? (a.os_type === 'Linux' ? 'linux' : 'app'),
    sku: clean({ name: a.sku_name, capacity: a.worker_count }),
    properties: clean({
      reserved: a.os_type === 'Linux', hyperV: a.os_type === 'WindowsContainer', perSiteScaling: !!a.per_site_scaling_enabled,
      zoneRedundant: !!a.zone_balancing_enabled, maximumElasticWorkerCount: a.maximum_elastic_worker_count, provisioningState: 'Succeeded',
    }),
  }),
});

const SITES = group('Microsoft.Web/sites');
export const linuxWebAppReader = armReader({
  type: 'azurerm_linux_web_app', apiVersion: '2023-12-01', path: `${SITES}/:name`, list: SITES,
  toState: (json, instance) => {
    const p = json.properties ?? {};
    return {
      name: json.name, location: location(json.location), tags: tags(json),
      // ARM answers `.../serverfarms/...`; the provider writes the parsed id (`serverFarms`).
      service_plan_id: idAsState(p.serverFarmId, instance.attributes.service_plan_id), enabled: opt(p.enabled), https_only: opt(p.httpsOnly),
      client_affinity_enabled: opt(p.clientAffinityEnabled), client_certificate_enabled: opt(p.clientCertEnabled),
      client_certificate_mode: opt(p.clientCertMode),
      // Public unless ARM says Disabled (the provider's reading).
      public_network_access_enabled: String(p.publicNetworkAccess ?? '').toLowerCase() !== 'disabled',
      default_hostname: opt(p.defaultHostName), kind: opt(json.kind), identity: identityToState(json.identity, instance.attributes.identity),
    };
  },
  fromState: (a) => clean({
    location: a.location, tags: a.tags ?? {}, kind: a.kind ?? 'app,linux', identity: identityFromState(a.identity),
    properties: clean({
      serverFarmId: a.service_plan_id, enabled: a.enabled, httpsOnly: a.https_only, clientAffinityEnabled: a.client_affinity_enabled,
      clientCertEnabled: a.client_certificate_enabled, clientCertMode: a.client_certificate_mode || undefined,
      publicNetworkAccess: typeof a.public_network_access_enabled === 'boolean' ? (a.public_network_access_enabled ? 'Enabled' : 'Disabled') : undefined,
      defaultHostName: a.default_hostname, reserved: true, state: 'Running',
    }),
  }),
});
