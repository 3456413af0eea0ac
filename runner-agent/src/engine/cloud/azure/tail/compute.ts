// azurerm_availability_set, azurerm_virtual_machine_extension, azurerm_dev_test_global_vm_shutdown_schedule
// (one GET each, an availability set by its group's list from LIST_FROM) and
// azurerm_virtual_machine_data_disk_attachment (`<vm id>/dataDisks/<disk name>`: the disk's entry
// in its VM's `storageProfile.dataDisks`, from one GET of the VM shared by its attachments).
// An extension's `settings` is JSON text: compared parsed, the state's text kept when equal; its
// `protected_settings` is write-only (ARM never answers it) and never read.
import { canonicalText } from '../../../values.ts';
import { ARM, armReader, location, lower, nameOf } from '../kit.ts';
import { VM_API } from '../resources/compute.ts';
import { ref } from '../network/shared.ts';
import { asState, bool, either, list, refReader, str, type Attrs } from './kit.ts';

const COMPUTE = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Compute';
const SETS = `${COMPUTE}/availabilitySets`;

export const availabilitySetReader = armReader({
  type: 'azurerm_availability_set', apiVersion: VM_API, path: `${SETS}/:name`, list: SETS,
  toState: (j, i) => ({
    location: location(j.location), tags: j.tags ?? {},
    platform_update_domain_count: j.properties?.platformUpdateDomainCount ?? 5, platform_fault_domain_count: j.properties?.platformFaultDomainCount ?? 3,
    // sku Aligned = managed disks, Classic = unmanaged.
    managed: lower(j.sku?.name ?? 'Aligned') === 'aligned',
    proximity_placement_group_id: asState(j.properties?.proximityPlacementGroup?.id, i.attributes.proximity_placement_group_id),
  }),
  fromState: (a) => ({
    type: 'Microsoft.Compute/availabilitySets', location: a.location, tags: a.tags ?? {}, sku: { name: bool(a.managed, true) ? 'Aligned' : 'Classic' },
    properties: { platformUpdateDomainCount: a.platform_update_domain_count ?? 5, platformFaultDomainCount: a.platform_fault_domain_count ?? 3, proximityPlacementGroup: ref(a.proximity_placement_group_id) },
  }),
});

// Data disk attachments: the VM's entry for the disk (by managed disk id, else by name).
const ATTACH = 'azurerm_virtual_machine_data_disk_attachment';
const vmOf = (a: Attrs) => str(a.virtual_machine_id) || str(a.id).replace(/\/dataDisks\/[^/]+$/i, '');
const diskName = (a: Attrs) => nameOf(str(a.managed_disk_id)) || nameOf(str(a.id));
export const dataDiskAttachmentReader = refReader({
  type: ATTACH, apiVersion: VM_API, source: vmOf,
  toState: (vm, i) => {
    const a = i.attributes;
    const d = list(vm.properties?.storageProfile?.dataDisks).find((x) => lower(x.managedDisk?.id) === lower(str(a.managed_disk_id)) || lower(x.name) === lower(diskName(a)));
    if (!d) return null;
    return {
      managed_disk_id: asState(d.managedDisk?.id, a.managed_disk_id), lun: d.lun, caching: asState(d.caching ?? 'None', a.caching),
      write_accelerator_enabled: d.writeAcceleratorEnabled ?? false, create_option: asState(d.createOption ?? 'Attach', a.create_option),
    };
  },
  // The VM's disks from the attachments: merged into the VM's own answer (which lists none), or alone when the VM is another state's.
  fake: [{
    method: 'GET', service: ARM, path: `${COMPUTE}/virtualMachines/:name`,
    answer: (req, world) => {
      const mine = world.of(ATTACH).filter((i) => lower(vmOf(i.attributes)) === lower(req.path));
      if (!mine.length) return undefined;
      const dataDisks = mine.map(({ attributes: a }) => ({
        name: diskName(a), lun: a.lun, caching: a.caching ?? 'None', createOption: a.create_option ?? 'Attach',
        writeAcceleratorEnabled: !!a.write_accelerator_enabled, managedDisk: { id: a.managed_disk_id },
      }));
      return { id: req.path, name: nameOf(req.path), properties: { storageProfile: { dataDisks } } };
    },
  }],
});

