// What every AWS resource-type reader provides: how to read the live attributes of a batch of
// state instances, and how to compare them (diff.ts).
import type { CompareSpec } from '../../diff.ts';
import type { LiveAttributes, StateInstance } from '../../types.ts';
import type { AwsContext, AwsService } from './context.ts';
import type { OperationSchema } from './replay/wire.ts';

export interface ReadItem { instance: StateInstance; region: string }

/** What the replay fake knows: the state's managed instances, by type. */
export interface FakeWorld { of(type: string): StateInstance[] }

/**
 * How the replay fake answers one operation the reader calls: from the state's attributes, in
 * the output shape the SDK hands its callers (wire.ts writes it as the service would), or by
 * throwing the FakeError the real service answers (not found, ...).
 */
export interface Answer {
  service: AwsService;
  op: OperationSchema;
  /** `input` arrives in the operation's input shape, read back from the wire. */
  answer(input: any, world: FakeWorld): unknown;
}

export interface TypeReader {
  spec: CompareSpec;
  /** Live attributes for each item, in the same order; null when the resource no longer exists. */
  read(items: ReadItem[], ctx: AwsContext): Promise<(LiveAttributes | null)[]>;
  /** The replay fake's answers to every operation `read` calls (several readers may share one). */
  answers: Answer[];
}

/** An Answer; `op` is the SDK's exported operation schema (e.g. `DescribeVpcs$`). */
export const answer = <I = any>(service: AwsService, op: unknown, fn: (input: I, world: FakeWorld) => unknown): Answer =>
  ({ service, op: op as OperationSchema, answer: fn });

/** Items grouped by region, keeping each item's position so results can be put back in order. */
export function byRegion(items: ReadItem[]): Map<string, { item: ReadItem; index: number }[]> {
  const out = new Map<string, { item: ReadItem; index: number }[]>();
  items.forEach((item, index) => {
    const list = out.get(item.region) ?? [];
    list.push({ item, index });
    out.set(item.region, list);
  });
  return out;
}

export const str = (v: unknown): string => (typeof v === 'string' ? v : v === undefined || v === null ? '' : String(v));

/** Memoises one promise per key for the whole scan (several resource types share an API answer). */
export function once<T>(ctx: AwsContext, key: string, fn: () => Promise<T>): Promise<T> {
  let p = ctx.cache.get(key) as Promise<T> | undefined;
  if (!p) {
    p = fn();
    ctx.cache.set(key, p);
  }
  return p;
}

/** Runs one read; the listed error names (the service's "not found") give undefined. */
export async function unlessAbsent<O>(read: Promise<O>, absent: string[]): Promise<O | undefined> {
  try {
    return await read;
  } catch (e) {
    const name = (e as { name?: string })?.name ?? '';
    if (absent.includes(name)) return undefined;
    throw e;
  }
}
