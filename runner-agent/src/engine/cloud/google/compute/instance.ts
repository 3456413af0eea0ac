// google_compute_instance: compute/v1 instances (zonal), from one aggregatedList of the project when
// several are read in it. The mapping follows what the provider writes: links as v1 URLs, the
// machine type by name, metadata as a map (startup-script apart when the state keeps it apart),
// the boot disk and attached disks from `disks[]`; what the instance API does not return (the
// boot disk's initialize_params come from the disk, raw encryption keys) is not mapped.
import type { StateInstance } from '../../../types.ts';
import { last, ownProject, type GJson } from '../kit.ts';
import {
  anyLocation, apiLink, defined, int, kmsKey, link, list, metadataItems, metadataMap, nameOf, ownSelfLink, projectIn, regionOfZone, stateLabels, strings, zonalPath, type Attrs,
} from './common.ts';
import type { Scope } from '../../rest/reader.ts';
import { text } from '../../rest/reader.ts';

const path = (a: Attrs, scope: Scope) => zonalPath('instances', a, scope);
const base = (a: Attrs) => `https://www.googleapis.com/compute/v1/projects/${ownProject(a) ?? ''}`;

export function nics(j: GJson, s: Attrs) {
  return list(j.networkInterfaces).map((n: GJson, i: number) => {
    const st: Attrs = list(s.network_interface)[i] ?? {};
    return defined({
      name: n.name, network: link(n.network, st.network), subnetwork: link(n.subnetwork, st.subnetwork),
      subnetwork_project: projectIn(n.subnetwork), network_ip: n.networkIP ?? '', nic_type: n.nicType ?? '',
      stack_type: n.stackType, queue_count: n.queueCount ?? 0,
      access_config: list(n.accessConfigs).map((ac: GJson) => ({
        nat_ip: ac.natIP ?? '', network_tier: ac.networkTier ?? '', public_ptr_domain_name: ac.setPublicPtr ? ac.publicPtrDomainName ?? '' : '',
      })),
      alias_ip_range: list(n.aliasIpRanges).map((r: GJson) => ({ ip_cidr_range: r.ipCidrRange ?? '', subnetwork_range_name: r.subnetworkRangeName ?? '' })),
    });
  });
}

function disk(d: GJson, st: Attrs) {
  return {
    auto_delete: d.autoDelete ?? false, device_name: d.deviceName ?? '', mode: d.mode ?? 'READ_WRITE', source: link(d.source, st.source),
    disk_encryption_key_sha256: d.diskEncryptionKey?.sha256 ?? '', kms_key_self_link: kmsKey(d.diskEncryptionKey?.kmsKeyName),
  };
}

/** Metadata as the provider writes it: startup-script apart only when the configuration sets metadata_startup_script. */
export function splitMetadata(m: GJson | undefined, s: Attrs): { metadata: Record<string, string>; startup?: string } {
  const metadata = metadataMap(m);
  if (!text(s.metadata_startup_script)) return { metadata };
  const startup = metadata['startup-script'] ?? '';
  delete metadata['startup-script'];
  return { metadata, startup };
}
export const scheduling = (sch: GJson = {}) => [defined({
  automatic_restart: sch.automaticRestart ?? true, on_host_maintenance: sch.onHostMaintenance ?? '', preemptible: sch.preemptible ?? false,
  provisioning_model: sch.provisioningModel, instance_termination_action: sch.instanceTerminationAction ?? '', min_node_cpus: sch.minNodeCpus ?? 0,
})];
export const accounts = (v: unknown) => list(v).map((sa: GJson) => ({ email: sa.email ?? '', scopes: strings(sa.scopes) }));
export const schedulingJson = (sch: Attrs = {}) => ({
  automaticRestart: sch.automatic_restart, onHostMaintenance: sch.on_host_maintenance, preemptible: sch.preemptible,
  provisioningModel: sch.provisioning_model || undefined, instanceTerminationAction: sch.instance_termination_action || undefined,
  minNodeCpus: sch.min_node_cpus || undefined,
});
export const accountsJson = (v: unknown) => list(v).map((sa: Attrs) => ({ email: sa.email, scopes: sa.scopes ?? [] }));

export function instanceToState(j: GJson, instance: StateInstance): Attrs {
  const s = instance.attributes;
  const { metadata, startup } = splitMetadata(j.metadata, s);
  const disks = list(j.disks);
  const boot = disks.find((d: GJson) => d.boot);
  const shielded = list(s.shielded_instance_config).length > 0 && j.shieldedInstanceConfig;
  return {
    name: j.name, description: j.description ?? '', machine_type: last(j.machineType),
    can_ip_forward: j.canIpForward ?? false, deletion_protection: j.deletionProtection ?? false,
    hostname: j.hostname ?? '', min_cpu_platform: j.minCpuPlatform ?? '', enable_display: j.displayDevice?.enableDisplay ?? false,
    labels: j.labels ?? {}, tags: strings(j.tags?.items), metadata, metadata_startup_script: startup,
    network_interface: nics(j, s),
    boot_disk: boot ? [disk(boot, list(s.boot_disk)[0] ?? {})] : [],
    attached_disk: disks.filter((d: GJson) => !d.boot && d.type !== 'SCRATCH').map((d: GJson) => {
      const st = list(s.attached_disk).find((x: Attrs) => last(x?.source) === last(d.source)) ?? {};
      const { auto_delete: _a, ...rest } = disk(d, st);
      return rest;
    }),
    scratch_disk: disks.filter((d: GJson) => d.type === 'SCRATCH').map((d: GJson) => ({ interface: d.interface ?? 'SCSI', size: int(d.diskSizeGb, 375) })),
    scheduling: scheduling(j.scheduling), service_account: accounts(j.serviceAccounts),
    // Compared only when the state holds the block: older providers did not write what the API now always answers.
    shielded_instance_config: shielded ? [{
      enable_secure_boot: shielded.enableSecureBoot ?? false, enable_vtpm: shielded.enableVtpm ?? false, enable_integrity_monitoring: shielded.enableIntegrityMonitoring ?? false,
    }] : undefined,
  };
}

