// aws_autoscaling_group: DescribeAutoScalingGroups, 100 names a call (unknown names are simply
// absent; a group being deleted counts as gone).
import { DescribeAutoScalingGroups$, DescribeAutoScalingGroupsCommand, type AutoScalingGroup, type DescribeAutoScalingGroupsCommandOutput } from '@aws-sdk/client-auto-scaling';
import { genericKey } from '../../../diff.ts';
import { chunk } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { isEmpty, isObject } from '../../../values.ts';
import { answer, byRegion, str, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, list, num, opt } from '../replay/kit.ts';

const NAMES_PER_CALL = 100;
const nameOf = (a: Record<string, unknown>) => str(a.name || a.id);

function groupAttributes(g: AutoScalingGroup, state: Record<string, unknown>): LiveAttributes | null {
  if (g.Status?.startsWith('Delete')) return null;
  const lt = g.LaunchTemplate ?? g.MixedInstancesPolicy?.LaunchTemplate?.LaunchTemplateSpecification;
  return {
    name: g.AutoScalingGroupName, arn: g.AutoScalingGroupARN, min_size: g.MinSize, max_size: g.MaxSize, desired_capacity: g.DesiredCapacity,
    default_cooldown: g.DefaultCooldown, health_check_type: g.HealthCheckType, health_check_grace_period: g.HealthCheckGracePeriod,
    launch_configuration: g.LaunchConfigurationName ?? '', launch_template: lt && g.LaunchTemplate ? [{ id: lt.LaunchTemplateId, name: lt.LaunchTemplateName, version: lt.Version }] : [],
    vpc_zone_identifier: (g.VPCZoneIdentifier ?? '').split(',').filter(Boolean), availability_zones: g.AvailabilityZones ?? [],
    target_group_arns: g.TargetGroupARNs ?? [], load_balancers: g.LoadBalancerNames ?? [],
    // ["Default"] is what an unset list reads back as.
    termination_policies: g.TerminationPolicies?.join() === 'Default' && isEmpty(state.termination_policies) ? [] : g.TerminationPolicies ?? [],
    max_instance_lifetime: g.MaxInstanceLifetime ?? 0, capacity_rebalance: g.CapacityRebalance ?? false, service_linked_role_arn: g.ServiceLinkedRoleARN,
    protect_from_scale_in: g.NewInstancesProtectedFromScaleIn ?? false,
    tag: (g.Tags ?? []).filter((t) => t.Key && !t.Key.startsWith('aws:')).map((t) => ({ key: t.Key, value: t.Value ?? '', propagate_at_launch: t.PropagateAtLaunch ?? false })),
  };
}

export const autoscalingGroupReader: TypeReader = {
  // The API leaves MaxInstanceLifetime out when unset; the provider writes 0 (older states null).
  spec: { sets: { tag: genericKey }, defaults: { max_instance_lifetime: 0 } },
  answers: [answer<{ AutoScalingGroupNames?: string[] }>('autoscaling', DescribeAutoScalingGroups$, (input, world) => {
    const want = new Set(input.AutoScalingGroupNames ?? []);
    return { AutoScalingGroups: attrsOf(world, 'aws_autoscaling_group').filter((a) => want.has(nameOf(a))).map((a) => {
      const lt = block(a.launch_template);
      return {
        AutoScalingGroupName: nameOf(a), AutoScalingGroupARN: opt(a.arn), MinSize: num(a.min_size), MaxSize: num(a.max_size), DesiredCapacity: num(a.desired_capacity),
        DefaultCooldown: num(a.default_cooldown), HealthCheckType: opt(a.health_check_type), HealthCheckGracePeriod: num(a.health_check_grace_period),
        LaunchConfigurationName: opt(a.launch_configuration),
        LaunchTemplate: opt(lt.id) || opt(lt.name) ? { LaunchTemplateId: opt(lt.id), LaunchTemplateName: opt(lt.name), Version: opt(lt.version) } : undefined,
        VPCZoneIdentifier: list(a.vpc_zone_identifier).join(','), AvailabilityZones: list(a.availability_zones), TargetGroupARNs: list(a.target_group_arns),
        LoadBalancerNames: list(a.load_balancers), TerminationPolicies: list(a.termination_policies), MaxInstanceLifetime: num(a.max_instance_lifetime),
        CapacityRebalance: bool(a.capacity_rebalance), ServiceLinkedRoleARN: opt(a.service_linked_role_arn), NewInstancesProtectedFromScaleIn: bool(a.protect_from_scale_in),
        CreatedTime: new Date(0),
        Tags: (Array.isArray(a.tag) ? a.tag.filter(isObject) : []).map((t) => ({ Key: str(t.key), Value: str(t.value), PropagateAtLaunch: bool(t.propagate_at_launch), ResourceId: nameOf(a), ResourceType: 'auto-scaling-group' })),
      };
    }) };
  })],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const found = new Map<string, AutoScalingGroup>();
      for (const part of chunk([...new Set(group.map((g) => nameOf(g.item.instance.attributes)))], NAMES_PER_CALL)) {
        let token: string | undefined;
        do {
          const page = await ctx.send<DescribeAutoScalingGroupsCommandOutput>(ctx.autoscaling(region),
            new DescribeAutoScalingGroupsCommand({ AutoScalingGroupNames: part, MaxRecords: 100, NextToken: token }), 'autoscaling:DescribeAutoScalingGroups');
          for (const g of page.AutoScalingGroups ?? []) if (g.AutoScalingGroupName) found.set(g.AutoScalingGroupName, g);
          token = page.NextToken;
        } while (token);
      }
      for (const { item, index } of group) {
        const g = found.get(nameOf(item.instance.attributes));
        if (g) out[index] = groupAttributes(g, item.instance.attributes);
      }
    }
    return out;
  },
};
