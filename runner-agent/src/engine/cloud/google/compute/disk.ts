// google_compute_disk: compute/v1 disks (zonal), from one aggregatedList of the project when several
// are read in it. `users` (the instances attached now) and attach timestamps move with every
// attachment: not mapped. Raw encryption keys are never answered by the API: not mapped.
import { last, ownProject } from '../kit.ts';
import { anyLocation, int, link, nameOf, ownSelfLink, stateLabels, zonalPath, type Attrs } from './common.ts';
import type { Scope } from '../../rest/reader.ts';

const path = (a: Attrs, scope: Scope) => zonalPath('disks', a, scope);

export const computeDiskReader = anyLocation({
  type: 'google_compute_disk',
  service: 'compute',
  route: '/compute/v1/projects/:project/zones/:zone/disks/:name',
  aggregated: 'disks',
  pathOf: path,
  toState: (j, i) => ({
    name: j.name, description: j.description ?? '', type: last(j.type), size: int(j.sizeGb),
    image: link(j.sourceImage, i.attributes.image), snapshot: link(j.sourceSnapshot, i.attributes.snapshot),
    physical_block_size_bytes: int(j.physicalBlockSizeBytes, 4096), labels: j.labels ?? {},
    // Only pd-extreme / hyperdisk disks have them; absent answers compare as the provider's 0.
    provisioned_iops: int(j.provisionedIops), provisioned_throughput: j.provisionedThroughput === undefined ? undefined : int(j.provisionedThroughput),
  }),
  fromState: (a) => {
    const base = `https://www.googleapis.com/compute/v1/projects/${ownProject(a) ?? ''}/zones/${last(a.zone)}`;
    return {
      kind: 'compute#disk', id: a.disk_id, name: nameOf(a), description: a.description ?? '', zone: base, type: `${base}/diskTypes/${a.type}`,
      sizeGb: String(a.size), sourceImage: a.image || undefined, sourceImageId: a.source_image_id || undefined, sourceSnapshot: a.snapshot || undefined,
      physicalBlockSizeBytes: String(a.physical_block_size_bytes ?? 4096), labels: stateLabels(a), labelFingerprint: a.label_fingerprint,
      provisionedIops: a.provisioned_iops ? String(a.provisioned_iops) : undefined,
      provisionedThroughput: a.provisioned_throughput ? String(a.provisioned_throughput) : undefined,
      users: a.users ?? undefined, status: 'READY', selfLink: ownSelfLink(a, path),
    };
  },
});
