// google_sql_database_instance: sqladmin v1 `projects/P/instances/I`, the project's instances read
// with one paged list when the state holds several. The `settings` block is mapped key by key
// (the comparison then compares only the keys both sides hold, so older and newer provider states
// both compare); the root password, the server certificate and the settings version (bumped by
// every update) are never mapped.
import { ownProject, type GJson } from '../kit.ts';
import { int, listedReader, opt, setOfNonEmpty } from './kit.ts';

const instancePath = (a: Record<string, any>, project: string) => (a.name && project ? `/v1/projects/${project}/instances/${a.name}` : undefined);

function settingsToState(s: GJson): GJson {
  const b = s.backupConfiguration;
  const ip = s.ipConfiguration;
  const loc = s.locationPreference;
  const mw = s.maintenanceWindow;
  return {
    tier: s.tier, edition: s.edition ?? '', activation_policy: s.activationPolicy ?? '', availability_type: s.availabilityType ?? '',
    pricing_plan: s.pricingPlan ?? '', disk_type: s.dataDiskType ?? '', disk_size: int(s.dataDiskSizeGb), disk_autoresize: s.storageAutoResize ?? false,
    disk_autoresize_limit: int(s.storageAutoResizeLimit), deletion_protection_enabled: s.deletionProtectionEnabled ?? false,
    user_labels: s.userLabels ?? {}, collation: s.collation ?? '', time_zone: s.timeZone ?? '', connector_enforcement: s.connectorEnforcement ?? '',
    database_flags: (s.databaseFlags ?? []).map((f: GJson) => ({ name: f.name, value: f.value ?? '' })),
    backup_configuration: opt(b, () => ({
      enabled: b.enabled ?? false, binary_log_enabled: b.binaryLogEnabled ?? false, point_in_time_recovery_enabled: b.pointInTimeRecoveryEnabled ?? false,
      start_time: b.startTime ?? '', location: b.location ?? '', transaction_log_retention_days: int(b.transactionLogRetentionDays),
      backup_retention_settings: opt(b.backupRetentionSettings, () => ({ retained_backups: int(b.backupRetentionSettings.retainedBackups), retention_unit: b.backupRetentionSettings.retentionUnit ?? '' })),
    })),
    ip_configuration: opt(ip, () => ({
      ipv4_enabled: ip.ipv4Enabled ?? false, require_ssl: ip.requireSsl ?? false, ssl_mode: ip.sslMode ?? '', private_network: ip.privateNetwork ?? '',
      allocated_ip_range: ip.allocatedIpRange ?? '', enable_private_path_for_google_cloud_services: ip.enablePrivatePathForGoogleCloudServices ?? false,
      authorized_networks: (ip.authorizedNetworks ?? []).map((n: GJson) => ({ value: n.value, name: n.name ?? '', expiration_time: n.expirationTime ?? '' })),
    })),
    location_preference: opt(loc, () => ({ zone: loc.zone ?? '', secondary_zone: loc.secondaryZone ?? '', follow_gae_application: loc.followGaeApplication ?? '' })),
    maintenance_window: opt(mw, () => ({ day: mw.day ?? 0, hour: mw.hour ?? 0, update_track: mw.updateTrack ?? '' })),
  };
}

