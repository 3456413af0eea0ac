// aws_cloudwatch_event_rule: one paged ListRules per event bus and region answers every rule of
// the scan; tags cost one ListTagsForResource per rule. aws_cloudwatch_event_target: one
// ListTargetsByRule per rule, shared by all its targets. Event patterns and inputs are JSON text,
// which diff.ts compares as documents.
import {
  ListRules$, ListRulesCommand, ListTagsForResource$, ListTagsForResourceCommand, ListTargetsByRule$, ListTargetsByRuleCommand,
  type ListRulesCommandOutput, type ListTagsForResourceCommandOutput, type ListTargetsByRuleCommandOutput, type Rule, type Target,
} from '@aws-sdk/client-eventbridge';
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { isObject, tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { answer, byRegion, once, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, block, FakeError, opt, stateTags, tagList } from '../replay/kit.ts';

const NOT_FOUND = ['ResourceNotFoundException'];
const busOf = (a: Record<string, unknown>) => str(a.event_bus_name) || 'default';
/** The rule's name: `name`, else the id (`<name>` on the default bus, `<bus>/<name>` on another). */
const ruleNameOf = (a: Record<string, unknown>) => str(a.name) || str(a.id).split('/').pop()!;

async function rulesOf(ctx: AwsContext, region: string, bus: string): Promise<Map<string, Rule>> {
  return once(ctx, `events:rules:${region}:${bus}`, async () => {
    const out = new Map<string, Rule>();
    let token: string | undefined;
    do {
      const page = await unlessAbsent(ctx.send<ListRulesCommandOutput>(ctx.events(region), new ListRulesCommand({ EventBusName: bus, NextToken: token }), 'events:ListRules'), NOT_FOUND);
      for (const r of page?.Rules ?? []) if (r.Name) out.set(r.Name, r);
      token = page?.NextToken;
    } while (token);
    return out;
  });
}

function fakeRules(world: FakeWorld, bus: string) {
  return attrsOf(world, 'aws_cloudwatch_event_rule').filter((a) => busOf(a) === bus);
}
const fakeArn = (a: Record<string, unknown>) => opt(a.arn) ?? `arn:aws:events:us-east-1:123456789012:rule/${ruleNameOf(a)}`;

export const eventRuleReader: TypeReader = {
  spec: {},
  answers: [
    answer<{ EventBusName?: string }>('events', ListRules$, (input, world) => ({ Rules: fakeRules(world, input.EventBusName ?? 'default').map((a): Rule => ({
      Name: ruleNameOf(a), Arn: fakeArn(a), EventBusName: busOf(a), Description: opt(a.description), EventPattern: opt(a.event_pattern),
      ScheduleExpression: opt(a.schedule_expression), RoleArn: opt(a.role_arn), State: (opt(a.state) ?? (a.is_enabled === false ? 'DISABLED' : 'ENABLED')) as Rule['State'],
    })) })),
    answer<{ ResourceARN: string }>('events', ListTagsForResource$, (input, world) => {
      const a = attrsOf(world, 'aws_cloudwatch_event_rule').find((x) => fakeArn(x) === input.ResourceARN);
      if (!a) throw new FakeError('ResourceNotFoundException', `Rule ${input.ResourceARN} does not exist.`);
      return { Tags: tagList(stateTags(a)) };
    }),
  ],
  read: async (items, ctx) => {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      await mapLimit(group, PER_RESOURCE_CONCURRENCY, async ({ item, index }) => {
        const a = item.instance.attributes;
        const r = (await rulesOf(ctx, region, busOf(a))).get(ruleNameOf(a));
        if (!r) return;
        const tags = tagMap((await unlessAbsent(ctx.send<ListTagsForResourceCommandOutput>(ctx.events(region), new ListTagsForResourceCommand({ ResourceARN: r.Arn }), 'events:ListTagsForResource'), NOT_FOUND))?.Tags);
        out[index] = {
          name: r.Name, event_bus_name: r.EventBusName ?? busOf(a), description: r.Description ?? '', event_pattern: r.EventPattern ?? '',
          schedule_expression: r.ScheduleExpression ?? '', role_arn: r.RoleArn ?? '', state: r.State, is_enabled: r.State !== 'DISABLED', tags, tags_all: tags,
        };
      });
    }
    return out;
  },
};

/** `target_id`, else the id less its `<rule>-` prefix (the provider's id for a target). */
const targetIdOf = (a: Record<string, unknown>) => str(a.target_id) || str(a.id).slice(str(a.rule).length + 1);

function fakeTarget(a: Record<string, unknown>): Target {
  const t = block(a.input_transformer);
  return {
    Id: targetIdOf(a), Arn: opt(a.arn), RoleArn: opt(a.role_arn), Input: opt(a.input), InputPath: opt(a.input_path),
    InputTransformer: opt(t.input_template) ? { InputTemplate: str(t.input_template), InputPathsMap: isObject(t.input_paths) ? Object.fromEntries(Object.entries(t.input_paths).map(([k, v]) => [k, str(v)])) : undefined } : undefined,
  };
}

export const eventTargetReader: TypeReader = {
  spec: {},
  answers: [answer<{ Rule: string; EventBusName?: string }>('events', ListTargetsByRule$, (input, world) => {
    const bus = input.EventBusName ?? 'default';
    if (!fakeRules(world, bus).some((a) => ruleNameOf(a) === input.Rule)
      && !attrsOf(world, 'aws_cloudwatch_event_target').some((a) => str(a.rule) === input.Rule && busOf(a) === bus)) {
      throw new FakeError('ResourceNotFoundException', `Rule ${input.Rule} does not exist.`);
    }
    return { Targets: attrsOf(world, 'aws_cloudwatch_event_target').filter((a) => str(a.rule) === input.Rule && busOf(a) === bus).map(fakeTarget) };
  })],
  read: async (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const a = instance.attributes;
    const bus = busOf(a);
    const targets = await once(ctx, `events:targets:${region}:${bus}:${str(a.rule)}`, async () =>
      (await unlessAbsent(ctx.send<ListTargetsByRuleCommandOutput>(ctx.events(region), new ListTargetsByRuleCommand({ Rule: str(a.rule), EventBusName: bus }), 'events:ListTargetsByRule'), NOT_FOUND))?.Targets);
    const t = targets?.find((x) => x.Id === targetIdOf(a));
    if (!t) return null;
    return {
      rule: str(a.rule), target_id: t.Id, arn: t.Arn, role_arn: t.RoleArn ?? '', input: t.Input ?? '', input_path: t.InputPath ?? '',
      input_transformer: t.InputTransformer ? [{ input_template: t.InputTransformer.InputTemplate ?? '', input_paths: t.InputTransformer.InputPathsMap ?? {} }] : [],
    };
  }),
};
