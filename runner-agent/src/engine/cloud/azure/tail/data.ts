// Databases: azurerm_postgresql_flexible_server_database, azurerm_mysql_flexible_server(+ _database)
// (Microsoft.DBforPostgreSQL / Microsoft.DBforMySQL), azurerm_cosmosdb_account, _sql_database,
// _sql_container (Microsoft.DocumentDB). A server's or account's keys, connection strings,
// endpoints and FQDN are computed or secret and left unmapped (ignore.ts); the administrator
// password is write-only. A Cosmos DB database's or container's throughput lives behind a further
// call (throughputSettings) and is not read: their existence and their own settings are.
import { armReader, location, lower } from '../kit.ts';
import { PG_API } from '../resources/postgres.ts';
import { clean, enabled, first, flag, opt } from '../resources/util.ts';
import { asState, either, list, str, type Attrs } from './kit.ts';

const RG = '/subscriptions/:sub/resourceGroups/:rg/providers';
const dbAttrs = {
  toState: (j: Record<string, any>, i: { attributes: Attrs }) => ({ charset: asState(j.properties?.charset, i.attributes.charset), collation: asState(j.properties?.collation, i.attributes.collation) }),
  fromState: (a: Attrs) => ({ properties: { charset: a.charset, collation: a.collation } }),
};
export const postgresDatabaseReader = armReader({ type: 'azurerm_postgresql_flexible_server_database', apiVersion: PG_API, path: `${RG}/Microsoft.DBforPostgreSQL/flexibleServers/:server/databases/:name`, ...dbAttrs });

const MYSQL_API = '2023-12-30';
const MYSQL = `${RG}/Microsoft.DBforMySQL/flexibleServers`;
export const mysqlDatabaseReader = armReader({ type: 'azurerm_mysql_flexible_server_database', apiVersion: MYSQL_API, path: `${MYSQL}/:server/databases/:name`, ...dbAttrs });

// sku_name is `<tier prefix>_<sku>`, as for PostgreSQL: B_Standard_B1s, GP_Standard_D2ds_v4.
const TIERS: Record<string, string> = { Burstable: 'B', GeneralPurpose: 'GP', MemoryOptimized: 'MO' };
export const mysqlServerReader = armReader({
  type: 'azurerm_mysql_flexible_server', apiVersion: MYSQL_API, path: `${MYSQL}/:name`, list: MYSQL,
  toState: (j, i) => {
    const p = j.properties ?? {};
    const st = p.storage ?? {};
    const ha = p.highAvailability ?? {};
    const stateStorage = first(i.attributes.storage);
    return {
      location: location(j.location), tags: j.tags ?? {}, version: opt(p.version), administrator_login: opt(p.administratorLogin),
      sku_name: j.sku?.name ? `${TIERS[j.sku.tier] ?? j.sku.tier}_${j.sku.name}` : undefined, zone: p.availabilityZone ?? '',
      backup_retention_days: opt(p.backup?.backupRetentionDays), geo_redundant_backup_enabled: enabled(p.backup?.geoRedundantBackup),
      storage: [clean({
        size_gb: opt(st.storageSizeGB), iops: opt(st.iops), auto_grow_enabled: enabled(st.autoGrow), io_scaling_enabled: enabled(st.autoIoScaling),
        ...('log_on_disk_enabled' in stateStorage ? { log_on_disk_enabled: enabled(st.logOnDisk) } : {}),
      })],
      high_availability: ha.mode && ha.mode !== 'Disabled' ? [{ mode: ha.mode, standby_availability_zone: ha.standbyAvailabilityZone ?? '' }] : [],
      delegated_subnet_id: asState(p.network?.delegatedSubnetResourceId, i.attributes.delegated_subnet_id),
      private_dns_zone_id: asState(p.network?.privateDnsZoneResourceId, i.attributes.private_dns_zone_id),
      // 3.x public_network_access_enabled (computed), 4.x public_network_access (the ARM word).
      public_network_access_enabled: enabled(p.network?.publicNetworkAccess), public_network_access: opt(p.network?.publicNetworkAccess), replication_role: opt(p.replicationRole),
    };
  },
  fromState: (a) => {
    const [prefix, ...sku] = String(a.sku_name ?? '').split('_');
    const st = first(a.storage);
    const ha = first(a.high_availability);
    return clean({
      location: a.location, tags: a.tags ?? {},
      sku: a.sku_name ? { name: sku.join('_'), tier: Object.entries(TIERS).find(([, v]) => v === prefix)?.[0] ?? prefix } : undefined,
      properties: clean({
        version: a.version, administratorLogin: a.administrator_login, availabilityZone: a.zone || undefined, replicationRole: a.replication_role || undefined,
        backup: clean({ backupRetentionDays: a.backup_retention_days, geoRedundantBackup: flag(a.geo_redundant_backup_enabled) }),
        storage: clean({ storageSizeGB: st.size_gb, iops: st.iops, autoGrow: flag(st.auto_grow_enabled), autoIoScaling: flag(st.io_scaling_enabled), logOnDisk: flag(st.log_on_disk_enabled) }),
        highAvailability: ha.mode ? { mode: ha.mode, standbyAvailabilityZone: ha.standby_availability_zone || undefined } : { mode: 'Disabled' },
        network: clean({ publicNetworkAccess: a.public_network_access || flag(a.public_network_access_enabled), delegatedSubnetResourceId: a.delegated_subnet_id || undefined, privateDnsZoneResourceId: a.private_dns_zone_id || undefined }),
        fullyQualifiedDomainName: a.fqdn, state: 'Ready',
      }),
    });
  },
});

