// azurerm_storage_account: Microsoft.Storage/storageAccounts (api 2023-05-01), the group's list
// when several share a group. Keys, connection strings and endpoints are not mapped (secrets or
// computed); the blob/queue/share service properties and static website come from the data plane
// and are not read. Flags ARM leaves out take the value the provider writes for them (public
// blob access, shared keys and public network access default to allowed).
// azurerm_storage_container: .../storageAccounts/A/blobServices/default/containers/C (same api),
// three or more of one account read with the account's container list. State ids come in two
// forms: the ARM id (azurerm 4.x with storage_account_id) and the data-plane URL
// `https://A.blob.core.windows.net/C` (azurerm 2.x/3.x), whose `resource_manager_id` holds the
// ARM id; a URL-only state (no resource_manager_id, azurerm 1.x) names no subscription and is
// left unread (unknown scope).
import { armReader, location, type ArmJson } from '../kit.ts';
import { isEmpty } from '../../../values.ts';
import { clean, enabled, first, identityFromState, identityToState, idsAsState, list, opt, tags, withParentList, type Attrs } from './util.ts';

export const STORAGE_API = '2023-05-01';
const ACCOUNTS = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Storage/storageAccounts';
const on = (v: unknown, dflt: boolean): boolean => (typeof v === 'boolean' ? v : dflt);

const BYPASS = ['AzureServices', 'Logging', 'Metrics', 'None'];
/**
 * The provider (4.x, late 3.x) writes no block for ARM's defaults (Allow, AzureServices, no
 * rules), earlier versions one block with those values: which one the state holds decides.
 */
function networkRulesToState(acl: ArmJson | undefined, state: unknown): Attrs[] {
  if (!acl) return [];
  const block = {
    default_action: acl.defaultAction,
    // A CSV ARM may answer in another case: re-cased as the provider does.
    bypass: typeof acl.bypass === 'string' && acl.bypass ? acl.bypass.split(/\s*,\s*/).map((b: string) => BYPASS.find((x) => x.toLowerCase() === b.toLowerCase()) ?? b) : [],
    ip_rules: list(acl.ipRules).map((r) => r.value),
    virtual_network_subnet_ids: idsAsState(list(acl.virtualNetworkRules).map((r) => r.id), first(state).virtual_network_subnet_ids),
  };
  const defaults = block.default_action === 'Allow' && block.bypass.join() === 'AzureServices' && !block.ip_rules.length && !block.virtual_network_subnet_ids.length && !list(acl.resourceAccessRules).length;
  return defaults && isEmpty(state) ? [] : [block];
}

export const storageAccountReader = armReader({
  type: 'azurerm_storage_account', apiVersion: STORAGE_API, path: `${ACCOUNTS}/:name`, list: ACCOUNTS,
  toState: (json, instance) => {
    const p = json.properties ?? {};
    const [tier, replication] = String(json.sku?.name ?? '').split('_');
    const https = opt(p.supportsHttpsTrafficOnly);
    // Provider versions differ on an unanswered flag (3.x true, 4.x false): compared only when ARM answers it.
    const publicBlobs = opt(p.allowBlobPublicAccess);
    return {
      name: json.name, location: location(json.location), tags: tags(json),
      account_kind: opt(json.kind), account_tier: json.sku?.tier ?? (tier || undefined), account_replication_type: replication || undefined,
      access_tier: opt(p.accessTier),
      // azurerm 3.x enable_https_traffic_only, 4.x https_traffic_only_enabled; 2.x allow_blob_public_access, 3.x+ allow_nested_items_to_be_public.
      enable_https_traffic_only: https, https_traffic_only_enabled: https,
      allow_nested_items_to_be_public: publicBlobs, allow_blob_public_access: publicBlobs,
      min_tls_version: p.minimumTlsVersion ?? 'TLS1_0',
      shared_access_key_enabled: on(p.allowSharedKeyAccess, true),
      public_network_access_enabled: p.publicNetworkAccess === undefined ? true : enabled(p.publicNetworkAccess),
      is_hns_enabled: !!p.isHnsEnabled, nfsv3_enabled: !!p.isNfsV3Enabled,
      cross_tenant_replication_enabled: opt(p.allowCrossTenantReplication), default_to_oauth_authentication: opt(p.defaultToOAuthAuthentication),
      infrastructure_encryption_enabled: opt(p.encryption?.requireInfrastructureEncryption),
      sftp_enabled: opt(p.isSftpEnabled), local_user_enabled: p.isLocalUserEnabled ?? true,
      large_file_share_enabled: p.largeFileSharesState === undefined ? undefined : p.largeFileSharesState === 'Enabled',
      network_rules: networkRulesToState(p.networkAcls, instance.attributes.network_rules),
      identity: identityToState(json.identity, instance.attributes.identity),
    };
  },
  fromState: (a) => {
    const rules = first(a.network_rules);
    const publicBlobs = a.allow_nested_items_to_be_public ?? a.allow_blob_public_access;
    return clean({
      location: a.location, tags: a.tags ?? {}, kind: a.account_kind, identity: identityFromState(a.identity),
      sku: { name: `${a.account_tier}_${a.account_replication_type}`, tier: a.account_tier },
      properties: clean({
        accessTier: a.access_tier || undefined, supportsHttpsTrafficOnly: a.enable_https_traffic_only ?? a.https_traffic_only_enabled,
        allowBlobPublicAccess: publicBlobs, minimumTlsVersion: a.min_tls_version, allowSharedKeyAccess: a.shared_access_key_enabled,
        publicNetworkAccess: typeof a.public_network_access_enabled === 'boolean' ? (a.public_network_access_enabled ? 'Enabled' : 'Disabled') : undefined,
        isHnsEnabled: a.is_hns_enabled, isNfsV3Enabled: a.nfsv3_enabled, largeFileSharesState: a.large_file_share_enabled ? 'Enabled' : undefined, allowCrossTenantReplication: a.cross_tenant_replication_enabled,
        defaultToOAuthAuthentication: a.default_to_oauth_authentication, isSftpEnabled: a.sftp_enabled, isLocalUserEnabled: a.local_user_enabled,
        encryption: a.infrastructure_encryption_enabled === undefined ? undefined : { requireInfrastructureEncryption: a.infrastructure_encryption_enabled, keySource: 'Microsoft.Storage' },
        networkAcls: rules.default_action ? {
          defaultAction: rules.default_action, bypass: list(rules.bypass).join(', ') || 'None',
          ipRules: list(rules.ip_rules).map((value) => ({ value, action: 'Allow' })),
          virtualNetworkRules: list(rules.virtual_network_subnet_ids).map((id) => ({ id, action: 'Allow' })),
        } : { defaultAction: 'Allow', bypass: 'AzureServices', ipRules: [], virtualNetworkRules: [] },
        primaryEndpoints: a.primary_blob_endpoint ? { blob: a.primary_blob_endpoint } : undefined,
        provisioningState: 'Succeeded',
      }),
    });
  },
});

