// aws_ecs_cluster (DescribeClusters, 100 a call), aws_ecs_service (DescribeServices, 10 a call
// per cluster) and aws_ecs_task_definition (one DescribeTaskDefinition each: no batch exists).
// Unknown ids come back in `failures`; INACTIVE clusters, services and task definitions are gone.
import {
  DescribeClusters$, DescribeClustersCommand, DescribeServices$, DescribeServicesCommand, DescribeTaskDefinition$, DescribeTaskDefinitionCommand,
  type DescribeClustersCommandOutput, type DescribeServicesCommandOutput, type DescribeTaskDefinitionCommandOutput, type Service,
} from '@aws-sdk/client-ecs';
import { genericKey } from '../../../diff.ts';
import { chunk, mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { canonicalText, isEmpty, isObject } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, byRegion, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt, stateTags, tagPairs } from '../replay/kit.ts';

const tagsOf = (t: { key?: string; value?: string }[] | undefined) => Object.fromEntries((t ?? []).filter((x) => x.key && !x.key.startsWith('aws:')).map((x) => [x.key, x.value ?? '']));
const objects = (v: unknown) => (Array.isArray(v) ? v.filter(isObject) : []);

/** Batched Describe by ids, per region; `key` names a record by the id the state holds. */
async function describeMany<R>(items: Parameters<TypeReader['read']>[0], idOf: (a: Record<string, unknown>) => string, per: number,
  call: (region: string, ids: string[]) => Promise<R[]>, key: (r: R) => string[], live: (r: R, a: Record<string, unknown>) => LiveAttributes | null): Promise<(LiveAttributes | null)[]> {
  const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
  for (const [region, group] of byRegion(items)) {
    const found = new Map<string, R>();
    for (const part of chunk([...new Set(group.map((g) => idOf(g.item.instance.attributes)))], per)) for (const r of await call(region, part)) for (const k of key(r)) found.set(k, r);
    for (const { item, index } of group) {
      const r = found.get(idOf(item.instance.attributes));
      if (r) out[index] = live(r, item.instance.attributes);
    }
  }
  return out;
}

// ---- clusters ----------------------------------------------------------------------------

/** Container Insights "disabled" is every cluster's default: present or absent, it is the same setting. */
const settingKey = (e: unknown) => (isObject(e) && e.name === 'containerInsights' && e.value === 'disabled' ? [] : genericKey(e));

export const ecsClusterReader: TypeReader = {
  spec: { sets: { setting: settingKey } },
  answers: [answer<{ clusters?: string[] }>('ecs', DescribeClusters$, (input, world) => {
    const all = attrsOf(world, 'aws_ecs_cluster');
    const ids = input.clusters ?? [];
    const hit = (id: string) => all.find((a) => str(a.arn || a.id) === id || str(a.name) === id);
    return {
      clusters: ids.map(hit).filter((a): a is Record<string, unknown> => !!a).map((a) => ({
        clusterArn: str(a.arn || a.id), clusterName: opt(a.name), status: 'ACTIVE', tags: tagPairs(stateTags(a)),
        settings: objects(a.setting).map((s) => ({ name: str(s.name), value: str(s.value) })),
      })),
      failures: ids.filter((id) => !hit(id)).map((arn) => ({ arn, reason: 'MISSING' })),
    };
  })],
  read: (items, ctx) => describeMany(items, (a) => str(a.arn || a.id), 100, async (region, ids) =>
    (await ctx.send<DescribeClustersCommandOutput>(ctx.ecs(region), new DescribeClustersCommand({ clusters: ids, include: ['TAGS', 'SETTINGS'] }), 'ecs:DescribeClusters')).clusters ?? [],
  (c) => [c.clusterArn ?? '', c.clusterName ?? ''], (c) => {
    if (c.status === 'INACTIVE') return null;
    const tags = tagsOf(c.tags);
    return { name: c.clusterName, arn: c.clusterArn, setting: (c.settings ?? []).map((s) => ({ name: s.name, value: s.value })), tags, tags_all: tags };
  }),
};

// ---- services ----------------------------------------------------------------------------

