// aws_codecommit_repository: one GetRepository per repository, as the provider reads it, and one
// ListTagsForResource (tags are not in the metadata), at most PER_RESOURCE_CONCURRENCY at once.
import {
  GetRepository$, GetRepositoryCommand, ListTagsForResource$, ListTagsForResourceCommand, type GetRepositoryCommandOutput, type ListTagsForResourceCommandOutput,
} from '@aws-sdk/client-codecommit';
import { mapLimit } from '../../../limit.ts';
import { isObject } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, FakeError, opt, stateTags } from '../replay/kit.ts';

const nameOf = (a: Record<string, unknown>) => str(a.repository_name || a.id);
const GONE = ['RepositoryDoesNotExistException'];

function fakeRepo(world: FakeWorld, name: string): Record<string, unknown> {
  const a = attrsOf(world, 'aws_codecommit_repository').find((x) => nameOf(x) === name || str(x.arn) === name);
  if (!a) throw new FakeError('RepositoryDoesNotExistException', `${name} does not exist`);
  return a;
}

export const codecommitRepositoryReader: TypeReader = {
  spec: {},
  answers: [
    answer<{ repositoryName: string }>('codecommit', GetRepository$, (input, world) => {
      const a = fakeRepo(world, input.repositoryName);
      return { repositoryMetadata: {
        repositoryName: nameOf(a), repositoryId: opt(a.repository_id), repositoryDescription: opt(a.description), defaultBranch: opt(a.default_branch), Arn: opt(a.arn),
        cloneUrlHttp: opt(a.clone_url_http), cloneUrlSsh: opt(a.clone_url_ssh), kmsKeyId: opt(a.kms_key_id),
      } };
    }),
    answer<{ resourceArn: string }>('codecommit', ListTagsForResource$, (input, world) => {
      const tags = stateTags(fakeRepo(world, input.resourceArn));
      return { tags: isObject(tags) ? Object.fromEntries(Object.entries(tags).map(([k, v]) => [k, str(v)])) : {} };
    }),
  ],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const cc = ctx.codecommit(region);
    const r = (await unlessAbsent(ctx.send<GetRepositoryCommandOutput>(cc, new GetRepositoryCommand({ repositoryName: nameOf(instance.attributes) }), 'codecommit:GetRepository'), GONE))?.repositoryMetadata;
    if (!r) return null;
    const tags = r.Arn ? (await unlessAbsent(ctx.send<ListTagsForResourceCommandOutput>(cc, new ListTagsForResourceCommand({ resourceArn: r.Arn }), 'codecommit:ListTagsForResource'), GONE))?.tags ?? {} : {};
    return {
      repository_name: r.repositoryName, repository_id: r.repositoryId, arn: r.Arn, description: r.repositoryDescription ?? '', default_branch: r.defaultBranch ?? '',
      clone_url_http: r.cloneUrlHttp, clone_url_ssh: r.cloneUrlSsh, kms_key_id: r.kmsKeyId ?? '', tags, tags_all: tags,
    };
  }),
};
