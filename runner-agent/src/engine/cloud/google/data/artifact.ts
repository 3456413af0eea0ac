// google_artifact_registry_repository: artifactregistry v1
// `projects/P/locations/L/repositories/R`; a location's repositories are read with one paged list
// when the state holds several there.
import { ownProject } from '../kit.ts';
import { ownLocation } from '../scope.ts';
import { listedReader, setOfNonEmpty, short } from './kit.ts';

const parent = (a: Record<string, any>, project: string) => {
  const location = ownLocation(a);
  return location && project ? `/v1/projects/${project}/locations/${location}/repositories` : undefined;
};
const repoId = (a: Record<string, any>) => (a.repository_id || short(a.name) || undefined) as string | undefined;

export const artifactRepositoryReader = listedReader({
  type: 'google_artifact_registry_repository',
  service: 'artifactregistry',
  route: '/v1/projects/:project/locations/:location/repositories/:name',
  pathOf: (a, scope) => { const p = parent(a, scope.account); const id = repoId(a); return p && id ? `${p}/${id}` : undefined; },
  toState: (j) => ({
    repository_id: short(j.name), name: short(j.name), format: j.format, description: j.description ?? '', labels: j.labels ?? {},
    kms_key_name: j.kmsKeyName ?? '', mode: j.mode ?? 'STANDARD_REPOSITORY', cleanup_policy_dry_run: j.cleanupPolicyDryRun ?? false,
    docker_config: j.dockerConfig ? [{ immutable_tags: j.dockerConfig.immutableTags ?? false }] : [],
  }),
  fromState: (a) => ({
    name: `projects/${ownProject(a) ?? ''}/locations/${ownLocation(a) ?? ''}/repositories/${repoId(a)}`, format: a.format,
    description: a.description || undefined, labels: a.effective_labels ?? a.labels ?? undefined, kmsKeyName: a.kms_key_name || undefined,
    mode: a.mode || undefined, cleanupPolicyDryRun: a.cleanup_policy_dry_run || undefined,
    dockerConfig: a.docker_config?.[0] ? { immutableTags: a.docker_config[0].immutable_tags } : undefined,
    createTime: a.create_time, updateTime: a.update_time, sizeBytes: '0',
  }),
  spec: { sets: { docker_config: setOfNonEmpty((e) => ({ immutable: e.immutable_tags })) } },
}, {
  // 1,000 is the largest page the API serves.
  path: (a, scope) => { const p = parent(a, scope.account); return p && `${p}?pageSize=1000`; },
  route: '/v1/projects/:project/locations/:location/repositories',
  key: 'repositories',
  pathOfItem: (j) => (j.name ? `/v1/${j.name}` : undefined),
});
