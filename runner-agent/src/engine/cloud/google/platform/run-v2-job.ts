// google_cloud_run_v2_job (Cloud Run Admin API v2): a region holding LIST_FROM or more of the
// jobs is read with one paged `projects/P/locations/L/jobs` list, the others with one GET each.
// Executions (counts, the latest one, conditions) are the job's history, not its configuration.
import { genericKey } from '../../../diff.ts';
import type { LiveAttributes } from '../../../types.ts';
import { last, type GJson } from '../kit.ts';
import { compact } from './container-map.ts';
import { listedReader } from './listed.ts';
import { containers, containersFromState, first, list, v2Path } from './run-v2.ts';

type A = Record<string, any>;
const ENV_SETS = Object.fromEntries(Array.from({ length: 10 }, (_, k) => [`template.0.template.0.containers.${k}.env`, genericKey]));

const path = v2Path('jobs');

function toState(j: GJson, a: A): LiveAttributes {
  const t = j.template ?? {};
  const task = t.template ?? {};
  return compact({
    name: j.name?.split('/').pop(), launch_stage: j.launchStage,
    ...('effective_annotations' in a ? { effective_annotations: j.annotations ?? {} } : { annotations: j.annotations ?? {} }),
    labels: j.labels ?? {},
    template: [{
      parallelism: t.parallelism ?? 0, task_count: t.taskCount ?? 1, labels: t.labels ?? {}, annotations: t.annotations ?? {},
      template: [{
        timeout: task.timeout, service_account: task.serviceAccount, max_retries: task.maxRetries ?? 0,
        execution_environment: task.executionEnvironment ?? '', encryption_key: task.encryptionKey ?? '',
        vpc_access: task.vpcAccess ? [{ connector: task.vpcAccess.connector ?? '', egress: task.vpcAccess.egress ?? '' }] : [],
        containers: containers(task.containers),
      }],
    }],
  });
}

function fromState(a: A, project: string): GJson {
  const t = first(a.template);
  const task = first(t.template);
  const vpc = first(task.vpc_access);
  return {
    name: `projects/${project}/locations/${a.location}/jobs/${a.name}`, uid: a.uid, generation: a.generation, etag: a.etag, launchStage: a.launch_stage,
    labels: a.effective_labels ?? a.labels ?? undefined, annotations: a.effective_annotations ?? a.annotations ?? undefined,
    template: {
      parallelism: t.parallelism || undefined, taskCount: t.task_count, labels: t.labels ?? undefined, annotations: t.annotations ?? undefined,
      template: {
        timeout: task.timeout, serviceAccount: task.service_account, maxRetries: task.max_retries || undefined,
        executionEnvironment: task.execution_environment || undefined, encryptionKey: task.encryption_key || undefined,
        vpcAccess: list(task.vpc_access).length ? { connector: vpc.connector || undefined, egress: vpc.egress || undefined } : undefined,
        containers: containersFromState(task.containers),
      },
    },
  };
}

export const cloudRunV2JobReader = listedReader({
  type: 'google_cloud_run_v2_job',
  service: 'run',
  route: '/v2/projects/:project/locations/:location/jobs/:name',
  pathOf: (a, scope) => path(a, scope.account),
  listPath: (project, a) => `/v2/projects/${project}/locations/${a.location}/jobs?pageSize=100`,
  listRoute: '/v2/projects/:project/locations/:location/jobs',
  items: 'jobs',
  inList: (i, req) => i.attributes.location === req.params.location,
  keyOfState: (a) => (typeof a.name === 'string' ? last(a.name) : undefined),
  keyOfJson: (j) => last(j.name),
  toState: (j, i) => toState(j, i.attributes),
  fromState: (a) => fromState(a, String(a.project ?? '')),
  spec: { sets: ENV_SETS },
});
