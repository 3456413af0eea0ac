// azurerm_linux_virtual_machine, azurerm_windows_virtual_machine: Microsoft.Compute/virtualMachines
// (api 2024-07-01), several in a group read with the group's list (which answers the same model
// view as a GET); azurerm_managed_disk: Microsoft.Compute/disks (api 2024-03-02), likewise.
// Secrets (admin_password, custom_data) and what ARM never answers without $expand (user_data)
// are not mapped; attributes ARM may leave out are mapped only when it answers them.
import type { StateInstance } from '../../../types.ts';
import { armReader, location, type ArmJson } from '../kit.ts';
import { clean, first, identityFromState, identityToState, idsAsState, list, opt, tags, type Attrs } from './util.ts';

export const VM_API = '2024-07-01';
const VM_PATH = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Compute/virtualMachines';

/** `/home/<user>/.ssh/authorized_keys`: the provider keeps the user, ARM the path. */
const sshUser = (path: unknown) => (typeof path === 'string' ? /^\/home\/([^/]+)\/\.ssh\/authorized_keys$/.exec(path)?.[1] : undefined);
/** Public keys compare on their text without line breaks (the provider normalises them). */
export const keyText = (k: unknown) => String(k ?? '').replace(/\s+/g, ' ').trim();

function osDiskToState(d: ArmJson | undefined): Attrs[] {
  if (!d) return [];
  return [clean({
    name: opt(d.name), caching: opt(d.caching), disk_size_gb: opt(d.diskSizeGB),
    storage_account_type: opt(d.managedDisk?.storageAccountType),
    write_accelerator_enabled: d.writeAcceleratorEnabled ?? false,
    // The provider reads the encryption set from the disk itself: compared only when the VM's answer names one.
    disk_encryption_set_id: opt(d.managedDisk?.diskEncryptionSet?.id),
  })];
}
const imageToState = (img: ArmJson | undefined): Attrs[] =>
  img?.publisher ? [{ publisher: img.publisher, offer: img.offer, sku: img.sku, version: img.version }] : [];

/** What both OS flavours share, from a virtualMachines answer. */
export function vmToState(json: ArmJson, os: 'linux' | 'windows', state: Attrs): Attrs {
  const p = json.properties ?? {};
  const osp = p.osProfile ?? {};
  const cfg = (os === 'linux' ? osp.linuxConfiguration : osp.windowsConfiguration) ?? {};
  const sec = p.securityProfile ?? {};
  const boot = p.diagnosticsProfile?.bootDiagnostics;
  // Defaults as the provider's read writes them when ARM leaves a value out.
  const out: Attrs = {
    name: json.name, location: location(json.location), tags: tags(json),
    size: opt(p.hardwareProfile?.vmSize), zone: json.zones?.[0] ?? '',
    admin_username: opt(osp.adminUsername), computer_name: opt(osp.computerName),
    allow_extension_operations: opt(osp.allowExtensionOperations), provision_vm_agent: opt(cfg.provisionVMAgent),
    patch_mode: os === 'linux' ? cfg.patchSettings?.patchMode ?? 'ImageDefault' : opt(cfg.patchSettings?.patchMode),
    network_interface_ids: idsAsState(list(p.networkProfile?.networkInterfaces).map((n) => n.id), state.network_interface_ids),
    os_disk: osDiskToState(p.storageProfile?.osDisk),
    // A custom image (source_image_id) leaves source_image_reference empty.
    source_image_reference: imageToState(p.storageProfile?.imageReference),
    identity: identityToState(json.identity, state.identity),
    boot_diagnostics: boot?.enabled ? [{ storage_account_uri: boot.storageUri ?? '' }] : [],
    encryption_at_host_enabled: sec.encryptionAtHost ?? false, secure_boot_enabled: sec.uefiSettings?.secureBootEnabled ?? false,
    vtpm_enabled: sec.uefiSettings?.vTpmEnabled ?? false, priority: p.priority || 'Regular', eviction_policy: p.evictionPolicy ?? '',
    license_type: p.licenseType && p.licenseType !== 'None' ? p.licenseType : '', extensions_time_budget: p.extensionsTimeBudget ?? 'PT1H30M',
    virtual_machine_id: opt(p.vmId),
  };
  if (os === 'linux') {
    out.disable_password_authentication = opt(cfg.disablePasswordAuthentication);
    out.admin_ssh_key = list(cfg.ssh?.publicKeys).map((k) => ({ username: sshUser(k.path) ?? '', public_key: k.keyData }));
  } else {
    // azurerm 3.x writes enable_automatic_updates, 4.x automatic_updates_enabled: only the one the state holds compares.
    out.enable_automatic_updates = opt(cfg.enableAutomaticUpdates);
    out.automatic_updates_enabled = opt(cfg.enableAutomaticUpdates);
    out.timezone = cfg.timeZone ?? '';
    out.hotpatching_enabled = opt(cfg.patchSettings?.enableHotpatching);
  }
  return out;
}

