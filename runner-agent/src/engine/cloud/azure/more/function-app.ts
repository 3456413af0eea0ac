// azurerm_linux_function_app and azurerm_windows_function_app: Microsoft.Web/sites of kind
// `functionapp` (api WEB_API, the version the web app readers pin). Only what the site's own GET
// answers is mapped: placement, plan, switches, client certificates, network placement. Its
// site_config, app_settings (the storage key, WEBSITE_RUN_FROM_PACKAGE's SAS), connection strings
// and credentials need further calls and hold secrets: not read. Read one GET each, never by the
// group's list of sites: that list (and the fake's answer for it) is the web app readers', and
// holds web and function apps alike.
import type { StateInstance } from '../../../types.ts';
import { text } from '../../rest/reader.ts';
import { armReader, location, lower, type ArmJson } from '../kit.ts';
import { str } from '../network/shared.ts';

export const WEB_API = '2023-12-01';
const SITE = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Web/sites/:name';

/** ARM answers `.../serverfarms/...`; the provider writes the parsed `serverFarms`: equal but for case is the state's. */
const idLike = (live: unknown, state: unknown) => (typeof state === 'string' && lower(str(live)) === lower(state) ? state : str(live));

function toState(j: ArmJson, instance: StateInstance) {
  const p = j.properties ?? {};
  const a = instance.attributes;
  return {
    location: location(j.location), tags: j.tags ?? {}, kind: str(j.kind),
    service_plan_id: idLike(p.serverFarmId, a.service_plan_id), enabled: p.enabled ?? true, https_only: p.httpsOnly ?? false,
    client_certificate_enabled: p.clientCertEnabled ?? false, client_certificate_mode: str(p.clientCertMode) || 'Optional',
    client_certificate_exclusion_paths: str(p.clientCertExclusionPaths),
    public_network_access_enabled: lower(p.publicNetworkAccess) !== 'disabled',
    daily_memory_time_quota: p.dailyMemoryTimeQuota ?? 0, key_vault_reference_identity_id: idLike(p.keyVaultReferenceIdentity, a.key_vault_reference_identity_id),
    virtual_network_subnet_id: idLike(p.virtualNetworkSubnetId, a.virtual_network_subnet_id),
    hosting_environment_id: idLike(p.hostingEnvironmentProfile?.id, a.hosting_environment_id),
  };
}

function fromState(a: Record<string, any>, linux: boolean): ArmJson {
  return {
    type: 'Microsoft.Web/sites', location: a.location, tags: a.tags ?? {}, kind: a.kind ?? (linux ? 'functionapp,linux' : 'functionapp'),
    properties: {
      // ARM spells the plan's segment in lower case.
      serverFarmId: str(a.service_plan_id).replace(/\/serverFarms\//i, '/serverfarms/'), enabled: a.enabled ?? true, httpsOnly: !!a.https_only,
      clientCertEnabled: !!a.client_certificate_enabled, clientCertMode: a.client_certificate_mode ?? 'Optional',
      ...(text(a.client_certificate_exclusion_paths) ? { clientCertExclusionPaths: a.client_certificate_exclusion_paths } : {}),
      publicNetworkAccess: a.public_network_access_enabled === false ? 'Disabled' : 'Enabled',
      dailyMemoryTimeQuota: a.daily_memory_time_quota ?? 0, keyVaultReferenceIdentity: a.key_vault_reference_identity_id ?? 'SystemAssigned',
      ...(text(a.virtual_network_subnet_id) ? { virtualNetworkSubnetId: a.virtual_network_subnet_id } : {}),
      ...(text(a.hosting_environment_id) ? { hostingEnvironmentProfile: { id: a.hosting_environment_id } } : {}),
      defaultHostName: a.default_hostname, reserved: linux, state: 'Running',
    },
  };
}

export const linuxFunctionAppReader = armReader({
  type: 'azurerm_linux_function_app', apiVersion: WEB_API, path: SITE, toState, fromState: (a) => fromState(a, true),
});
export const windowsFunctionAppReader = armReader({
  type: 'azurerm_windows_function_app', apiVersion: WEB_API, path: SITE, toState, fromState: (a) => fromState(a, false),
});
