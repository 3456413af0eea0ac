// google_compute_instance_template: compute/v1 instanceTemplates (global), listed per project when
// several are read. A template is immutable: a drift here is a template replaced or edited through
// another tool under the same name. Its `properties` map as an instance's do (instance.ts), except
// that template interfaces have no name and the machine type is a bare name already.
import type { Scope } from '../../rest/reader.ts';
import type { GJson } from '../kit.ts';
import { computeReader, globalPath, int, list, metadataItems, nameOf, ownSelfLink, stateLabels, strings, type Attrs } from './common.ts';
import { accounts, accountsJson, nics, nicsJson, scheduling, schedulingJson, splitMetadata } from './instance.ts';
import { text } from '../../rest/reader.ts';

const path = (a: Attrs, scope: Scope) => globalPath('instanceTemplates', a, scope);

const disks = (v: unknown) => list(v).map((d: GJson) => ({
  auto_delete: d.autoDelete ?? false, boot: d.boot ?? false, device_name: d.deviceName ?? '', interface: d.interface ?? 'SCSI',
  mode: d.mode ?? 'READ_WRITE', type: d.type ?? 'PERSISTENT', disk_size_gb: int(d.initializeParams?.diskSizeGb), disk_type: d.initializeParams?.diskType ?? '',
}));

export const computeInstanceTemplateReader = computeReader({
  type: 'google_compute_instance_template',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/instanceTemplates/:name',
  globalList: 'instanceTemplates',
  pathOf: path,
  toState: (j, i) => {
    const p: GJson = j.properties ?? {};
    const { metadata, startup } = splitMetadata(p.metadata, i.attributes);
    return {
      name: j.name, description: j.description ?? '', instance_description: p.description ?? '', machine_type: p.machineType ?? '',
      can_ip_forward: p.canIpForward ?? false, labels: p.labels ?? {}, tags: strings(p.tags?.items), metadata, metadata_startup_script: startup,
      network_interface: nics(p, i.attributes).map(({ name: _n, ...rest }) => rest),
      disk: disks(p.disks), scheduling: scheduling(p.scheduling), service_account: accounts(p.serviceAccounts),
    };
  },
  fromState: (a) => ({
    kind: 'compute#instanceTemplate', id: undefined, name: nameOf(a), description: a.description ?? '', selfLink: ownSelfLink(a, path),
    properties: {
      description: a.instance_description || undefined, machineType: a.machine_type, canIpForward: a.can_ip_forward, labels: stateLabels(a),
      tags: { items: a.tags ?? undefined },
      metadata: metadataItems({ ...(a.metadata ?? {}), ...(text(a.metadata_startup_script) ? { 'startup-script': a.metadata_startup_script } : {}) }),
      networkInterfaces: nicsJson(a, String(a.region ?? '')).map(({ name: _n, ...rest }) => rest),
      disks: list(a.disk).map((d: Attrs) => ({
        autoDelete: d.auto_delete, boot: d.boot, deviceName: d.device_name || undefined, interface: d.interface || undefined, mode: d.mode || undefined,
        type: d.type || undefined, initializeParams: { diskSizeGb: d.disk_size_gb ? String(d.disk_size_gb) : undefined, diskType: d.disk_type || undefined },
      })),
      scheduling: schedulingJson(list(a.scheduling)[0]), serviceAccounts: accountsJson(a.service_account),
    },
  }),
});
