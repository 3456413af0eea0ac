// aws_autoscaling_policy: DescribePolicies per autoscaling group, 50 policy names a call, every
// page (the API selects policies within one group).
import { DescribePolicies$, DescribePoliciesCommand, type DescribePoliciesCommandOutput, type ScalingPolicy } from '@aws-sdk/client-auto-scaling';
import { chunk } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { isObject } from '../../../values.ts';
import { answer, byRegion, str, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, num, opt } from '../replay/kit.ts';

const nameOf = (a: Record<string, unknown>) => str(a.name || a.id);
const bound = (v: unknown) => (v === undefined || v === null || v === '' ? '' : String(Number(v)));
const many = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** A step as the provider writes it: bounds as text ("" for none). */
const stepKey = (e: unknown): string[] => (isObject(e) ? [`${bound(e.metric_interval_lower_bound)}|${bound(e.metric_interval_upper_bound)}|${Number(e.scaling_adjustment)}`] : []);

function live(p: ScalingPolicy): LiveAttributes {
  const t = p.TargetTrackingConfiguration;
  return {
    name: p.PolicyName, autoscaling_group_name: p.AutoScalingGroupName, policy_type: p.PolicyType ?? 'SimpleScaling', adjustment_type: p.AdjustmentType ?? '',
    cooldown: p.Cooldown ?? 0, scaling_adjustment: p.ScalingAdjustment ?? 0, min_adjustment_magnitude: p.MinAdjustmentMagnitude ?? 0,
    metric_aggregation_type: p.MetricAggregationType ?? '', estimated_instance_warmup: p.EstimatedInstanceWarmup ?? 0, enabled: p.Enabled ?? true,
    step_adjustment: (p.StepAdjustments ?? []).map((s) => ({
      metric_interval_lower_bound: bound(s.MetricIntervalLowerBound), metric_interval_upper_bound: bound(s.MetricIntervalUpperBound), scaling_adjustment: s.ScalingAdjustment,
    })),
    target_tracking_configuration: t ? [{
      target_value: t.TargetValue, disable_scale_in: t.DisableScaleIn ?? false,
      predefined_metric_specification: t.PredefinedMetricSpecification
        ? [{ predefined_metric_type: t.PredefinedMetricSpecification.PredefinedMetricType, resource_label: t.PredefinedMetricSpecification.ResourceLabel ?? '' }] : [],
    }] : [],
  };
}

export const autoscalingPolicyReader: TypeReader = {
  spec: { sets: { step_adjustment: stepKey } },
  answers: [answer<{ AutoScalingGroupName?: string; PolicyNames?: string[] }>('autoscaling', DescribePolicies$, (input, world) => ({
    ScalingPolicies: attrsOf(world, 'aws_autoscaling_policy')
      .filter((a) => (!input.AutoScalingGroupName || str(a.autoscaling_group_name) === input.AutoScalingGroupName) && (!input.PolicyNames?.length || input.PolicyNames.includes(nameOf(a))))
      .map((a) => {
        const t = block(a.target_tracking_configuration);
        const pre = block(t.predefined_metric_specification);
        return {
          PolicyName: nameOf(a), AutoScalingGroupName: opt(a.autoscaling_group_name), PolicyARN: opt(a.arn), PolicyType: opt(a.policy_type), AdjustmentType: opt(a.adjustment_type),
          Cooldown: num(a.cooldown) || undefined, ScalingAdjustment: num(a.scaling_adjustment), MinAdjustmentMagnitude: num(a.min_adjustment_magnitude) || undefined,
          MetricAggregationType: opt(a.metric_aggregation_type), EstimatedInstanceWarmup: num(a.estimated_instance_warmup) || undefined, Enabled: bool(a.enabled) ?? true,
          StepAdjustments: many(a.step_adjustment).map((s) => ({
            MetricIntervalLowerBound: num(s.metric_interval_lower_bound), MetricIntervalUpperBound: num(s.metric_interval_upper_bound), ScalingAdjustment: num(s.scaling_adjustment),
          })),
          TargetTrackingConfiguration: Object.keys(t).length ? {
            TargetValue: num(t.target_value), DisableScaleIn: bool(t.disable_scale_in),
            PredefinedMetricSpecification: pre.predefined_metric_type ? { PredefinedMetricType: opt(pre.predefined_metric_type), ResourceLabel: opt(pre.resource_label) } : undefined,
          } : undefined,
        };
      }),
  }))],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const byGroup = new Map<string, typeof group>();
      for (const g of group) {
        const asg = str(g.item.instance.attributes.autoscaling_group_name);
        byGroup.set(asg, [...(byGroup.get(asg) ?? []), g]);
      }
      for (const [asg, members] of byGroup) {
        const found = new Map<string, ScalingPolicy>();
        for (const names of chunk(members.map((m) => nameOf(m.item.instance.attributes)), 50)) {
          let token: string | undefined;
          do {
            const page = await ctx.send<DescribePoliciesCommandOutput>(ctx.autoscaling(region),
              new DescribePoliciesCommand({ AutoScalingGroupName: asg, PolicyNames: names, NextToken: token }), 'autoscaling:DescribePolicies');
            for (const p of page.ScalingPolicies ?? []) if (p.PolicyName) found.set(p.PolicyName, p);
            token = page.NextToken;
          } while (token);
        }
        for (const { item, index } of members) {
          const p = found.get(nameOf(item.instance.attributes));
          if (p) out[index] = live(p);
        }
      }
    }
    return out;
  },
};
