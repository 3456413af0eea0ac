// One shape for the EC2 Describe* readers: ids batched per call, an unknown id (which fails the
// whole call) answered by the same batch through the id filter, results cached per region for
// the scan (route tables serve three resource types), and the replay answer built from the same
// description so the reader and its fake cannot disagree on names.
import { errorName, PER_RESOURCE_CONCURRENCY, type AwsContext } from './context.ts';
import type { LiveAttributes, StateInstance } from '../../types.ts';
import { answer, byRegion, str, type Answer, type FakeWorld, type TypeReader } from './reader.ts';
import { ec2Select, filterValues } from './replay/kit.ts';
import { chunk, mapLimit } from '../../limit.ts';

const FILTER_VALUES = 200; // AWS accepts at most 200 values per filter

/**
 * Describes `ids` in batches: one call by ids per batch, and when one unknown id fails the whole
 * call (`notFound`), that batch again through a filter (paged), which skips unknown ids.
 * Shared by instances and security groups.
 */
export async function describeByIds<O extends { NextToken?: string }>(ids: string[], batch: number, notFound: RegExp, call: {
  byIds: (ids: string[]) => Promise<O>;
  byFilter: (values: string[], token: string | undefined) => Promise<O>;
}, collect: (out: O) => void): Promise<void> {
  for (const part of chunk(ids, batch)) {
    try {
      collect(await call.byIds(part));
    } catch (e) {
      if (!notFound.test(errorName(e))) throw e;
      await describeByFilter(part, call.byFilter, collect);
    }
  }
}

/** Describes through a filter on `values`, FILTER_VALUES at a time, every page of each. */
export async function describeByFilter<O extends { NextToken?: string }>(
  values: string[], byFilter: (values: string[], token: string | undefined) => Promise<O>, collect: (out: O) => void,
): Promise<void> {
  for (const sub of chunk(values, FILTER_VALUES)) {
    let token: string | undefined;
    do {
      const out = await byFilter(sub, token);
      collect(out);
      token = out.NextToken;
    } while (token);
  }
}

type Cmd = new (input: any) => unknown;

export interface Ec2Describe<R> {
  /** e.g. DescribeVpcsCommand, DescribeVpcs$ */
  command: Cmd;
  schema: unknown;
  what: string;
  idsField: string;
  /** The Filters name selecting by id; absent when the API has none (then unknown ids are retried one by one). */
  filter?: string;
  listField: string;
  notFound: string;
  idOf: (r: R) => string;
  batch?: number;
  /** Fields added to every call (DescribeKeyPairs' IncludePublicKey). */
  input?: Record<string, unknown>;
}

/** Records by id for the scan; ids asked for and not found map to null. */
export async function ec2Records<R>(ctx: AwsContext, region: string, d: Ec2Describe<R>, ids: string[]): Promise<Map<string, R | null>> {
  const key = `ec2:${d.what}:${region}`;
  const cache = (ctx.cache.get(key) as Map<string, R | null> | undefined) ?? new Map<string, R | null>();
  ctx.cache.set(key, cache);
  const missing = [...new Set(ids)].filter((id) => id && !cache.has(id));
  const send = (input: Record<string, unknown>) => ctx.send<Record<string, unknown>>(ctx.ec2(region), new d.command({ ...d.input, ...input }), `ec2:${d.what}`);
  const collect = (out: Record<string, unknown>) => { for (const r of (out[d.listField] ?? []) as R[]) cache.set(d.idOf(r), r); };
  const notFound = new RegExp(`^${d.notFound.replace(/\./g, '\\.')}|\\.Malformed$`);
  if (d.filter) {
    await describeByIds(missing, d.batch ?? 200, notFound, {
      byIds: (part) => send({ [d.idsField]: part }) as Promise<{ NextToken?: string }>,
      byFilter: (values, token) => send({ Filters: [{ Name: d.filter, Values: values }], NextToken: token }) as Promise<{ NextToken?: string }>,
    }, collect);
  } else {
    // Every page of a call by ids.
    const all = async (ids: string[]) => {
      let token: string | undefined;
      do {
        const out = await send({ [d.idsField]: ids, NextToken: token });
        collect(out);
        token = out.NextToken as string | undefined;
      } while (token);
    };
    // Ids asked for and not answered are asked again while each round answers some (moto caps
    // DescribeLaunchTemplates at 15 records without a NextToken).
    const untilAnswered = async (ids: string[]) => {
      for (let left = ids; left.length;) {
        await all(left);
        const still = left.filter((id) => !cache.has(id));
        if (still.length === left.length) return;
        left = still;
      }
    };
    for (const part of chunk(missing, d.batch ?? 200)) {
      try {
        await untilAnswered(part);
      } catch (e) {
        if (!notFound.test(errorName(e))) throw e;
        for (const id of part) {
          try { await all([id]); } catch (e2) { if (!notFound.test(errorName(e2))) throw e2; }
        }
      }
    }
  }
  for (const id of missing) if (!cache.has(id)) cache.set(id, null);
  return cache;
}

/** Replay: the Describe call answered from records the state implies. */
export function ec2Answer<R>(d: Ec2Describe<R>, records: (world: FakeWorld) => Record<string, unknown>[]): Answer {
  return answer<Record<string, unknown>>('ec2', d.schema, (input, world) => ({
    [d.listField]: ec2Select(records(world), (r) => d.idOf(r as R), input[d.idsField] as string[] | undefined, d.filter ? filterValues(input, d.filter) : undefined, d.notFound),
  }));
}

/**
 * A reader for a type whose state id is the record's id: `live` maps a record to the state's
 * attribute shape (null when the record stands for a deleted resource, e.g. state "deleted").
 */
export function ec2Reader<R>(d: Ec2Describe<R>, opts: {
  /** `aliases`: other resource types managing the same records (aws_default_vpc is an aws_vpc). */
  type: string; aliases?: string[]; spec?: TypeReader['spec']; idOfState?: (a: Record<string, unknown>) => string;
  live: (r: R, state: Record<string, unknown>, ctx: AwsContext, region: string) => LiveAttributes | null | Promise<LiveAttributes | null>;
  /** Replay: the API record the state's attributes stand for (R's shape; enum fields as plain strings). */
  record: (a: Record<string, unknown>, instance: StateInstance) => Record<string, unknown>; extraAnswers?: Answer[];
}): TypeReader {
  const stateId = opts.idOfState ?? ((a: Record<string, unknown>) => str(a.id));
  return {
    spec: opts.spec ?? {},
    answers: [ec2Answer(d, (world) => [opts.type, ...(opts.aliases ?? [])].flatMap((t) => world.of(t)).map((i) => opts.record(i.attributes, i))), ...(opts.extraAnswers ?? [])],
    async read(items, ctx) {
      const out: (LiveAttributes | null)[] = new Array(items.length).fill(null);
      for (const [region, group] of byRegion(items)) {
        const records = await ec2Records(ctx, region, d, group.map((g) => stateId(g.item.instance.attributes)));
        await mapLimit(group, PER_RESOURCE_CONCURRENCY, async ({ item, index }) => {
          const r = records.get(stateId(item.instance.attributes));
          if (r) out[index] = await opts.live(r, item.instance.attributes, ctx, region);
        });
      }
      return out;
    },
  };
}

