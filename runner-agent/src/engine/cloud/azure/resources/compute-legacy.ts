// azurerm_virtual_machine (the provider's legacy VM resource): Microsoft.Compute/virtualMachines
// (api 2024-07-01, the group's list when several share a group). Its blocks are sets in the
// provider (os_profile, storage_image_reference...), written to state as lists: one element each
// here, compared on the keys both sides hold. os_profile's admin_password and custom_data are
// never answered by ARM and not mapped.
import type { CompareSpec } from '../../../diff.ts';
import { armReader, location, type ArmJson } from '../kit.ts';
import { VM_API, keyText } from './compute.ts';
import { clean, first, identityFromState, identityToState, list, opt, tags, type Attrs } from './util.ts';

const PATH = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Compute/virtualMachines';

const dataDiskToState = (d: ArmJson): Attrs => clean({
  name: opt(d.name), lun: opt(d.lun), caching: opt(d.caching), create_option: opt(d.createOption), disk_size_gb: opt(d.diskSizeGB),
  managed_disk_type: opt(d.managedDisk?.storageAccountType), managed_disk_id: opt(d.managedDisk?.id), vhd_uri: d.vhd?.uri ?? '',
  write_accelerator_enabled: d.writeAcceleratorEnabled ?? false,
});
const dataDiskFromState = (d: Attrs): ArmJson => clean({
  name: d.name, lun: d.lun, caching: d.caching, createOption: d.create_option, diskSizeGB: d.disk_size_gb || undefined,
  managedDisk: d.managed_disk_type || d.managed_disk_id ? clean({ storageAccountType: d.managed_disk_type || undefined, id: d.managed_disk_id || undefined }) : undefined,
  vhd: d.vhd_uri ? { uri: d.vhd_uri } : undefined, writeAcceleratorEnabled: d.write_accelerator_enabled,
});
/**
 * Data disks are told apart by LUN; their compared settings make the key, so a swap or re-tiering
 * shows. Not the size: the provider takes it from the disk itself when the VM's answer has none
 * (azurerm_managed_disk compares it).
 */
const diskKey = (e: unknown) => {
  const d = e as Attrs;
  return [[d.lun, d.name, d.caching, d.create_option, d.managed_disk_type].map((v) => String(v ?? '')).join('|')];
};

const SPEC: CompareSpec = {
  sets: {
    storage_data_disk: diskKey,
    os_profile_linux_config: (e) => {
      const c = e as Attrs;
      return [`${c.disable_password_authentication}|${list(c.ssh_keys).map((k) => `${k.path}=${keyText(k.key_data)}`).sort().join(',')}`];
    },
  },
};

export const legacyVmReader = armReader({
  type: 'azurerm_virtual_machine', apiVersion: VM_API, path: `${PATH}/:name`, list: PATH,
  toState: (json, instance) => {
    const p = json.properties ?? {};
    // os_profile holds admin_password: a state marking the whole block sensitive compares it by hash, which a partial mapping cannot match.
    const hidden = (instance.sensitivePaths ?? []).some((s) => s.length === 1 && s[0] === 'os_profile');
    const osp = p.osProfile;
    const lin = osp?.linuxConfiguration;
    const win = osp?.windowsConfiguration;
    const sp = p.storageProfile ?? {};
    const od = sp.osDisk;
    const img = sp.imageReference;
    const boot = p.diagnosticsProfile?.bootDiagnostics;
    const nics = list(p.networkProfile?.networkInterfaces);
    return {
      name: json.name, location: location(json.location), tags: tags(json), zones: json.zones ?? [],
      vm_size: opt(p.hardwareProfile?.vmSize), license_type: p.licenseType ?? '',
      network_interface_ids: nics.map((n) => n.id),
      // The provider writes it only when ARM flags a NIC primary (it sends the flag only when configured).
      primary_network_interface_id: nics.find((n) => n.properties?.primary)?.id ?? '',
      identity: identityToState(json.identity, instance.attributes.identity),
      boot_diagnostics: boot ? [{ enabled: !!boot.enabled, storage_uri: boot.storageUri ?? '' }] : [],
      os_profile: hidden ? undefined : osp ? [clean({ computer_name: opt(osp.computerName), admin_username: opt(osp.adminUsername) })] : [],
      os_profile_linux_config: lin ? [{
        disable_password_authentication: !!lin.disablePasswordAuthentication,
        ssh_keys: list(lin.ssh?.publicKeys).map((k) => ({ path: k.path, key_data: k.keyData })),
      }] : [],
      os_profile_windows_config: win ? [clean({ provision_vm_agent: opt(win.provisionVMAgent), enable_automatic_upgrades: opt(win.enableAutomaticUpdates), timezone: win.timeZone ?? '' })] : [],
      storage_image_reference: img ? [clean({ publisher: img.publisher ?? '', offer: img.offer ?? '', sku: img.sku ?? '', version: img.version ?? '', id: img.id ?? '' })] : [],
      storage_os_disk: od ? [clean({
        name: opt(od.name), caching: opt(od.caching), create_option: opt(od.createOption), disk_size_gb: opt(od.diskSizeGB),
        managed_disk_type: opt(od.managedDisk?.storageAccountType), managed_disk_id: opt(od.managedDisk?.id), os_type: opt(od.osType),
        vhd_uri: od.vhd?.uri ?? '', image_uri: od.image?.uri ?? '', write_accelerator_enabled: od.writeAcceleratorEnabled ?? false,
      })] : [],
      storage_data_disk: list(sp.dataDisks).map(dataDiskToState),
    };
  },
  fromState: (a) => legacyVmFromState(a),
  spec: SPEC,
});

