// google_compute_image and google_compute_ssl_certificate (global: one paged list of the project
// when three or more are read there, else one GET each) and google_compute_instance_group_manager
// (zonal: the project's aggregated list when several are read). An image's raw-disk source and
// guest OS features, and an instance group's size, status and stateful settings, are not mapped.
import { anyLocation, computeReader, globalPath, int, link, list, nameOf, ownSelfLink, stateLabels, zonalPath, type Attrs } from '../compute/common.ts';
import { last, type GJson } from '../kit.ts';
import type { Scope } from '../../rest/reader.ts';

const images = (a: Attrs, scope: Scope) => globalPath('images', a, scope);

export const imageReader = computeReader({
  type: 'google_compute_image',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/images/:name',
  globalList: 'images',
  pathOf: images,
  toState: (j, i) => ({
    name: j.name, description: j.description ?? '', family: j.family ?? '', disk_size_gb: int(j.diskSizeGb), labels: j.labels ?? {},
    source_disk: link(j.sourceDisk, i.attributes.source_disk), source_image: link(j.sourceImage, i.attributes.source_image),
    source_snapshot: link(j.sourceSnapshot, i.attributes.source_snapshot),
  }),
  fromState: (a) => ({
    kind: 'compute#image', name: nameOf(a), description: a.description || undefined, family: a.family || undefined,
    diskSizeGb: a.disk_size_gb === undefined || a.disk_size_gb === null ? undefined : String(a.disk_size_gb), labels: stateLabels(a),
    sourceDisk: a.source_disk || undefined, sourceImage: a.source_image || undefined, sourceSnapshot: a.source_snapshot || undefined,
    status: 'READY', selfLink: ownSelfLink(a, images),
  }),
});

const certificates = (a: Attrs, scope: Scope) => globalPath('sslCertificates', a, scope);
/** PEM text as the state holds it when only surrounding whitespace differs. */
const pem = (live: unknown, state: unknown) => (typeof live === 'string' && typeof state === 'string' && live.trim() === state.trim() ? state : live ?? '');

export const sslCertificateReader = computeReader({
  type: 'google_compute_ssl_certificate',
  service: 'compute',
  route: '/compute/v1/projects/:project/global/sslCertificates/:name',
  globalList: 'sslCertificates',
  pathOf: certificates,
  // The private key is write-only: the API never answers it.
  toState: (j, i) => ({ name: j.name, description: j.description ?? '', certificate: pem(j.certificate, i.attributes.certificate) }),
  fromState: (a) => ({ kind: 'compute#sslCertificate', name: nameOf(a), description: a.description || undefined, certificate: a.certificate || undefined, selfLink: ownSelfLink(a, certificates) }),
});

const managers = (a: Attrs, scope: Scope) => zonalPath('instanceGroupManagers', a, scope);
const version = (v: GJson, state: Attrs) => ({
  name: v.name ?? '', instance_template: link(v.instanceTemplate, state.instance_template),
  target_size: v.targetSize ? [{ fixed: int(v.targetSize.fixed), percent: int(v.targetSize.percent) }] : [],
});

export const instanceGroupManagerReader = anyLocation({
  type: 'google_compute_instance_group_manager',
  service: 'compute',
  route: '/compute/v1/projects/:project/zones/:zone/instanceGroupManagers/:name',
  aggregated: 'instanceGroupManagers',
  pathOf: managers,
  toState: (j, i) => {
    const a = i.attributes;
    return {
      // target_size is not compared: autoscalers move it, and the REST scan has no noise catalogue yet.
      name: j.name, description: j.description ?? '', base_instance_name: j.baseInstanceName ?? '',
      version: list(j.versions).map((v: GJson, n) => version(v, list(a.version)[n] ?? {})),
      named_port: list(j.namedPorts).map((p: GJson) => ({ name: p.name ?? '', port: int(p.port) })),
      target_pools: list(j.targetPools).map((p: string, n) => link(p, list(a.target_pools)[n])),
      auto_healing_policies: list(j.autoHealingPolicies).map((p: GJson, n) => ({
        health_check: link(p.healthCheck, list(a.auto_healing_policies)[n]?.health_check), initial_delay_sec: int(p.initialDelaySec),
      })),
    };
  },
  fromState: (a) => ({
    kind: 'compute#instanceGroupManager', name: nameOf(a), description: a.description || undefined, baseInstanceName: a.base_instance_name,
    zone: `https://www.googleapis.com/compute/v1/projects/${last(String(a.project ?? ''))}/zones/${last(a.zone)}`, targetSize: a.target_size,
    versions: list(a.version).map((v: Attrs) => ({
      name: v.name || undefined, instanceTemplate: v.instance_template,
      targetSize: list(v.target_size).length ? { fixed: list(v.target_size)[0].fixed || undefined, percent: list(v.target_size)[0].percent || undefined } : undefined,
    })),
    namedPorts: list(a.named_port).map((p: Attrs) => ({ name: p.name, port: p.port })),
    targetPools: list(a.target_pools).length ? a.target_pools : undefined,
    autoHealingPolicies: list(a.auto_healing_policies).map((p: Attrs) => ({ healthCheck: p.health_check, initialDelaySec: p.initial_delay_sec })),
    selfLink: ownSelfLink(a, managers),
  }),
  // named_port is a set in the provider.
  spec: { sets: { named_port: (e) => [`${(e as Attrs).name}:${(e as Attrs).port}`] } },
});