/** The state keeps a task definition as configured (`family:revision` or an ARN): the live ARN in that spelling. */
const taskDefinitionAs = (live: string | undefined, state: unknown) => {
  const s = str(state);
  if (!live || s.startsWith('arn:')) return live;
  const familyRev = live.split('task-definition/').pop() ?? live;
  return s.includes(':') ? familyRev : familyRev.split(':')[0];
};

function serviceAttributes(s: Service, state: Record<string, unknown>): LiveAttributes | null {
  if (s.status === 'INACTIVE') return null;
  const net = s.networkConfiguration?.awsvpcConfiguration;
  const tags = tagsOf(s.tags);
  return {
    name: s.serviceName, id: s.serviceArn, cluster: s.clusterArn, task_definition: taskDefinitionAs(s.taskDefinition, state.task_definition),
    desired_count: s.desiredCount, launch_type: s.launchType ?? '', scheduling_strategy: s.schedulingStrategy, platform_version: s.platformVersion ?? '',
    enable_ecs_managed_tags: s.enableECSManagedTags ?? false, propagate_tags: s.propagateTags ?? 'NONE', enable_execute_command: s.enableExecuteCommand ?? false,
    health_check_grace_period_seconds: s.healthCheckGracePeriodSeconds ?? 0,
    deployment_maximum_percent: s.deploymentConfiguration?.maximumPercent, deployment_minimum_healthy_percent: s.deploymentConfiguration?.minimumHealthyPercent,
    network_configuration: net ? [{ subnets: net.subnets ?? [], security_groups: net.securityGroups ?? [], assign_public_ip: net.assignPublicIp === 'ENABLED' }] : [],
    load_balancer: (s.loadBalancers ?? []).map((l) => ({ target_group_arn: l.targetGroupArn ?? '', elb_name: l.loadBalancerName ?? '', container_name: l.containerName, container_port: l.containerPort })),
    tags, tags_all: tags,
  };
}

export const ecsServiceReader: TypeReader = {
  spec: { sets: { load_balancer: genericKey } },
  answers: [answer<{ cluster?: string; services?: string[] }>('ecs', DescribeServices$, (input, world) => {
    const all = attrsOf(world, 'aws_ecs_service').filter((a) => !input.cluster || str(a.cluster) === input.cluster);
    const hit = (id: string) => all.find((a) => str(a.id) === id || str(a.name) === id);
    const ids = input.services ?? [];
    return {
      services: ids.map(hit).filter((a): a is Record<string, unknown> => !!a).map((a) => {
        const net = block(a.network_configuration);
        return {
          serviceArn: str(a.id), serviceName: opt(a.name), clusterArn: opt(a.cluster), taskDefinition: opt(a.task_definition), desiredCount: num(a.desired_count),
          launchType: opt(a.launch_type), schedulingStrategy: opt(a.scheduling_strategy), platformVersion: opt(a.platform_version), status: 'ACTIVE',
          enableECSManagedTags: bool(a.enable_ecs_managed_tags), propagateTags: opt(a.propagate_tags), enableExecuteCommand: bool(a.enable_execute_command),
          healthCheckGracePeriodSeconds: num(a.health_check_grace_period_seconds),
          deploymentConfiguration: { maximumPercent: num(a.deployment_maximum_percent), minimumHealthyPercent: num(a.deployment_minimum_healthy_percent) },
          networkConfiguration: isEmpty(net) ? undefined : { awsvpcConfiguration: { subnets: list(net.subnets), securityGroups: list(net.security_groups), assignPublicIp: bool(net.assign_public_ip) ? 'ENABLED' : 'DISABLED' } },
          loadBalancers: objects(a.load_balancer).map((l) => ({ targetGroupArn: opt(l.target_group_arn), loadBalancerName: opt(l.elb_name), containerName: opt(l.container_name), containerPort: num(l.container_port) })),
          tags: tagPairs(stateTags(a)),
        };
      }),
      failures: ids.filter((id) => !hit(id)).map((arn) => ({ arn, reason: 'MISSING' })),
    };
  })],
  async read(items, ctx) {
    // DescribeServices takes one cluster per call: group by the state's cluster.
    const byCluster = new Map<string, number[]>();
    items.forEach((it, i) => byCluster.set(`${it.region}|${str(it.instance.attributes.cluster)}`, [...(byCluster.get(`${it.region}|${str(it.instance.attributes.cluster)}`) ?? []), i]));
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [key, indexes] of byCluster) {
      const cluster = key.slice(key.indexOf('|') + 1);
      const part = await describeMany(indexes.map((i) => items[i]), (a) => str(a.id || a.name), 10, async (region, ids) =>
        (await ctx.send<DescribeServicesCommandOutput>(ctx.ecs(region), new DescribeServicesCommand({ cluster, services: ids, include: ['TAGS'] }), 'ecs:DescribeServices')).services ?? [],
      (s) => [s.serviceArn ?? '', s.serviceName ?? ''], serviceAttributes);
      indexes.forEach((i, k) => { out[i] = part[k]; });
    }
    return out;
  },
};