export function vmFromState(a: Attrs, os: 'linux' | 'windows'): ArmJson {
  const disk = first(a.os_disk);
  const img = first(a.source_image_reference);
  const boot = first(a.boot_diagnostics);
  const autoUpdates = a.enable_automatic_updates ?? a.automatic_updates_enabled;
  const cfg = os === 'linux'
    ? { linuxConfiguration: clean({
      disablePasswordAuthentication: a.disable_password_authentication, provisionVMAgent: a.provision_vm_agent,
      patchSettings: a.patch_mode ? { patchMode: a.patch_mode } : undefined,
      ssh: { publicKeys: list(a.admin_ssh_key).map((k) => ({ path: `/home/${k.username}/.ssh/authorized_keys`, keyData: k.public_key })) },
    }) }
    : { windowsConfiguration: clean({
      provisionVMAgent: a.provision_vm_agent, enableAutomaticUpdates: autoUpdates, timeZone: a.timezone || undefined,
      patchSettings: a.patch_mode ? clean({ patchMode: a.patch_mode, enableHotpatching: a.hotpatching_enabled }) : undefined,
    }) };
  const uefi = clean({ secureBootEnabled: a.secure_boot_enabled, vTpmEnabled: a.vtpm_enabled });
  return clean({
    location: a.location, tags: a.tags ?? {}, zones: a.zone ? [a.zone] : undefined, identity: identityFromState(a.identity),
    properties: clean({
      vmId: a.virtual_machine_id || undefined,
      hardwareProfile: { vmSize: a.size },
      osProfile: clean({ computerName: a.computer_name, adminUsername: a.admin_username, allowExtensionOperations: a.allow_extension_operations, ...cfg }),
      storageProfile: {
        imageReference: img.publisher ? { publisher: img.publisher, offer: img.offer, sku: img.sku, version: img.version } : undefined,
        osDisk: clean({
          name: disk.name, caching: disk.caching, diskSizeGB: disk.disk_size_gb || undefined, writeAcceleratorEnabled: disk.write_accelerator_enabled,
          managedDisk: clean({ storageAccountType: disk.storage_account_type, diskEncryptionSet: disk.disk_encryption_set_id ? { id: disk.disk_encryption_set_id } : undefined }),
        }),
      },
      networkProfile: { networkInterfaces: list(a.network_interface_ids).map((id: string, i: number) => ({ id, properties: { primary: i === 0 } })) },
      diagnosticsProfile: { bootDiagnostics: boot.storage_account_uri !== undefined ? { enabled: true, storageUri: boot.storage_account_uri || undefined } : { enabled: false } },
      securityProfile: clean({ encryptionAtHost: a.encryption_at_host_enabled, uefiSettings: Object.keys(uefi).length ? uefi : undefined }),
      priority: a.priority, evictionPolicy: a.eviction_policy || undefined, licenseType: a.license_type || undefined,
      extensionsTimeBudget: a.extensions_time_budget, provisioningState: 'Succeeded',
    }),
  });
}

