// aws_cloudwatch_log_group: DescribeLogGroups by logGroupIdentifiers, 50 names a call; tags cost
// one ListTagsForResource per group (at most PER_RESOURCE_CONCURRENCY at once).
import {
  DescribeLogGroups$, DescribeLogGroupsCommand, ListTagsForResource$, ListTagsForResourceCommand,
  type DescribeLogGroupsCommandOutput, type ListTagsForResourceCommandOutput, type LogGroup,
} from '@aws-sdk/client-cloudwatch-logs';
import { chunk, mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, byRegion, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, FakeError, num, opt, stateTags } from '../replay/kit.ts';

const IDENTIFIERS_PER_CALL = 50;
/** The API's log group ARN ends in `:*`; the state's does not. */
const bareArn = (arn: string | undefined) => (arn ?? '').replace(/:\*$/, '');
const nameOf = (a: Record<string, unknown>) => str(a.name || a.id);

function fakeGroups(world: FakeWorld) {
  return attrsOf(world, 'aws_cloudwatch_log_group').map((a) => ({ a, name: nameOf(a), arn: opt(a.arn) ?? `arn:aws:logs:us-east-1:123456789012:log-group:${nameOf(a)}` }));
}

export const logGroupReader: TypeReader = {
  spec: {},
  answers: [
    answer<{ logGroupIdentifiers?: string[]; logGroupNamePrefix?: string }>('logs', DescribeLogGroups$, (input, world) => {
      const want = new Set((input.logGroupIdentifiers ?? []).map((i) => (i.startsWith('arn:') ? bareArn(i).split(':log-group:')[1] : i)));
      const groups = fakeGroups(world).filter((g) => (input.logGroupIdentifiers ? want.has(g.name) : g.name.startsWith(input.logGroupNamePrefix ?? '')));
      return { logGroups: groups.map(({ a, name, arn }) => ({
        logGroupName: name, arn: `${arn}:*`, logGroupArn: arn, retentionInDays: num(a.retention_in_days) || undefined, kmsKeyId: opt(a.kms_key_id),
        logGroupClass: opt(a.log_group_class), creationTime: 0,
      })) };
    }),
    answer<{ resourceArn: string }>('logs', ListTagsForResource$, (input, world) => {
      const g = fakeGroups(world).find((x) => x.arn === bareArn(input.resourceArn));
      if (!g) throw new FakeError('ResourceNotFoundException', 'The specified log group does not exist.');
      return { tags: stateTags(g.a) ?? {} };
    }),
  ],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const logs = ctx.logs(region);
      const found = new Map<string, LogGroup>();
      for (const part of chunk([...new Set(group.map((g) => nameOf(g.item.instance.attributes)))], IDENTIFIERS_PER_CALL)) {
        let token: string | undefined;
        do {
          const page = await ctx.send<DescribeLogGroupsCommandOutput>(logs, new DescribeLogGroupsCommand({ logGroupIdentifiers: part, nextToken: token }), 'logs:DescribeLogGroups');
          for (const g of page.logGroups ?? []) if (g.logGroupName) found.set(g.logGroupName, g);
          token = page.nextToken;
        } while (token);
      }
      await mapLimit(group, PER_RESOURCE_CONCURRENCY, async ({ item, index }) => {
        const g = found.get(nameOf(item.instance.attributes));
        if (!g) return;
        const arn = bareArn(g.logGroupArn ?? g.arn);
        const tags = (await unlessAbsent(ctx.send<ListTagsForResourceCommandOutput>(logs, new ListTagsForResourceCommand({ resourceArn: arn }), 'logs:ListTagsForResource'), ['ResourceNotFoundException']))?.tags ?? {};
        out[index] = {
          name: g.logGroupName, arn, retention_in_days: g.retentionInDays ?? 0, kms_key_id: g.kmsKeyId ?? '', log_group_class: g.logGroupClass, tags, tags_all: tags,
        };
      });
    }
    return out;
  },
};
