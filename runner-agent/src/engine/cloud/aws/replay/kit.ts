// Small helpers the readers' replay answers share: state attribute values back into API shapes,
// id selection with the API's own not-found behaviour.
import { isObject, withAllTags } from '../../../values.ts';
import type { FakeWorld } from '../reader.ts';
import { FakeError } from './wire.ts';

export { FakeError };

/** The tags the live resource carries by the state: tags_all (default_tags included) when the state has it. */
export const stateTags = (attrs: Record<string, unknown>): unknown => withAllTags(attrs).tags;
export const tagList = (tags: unknown): { Key: string; Value: string }[] =>
  (isObject(tags) ? Object.entries(tags).map(([Key, v]) => ({ Key, Value: v === null || v === undefined ? '' : String(v) })) : []);
/** Lower-case `key`/`value` tag lists (ECS, ECR, Logs use these spellings). */
export const tagPairs = (tags: unknown, key = 'key', value = 'value') => tagList(tags).map((t) => ({ [key]: t.Key, [value]: t.Value }));

/** A string attribute, or undefined when empty (the API leaves the field out). */
export const opt = (v: unknown): string | undefined => (v === undefined || v === null || v === '' ? undefined : String(v));
export const num = (v: unknown): number | undefined => (v === undefined || v === null || v === '' ? undefined : Number(v));
export const bool = (v: unknown): boolean | undefined => (v === undefined || v === null || v === '' ? undefined : v === true || v === 'true');
export const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x) => x !== null && x !== undefined && x !== '').map(String) : []);
/** First element of a nested block list (`versioning_configuration.0`), or {}. */
export const block = (v: unknown): Record<string, unknown> => (Array.isArray(v) && isObject(v[0]) ? v[0] : {});
export const attrsOf = (world: FakeWorld, type: string) => world.of(type).map((i) => i.attributes);
export const date = (v: unknown): Date | undefined => { const d = new Date(String(v)); return v && !Number.isNaN(d.getTime()) ? d : undefined; };

/** Values of one EC2 `Filters` entry, when the request filtered by it. */
export function filterValues(input: { Filters?: { Name?: string; Values?: string[] }[] }, name: string): string[] | undefined {
  return input.Filters?.find((f) => f.Name === name)?.Values;
}

/**
 * Picks records by id as an EC2 Describe call does: ids asked for by name must all exist (else
 * the whole call fails with `notFound`), ids in a filter select what exists, no ids select all.
 */
export function ec2Select<T>(all: T[], idOf: (t: T) => string, ids: string[] | undefined, filter: string[] | undefined, notFound: string): T[] {
  const index = new Map(all.map((t) => [idOf(t), t]));
  if (ids?.length) {
    const missing = ids.filter((id) => !index.has(id));
    if (missing.length) throw new FakeError(notFound, `The ID '${missing[0]}' does not exist`);
    return ids.map((id) => index.get(id)!);
  }
  if (filter) return filter.map((id) => index.get(id)).filter((t): t is T => t !== undefined);
  return all;
}
