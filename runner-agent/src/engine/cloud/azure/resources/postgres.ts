// azurerm_postgresql_flexible_server: Microsoft.DBforPostgreSQL/flexibleServers (api 2024-08-01),
// the group's list when several share a group; administrator_password never mapped.
// azurerm_postgresql_flexible_server_firewall_rule: .../flexibleServers/S/firewallRules/R (same
// api), three or more of one server read with the server's rule list.
// One compared value the provider does not store, implied by the state (CompareSpec.implied) and
// read from the cloud, so a severity rule sees what the server's own attributes cannot say:
//   open_to_internet (server): whether a server the state holds private now accepts public
//     connections through a rule covering every address; only read (one list of the server's
//     rules) when its public access is on against the state.
import type { LiveAttributes } from '../../../types.ts';
import type { RestApi } from '../../rest/api.ts';
import type { RestItem, RestReader } from '../../rest/reader.ts';
import { ARM, armReader, location, type ArmJson } from '../kit.ts';
import { clean, enabled, first, flag, opt, tags, withParentList, type Attrs } from './util.ts';

export const PG_API = '2024-08-01';
const SERVERS = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.DBforPostgreSQL/flexibleServers';
export const ALL_IPV4 = ['0.0.0.0', '255.255.255.255'];

// sku_name is `<tier prefix>_<sku>`: B_Standard_B1ms, GP_Standard_D2s_v3, MO_Standard_E4s_v3.
const TIERS: Record<string, string> = { Burstable: 'B', GeneralPurpose: 'GP', MemoryOptimized: 'MO' };

const serverBase = armReader({
  type: 'azurerm_postgresql_flexible_server', apiVersion: PG_API, path: `${SERVERS}/:name`, list: SERVERS,
  toState: (json) => {
    const p = json.properties ?? {};
    const st = p.storage ?? {};
    const ha = p.highAvailability ?? {};
    const auth = p.authConfig;
    return {
      name: json.name, location: location(json.location), tags: tags(json), version: opt(p.version),
      sku_name: json.sku?.name ? `${TIERS[json.sku.tier] ?? json.sku.tier}_${json.sku.name}` : undefined,
      storage_mb: typeof st.storageSizeGB === 'number' ? st.storageSizeGB * 1024 : undefined, storage_tier: opt(st.tier),
      auto_grow_enabled: st.autoGrow === undefined ? undefined : enabled(st.autoGrow),
      backup_retention_days: opt(p.backup?.backupRetentionDays), geo_redundant_backup_enabled: enabled(p.backup?.geoRedundantBackup),
      zone: p.availabilityZone ?? '',
      high_availability: ha.mode && ha.mode !== 'Disabled' ? [{ mode: ha.mode, standby_availability_zone: ha.standbyAvailabilityZone ?? '' }] : [],
      public_network_access_enabled: enabled(p.network?.publicNetworkAccess),
      administrator_login: opt(p.administratorLogin), fqdn: opt(p.fullyQualifiedDomainName),
      // Password auth is on unless ARM says otherwise (the provider's reading).
      authentication: auth ? [{ active_directory_auth_enabled: enabled(auth.activeDirectoryAuth) ?? false, password_auth_enabled: enabled(auth.passwordAuth) ?? true }] : undefined,
    };
  },
  fromState: (a) => {
    const [prefix, ...sku] = String(a.sku_name ?? '').split('_');
    const ha = first(a.high_availability);
    const auth = first(a.authentication);
    return clean({
      location: a.location, tags: a.tags ?? {},
      sku: a.sku_name ? { name: sku.join('_'), tier: Object.entries(TIERS).find(([, v]) => v === prefix)?.[0] ?? prefix } : undefined,
      properties: clean({
        version: a.version, administratorLogin: a.administrator_login, fullyQualifiedDomainName: a.fqdn, availabilityZone: a.zone || undefined,
        storage: clean({ storageSizeGB: typeof a.storage_mb === 'number' ? a.storage_mb / 1024 : undefined, tier: a.storage_tier || undefined, autoGrow: flag(a.auto_grow_enabled) }),
        backup: clean({ backupRetentionDays: a.backup_retention_days, geoRedundantBackup: flag(a.geo_redundant_backup_enabled) }),
        highAvailability: ha.mode ? { mode: ha.mode, standbyAvailabilityZone: ha.standby_availability_zone || undefined } : { mode: 'Disabled' },
        network: clean({ publicNetworkAccess: flag(a.public_network_access_enabled), delegatedSubnetResourceId: a.delegated_subnet_id || undefined }),
        authConfig: Object.keys(auth).length ? clean({ activeDirectoryAuth: flag(auth.active_directory_auth_enabled), passwordAuth: flag(auth.password_auth_enabled) }) : undefined,
        state: 'Ready',
      }),
    });
  },
  spec: {
    // A server the state holds private implies it is not open to the internet (the reader checks the live side).
    implied: (s) => (s.public_network_access_enabled === false ? { open_to_internet: false } : {}),
  },
});

const coversAll = (r: ArmJson) => r.properties?.startIpAddress === ALL_IPV4[0] && r.properties?.endIpAddress === ALL_IPV4[1];

/** The server reader, plus `open_to_internet` for the servers whose public access was turned on against the state. */
export const flexibleServerReader: RestReader = {
  spec: serverBase.spec,
  fake: serverBase.fake,
  ...(serverBase.list ? { list: serverBase.list } : {}),
  async read(items: RestItem[], api: RestApi): Promise<(LiveAttributes | null)[]> {
    const live = await serverBase.read(items, api);
    for (const [k, it] of items.entries()) {
      const l = live[k];
      if (!l || it.instance.attributes.public_network_access_enabled !== false || l.public_network_access_enabled !== true) continue;
      const id = String(it.instance.attributes.id);
      const rules = await api.list<ArmJson>(ARM, `${id}/firewallRules?api-version=${PG_API}`, `list firewall rules of ${id}`, { style: 'nextLink' });
      l.open_to_internet = rules.some(coversAll);
    }
    return live;
  },
};

const ruleToState = (json: ArmJson): Attrs => {
  const p = json.properties ?? {};
  // server_id is part of the id the rule is read by: not compared.
  return { name: json.name, start_ip_address: opt(p.startIpAddress), end_ip_address: opt(p.endIpAddress) };
};
const ruleFromState = (a: Attrs): ArmJson => ({ properties: { startIpAddress: a.start_ip_address, endIpAddress: a.end_ip_address } });
const RULES = `${SERVERS}/:server/firewallRules`;
const ruleBase = armReader({
  type: 'azurerm_postgresql_flexible_server_firewall_rule', apiVersion: PG_API, path: `${RULES}/:name`,
  toState: ruleToState, fromState: ruleFromState,
});
const idOf = (a: Attrs) => (typeof a.id === 'string' && a.id ? a.id : undefined);
export const firewallRuleReader = withParentList({
  type: 'azurerm_postgresql_flexible_server_firewall_rule', apiVersion: PG_API, base: ruleBase, idOf,
  parentOf: (id) => /^(.+\/flexibleServers\/[^/]+)\/firewallRules\/[^/]+$/i.exec(id)?.[1],
  suffix: '/firewallRules', route: RULES, toState: ruleToState, fromState: ruleFromState,
});
