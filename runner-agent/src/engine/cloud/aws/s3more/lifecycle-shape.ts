// Lifecycle rules between the API's shape and the provider's, and one normal form of a rule that
// both sides reduce to (the provider writes empty blocks, null and "" where the API leaves fields out).
import type { LifecycleRule } from '@aws-sdk/client-s3';
import { canonicalText, isObject, scalarKey } from '../../../values.ts';

const first = (v: unknown): Record<string, unknown> => (Array.isArray(v) && isObject(v[0]) ? v[0] : isObject(v) ? v : {});
const many = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObject) : []);
const n = (v: unknown) => (v === null || v === undefined || v === '' ? 0 : Number(v));
const day = (v: unknown) => (v ? String(v instanceof Date ? v.toISOString() : v).slice(0, 10) : '');
const tagsOf = (v: unknown): Record<string, string> => {
  if (Array.isArray(v)) return Object.fromEntries(many(v).map((t) => [scalarKey(t.key), scalarKey(t.value)]));
  return isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scalarKey(x)])) : {};
};

/** The expiration part of a provider-shaped rule (what the `lifecycle-expiration-changed` rule compares). */
export const expirationOf = (r: Record<string, unknown>) => {
  const e = first(r.expiration);
  const nc = first(r.noncurrent_version_expiration);
  return { days: n(e.days), date: day(e.date), marker: e.expired_object_delete_marker === true || e.expired_object_delete_marker === 'true', noncurrent: n(nc.noncurrent_days), newer: n(nc.newer_noncurrent_versions) };
};

/** One provider-shaped rule in a normal form both sides share. */
export function normalRule(r: Record<string, unknown>): Record<string, unknown> {
  const f = first(r.filter);
  const and = first(f.and);
  return {
    id: scalarKey(r.id), status: scalarKey(r.status), prefix: scalarKey(r.prefix) || scalarKey(f.prefix) || scalarKey(and.prefix),
    tags: { ...tagsOf(f.tag), ...tagsOf(and.tags) }, gt: n(f.object_size_greater_than) || n(and.object_size_greater_than), lt: n(f.object_size_less_than) || n(and.object_size_less_than),
    expiration: expirationOf(r), abort: n(first(r.abort_incomplete_multipart_upload).days_after_initiation),
    transitions: many(r.transition).map((t) => `${n(t.days)}/${day(t.date)}/${scalarKey(t.storage_class)}`).sort(),
    noncurrentTransitions: many(r.noncurrent_version_transition).map((t) => `${n(t.noncurrent_days)}/${n(t.newer_noncurrent_versions)}/${scalarKey(t.storage_class)}`).sort(),
  };
}

export const ruleKey = (e: unknown): string[] => (isObject(e) ? [canonicalText(normalRule(e))] : []);

/** An API rule in the provider's shape. */
export function providerRule(r: LifecycleRule): Record<string, unknown> {
  const f = r.Filter;
  const and = f?.And;
  return {
    id: r.ID ?? '', status: r.Status, prefix: r.Prefix ?? '',
    filter: f ? [{
      prefix: f.Prefix ?? '', object_size_greater_than: f.ObjectSizeGreaterThan ?? 0, object_size_less_than: f.ObjectSizeLessThan ?? 0,
      tag: f.Tag ? [{ key: f.Tag.Key, value: f.Tag.Value }] : [],
      and: and ? [{ prefix: and.Prefix ?? '', object_size_greater_than: and.ObjectSizeGreaterThan ?? 0, object_size_less_than: and.ObjectSizeLessThan ?? 0,
        tags: Object.fromEntries((and.Tags ?? []).map((t) => [t.Key, t.Value])) }] : [],
    }] : [],
    expiration: r.Expiration ? [{ days: r.Expiration.Days ?? 0, date: r.Expiration.Date?.toISOString() ?? '', expired_object_delete_marker: r.Expiration.ExpiredObjectDeleteMarker ?? false }] : [],
    transition: (r.Transitions ?? []).map((t) => ({ days: t.Days ?? 0, date: t.Date?.toISOString() ?? '', storage_class: t.StorageClass })),
    noncurrent_version_expiration: r.NoncurrentVersionExpiration
      ? [{ noncurrent_days: r.NoncurrentVersionExpiration.NoncurrentDays ?? 0, newer_noncurrent_versions: r.NoncurrentVersionExpiration.NewerNoncurrentVersions ?? 0 }] : [],
    noncurrent_version_transition: (r.NoncurrentVersionTransitions ?? []).map((t) => ({ noncurrent_days: t.NoncurrentDays ?? 0, newer_noncurrent_versions: t.NewerNoncurrentVersions ?? 0, storage_class: t.StorageClass })),
    abort_incomplete_multipart_upload: r.AbortIncompleteMultipartUpload ? [{ days_after_initiation: r.AbortIncompleteMultipartUpload.DaysAfterInitiation ?? 0 }] : [],
  };
}

/** A provider-shaped rule as the API's (the fake's answer). */
export function apiRule(r: Record<string, unknown>): Record<string, unknown> {
  const x = normalRule(r);
  const e = x.expiration as ReturnType<typeof expirationOf>;
  const tags = Object.entries(x.tags as Record<string, string>).map(([Key, Value]) => ({ Key, Value }));
  const hasFilter = many(r.filter).length > 0;
  const num = (v: number) => (v ? v : undefined);
  return {
    ID: x.id || undefined, Status: x.status, Prefix: hasFilter ? undefined : (x.prefix as string) || undefined,
    Filter: hasFilter ? (tags.length > 1 || (tags.length && (x.prefix || x.gt || x.lt))
      ? { And: { Prefix: (x.prefix as string) || undefined, Tags: tags, ObjectSizeGreaterThan: num(x.gt as number), ObjectSizeLessThan: num(x.lt as number) } }
      : { Prefix: (x.prefix as string) || undefined, Tag: tags[0], ObjectSizeGreaterThan: num(x.gt as number), ObjectSizeLessThan: num(x.lt as number) }) : undefined,
    Expiration: e.days || e.date || e.marker ? { Days: num(e.days), Date: e.date ? new Date(e.date) : undefined, ExpiredObjectDeleteMarker: e.marker || undefined } : undefined,
    Transitions: many(r.transition).map((t) => ({ Days: num(n(t.days)), Date: day(t.date) ? new Date(day(t.date)) : undefined, StorageClass: scalarKey(t.storage_class) })),
    NoncurrentVersionExpiration: e.noncurrent || e.newer ? { NoncurrentDays: num(e.noncurrent), NewerNoncurrentVersions: num(e.newer) } : undefined,
    NoncurrentVersionTransitions: many(r.noncurrent_version_transition).map((t) => ({ NoncurrentDays: num(n(t.noncurrent_days)), NewerNoncurrentVersions: num(n(t.newer_noncurrent_versions)), StorageClass: scalarKey(t.storage_class) })),
    AbortIncompleteMultipartUpload: x.abort ? { DaysAfterInitiation: x.abort } : undefined,
  };
}
