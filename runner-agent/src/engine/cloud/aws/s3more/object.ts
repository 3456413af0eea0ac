// aws_s3_object (and its older name aws_s3_bucket_object): HeadObject and, when the state holds
// tags, GetObjectTagging, per object (S3 has no batch read of object metadata). The content
// (source, content, content_base64) is write-only; the etag says whether it changed.
import {
  GetObjectTagging$, GetObjectTaggingCommand, HeadObject$, HeadObjectCommand, type GetObjectTaggingCommandOutput, type HeadObjectCommandOutput,
} from '@aws-sdk/client-s3';
import { isObject, tagMap } from '../../../values.ts';
import { answer, str, type FakeWorld } from '../reader.ts';
import { bool, FakeError, opt, stateTags, tagList } from '../replay/kit.ts';
import { perBucket, s3Get } from './kit.ts';

const TYPES = ['aws_s3_object', 'aws_s3_bucket_object'];
const keyOf = (a: Record<string, unknown>) => str(a.key);

function fakeObject(world: FakeWorld, bucket: string, key: string): Record<string, unknown> {
  const a = TYPES.flatMap((t) => world.of(t)).map((i) => i.attributes).find((x) => str(x.bucket) === bucket && keyOf(x) === key);
  if (!a) throw new FakeError('NotFound', 'Not Found', 404);
  return a;
}

type In = { Bucket: string; Key: string };
const answers = [
  answer<In>('s3', HeadObject$, (input, world) => {
    const a = fakeObject(world, input.Bucket, input.Key);
    return {
      ETag: a.etag ? `"${str(a.etag)}"` : undefined, ContentType: opt(a.content_type), CacheControl: opt(a.cache_control), ContentDisposition: opt(a.content_disposition),
      ContentEncoding: opt(a.content_encoding), ContentLanguage: opt(a.content_language), Metadata: isObject(a.metadata) ? a.metadata : undefined,
      ServerSideEncryption: opt(a.server_side_encryption), StorageClass: opt(a.storage_class) === 'STANDARD' ? undefined : opt(a.storage_class),
      SSEKMSKeyId: opt(a.kms_key_id), WebsiteRedirectLocation: opt(a.website_redirect), VersionId: opt(a.version_id), BucketKeyEnabled: bool(a.bucket_key_enabled),
    };
  }),
  answer<In>('s3', GetObjectTagging$, (input, world) => ({ TagSet: tagList(stateTags(fakeObject(world, input.Bucket, input.Key))) })),
];

/** S3 encrypts every new object (SSE-S3) since 2023: a state written before holds "" for what now reads AES256. */
const sse = (live: string | undefined, state: unknown) => (live === 'AES256' && !state ? str(state) : live ?? '');

export const s3ObjectReader = perBucket(answers, async (ctx, { region, instance }, bucket) => {
  const state = instance.attributes;
  const key = keyOf(state);
  const head = await s3Get<HeadObjectCommandOutput>(ctx, region, `${bucket}/${key}`, 'HeadObject', new HeadObjectCommand({ Bucket: bucket, Key: key }), []);
  if (!head) return null;
  const tagging = 'tags' in state
    ? await s3Get<GetObjectTaggingCommandOutput>(ctx, region, `${bucket}/${key}`, 'GetObjectTagging', new GetObjectTaggingCommand({ Bucket: bucket, Key: key }), [])
    : undefined;
  const tags = tagMap(tagging?.TagSet);
  return {
    bucket, key, etag: (head.ETag ?? '').replace(/"/g, ''), content_type: head.ContentType ?? '', cache_control: head.CacheControl ?? '',
    content_disposition: head.ContentDisposition ?? '', content_encoding: head.ContentEncoding ?? '', content_language: head.ContentLanguage ?? '',
    metadata: head.Metadata ?? {}, server_side_encryption: sse(head.ServerSideEncryption, state.server_side_encryption),
    // The API leaves out STANDARD; a state written by older providers may hold "".
    storage_class: head.StorageClass ?? (state.storage_class === '' ? '' : 'STANDARD'),
    kms_key_id: head.SSEKMSKeyId ?? '', website_redirect: head.WebsiteRedirectLocation ?? '', bucket_key_enabled: head.BucketKeyEnabled ?? false,
    ...('tags' in state ? { tags, tags_all: tags } : {}),
  };
});