// ---- task definitions ----------------------------------------------------------------------

/** Container definitions without empty values, as one canonical text (the API adds empty lists and defaults). */
function containerText(v: unknown): string {
  const strip = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(strip).filter((y) => !isEmpty(y));
    if (isObject(x)) return Object.fromEntries(Object.entries(x).map(([k, y]) => [k, strip(y)]).filter(([, y]) => !isEmpty(y)));
    return x;
  };
  try { return canonicalText(strip(typeof v === 'string' ? JSON.parse(v) : v)); } catch { return str(v); }
}

export const ecsTaskDefinitionReader: TypeReader = {
  spec: {},
  answers: [answer<{ taskDefinition: string }>('ecs', DescribeTaskDefinition$, (input, world) => {
    const a = attrsOf(world, 'aws_ecs_task_definition').find((x) => [str(x.arn), str(x.id), `${str(x.family)}:${str(x.revision)}`].includes(input.taskDefinition));
    if (!a) throw new FakeError('ClientException', 'Unable to describe task definition.');
    let containers: unknown = [];
    try { containers = JSON.parse(str(a.container_definitions) || '[]'); } catch { /* the reader compares text then */ }
    return {
      taskDefinition: {
        taskDefinitionArn: opt(a.arn), family: opt(a.family), revision: num(a.revision), status: 'ACTIVE', cpu: opt(a.cpu), memory: opt(a.memory),
        networkMode: opt(a.network_mode), requiresCompatibilities: list(a.requires_compatibilities), executionRoleArn: opt(a.execution_role_arn),
        taskRoleArn: opt(a.task_role_arn), containerDefinitions: containers, pidMode: opt(a.pid_mode), ipcMode: opt(a.ipc_mode),
      },
      tags: tagPairs(stateTags(a)),
    };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const a = instance.attributes;
    const out = await unlessAbsent(ctx.send<DescribeTaskDefinitionCommandOutput>(ctx.ecs(region),
      new DescribeTaskDefinitionCommand({ taskDefinition: str(a.arn || a.id), include: ['TAGS'] }), 'ecs:DescribeTaskDefinition'), ['ClientException']);
    const d = out?.taskDefinition;
    if (!d || d.status === 'INACTIVE' || d.status === 'DELETE_IN_PROGRESS') return null;
    const tags = tagsOf(out.tags);
    const liveContainers = containerText(d.containerDefinitions ?? []);
    return {
      arn: d.taskDefinitionArn, family: d.family, revision: d.revision, cpu: d.cpu ?? '', memory: d.memory ?? '', network_mode: d.networkMode ?? '',
      requires_compatibilities: d.requiresCompatibilities ?? [], execution_role_arn: d.executionRoleArn ?? '', task_role_arn: d.taskRoleArn ?? '',
      pid_mode: d.pidMode ?? '', ipc_mode: d.ipcMode ?? '',
      // Same containers in another spelling read back as the state's own text; a real change shows the API's.
      container_definitions: liveContainers === containerText(a.container_definitions) ? a.container_definitions : JSON.stringify(d.containerDefinitions ?? []),
      tags, tags_all: tags,
    };
  }),
};
