// What every lister shares (list.ts assembles AWS_LISTERS from list-*.ts).
import type { LiveAttributes } from '../../types.ts';
import type { AwsContext, AwsService } from './context.ts';

/**
 * One listed resource: the id its reader reads it by (inventory.ts readerIdOf of `attributes`),
 * its region, and the state attributes besides `id` the reader needs to find it (the role of a
 * role policy attachment, the rule's security group, ...).
 */
export interface Listed { id: string; region: string; attributes?: Record<string, unknown> }
export interface Lister {
  /** The API family, for byService and the permission a failure names. */
  service: AwsService;
  /** Listed once per account (IAM, S3, Route 53), not per region. */
  global?: true;
  list(ctx: AwsContext, region: string): Promise<Listed[]>;
  /** Whether a read resource is one to record (default: every one the reader finds). */
  keep?: (live: LiveAttributes) => boolean;
}

/** Every page of a paged call: `next` reads the following page's token (undefined at the end). */
export async function pages<O>(first: (token?: string) => Promise<O>, next: (o: O) => string | undefined, each: (o: O) => void): Promise<void> {
  let token: string | undefined;
  do {
    const page = await first(token);
    each(page);
    token = next(page);
  } while (token);
}

/** A lister that pages one call and maps each page to ids. */
export function paged<O>(service: AwsService, call: (ctx: AwsContext, region: string, token?: string) => Promise<O>, next: (o: O) => string | undefined,
  ids: (o: O) => (string | undefined)[], global?: true): Lister {
  return {
    service, ...(global ? { global } : {}),
    async list(ctx, region) {
      const out: Listed[] = [];
      const where = global ? 'us-east-1' : region;
      await pages((t) => call(ctx, region, t), next, (o) => { for (const id of ids(o)) if (id) out.push({ id, region: where }); });
      return out;
    },
  };
}
