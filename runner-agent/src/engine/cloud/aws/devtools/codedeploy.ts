// aws_codedeploy_app: BatchGetApplications, 100 names a call per region; aws_codedeploy_deployment_group:
// BatchGetDeploymentGroups, 100 groups of one application a call. Tags cost one
// ListTagsForResource per resource (CodeDeploy's batch reads carry none). A batch naming a deleted
// application fails whole (ApplicationDoesNotExistException): its names are then asked one by one.
import {
  BatchGetApplications$, BatchGetApplicationsCommand, BatchGetDeploymentGroups$, BatchGetDeploymentGroupsCommand, ListTagsForResource$, ListTagsForResourceCommand,
  type ApplicationInfo, type BatchGetApplicationsCommandOutput, type BatchGetDeploymentGroupsCommandOutput, type DeploymentGroupInfo, type ListTagsForResourceCommandOutput,
} from '@aws-sdk/client-codedeploy';
import { chunk, mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { isObject, tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { answer, byRegion, str, unlessAbsent, type ReadItem, type TypeReader } from '../reader.ts';
import { blockAs } from '../provider-defaults.ts';
import { attrsOf, block, bool, FakeError, list, opt, stateTags, tagList } from '../replay/kit.ts';

const PER_CALL = 100;
const appNameOf = (a: Record<string, unknown>) => str(a.name || str(a.id).split(':').pop());
const GONE = ['ApplicationDoesNotExistException', 'DeploymentGroupDoesNotExistException', 'ResourceArnRequiredException', 'InvalidArnException'];

async function tagsOf(ctx: AwsContext, region: string, arn: unknown): Promise<Record<string, string>> {
  if (!str(arn)) return {};
  const out = await unlessAbsent(ctx.send<ListTagsForResourceCommandOutput>(ctx.codedeploy(region), new ListTagsForResourceCommand({ ResourceArn: str(arn) }), 'codedeploy:ListTagsForResource'), GONE);
  return tagMap(out?.Tags);
}

/** Fills `out` by index: per region, names in batches of PER_CALL, then the tags of what exists. */
async function batchRead<T>(items: ReadItem[], ctx: AwsContext, keyOf: (a: Record<string, unknown>) => string,
  fetch: (region: string, keys: string[]) => Promise<Map<string, T>>, shape: (found: T, tags: Record<string, string>, state: Record<string, unknown>) => LiveAttributes): Promise<(LiveAttributes | null)[]> {
  const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
  for (const [region, group] of byRegion(items)) {
    const found = new Map<string, T>();
    for (const keys of chunk([...new Set(group.map(({ item }) => keyOf(item.instance.attributes)))], PER_CALL)) for (const [k, v] of await fetch(region, keys)) found.set(k, v);
    await mapLimit(group, PER_RESOURCE_CONCURRENCY, async ({ item, index }) => {
      const f = found.get(keyOf(item.instance.attributes));
      if (f) out[index] = shape(f, await tagsOf(ctx, region, item.instance.attributes.arn), item.instance.attributes);
    });
  }
  return out;
}

const tagsAnswer = answer<{ ResourceArn: string }>('codedeploy', ListTagsForResource$, (input, world) => {
  const a = [...attrsOf(world, 'aws_codedeploy_app'), ...attrsOf(world, 'aws_codedeploy_deployment_group')].find((x) => str(x.arn) === input.ResourceArn);
  return { Tags: a ? tagList(stateTags(a)) : [] };
});

export const codedeployAppReader: TypeReader = {
  spec: {},
  answers: [
    answer<{ applicationNames: string[] }>('codedeploy', BatchGetApplications$, (input, world) => {
      const found = attrsOf(world, 'aws_codedeploy_app').filter((a) => input.applicationNames.includes(appNameOf(a)));
      // As the service does: one unknown name fails the whole batch.
      const missing = input.applicationNames.find((n) => !found.some((a) => appNameOf(a) === n));
      if (missing) throw new FakeError('ApplicationDoesNotExistException', `Application ${missing} does not exist`);
      return { applicationsInfo: found.map((a) => ({
        applicationId: opt(a.application_id), applicationName: appNameOf(a), computePlatform: opt(a.compute_platform), linkedToGitHub: bool(a.linked_to_github), gitHubAccountName: opt(a.github_account_name),
      })) };
    }),
    tagsAnswer,
  ],
  read: (items, ctx) => batchRead<ApplicationInfo>(items, ctx, appNameOf, async (region, names) => {
    const get = (applicationNames: string[]) => unlessAbsent(ctx.send<BatchGetApplicationsCommandOutput>(ctx.codedeploy(region), new BatchGetApplicationsCommand({ applicationNames }), 'codedeploy:BatchGetApplications'), GONE);
    // One deleted application fails the whole batch: then each name is asked alone (the deleted ones come back empty).
    const batch = await get(names);
    const infos = batch ? batch.applicationsInfo ?? [] : (await mapLimit(names, PER_RESOURCE_CONCURRENCY, async (n) => (await get([n]))?.applicationsInfo ?? [])).flat();
    return new Map(infos.map((a) => [str(a.applicationName), a]));
  }, (a, tags) => ({
    name: a.applicationName, application_id: a.applicationId, compute_platform: a.computePlatform, linked_to_github: a.linkedToGitHub ?? false,
    github_account_name: a.gitHubAccountName ?? '', tags, tags_all: tags,
  })),
};

const groupKey = (a: Record<string, unknown>) => `${str(a.app_name)}/${str(a.deployment_group_name)}`;

function groupAttributes(g: DeploymentGroupInfo, tags: Record<string, string>, state: Record<string, unknown>): LiveAttributes {
  const ar = g.autoRollbackConfiguration;
  const al = g.alarmConfiguration;
  return {
    app_name: g.applicationName, deployment_group_name: g.deploymentGroupName, deployment_group_id: g.deploymentGroupId, service_role_arn: g.serviceRoleArn,
    deployment_config_name: g.deploymentConfigName ?? 'CodeDeployDefault.OneAtATime', compute_platform: g.computePlatform, outdated_instances_strategy: g.outdatedInstancesStrategy,
    autoscaling_groups: (g.autoScalingGroups ?? []).map((x) => x.name), ec2_tag_filter: (g.ec2TagFilters ?? []).map((f) => ({ key: f.Key ?? '', type: f.Type ?? '', value: f.Value ?? '' })),
    deployment_style: [{ deployment_option: g.deploymentStyle?.deploymentOption ?? 'WITHOUT_TRAFFIC_CONTROL', deployment_type: g.deploymentStyle?.deploymentType ?? 'IN_PLACE' }],
    auto_rollback_configuration: blockAs(ar && { enabled: ar.enabled ?? false, events: ar.events ?? [] }, state.auto_rollback_configuration),
    alarm_configuration: blockAs(al && { enabled: al.enabled ?? false, ignore_poll_alarm_failure: al.ignorePollAlarmFailure ?? false, alarms: (al.alarms ?? []).map((x) => x.name) }, state.alarm_configuration),
    ecs_service: (g.ecsServices ?? []).map((s) => ({ cluster_name: s.clusterName, service_name: s.serviceName })),
    tags, tags_all: tags,
  };
}

export const codedeployGroupReader: TypeReader = {
  spec: { sets: { ec2_tag_filter: (e) => (isObject(e) ? [`${str(e.key)}|${str(e.type)}|${str(e.value)}`] : []) } },
  answers: [
    answer<{ applicationName: string; deploymentGroupNames: string[] }>('codedeploy', BatchGetDeploymentGroups$, (input, world) => ({
      deploymentGroupsInfo: attrsOf(world, 'aws_codedeploy_deployment_group')
        .filter((a) => str(a.app_name) === input.applicationName && input.deploymentGroupNames.includes(str(a.deployment_group_name))).map((a) => {
          const ar = block(a.auto_rollback_configuration);
          const al = block(a.alarm_configuration);
          const ds = block(a.deployment_style);
          return {
            applicationName: input.applicationName, deploymentGroupName: str(a.deployment_group_name), deploymentGroupId: opt(a.deployment_group_id), serviceRoleArn: opt(a.service_role_arn),
            deploymentConfigName: opt(a.deployment_config_name), computePlatform: opt(a.compute_platform), outdatedInstancesStrategy: opt(a.outdated_instances_strategy),
            autoScalingGroups: list(a.autoscaling_groups).map((name) => ({ name })),
            ec2TagFilters: (Array.isArray(a.ec2_tag_filter) ? a.ec2_tag_filter : []).filter(isObject).map((f) => ({ Key: opt(f.key), Type: opt(f.type), Value: opt(f.value) })),
            deploymentStyle: { deploymentOption: opt(ds.deployment_option), deploymentType: opt(ds.deployment_type) },
            autoRollbackConfiguration: Object.keys(ar).length ? { enabled: bool(ar.enabled), events: list(ar.events) } : undefined,
            alarmConfiguration: Object.keys(al).length ? { enabled: bool(al.enabled), ignorePollAlarmFailure: bool(al.ignore_poll_alarm_failure), alarms: list(al.alarms).map((name) => ({ name })) } : undefined,
            ecsServices: (Array.isArray(a.ecs_service) ? a.ecs_service : []).filter(isObject).map((s) => ({ clusterName: opt(s.cluster_name), serviceName: opt(s.service_name) })),
          };
        }),
    })),
    tagsAnswer,
  ],
  read: (items, ctx) => batchRead<DeploymentGroupInfo>(items, ctx, groupKey, async (region, keys) => {
    // One call per application: BatchGetDeploymentGroups takes the groups of a single application.
    const byApp = new Map<string, string[]>();
    for (const k of keys) { const [app, ...rest] = k.split('/'); byApp.set(app, [...(byApp.get(app) ?? []), rest.join('/')]); }
    const found = new Map<string, DeploymentGroupInfo>();
    for (const [app, names] of byApp) {
      const out = await unlessAbsent(ctx.send<BatchGetDeploymentGroupsCommandOutput>(ctx.codedeploy(region), new BatchGetDeploymentGroupsCommand({ applicationName: app, deploymentGroupNames: names }), 'codedeploy:BatchGetDeploymentGroups'), GONE);
      for (const g of out?.deploymentGroupsInfo ?? []) found.set(`${g.applicationName}/${g.deploymentGroupName}`, g);
    }
    return found;
  }, groupAttributes),
};