const COSMOS_API = '2024-08-15';
const ACCOUNTS = `${RG}/Microsoft.DocumentDB/databaseAccounts`;
/** 3.x writes ip_range_filter as one comma-separated string, 4.x as a set of ranges. */
const ipFilter = (rules: unknown, state: unknown) => {
  const ranges = list(rules).map((r) => str(r.ipAddressOrRange));
  return typeof state === 'string' ? (ranges.join(',') === state.split(',').map((s) => s.trim()).filter(Boolean).join(',') ? state : ranges.join(',')) : ranges;
};
const geoKey = (e: any): string[] => [`${lower(str(e?.location).replace(/\s+/g, ''))}|${e?.failover_priority}|${!!e?.zone_redundant}`];

export const cosmosAccountReader = armReader({
  type: 'azurerm_cosmosdb_account', apiVersion: COSMOS_API, path: `${ACCOUNTS}/:name`, list: ACCOUNTS,
  spec: { sets: { geo_location: geoKey, capabilities: (e: any) => [lower(e?.name)] } },
  toState: (j, i) => {
    const p = j.properties ?? {};
    const a = i.attributes;
    const c = p.consistencyPolicy ?? {};
    const pick = <T>(v3: string, v4: string, v: T) => ({ [v3]: v, [v4]: v });
    return {
      location: location(j.location), tags: j.tags ?? {}, kind: asState(j.kind ?? 'GlobalDocumentDB', a.kind), offer_type: asState(p.databaseAccountOfferType ?? 'Standard', a.offer_type),
      consistency_policy: [{ consistency_level: asState(c.defaultConsistencyLevel, first(a.consistency_policy).consistency_level), max_interval_in_seconds: c.maxIntervalInSeconds ?? 5, max_staleness_prefix: c.maxStalenessPrefix ?? 100 }],
      geo_location: list(p.locations).map((l) => ({ location: location(l.locationName), failover_priority: l.failoverPriority ?? 0, zone_redundant: l.isZoneRedundant ?? false })),
      ip_range_filter: ipFilter(p.ipRules, a.ip_range_filter),
      public_network_access_enabled: lower(p.publicNetworkAccess ?? 'Enabled') === 'enabled',
      is_virtual_network_filter_enabled: p.isVirtualNetworkFilterEnabled ?? false,
      virtual_network_rule: list(p.virtualNetworkRules).map((r) => ({ id: str(r.id), ignore_missing_vnet_service_endpoint: r.ignoreMissingVNetServiceEndpoint ?? false })),
      ...pick('enable_automatic_failover', 'automatic_failover_enabled', p.enableAutomaticFailover ?? false),
      ...pick('enable_free_tier', 'free_tier_enabled', p.enableFreeTier ?? false),
      ...pick('enable_multiple_write_locations', 'multiple_write_locations_enabled', p.enableMultipleWriteLocations ?? false),
      analytical_storage_enabled: p.enableAnalyticalStorage ?? false, local_authentication_disabled: p.disableLocalAuth ?? false,
      access_key_metadata_writes_enabled: !(p.disableKeyBasedMetadataWriteAccess ?? false),
      capabilities: list(p.capabilities).map((x) => ({ name: str(x.name) })),
      ...(p.minimalTlsVersion ? { minimal_tls_version: p.minimalTlsVersion } : {}),
    };
  },
  fromState: (a) => {
    const c = first(a.consistency_policy);
    const ranges = typeof a.ip_range_filter === 'string' ? a.ip_range_filter.split(',').map((s: string) => s.trim()).filter(Boolean) : list<string>(a.ip_range_filter);
    return {
      type: 'Microsoft.DocumentDB/databaseAccounts', location: a.location, tags: a.tags ?? {}, kind: a.kind ?? 'GlobalDocumentDB',
      properties: clean({
        databaseAccountOfferType: a.offer_type ?? 'Standard',
        consistencyPolicy: { defaultConsistencyLevel: c.consistency_level, maxIntervalInSeconds: c.max_interval_in_seconds ?? 5, maxStalenessPrefix: c.max_staleness_prefix ?? 100 },
        locations: list(a.geo_location).map((l) => ({ locationName: l.location, failoverPriority: l.failover_priority ?? 0, isZoneRedundant: !!l.zone_redundant })),
        ipRules: ranges.map((ipAddressOrRange) => ({ ipAddressOrRange })),
        publicNetworkAccess: a.public_network_access_enabled === false ? 'Disabled' : 'Enabled', isVirtualNetworkFilterEnabled: !!a.is_virtual_network_filter_enabled,
        virtualNetworkRules: list(a.virtual_network_rule).map((r) => ({ id: r.id, ignoreMissingVNetServiceEndpoint: !!r.ignore_missing_vnet_service_endpoint })),
        enableAutomaticFailover: either(a, ['automatic_failover_enabled', 'enable_automatic_failover'], false), enableFreeTier: either(a, ['free_tier_enabled', 'enable_free_tier'], false),
        enableMultipleWriteLocations: either(a, ['multiple_write_locations_enabled', 'enable_multiple_write_locations'], false),
        enableAnalyticalStorage: !!a.analytical_storage_enabled, disableLocalAuth: !!a.local_authentication_disabled,
        disableKeyBasedMetadataWriteAccess: a.access_key_metadata_writes_enabled === false, capabilities: list(a.capabilities).map((x) => ({ name: x.name })),
        minimalTlsVersion: a.minimal_tls_version || undefined, documentEndpoint: a.endpoint, provisioningState: 'Succeeded',
      }),
    };
  },
});

