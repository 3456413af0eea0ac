// aws_ssm_parameter: GetParameters WithDecryption, 10 names a call per region (unknown names come
// back in InvalidParameters), DescribeParameters filtered by name, 50 names a call, for the
// description, tier, key and pattern, and one ListTagsForResource per parameter. The value is
// hashed here (sensitive.ts `digest`): only its hash leaves the reader, whatever the type.
import {
  DescribeParameters$, DescribeParametersCommand, GetParameters$, GetParametersCommand, ListTagsForResource$, ListTagsForResourceCommand,
  type DescribeParametersCommandOutput, type GetParametersCommandOutput, type ListTagsForResourceCommandOutput, type Parameter, type ParameterMetadata,
} from '@aws-sdk/client-ssm';
import { chunk, mapLimit } from '../../../limit.ts';
import { digest } from '../../../sensitive.ts';
import type { LiveAttributes } from '../../../types.ts';
import { tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, byRegion, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { attrsOf, num, opt, stateTags, tagList } from '../replay/kit.ts';

const GET_PER_CALL = 10;
const DESCRIBE_PER_CALL = 50;
const nameOf = (a: Record<string, unknown>) => str(a.name || a.id);

export const ssmParameterReader: TypeReader = {
  spec: { sensitive: ['value'] },
  answers: [
    answer<{ Names: string[] }>('ssm', GetParameters$, (input, world) => {
      const all = attrsOf(world, 'aws_ssm_parameter');
      const found = all.filter((a) => input.Names.includes(nameOf(a)));
      return {
        Parameters: found.map((a) => ({ Name: nameOf(a), Type: opt(a.type), Value: str(a.insecure_value ?? a.value), Version: num(a.version), DataType: opt(a.data_type), ARN: opt(a.arn) })),
        InvalidParameters: input.Names.filter((n) => !found.some((a) => nameOf(a) === n)),
      };
    }),
    answer<{ ParameterFilters?: { Key: string; Values?: string[] }[] }>('ssm', DescribeParameters$, (input, world) => {
      const names = new Set(input.ParameterFilters?.find((f) => f.Key === 'Name')?.Values ?? []);
      return { Parameters: attrsOf(world, 'aws_ssm_parameter').filter((a) => names.has(nameOf(a))).map((a) => ({
        Name: nameOf(a), Type: opt(a.type), Description: opt(a.description), Tier: opt(a.tier), KeyId: opt(a.key_id), AllowedPattern: opt(a.allowed_pattern), DataType: opt(a.data_type),
      })) };
    }),
    answer<{ ResourceId: string }>('ssm', ListTagsForResource$, (input, world) => {
      const a = attrsOf(world, 'aws_ssm_parameter').find((x) => nameOf(x) === input.ResourceId);
      return { TagList: a ? tagList(stateTags(a)) : [] };
    }),
  ],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const ssm = ctx.ssm(region);
      const names = [...new Set(group.map(({ item }) => nameOf(item.instance.attributes)))];
      const values = new Map<string, Parameter>();
      const meta = new Map<string, ParameterMetadata>();
      for (const batch of chunk(names, GET_PER_CALL)) {
        const page = await ctx.send<GetParametersCommandOutput>(ssm, new GetParametersCommand({ Names: batch, WithDecryption: true }), 'ssm:GetParameters');
        for (const p of page.Parameters ?? []) if (p.Name) values.set(p.Name, p);
      }
      for (const batch of chunk(names.filter((n) => values.has(n)), DESCRIBE_PER_CALL)) {
        let token: string | undefined;
        do {
          const page = await ctx.send<DescribeParametersCommandOutput>(ssm, new DescribeParametersCommand({ ParameterFilters: [{ Key: 'Name', Option: 'Equals', Values: batch }], NextToken: token }), 'ssm:DescribeParameters');
          for (const p of page.Parameters ?? []) if (p.Name) meta.set(p.Name, p);
          token = page.NextToken;
        } while (token);
      }
      await mapLimit(group, PER_RESOURCE_CONCURRENCY, async ({ item, index }) => {
        const name = nameOf(item.instance.attributes);
        const p = values.get(name);
        if (!p) return;
        const m = meta.get(name);
        const tags = tagMap((await unlessAbsent(ctx.send<ListTagsForResourceCommandOutput>(ssm, new ListTagsForResourceCommand({ ResourceType: 'Parameter', ResourceId: name }), 'ssm:ListTagsForResource'), ['InvalidResourceId']))?.TagList);
        const { insecure_value: insecure, value: stated } = item.instance.attributes;
        out[index] = {
          name, arn: p.ARN, type: p.Type, data_type: p.DataType ?? 'text', description: m?.Description ?? '', tier: m?.Tier ?? 'Standard', key_id: m?.KeyId ?? '',
          allowed_pattern: m?.AllowedPattern ?? '',
          // A value the code wrote as insecure_value is no secret: compared as text; `value` is compared by its hash only,
          // and not at all when the state holds none (written through the write-only value_wo).
          ...(insecure !== null && insecure !== undefined ? { insecure_value: p.Value ?? '' } : stated === null || stated === undefined || stated === '' ? {} : { value: digest(p.Value ?? '') }),
          tags, tags_all: tags,
        };
      });
    }
    return out;
  },
};