const sshKeys = { admin_ssh_key: (e: unknown) => [`${(e as Attrs).username}|${keyText((e as Attrs).public_key)}`] };

export const linuxVmReader = armReader({
  type: 'azurerm_linux_virtual_machine', apiVersion: VM_API, path: `${VM_PATH}/:name`, list: VM_PATH,
  toState: (json, i) => vmToState(json, 'linux', i.attributes),
  fromState: (a) => vmFromState(a, 'linux'),
  spec: { sets: sshKeys },
});

export const windowsVmReader = armReader({
  type: 'azurerm_windows_virtual_machine', apiVersion: VM_API, path: `${VM_PATH}/:name`, list: VM_PATH,
  toState: (json, i) => vmToState(json, 'windows', i.attributes),
  fromState: (a) => vmFromState(a, 'windows'),
});

// Managed disks. `zone` (azurerm 3+) and `zones` (2.x) both come from ARM's zones: only the one the state holds compares.
const DISK_PATH = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Compute/disks';
export const managedDiskReader = armReader({
  type: 'azurerm_managed_disk', apiVersion: '2024-03-02', path: `${DISK_PATH}/:name`, list: DISK_PATH,
  toState: (json: ArmJson, _i: StateInstance) => {
    const p = json.properties ?? {};
    const c = p.creationData ?? {};
    return {
      name: json.name, location: location(json.location), tags: tags(json),
      storage_account_type: opt(json.sku?.name), zone: json.zones?.[0] ?? '', zones: json.zones ?? [],
      create_option: opt(c.createOption), disk_size_gb: opt(p.diskSizeGB), os_type: p.osType ?? '',
      source_resource_id: c.sourceResourceId ?? '', image_reference_id: c.imageReference?.id ?? '',
      disk_iops_read_write: opt(p.diskIOPSReadWrite), disk_mbps_read_write: opt(p.diskMBpsReadWrite),
      network_access_policy: opt(p.networkAccessPolicy), tier: opt(p.tier), max_shares: opt(p.maxShares),
      public_network_access_enabled: p.publicNetworkAccess === undefined ? undefined : p.publicNetworkAccess === 'Enabled',
      disk_encryption_set_id: p.encryption?.diskEncryptionSetId ?? '', on_demand_bursting_enabled: opt(p.burstingEnabled),
      hyper_v_generation: opt(p.hyperVGeneration),
    };
  },
  fromState: (a) => {
    const zone = a.zone || list(a.zones)[0];
    return clean({
      location: a.location, tags: a.tags ?? {}, sku: { name: a.storage_account_type }, zones: zone ? [zone] : undefined,
      properties: clean({
        creationData: clean({
          createOption: a.create_option, sourceResourceId: a.source_resource_id || undefined,
          imageReference: a.image_reference_id ? { id: a.image_reference_id } : undefined,
        }),
        diskSizeGB: a.disk_size_gb, osType: a.os_type || undefined, diskIOPSReadWrite: a.disk_iops_read_write, diskMBpsReadWrite: a.disk_mbps_read_write,
        networkAccessPolicy: a.network_access_policy || undefined, tier: a.tier || undefined, maxShares: a.max_shares,
        publicNetworkAccess: typeof a.public_network_access_enabled === 'boolean' ? (a.public_network_access_enabled ? 'Enabled' : 'Disabled') : undefined,
        encryption: a.disk_encryption_set_id ? { diskEncryptionSetId: a.disk_encryption_set_id, type: 'EncryptionAtRestWithCustomerKey' } : { type: 'EncryptionAtRestWithPlatformKey' },
        burstingEnabled: a.on_demand_bursting_enabled, hyperVGeneration: a.hyper_v_generation || undefined,
        diskState: 'Attached', provisioningState: 'Succeeded',
      }),
    });
  },
});
