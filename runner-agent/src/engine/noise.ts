// Known provider noise: attributes every account sees change without anyone editing them, so a
// drift there is never one a user acts on. Applied before the severity rules (compare.ts), on top
// of the ignore table (computed attributes) and the declaring block's ignore_changes (lifecycle.ts).
// An entry with a `when` applies only when the state shows what makes the attribute move (an
// autoscaling policy managing the group...). docs/detection-engine.md lists every entry and why.
import type { StateInstance } from './types.ts';

/** What the states say manages an attribute from outside Terraform. */
export interface NoiseContext {
  /** Auto Scaling group names an aws_autoscaling_policy or aws_autoscaling_schedule names. */
  scaledGroups: Set<string>;
  /** Application Auto Scaling resource ids an aws_appautoscaling_target names (`service/<cluster>/<name>`, `table/<name>`...). */
  scalableTargets: Set<string>;
}

export interface NoiseEntry {
  type: string;
  /** Attribute path in the engine's form (`*` = any list index). */
  attribute: string;
  /** Why every account sees it change. */
  why: string;
  /** Applies only when this holds for the instance; absent = always. */
  when?: { describe: string; test: (attributes: Record<string, unknown>, ctx: NoiseContext) => boolean };
}

const str = (v: unknown) => (typeof v === 'string' ? v : '');
const serviceName = (a: Record<string, unknown>) => str(a.name) || str(a.id).split('/').pop() || '';
/** An ECS service's cluster name, from its cluster ARN or name. */
const clusterName = (a: Record<string, unknown>) => str(a.cluster).split('/').pop() ?? '';

const scaledGroup = {
  describe: 'an aws_autoscaling_policy or aws_autoscaling_schedule of the state manages the group',
  test: (a: Record<string, unknown>, c: NoiseContext) => c.scaledGroups.has(str(a.name) || str(a.id)),
};
const scalableService = {
  describe: 'an aws_appautoscaling_target of the state scales the service',
  test: (a: Record<string, unknown>, c: NoiseContext) => c.scalableTargets.has(`service/${clusterName(a)}/${serviceName(a)}`),
};
const scalableTable = {
  describe: 'an aws_appautoscaling_target of the state scales the table',
  test: (a: Record<string, unknown>, c: NoiseContext) => c.scalableTargets.has(`table/${str(a.name) || str(a.id)}`),
};

export const PROVIDER_NOISE: NoiseEntry[] = [
  { type: 'aws_autoscaling_group', attribute: 'desired_capacity', when: scaledGroup,
    why: 'scaling policies and schedules set the desired capacity continuously; the provider documents ignore_changes for it' },
  { type: 'aws_ecs_service', attribute: 'desired_count', when: scalableService,
    why: 'Application Auto Scaling sets the running task count; the provider documents ignore_changes for it' },
  { type: 'aws_dynamodb_table', attribute: 'read_capacity', when: scalableTable, why: 'Application Auto Scaling sets provisioned read capacity' },
  { type: 'aws_dynamodb_table', attribute: 'write_capacity', when: scalableTable, why: 'Application Auto Scaling sets provisioned write capacity' },
  { type: 'aws_eks_node_group', attribute: 'scaling_config.*.desired_size',
    why: 'the cluster autoscaler (or Karpenter) sets the desired size; the provider documents ignore_changes for it' },
  { type: 'aws_lambda_function', attribute: 'last_modified', why: 'a timestamp AWS rewrites on every update, including its own (runtime patching, layer updates)' },
  { type: 'aws_db_instance', attribute: 'latest_restorable_time', why: 'moves forward every few minutes with the backups' },
  { type: 'aws_instance', attribute: 'instance_state', why: 'running/stopped changes with scheduled stops and scaling; Terraform does not plan it back' },
];

/** The noise context of the states a scan read. */
export function noiseContext(instances: StateInstance[]): NoiseContext {
  const ctx: NoiseContext = { scaledGroups: new Set(), scalableTargets: new Set() };
  for (const { type, attributes: a } of instances) {
    if ((type === 'aws_autoscaling_policy' || type === 'aws_autoscaling_schedule') && str(a.autoscaling_group_name)) ctx.scaledGroups.add(str(a.autoscaling_group_name));
    if (type === 'aws_appautoscaling_target' && str(a.resource_id)) ctx.scalableTargets.add(str(a.resource_id));
  }
  return ctx;
}

const BY_TYPE = new Map<string, NoiseEntry[]>();
for (const e of PROVIDER_NOISE) BY_TYPE.set(e.type, [...(BY_TYPE.get(e.type) ?? []), e]);

/** The noise paths that apply to one instance. */
export function noiseFor(instance: StateInstance, ctx: NoiseContext): string[] {
  return (BY_TYPE.get(instance.type) ?? []).filter((e) => !e.when || e.when.test(instance.attributes, ctx)).map((e) => e.attribute);
}