export function legacyVmFromState(a: Attrs): ArmJson {
  const osp = first(a.os_profile);
  const lin = first(a.os_profile_linux_config);
  const win = first(a.os_profile_windows_config);
  const img = first(a.storage_image_reference);
  const od = first(a.storage_os_disk);
  const boot = first(a.boot_diagnostics);
  return clean({
    location: a.location, tags: a.tags ?? {}, zones: list(a.zones).length ? a.zones : undefined, identity: identityFromState(a.identity),
    properties: clean({
      hardwareProfile: { vmSize: a.vm_size }, licenseType: a.license_type || undefined,
      networkProfile: { networkInterfaces: list(a.network_interface_ids).map((id: string) => (a.primary_network_interface_id ? { id, properties: { primary: id === a.primary_network_interface_id } } : { id })) },
      diagnosticsProfile: boot.enabled !== undefined ? { bootDiagnostics: clean({ enabled: boot.enabled, storageUri: boot.storage_uri || undefined }) } : undefined,
      osProfile: osp.computer_name || osp.admin_username ? clean({
        computerName: osp.computer_name, adminUsername: osp.admin_username,
        linuxConfiguration: lin.disable_password_authentication !== undefined ? {
          disablePasswordAuthentication: lin.disable_password_authentication,
          ssh: { publicKeys: list(lin.ssh_keys).map((k) => ({ path: k.path, keyData: k.key_data })) },
        } : undefined,
        windowsConfiguration: Object.keys(win).length ? clean({ provisionVMAgent: win.provision_vm_agent, enableAutomaticUpdates: win.enable_automatic_upgrades, timeZone: win.timezone || undefined }) : undefined,
      }) : undefined,
      storageProfile: clean({
        imageReference: Object.keys(img).length ? clean({ publisher: img.publisher || undefined, offer: img.offer || undefined, sku: img.sku || undefined, version: img.version || undefined, id: img.id || undefined }) : undefined,
        osDisk: Object.keys(od).length ? clean({
          name: od.name, caching: od.caching, createOption: od.create_option, diskSizeGB: od.disk_size_gb || undefined, osType: od.os_type || undefined,
          managedDisk: od.managed_disk_type || od.managed_disk_id ? clean({ storageAccountType: od.managed_disk_type || undefined, id: od.managed_disk_id || undefined }) : undefined,
          vhd: od.vhd_uri ? { uri: od.vhd_uri } : undefined, image: od.image_uri ? { uri: od.image_uri } : undefined, writeAcceleratorEnabled: od.write_accelerator_enabled,
        }) : undefined,
        dataDisks: list(a.storage_data_disk).map(dataDiskFromState),
      }),
      provisioningState: 'Succeeded',
    }),
  });
}