function settingsFromState(s: GJson | undefined): GJson | undefined {
  if (!s) return undefined;
  const b = s.backup_configuration?.[0];
  const r = b?.backup_retention_settings?.[0];
  const ip = s.ip_configuration?.[0];
  const loc = s.location_preference?.[0];
  const mw = s.maintenance_window?.[0];
  const u = (v: unknown) => (v === '' || v === null ? undefined : v);
  return {
    kind: 'sql#settings', settingsVersion: String(s.version ?? 1), tier: s.tier, edition: u(s.edition), activationPolicy: u(s.activation_policy),
    availabilityType: u(s.availability_type), pricingPlan: u(s.pricing_plan), dataDiskType: u(s.disk_type), dataDiskSizeGb: String(s.disk_size ?? 10),
    storageAutoResize: s.disk_autoresize, storageAutoResizeLimit: String(s.disk_autoresize_limit ?? 0), deletionProtectionEnabled: s.deletion_protection_enabled ?? undefined,
    userLabels: s.user_labels ?? undefined, collation: u(s.collation), timeZone: u(s.time_zone), connectorEnforcement: u(s.connector_enforcement),
    databaseFlags: (s.database_flags ?? []).map((f: GJson) => ({ name: f.name, value: f.value })),
    backupConfiguration: b && {
      kind: 'sql#backupConfiguration', enabled: b.enabled, binaryLogEnabled: b.binary_log_enabled, pointInTimeRecoveryEnabled: b.point_in_time_recovery_enabled,
      startTime: u(b.start_time), location: u(b.location), transactionLogRetentionDays: b.transaction_log_retention_days,
      backupRetentionSettings: r && { retainedBackups: r.retained_backups, retentionUnit: r.retention_unit },
    },
    ipConfiguration: ip && {
      ipv4Enabled: ip.ipv4_enabled, requireSsl: ip.require_ssl, sslMode: u(ip.ssl_mode), privateNetwork: u(ip.private_network), allocatedIpRange: u(ip.allocated_ip_range),
      enablePrivatePathForGoogleCloudServices: ip.enable_private_path_for_google_cloud_services,
      authorizedNetworks: (ip.authorized_networks ?? []).map((n: GJson) => ({ kind: 'sql#aclEntry', value: n.value, name: u(n.name), expirationTime: u(n.expiration_time) })),
    },
    locationPreference: loc && { zone: u(loc.zone), secondaryZone: u(loc.secondary_zone), followGaeApplication: u(loc.follow_gae_application) },
    maintenanceWindow: mw && { day: mw.day, hour: mw.hour, updateTrack: u(mw.update_track) },
  };
}

export const sqlInstanceReader = listedReader({
  type: 'google_sql_database_instance',
  service: 'sqladmin',
  route: '/v1/projects/:project/instances/:name',
  pathOf: (a, scope) => instancePath(a, scope.account),
  toState: (j) => ({
    name: j.name, region: j.region, database_version: j.databaseVersion, master_instance_name: j.masterInstanceName ? String(j.masterInstanceName).split(':').pop() : '',
    settings: opt(j.settings, () => settingsToState(j.settings)),
  }),
  fromState: (a) => {
    const project = ownProject(a) ?? '';
    return {
      kind: 'sql#instance', name: a.name, project, region: a.region, databaseVersion: a.database_version, state: 'RUNNABLE',
      masterInstanceName: a.master_instance_name ? `${project}:${a.master_instance_name}` : undefined,
      connectionName: a.connection_name, selfLink: a.self_link, serviceAccountEmailAddress: a.service_account_email_address,
      ipAddresses: (a.ip_address ?? []).map((x: GJson) => ({ ipAddress: x.ip_address, type: x.type })),
      settings: settingsFromState(a.settings?.[0]),
    };
  },
  spec: {
    sets: {
      // The provider keeps these as sets: an order change is no drift.
      'settings.0.ip_configuration.0.authorized_networks': setOfNonEmpty((e) => ({ value: e.value, name: e.name, expires: e.expiration_time })),
      'settings.0.database_flags': setOfNonEmpty((e) => ({ name: e.name, value: e.value })),
      // The API answers a zero window for "any time"; older providers wrote none.
      'settings.0.maintenance_window': setOfNonEmpty((e) => ({ day: e.day, hour: e.hour, track: e.update_track })),
      'settings.0.backup_configuration.0.backup_retention_settings': setOfNonEmpty((e) => ({ n: e.retained_backups, unit: e.retention_unit })),
    },
  },
}, {
  path: (_a, scope) => (scope.account ? `/v1/projects/${scope.account}/instances` : undefined),
  route: '/v1/projects/:project/instances',
  key: 'items',
  pathOfItem: (j) => (j.name && j.project ? `/v1/projects/${j.project}/instances/${j.name}` : undefined),
  // The provider's id of an instance is its name.
  discover: { path: (project) => `/v1/projects/${project}/instances`, id: (j) => j.name, location: (j) => j.region ?? null },
});