/** A link the API would answer for a state's bare network or subnetwork name. */
const netLink = (v: unknown, full: string) => (typeof v === 'string' && v && !v.includes('/') ? full : apiLink(v));

/** The API's networkInterfaces for a state's network_interface blocks (`region`: where a bare subnetwork name lives). */
export function nicsJson(a: Attrs, region: string): GJson[] {
  return list(a.network_interface).map((n: Attrs, i: number) => ({
      kind: 'compute#networkInterface', name: n.name || `nic${i}`, networkIP: n.network_ip || undefined,
      network: netLink(n.network, `${base(a)}/global/networks/${n.network}`),
      subnetwork: netLink(n.subnetwork, `https://www.googleapis.com/compute/v1/projects/${n.subnetwork_project || ownProject(a)}/regions/${region}/subnetworks/${n.subnetwork}`),
      nicType: n.nic_type || undefined, stackType: n.stack_type || undefined, queueCount: n.queue_count || undefined,
      accessConfigs: list(n.access_config).map((ac: Attrs) => ({
        kind: 'compute#accessConfig', type: 'ONE_TO_ONE_NAT', name: 'External NAT', natIP: ac.nat_ip || undefined, networkTier: ac.network_tier,
        ...(ac.public_ptr_domain_name ? { setPublicPtr: true, publicPtrDomainName: ac.public_ptr_domain_name } : {}),
      })),
      aliasIpRanges: list(n.alias_ip_range).map((r: Attrs) => ({ ipCidrRange: r.ip_cidr_range, subnetworkRangeName: r.subnetwork_range_name || undefined })),
  }));
}

export function instanceFromState(a: Attrs): GJson {
  const zone = last(a.zone);
  const diskJson = (d: Attrs, boot: boolean) => ({
    kind: 'compute#attachedDisk', type: 'PERSISTENT', boot, autoDelete: boot ? d.auto_delete : false, deviceName: d.device_name, mode: d.mode || 'READ_WRITE',
    source: apiLink(d.source), interface: 'SCSI',
    ...(d.disk_encryption_key_sha256 || d.kms_key_self_link ? { diskEncryptionKey: { sha256: d.disk_encryption_key_sha256 || undefined, kmsKeyName: d.kms_key_self_link || undefined } } : {}),
  });
  const shielded: Attrs | undefined = list(a.shielded_instance_config)[0];
  return {
    kind: 'compute#instance', id: a.instance_id, name: nameOf(a), description: a.description ?? '', status: a.current_status || 'RUNNING',
    zone: `${base(a)}/zones/${zone}`, machineType: `${base(a)}/zones/${zone}/machineTypes/${a.machine_type}`,
    canIpForward: a.can_ip_forward, deletionProtection: a.deletion_protection, hostname: a.hostname || undefined,
    minCpuPlatform: a.min_cpu_platform || undefined, displayDevice: { enableDisplay: a.enable_display ?? false },
    labels: stateLabels(a), labelFingerprint: a.label_fingerprint,
    tags: { items: a.tags ?? undefined, fingerprint: a.tags_fingerprint },
    metadata: metadataItems({ ...(a.metadata ?? {}), ...(text(a.metadata_startup_script) ? { 'startup-script': a.metadata_startup_script } : {}) }),
    networkInterfaces: nicsJson(a, regionOfZone(zone)),
    disks: [
      ...list(a.boot_disk).map((d: Attrs) => diskJson(d, true)),
      ...list(a.attached_disk).map((d: Attrs) => diskJson(d, false)),
      ...list(a.scratch_disk).map((d: Attrs) => ({ type: 'SCRATCH', boot: false, autoDelete: true, interface: d.interface, diskSizeGb: String(d.size ?? 375) })),
    ],
    scheduling: schedulingJson(list(a.scheduling)[0]), serviceAccounts: accountsJson(a.service_account),
    ...(shielded ? { shieldedInstanceConfig: { enableSecureBoot: shielded.enable_secure_boot, enableVtpm: shielded.enable_vtpm, enableIntegrityMonitoring: shielded.enable_integrity_monitoring } } : {}),
    cpuPlatform: a.cpu_platform, selfLink: ownSelfLink(a, path),
  };
}

export const computeInstanceReader = anyLocation({
  type: 'google_compute_instance',
  service: 'compute',
  route: '/compute/v1/projects/:project/zones/:zone/instances/:name',
  aggregated: 'instances',
  pathOf: path,
  toState: instanceToState,
  fromState: instanceFromState,
  spec: {
    sets: {
      attached_disk: (e) => [[last((e as Attrs).source), (e as Attrs).mode, (e as Attrs).device_name].join('|')],
    },
  },
});
