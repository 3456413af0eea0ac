// aws_ecr_repository: DescribeRepositories, 100 names a call (an unknown name fails the whole
// call, so that batch is then read by listing the registry's repositories); tags cost one
// ListTagsForResource per repository (at most PER_RESOURCE_CONCURRENCY at once).
import {
  DescribeRepositories$, DescribeRepositoriesCommand, ListTagsForResource$, ListTagsForResourceCommand,
  type DescribeRepositoriesCommandOutput, type ListTagsForResourceCommandOutput, type Repository,
} from '@aws-sdk/client-ecr';
import { chunk, mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { tagMap } from '../../../values.ts';
import { errorName, PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { answer, byRegion, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, opt, stateTags, tagList } from '../replay/kit.ts';

const NAMES_PER_CALL = 100;
const nameOf = (a: Record<string, unknown>) => str(a.name || a.id);

async function repositories(ctx: AwsContext, region: string, names: string[]): Promise<Map<string, Repository>> {
  const found = new Map<string, Repository>();
  const ecr = ctx.ecr(region);
  const collect = (out: DescribeRepositoriesCommandOutput) => { for (const r of out.repositories ?? []) if (r.repositoryName) found.set(r.repositoryName, r); };
  for (const part of chunk(names, NAMES_PER_CALL)) {
    try {
      collect(await ctx.send<DescribeRepositoriesCommandOutput>(ecr, new DescribeRepositoriesCommand({ repositoryNames: part }), 'ecr:DescribeRepositories'));
    } catch (e) {
      if (errorName(e) !== 'RepositoryNotFoundException') throw e;
      let token: string | undefined;
      do {
        const out = await ctx.send<DescribeRepositoriesCommandOutput>(ecr, new DescribeRepositoriesCommand({ maxResults: 1000, nextToken: token }), 'ecr:DescribeRepositories');
        collect(out);
        token = out.nextToken;
      } while (token);
    }
  }
  return found;
}

export const ecrRepositoryReader: TypeReader = {
  spec: {},
  answers: [
    answer<{ repositoryNames?: string[] }>('ecr', DescribeRepositories$, (input, world) => {
      const all = attrsOf(world, 'aws_ecr_repository');
      const missing = (input.repositoryNames ?? []).find((n) => !all.some((a) => nameOf(a) === n));
      if (missing) throw new FakeError('RepositoryNotFoundException', `The repository with name '${missing}' does not exist in the registry`);
      const picked = input.repositoryNames ? all.filter((a) => input.repositoryNames!.includes(nameOf(a))) : all;
      return { repositories: picked.map((a) => {
        const scan = block(a.image_scanning_configuration);
        const enc = block(a.encryption_configuration);
        return {
          repositoryName: nameOf(a), repositoryArn: opt(a.arn), registryId: opt(a.registry_id), repositoryUri: opt(a.repository_url),
          imageTagMutability: opt(a.image_tag_mutability), imageScanningConfiguration: { scanOnPush: bool(scan.scan_on_push) ?? false },
          encryptionConfiguration: { encryptionType: opt(enc.encryption_type) ?? 'AES256', kmsKey: opt(enc.kms_key) },
        };
      }) };
    }),
    answer<{ resourceArn: string }>('ecr', ListTagsForResource$, (input, world) => {
      const a = attrsOf(world, 'aws_ecr_repository').find((x) => str(x.arn) === input.resourceArn);
      if (!a) throw new FakeError('RepositoryNotFoundException', 'The repository does not exist');
      return { tags: tagList(stateTags(a)) };
    }),
  ],
  async read(items, ctx) {
    const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
    for (const [region, group] of byRegion(items)) {
      const repos = await repositories(ctx, region, [...new Set(group.map((g) => nameOf(g.item.instance.attributes)))]);
      await mapLimit(group, PER_RESOURCE_CONCURRENCY, async ({ item, index }) => {
        const r = repos.get(nameOf(item.instance.attributes));
        if (!r) return;
        const tags = tagMap((await unlessAbsent(ctx.send<ListTagsForResourceCommandOutput>(ctx.ecr(region), new ListTagsForResourceCommand({ resourceArn: r.repositoryArn }), 'ecr:ListTagsForResource'), ['RepositoryNotFoundException']))?.tags);
        out[index] = {
          name: r.repositoryName, arn: r.repositoryArn, registry_id: r.registryId, repository_url: r.repositoryUri, image_tag_mutability: r.imageTagMutability,
          image_scanning_configuration: [{ scan_on_push: r.imageScanningConfiguration?.scanOnPush ?? false }],
          encryption_configuration: [{ encryption_type: r.encryptionConfiguration?.encryptionType ?? 'AES256', kms_key: r.encryptionConfiguration?.kmsKey ?? '' }],
          tags, tags_all: tags,
        };
      });
    }
    return out;
  },
};