/** JSON text as the state holds it when the live document is the same JSON; else the live document's text. */
export function jsonText(live: unknown, state: unknown): string {
  if (live === undefined || live === null || (typeof live === 'object' && Object.keys(live).length === 0)) return typeof state === 'string' && parse(state) === '{}' ? state : '';
  const text = typeof live === 'string' ? live : JSON.stringify(live);
  return typeof state === 'string' && parse(state) === parse(text) ? state : text;
}
const parse = (s: string): string => { try { return canonicalText(JSON.parse(s)); } catch { return s; } };

const settingsOf = (s: unknown): unknown => { try { return str(s) ? JSON.parse(str(s)) : undefined; } catch { return s; } };
const EXT = `${COMPUTE}/virtualMachines/:vm/extensions`;
export const vmExtensionReader = armReader({
  type: 'azurerm_virtual_machine_extension', apiVersion: VM_API, path: `${EXT}/:name`,
  toState: (j, i) => {
    const p = j.properties ?? {};
    const a = i.attributes;
    return {
      tags: j.tags ?? {}, publisher: asState(p.publisher, a.publisher), type: asState(p.type, a.type), type_handler_version: str(p.typeHandlerVersion),
      auto_upgrade_minor_version: p.autoUpgradeMinorVersion ?? false, automatic_upgrade_enabled: p.enableAutomaticUpgrade ?? false,
      failure_suppression_enabled: p.suppressFailures ?? false, settings: jsonText(p.settings, a.settings),
      provision_after_extensions: list(p.provisionAfterExtensions),
    };
  },
  fromState: (a) => ({
    type: 'Microsoft.Compute/virtualMachines/extensions', location: 'westeurope', tags: a.tags ?? {},
    properties: {
      publisher: a.publisher, type: a.type, typeHandlerVersion: a.type_handler_version, autoUpgradeMinorVersion: !!a.auto_upgrade_minor_version,
      enableAutomaticUpgrade: !!a.automatic_upgrade_enabled, suppressFailures: !!a.failure_suppression_enabled,
      ...(settingsOf(a.settings) ? { settings: settingsOf(a.settings) } : {}), provisionAfterExtensions: list(a.provision_after_extensions), provisioningState: 'Succeeded',
    },
  }),
});

// DevTest schedules: `shutdown-computevm-<vm>` under Microsoft.DevTestLab/schedules.
const SCHEDULES = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.DevTestLab/schedules';
export const vmShutdownScheduleReader = armReader({
  type: 'azurerm_dev_test_global_vm_shutdown_schedule', apiVersion: '2018-09-15', path: `${SCHEDULES}/:name`,
  toState: (j, i) => {
    const p = j.properties ?? {};
    const n = p.notificationSettings ?? {};
    const st = list(i.attributes.notification_settings)[0] ?? {};
    return {
      location: location(j.location), tags: j.tags ?? {}, enabled: lower(p.status ?? 'Enabled') === 'enabled',
      daily_recurrence_time: str(p.dailyRecurrence?.time), timezone: asState(p.timeZoneId, i.attributes.timezone),
      virtual_machine_id: asState(p.targetResourceId, i.attributes.virtual_machine_id),
      notification_settings: [{
        enabled: lower(n.status ?? 'Disabled') === 'enabled', time_in_minutes: n.timeInMinutes ?? 30, webhook_url: str(n.webhookUrl),
        ...('email' in st ? { email: str(n.emailRecipient) } : {}),
      }],
    };
  },
  fromState: (a) => {
    const n = list(a.notification_settings)[0] ?? {};
    return {
      type: 'microsoft.devtestlab/schedules', location: a.location, tags: a.tags ?? {},
      properties: {
        status: either(a, ['enabled'], true) ? 'Enabled' : 'Disabled', taskType: 'ComputeVmShutdownTask', dailyRecurrence: { time: a.daily_recurrence_time },
        timeZoneId: a.timezone, targetResourceId: a.virtual_machine_id,
        notificationSettings: { status: n.enabled ? 'Enabled' : 'Disabled', timeInMinutes: n.time_in_minutes ?? 30, ...(n.webhook_url ? { webhookUrl: n.webhook_url } : {}), ...(n.email ? { emailRecipient: n.email } : {}) },
        provisioningState: 'Succeeded',
      },
    };
  },
});
