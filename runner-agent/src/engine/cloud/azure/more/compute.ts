// azurerm_ssh_public_key (Microsoft.Compute/sshPublicKeys) and azurerm_image
// (Microsoft.Compute/images), api COMPUTE_API (Compute's current stable, as the VM readers pin):
// top-level types, so a group with LIST_FROM or more is one paged list and Cloud Discovery lists
// the subscription's.
import { genericKey } from '../../../diff.ts';
import type { StateInstance } from '../../../types.ts';
import { text } from '../../rest/reader.ts';
import { armReader, location, type ArmJson } from '../kit.ts';
import { list, str } from '../network/shared.ts';

export const COMPUTE_API = '2024-07-01';
const GROUP = '/subscriptions/:sub/resourceGroups/:rg/providers/Microsoft.Compute';

/** A key file's line breaks and trailing whitespace are not the key: equal but for those is the state's spelling. */
const keyText = (k: string) => k.replace(/\r?\n/g, '').trim();
const keyLike = (live: string, state: unknown) => (typeof state === 'string' && keyText(state) === keyText(live) ? state : live);

export const sshPublicKeyReader = armReader({
  type: 'azurerm_ssh_public_key', apiVersion: COMPUTE_API,
  path: `${GROUP}/sshPublicKeys/:name`, list: `${GROUP}/sshPublicKeys`,
  toState: (j, i) => ({ location: location(j.location), tags: j.tags ?? {}, public_key: keyLike(str(j.properties?.publicKey), i.attributes.public_key) }),
  fromState: (a) => ({ type: 'Microsoft.Compute/sshPublicKeys', location: a.location, tags: a.tags ?? {}, properties: { publicKey: a.public_key } }),
});

/** Keys of a disk block only some provider versions write (storage_type, disk_encryption_set_id): kept where the state's block has them. */
function onlyKnown(live: Record<string, unknown>, state: unknown): Record<string, unknown> {
  const known = state && typeof state === 'object' ? new Set(Object.keys(state)) : undefined;
  return known ? Object.fromEntries(Object.entries(live).filter(([k]) => known.has(k))) : live;
}

function diskToState(d: ArmJson): Record<string, unknown> {
  return {
    blob_uri: str(d.blobUri), caching: str(d.caching) || 'None', managed_disk_id: str(d.managedDisk?.id), size_gb: d.diskSizeGB ?? 0,
    storage_type: str(d.storageAccountType), disk_encryption_set_id: str(d.diskEncryptionSet?.id),
  };
}

function imageToState(j: ArmJson, instance: StateInstance) {
  const p = j.properties ?? {};
  const os = p.storageProfile?.osDisk;
  const stateOs = list(instance.attributes.os_disk)[0];
  const stateData = new Map(list(instance.attributes.data_disk).map((d) => [d?.lun, d]));
  return {
    location: location(j.location), tags: j.tags ?? {},
    source_virtual_machine_id: str(p.sourceVirtualMachine?.id), hyper_v_generation: str(p.hyperVGeneration) || 'V1',
    zone_resilient: p.storageProfile?.zoneResilient ?? false,
    os_disk: os ? [onlyKnown({ ...diskToState(os), os_type: str(os.osType), os_state: str(os.osState) }, stateOs)] : [],
    data_disk: list(p.storageProfile?.dataDisks).map((d) => onlyKnown({ ...diskToState(d), lun: d.lun ?? 0 }, stateData.get(d.lun ?? 0))),
  };
}

const diskFromState = (d: Record<string, any>): ArmJson => ({
  ...(text(d.blob_uri) ? { blobUri: d.blob_uri } : {}), caching: d.caching ?? 'None',
  ...(text(d.managed_disk_id) ? { managedDisk: { id: d.managed_disk_id } } : {}),
  ...(d.size_gb ? { diskSizeGB: d.size_gb } : {}), ...(text(d.storage_type) ? { storageAccountType: d.storage_type } : {}),
  ...(text(d.disk_encryption_set_id) ? { diskEncryptionSet: { id: d.disk_encryption_set_id } } : {}),
});

function imageFromState(a: Record<string, any>): ArmJson {
  const os = list(a.os_disk)[0];
  return {
    type: 'Microsoft.Compute/images', location: a.location, tags: a.tags ?? {},
    properties: {
      ...(text(a.source_virtual_machine_id) ? { sourceVirtualMachine: { id: a.source_virtual_machine_id } } : {}),
      storageProfile: {
        ...(os ? { osDisk: { ...diskFromState(os), osType: os.os_type, osState: os.os_state } } : {}),
        dataDisks: list(a.data_disk).map((d) => ({ ...diskFromState(d), lun: d.lun })), zoneResilient: !!a.zone_resilient,
      },
      hyperVGeneration: a.hyper_v_generation ?? 'V1', provisioningState: 'Succeeded',
    },
  };
}

export const imageReader = armReader({
  type: 'azurerm_image', apiVersion: COMPUTE_API,
  path: `${GROUP}/images/:name`, list: `${GROUP}/images`,
  toState: imageToState, fromState: imageFromState,
  spec: { sets: { data_disk: genericKey } },
});
