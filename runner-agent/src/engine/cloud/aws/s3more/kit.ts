// What the S3 configuration readers share: one memoised read per bucket and operation, where a
// missing bucket or a missing configuration is "not there" (null), never an error.
import { mapLimit } from '../../../limit.ts';
import type { LiveAttributes } from '../../../types.ts';
import { errorName, httpStatus, PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { once, str, type Answer, type ReadItem, type TypeReader } from '../reader.ts';

/** An S3 read; the listed error names, NoSuchBucket and 404s give undefined. */
export function s3Get<O>(ctx: AwsContext, region: string, key: string, op: string, command: unknown, absent: string[]): Promise<O | undefined> {
  return once(ctx, `s3:${op}:${key}`, async () => {
    try {
      return await ctx.send<O>(ctx.s3(region), command, `s3:${op}`);
    } catch (e) {
      if ([...absent, 'NoSuchBucket', 'NotFound', 'NoSuchKey'].includes(errorName(e)) || httpStatus(e) === 404) return undefined;
      throw e;
    }
  });
}

export const bucketOf = (a: Record<string, unknown>) => str(a.bucket || a.id).split(',')[0]!;

/** A reader of one configuration per bucket (at most PER_RESOURCE_CONCURRENCY buckets at once). */
export function perBucket(answers: Answer[], build: (ctx: AwsContext, item: ReadItem, bucket: string) => Promise<LiveAttributes | null>, spec: TypeReader['spec'] = {}): TypeReader {
  return {
    spec,
    answers,
    read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, (item) => {
      const bucket = bucketOf(item.instance.attributes);
      return bucket ? build(ctx, item, bucket) : Promise.resolve(null);
    }),
  };
}
