// aws_cloudwatch_metric_alarm: DescribeAlarms by AlarmNames, 100 names a call per region (an
// unknown name is simply absent), and one ListTagsForResource per alarm (the only tag read
// CloudWatch has). Defaults the API leaves out are written as the provider stores them.
import {
  DescribeAlarms$, DescribeAlarmsCommand, ListTagsForResource$, ListTagsForResourceCommand, type DescribeAlarmsCommandOutput,
  type ListTagsForResourceCommandOutput, type MetricAlarm, type MetricDataQuery,
} from '@aws-sdk/client-cloudwatch';
import { genericKey } from '../../../diff.ts';
import { chunk, mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { isObject, tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, byRegion, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { orDefault, withoutDefaults } from '../provider-defaults.ts';
import { attrsOf, block, bool, list, num, opt, stateTags, tagList } from '../replay/kit.ts';

const NAMES_PER_CALL = 100;
const nameOf = (a: Record<string, unknown>) => str(a.alarm_name || a.id);
const dims = (m: unknown) => (isObject(m) ? Object.entries(m).map(([Name, v]) => ({ Name, Value: str(v) })) : undefined);
const dimMap = (d: { Name?: string; Value?: string }[] | undefined) => Object.fromEntries((d ?? []).map((x) => [str(x.Name), str(x.Value)]));

/** One metric_query element as the provider stores it. */
function queryOf(q: MetricDataQuery): Record<string, unknown> {
  const m = q.MetricStat;
  return {
    id: q.Id, expression: q.Expression ?? '', label: q.Label ?? '', return_data: q.ReturnData ?? false, period: q.Period ?? 0, account_id: q.AccountId ?? '',
    metric: m ? [{ metric_name: m.Metric?.MetricName, namespace: m.Metric?.Namespace ?? '', period: m.Period, stat: m.Stat, unit: m.Unit ?? '', dimensions: dimMap(m.Metric?.Dimensions) }] : [],
  };
}

function alarmAttributes(a: MetricAlarm, tags: Record<string, string>, state: Record<string, unknown>): LiveAttributes {
  return {
    alarm_name: a.AlarmName, arn: a.AlarmArn, alarm_description: a.AlarmDescription ?? '', comparison_operator: a.ComparisonOperator,
    evaluation_periods: a.EvaluationPeriods, datapoints_to_alarm: orDefault(a.DatapointsToAlarm, state.datapoints_to_alarm, 0), period: orDefault(a.Period, state.period, 0),
    threshold: orDefault(a.Threshold, state.threshold, 0),
    threshold_metric_id: a.ThresholdMetricId ?? '', statistic: a.Statistic ?? '', extended_statistic: a.ExtendedStatistic ?? '', metric_name: a.MetricName ?? '',
    namespace: a.Namespace ?? '', unit: a.Unit ?? '', dimensions: dimMap(a.Dimensions), actions_enabled: orDefault(a.ActionsEnabled, state.actions_enabled, true), alarm_actions: a.AlarmActions ?? [],
    ok_actions: a.OKActions ?? [], insufficient_data_actions: a.InsufficientDataActions ?? [], treat_missing_data: a.TreatMissingData ?? 'missing',
    evaluate_low_sample_count_percentiles: a.EvaluateLowSampleCountPercentile ?? '', metric_query: (a.Metrics ?? []).map(queryOf), tags, tags_all: tags,
  };
}

/** The state's metric_query element back into the API's shape (the replay fake). */
function fakeQuery(q: Record<string, unknown>): Record<string, unknown> {
  const m = block(q.metric);
  return {
    Id: str(q.id), Expression: opt(q.expression), Label: opt(q.label), ReturnData: bool(q.return_data), Period: num(q.period) || undefined, AccountId: opt(q.account_id),
    MetricStat: Object.keys(m).length ? { Metric: { MetricName: opt(m.metric_name), Namespace: opt(m.namespace), Dimensions: dims(m.dimensions) }, Period: num(m.period), Stat: opt(m.stat), Unit: opt(m.unit) } : undefined,
  };
}

export const metricAlarmReader: TypeReader = {
  // Elements compared without their defaults: an unset return_data or period is false/0 in one state, null in another.
  spec: { sets: { metric_query: (e) => genericKey(withoutDefaults(e)) } },
  answers: [
    answer<{ AlarmNames?: string[] }>('monitoring', DescribeAlarms$, (input, world) => {
      const names = new Set(input.AlarmNames ?? []);
      return { MetricAlarms: attrsOf(world, 'aws_cloudwatch_metric_alarm').filter((a) => names.has(nameOf(a))).map((a) => ({
        AlarmName: nameOf(a), AlarmArn: opt(a.arn), AlarmDescription: opt(a.alarm_description), ComparisonOperator: opt(a.comparison_operator),
        EvaluationPeriods: num(a.evaluation_periods), DatapointsToAlarm: num(a.datapoints_to_alarm) || undefined, Period: num(a.period) || undefined,
        Threshold: num(a.threshold), ThresholdMetricId: opt(a.threshold_metric_id), Statistic: opt(a.statistic), ExtendedStatistic: opt(a.extended_statistic),
        MetricName: opt(a.metric_name), Namespace: opt(a.namespace), Unit: opt(a.unit), Dimensions: dims(a.dimensions), ActionsEnabled: bool(a.actions_enabled),
        AlarmActions: list(a.alarm_actions), OKActions: list(a.ok_actions), InsufficientDataActions: list(a.insufficient_data_actions),
        TreatMissingData: opt(a.treat_missing_data), EvaluateLowSampleCountPercentile: opt(a.evaluate_low_sample_count_percentiles),
        Metrics: Array.isArray(a.metric_query) && a.metric_query.length ? a.metric_query.filter(isObject).map(fakeQuery) : undefined, StateValue: 'OK',
      })) };
    }),
    answer<{ ResourceARN: string }>('monitoring', ListTagsForResource$, (input, world) => {
      const a = attrsOf(world, 'aws_cloudwatch_metric_alarm').find((x) => str(x.arn) === input.ResourceARN || input.ResourceARN.endsWith(`:alarm:${nameOf(x)}`));
      return { Tags: a ? tagList(stateTags(a)) : [] };
    }),
  ],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const cw = ctx.cloudwatch(region);
      const found = new Map<string, MetricAlarm>();
      for (const names of chunk([...new Set(group.map(({ item }) => nameOf(item.instance.attributes)))], NAMES_PER_CALL)) {
        let token: string | undefined;
        do {
          const page = await ctx.send<DescribeAlarmsCommandOutput>(cw, new DescribeAlarmsCommand({ AlarmNames: names, AlarmTypes: ['MetricAlarm'], NextToken: token }), 'cloudwatch:DescribeAlarms');
          for (const a of page.MetricAlarms ?? []) if (a.AlarmName) found.set(a.AlarmName, a);
          token = page.NextToken;
        } while (token);
      }
      await mapLimit(group, PER_RESOURCE_CONCURRENCY, async ({ item, index }) => {
        const a = found.get(nameOf(item.instance.attributes));
        if (!a) return;
        const tags = a.AlarmArn ? (await unlessAbsent(ctx.send<ListTagsForResourceCommandOutput>(cw, new ListTagsForResourceCommand({ ResourceARN: a.AlarmArn }), 'cloudwatch:ListTagsForResource'), ['ResourceNotFound', 'ResourceNotFoundException']))?.Tags : [];
        out[index] = alarmAttributes(a, tagMap(tags), item.instance.attributes);
      });
    }
    return out;
  },
};
