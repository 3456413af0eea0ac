// google_kms_key_ring and google_kms_crypto_key: Cloud KMS v1. A key ring is only there or not (it
// has no mutable field, and cannot be deleted: a ring gone means a wrong project or location); a
// key's purpose, rotation period, version template and labels are compared. Keys of one ring are
// read with one paged `cryptoKeys` list when the state holds several there; rings of one
// location with one `keyRings` list.
import type { Scope } from '../../rest/reader.ts';
import { ownProject, type GJson } from '../kit.ts';
import { listedReader, opt, short } from '../data/kit.ts';

type A = Record<string, any>;
const text = (v: unknown) => (typeof v === 'string' && v ? v : undefined);

/** `projects/P/locations/L/keyRings/R`: the id (provider 2+), else project, location and name. */
function ringName(a: A, scope: Scope): string | undefined {
  const id = text(a.id);
  if (id?.startsWith('projects/') && id.includes('/keyRings/')) return id.split('/cryptoKeys/')[0];
  const project = ownProject(a) ?? scope.account;
  return project && a.location && a.name ? `projects/${project}/locations/${a.location}/keyRings/${a.name}` : undefined;
}
/** A key's ring: `key_ring` (full name; provider 1.x wrote `P/L/R`), else its id. */
function keyRingOf(a: A): string | undefined {
  const ring = text(a.key_ring);
  if (ring?.startsWith('projects/')) return ring;
  const parts = ring?.split('/');
  if (parts?.length === 3) return `projects/${parts[0]}/locations/${parts[1]}/keyRings/${parts[2]}`;
  const id = text(a.id);
  return id?.includes('/cryptoKeys/') ? id.split('/cryptoKeys/')[0] : undefined;
}
const keyName = (a: A) => { const ring = keyRingOf(a); return ring && a.name ? `${ring}/cryptoKeys/${short(a.name)}` : undefined; };

export const kmsKeyRingReader = listedReader({
  type: 'google_kms_key_ring',
  service: 'cloudkms',
  route: '/v1/projects/:project/locations/:location/keyRings/:name',
  pathOf: (a, scope) => { const n = ringName(a, scope); return n && `/v1/${n}`; },
  toState: (j) => ({ name: short(j.name) }),
  fromState: (a) => ({ name: ringName(a, { account: ownProject(a) ?? '', location: null, source: 'fake' }), createTime: '2021-01-01T00:00:00Z' }),
}, {
  path: (a, scope) => { const n = ringName(a, scope); return n && `/v1/${n.split('/keyRings/')[0]}/keyRings?pageSize=1000`; },
  route: '/v1/projects/:project/locations/:location/keyRings',
  key: 'keyRings',
  pathOfItem: (j) => (j.name ? `/v1/${j.name}` : undefined),
});

export const kmsCryptoKeyReader = listedReader({
  type: 'google_kms_crypto_key',
  service: 'cloudkms',
  route: '/v1/projects/:project/locations/:location/keyRings/:ring/cryptoKeys/:name',
  pathOf: (a) => { const n = keyName(a); return n && `/v1/${n}`; },
  toState: (j) => ({
    name: short(j.name), purpose: j.purpose ?? 'ENCRYPT_DECRYPT',
    // No rotation is "" in state; the API leaves the field out.
    rotation_period: j.rotationPeriod ?? '',
    version_template: opt(j.versionTemplate, () => ({ algorithm: j.versionTemplate.algorithm ?? '', protection_level: j.versionTemplate.protectionLevel ?? 'SOFTWARE' })),
    labels: j.labels ?? {},
    import_only: j.importOnly ?? false,
    destroy_scheduled_duration: j.destroyScheduledDuration ?? '',
  }),
  fromState: (a) => {
    const vt = Array.isArray(a.version_template) ? a.version_template[0] : undefined;
    return {
      name: keyName(a), purpose: a.purpose || 'ENCRYPT_DECRYPT', rotationPeriod: a.rotation_period || undefined,
      nextRotationTime: a.rotation_period ? '2030-01-01T00:00:00Z' : undefined,
      versionTemplate: vt ? { algorithm: vt.algorithm, protectionLevel: vt.protection_level || 'SOFTWARE' } : { algorithm: 'GOOGLE_SYMMETRIC_ENCRYPTION', protectionLevel: 'SOFTWARE' },
      labels: a.effective_labels ?? a.labels ?? undefined, importOnly: a.import_only || undefined,
      destroyScheduledDuration: a.destroy_scheduled_duration || undefined, createTime: '2021-01-01T00:00:00Z',
      primary: a.purpose === 'ENCRYPT_DECRYPT' || !a.purpose ? { name: `${keyName(a)}/cryptoKeyVersions/1`, state: 'ENABLED' } : undefined,
    } satisfies GJson;
  },
}, {
  path: (a) => { const ring = keyRingOf(a); return ring && `/v1/${ring}/cryptoKeys?pageSize=1000`; },
  route: '/v1/projects/:project/locations/:location/keyRings/:ring/cryptoKeys',
  key: 'cryptoKeys',
  pathOfItem: (j) => (j.name ? `/v1/${j.name}` : undefined),
});
