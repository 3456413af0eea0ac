// aws_db_parameter_group: one DescribeDBParameterGroups per group (the API takes one name or
// none), DescribeDBParameters with Source=user (paged, 100 a page) and ListTagsForResource. Only
// the parameters the state declares are compared, as the provider reads them: the engine's own
// defaults and the ones AWS sets are not the code's.
import {
  DescribeDBParameterGroups$, DescribeDBParameterGroupsCommand, DescribeDBParameters$, DescribeDBParametersCommand, ListTagsForResourceCommand,
  type DescribeDBParameterGroupsCommandOutput, type DescribeDBParametersCommandOutput, type ListTagsForResourceCommandOutput, type Parameter,
} from '@aws-sdk/client-rds';
import { mapLimit } from '../../../limit.ts';
import { isObject, tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, FakeError, opt } from '../replay/kit.ts';

const nameOf = (a: Record<string, unknown>) => str(a.name || a.id);
const GONE = ['DBParameterGroupNotFoundFault', 'DBParameterGroupNotFound'];
const params = (a: Record<string, unknown>) => (Array.isArray(a.parameter) ? a.parameter.filter(isObject) : []);
/** Parameter names are case-insensitive in RDS; the provider lower-cases them too. */
const paramKey = (e: unknown) => (isObject(e) ? [`${str(e.name).toLowerCase()}=${str(e.value)}`] : []);

function fakeGroup(world: FakeWorld, name: string): Record<string, unknown> {
  const a = attrsOf(world, 'aws_db_parameter_group').find((x) => nameOf(x) === name);
  if (!a) throw new FakeError('DBParameterGroupNotFound', `DBParameterGroup not found: ${name}`, 404);
  return a;
}

export const dbParameterGroupReader: TypeReader = {
  spec: { sets: { parameter: paramKey } },
  answers: [
    answer<{ DBParameterGroupName: string }>('rds', DescribeDBParameterGroups$, (input, world) => {
      const a = fakeGroup(world, input.DBParameterGroupName);
      return { DBParameterGroups: [{ DBParameterGroupName: nameOf(a), DBParameterGroupFamily: opt(a.family), Description: opt(a.description), DBParameterGroupArn: opt(a.arn) }] };
    }),
    answer<{ DBParameterGroupName: string }>('rds', DescribeDBParameters$, (input, world) => ({
      Parameters: params(fakeGroup(world, input.DBParameterGroupName)).map((p) => ({ ParameterName: str(p.name), ParameterValue: str(p.value), ApplyMethod: opt(p.apply_method), Source: 'user' })),
    })),
  ],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const rds = ctx.rds(region);
    const name = nameOf(instance.attributes);
    const g = (await unlessAbsent(ctx.send<DescribeDBParameterGroupsCommandOutput>(rds, new DescribeDBParameterGroupsCommand({ DBParameterGroupName: name }), 'rds:DescribeDBParameterGroups'), GONE))?.DBParameterGroups?.[0];
    if (!g) return null;
    const user: Parameter[] = [];
    let marker: string | undefined;
    do {
      const page = await ctx.send<DescribeDBParametersCommandOutput>(rds, new DescribeDBParametersCommand({ DBParameterGroupName: name, Source: 'user', Marker: marker }), 'rds:DescribeDBParameters');
      user.push(...(page.Parameters ?? []));
      marker = page.Marker;
    } while (marker);
    const declared = new Set(params(instance.attributes).map((p) => str(p.name).toLowerCase()));
    const tags = g.DBParameterGroupArn ? tagMap((await ctx.send<ListTagsForResourceCommandOutput>(rds, new ListTagsForResourceCommand({ ResourceName: g.DBParameterGroupArn }), 'rds:ListTagsForResource')).TagList) : {};
    return {
      name: g.DBParameterGroupName, arn: g.DBParameterGroupArn, family: g.DBParameterGroupFamily, description: g.Description ?? '',
      parameter: user.filter((p) => declared.has(str(p.ParameterName).toLowerCase())).map((p) => ({ name: p.ParameterName, value: p.ParameterValue ?? '', apply_method: p.ApplyMethod?.toLowerCase() })),
      tags, tags_all: tags,
    };
  }),
};