/** The container's ARM id: its id when it is one, else the resource_manager_id a 2.x/3.x state holds next to the URL. */
export function containerId(a: Attrs): string | undefined {
  for (const v of [a.id, a.resource_manager_id]) if (typeof v === 'string' && /^\/subscriptions\//i.test(v)) return v;
  return undefined;
}
const ACCESS: Record<string, string> = { none: 'private', blob: 'blob', container: 'container' };
const containerToState = (json: ArmJson): Attrs => {
  const p = json.properties ?? {};
  return {
    name: json.name, container_access_type: ACCESS[String(p.publicAccess ?? 'None').toLowerCase()] ?? p.publicAccess,
    // The account's container list answers no metadata nor encryption scope: compared only when answered (a GET).
    metadata: opt(p.metadata), has_immutability_policy: opt(p.hasImmutabilityPolicy), has_legal_hold: opt(p.hasLegalHold),
    default_encryption_scope: opt(p.defaultEncryptionScope),
    encryption_scope_override_enabled: typeof p.denyEncryptionScopeOverride === 'boolean' ? !p.denyEncryptionScopeOverride : undefined,
  };
};
const containerFromState = (a: Attrs): ArmJson => ({
  type: 'Microsoft.Storage/storageAccounts/blobServices/containers',
  properties: clean({
    publicAccess: Object.entries(ACCESS).find(([, v]) => v === a.container_access_type)?.[0].replace(/^./, (c) => c.toUpperCase()) ?? 'None',
    metadata: a.metadata ?? {}, hasImmutabilityPolicy: a.has_immutability_policy, hasLegalHold: a.has_legal_hold,
    defaultEncryptionScope: a.default_encryption_scope || undefined,
    denyEncryptionScopeOverride: typeof a.encryption_scope_override_enabled === 'boolean' ? !a.encryption_scope_override_enabled : undefined,
  }),
});
const CONTAINERS = `${ACCOUNTS}/:account/blobServices/default/containers`;
const containerBase = armReader({
  type: 'azurerm_storage_container', apiVersion: STORAGE_API, path: `${CONTAINERS}/:name`, idOf: containerId,
  toState: containerToState, fromState: containerFromState,
});
export const storageContainerReader = withParentList({
  type: 'azurerm_storage_container', apiVersion: STORAGE_API, base: containerBase, idOf: containerId,
  parentOf: (id) => /^(.+\/storageAccounts\/[^/]+)\/blobServices\/default\/containers\/[^/]+$/i.exec(id)?.[1],
  suffix: '/blobServices/default/containers', route: CONTAINERS,
  toState: containerToState, fromState: containerFromState,
  listItem: (json) => {
    const { metadata: _m, defaultEncryptionScope: _d, denyEncryptionScopeOverride: _o, ...properties } = json.properties ?? {};
    return { ...json, properties };
  },
});