export const cosmosSqlDatabaseReader = armReader({
  type: 'azurerm_cosmosdb_sql_database', apiVersion: COSMOS_API, path: `${ACCOUNTS}/:account/sqlDatabases/:name`,
  toState: (j) => ({ name: str(j.properties?.resource?.id ?? j.name) }),
  fromState: (a) => ({ type: 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases', properties: { resource: { id: a.name } } }),
});

export const cosmosSqlContainerReader = armReader({
  type: 'azurerm_cosmosdb_sql_container', apiVersion: COSMOS_API, path: `${ACCOUNTS}/:account/sqlDatabases/:db/containers/:name`,
  toState: (j) => {
    const r = j.properties?.resource ?? {};
    const paths = list<string>(r.partitionKey?.paths);
    return {
      // 3.x partition_key_path (one), 4.x partition_key_paths.
      partition_key_path: paths[0] ?? '', partition_key_paths: paths, partition_key_version: opt(r.partitionKey?.version),
      // ARM leaves out a TTL never set; the provider keeps what it had: compared only when answered.
      default_ttl: opt(r.defaultTtl), analytical_storage_ttl: opt(r.analyticalStorageTtl),
      unique_key: list(r.uniqueKeyPolicy?.uniqueKeys).map((k) => ({ paths: list(k.paths) })),
    };
  },
  fromState: (a) => ({
    type: 'Microsoft.DocumentDB/databaseAccounts/sqlDatabases/containers',
    properties: { resource: clean({
      id: a.name, partitionKey: { paths: list<string>(a.partition_key_paths).length ? a.partition_key_paths : [a.partition_key_path].filter(Boolean), kind: 'Hash', version: a.partition_key_version ?? undefined },
      defaultTtl: a.default_ttl ?? undefined, analyticalStorageTtl: a.analytical_storage_ttl ?? undefined,
      uniqueKeyPolicy: { uniqueKeys: list(a.unique_key).map((k) => ({ paths: list(k.paths) })) },
    }) },
  }),
});
