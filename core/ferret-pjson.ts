// FerretDB 1.24's storage of a document in PostgreSQL ("PJSON": jsonb with a `$s` schema of each
// field's BSON type and the keys' order), read back into the values the driver gives, for the
// reads that stream documents straight from PostgreSQL (core/ferret-reads.ts `rows`). A date is
// stored as milliseconds, an ObjectId as its hex string, an array with one schema per item.
// A type this does not know (binData, regex, timestamp...) is an error, never a guess: the
// stores whose documents are streamed this way keep none.
import { ObjectId } from 'mongodb';

interface FieldSchema { t: string; $s?: DocSchema; i?: FieldSchema[] }
interface DocSchema { p?: Record<string, FieldSchema>; $k?: string[] }

function value(s: FieldSchema | undefined, v: unknown): unknown {
  switch (s?.t) {
    case 'string': case 'bool': case 'int': case 'long': case 'double': case 'null':
      return v;
    case 'date': return new Date(v as number);
    case 'objectId': return new ObjectId(v as string);
    case 'object': return doc(s.$s ?? {}, v as Record<string, unknown>);
    case 'array': return (v as unknown[]).map((x, i) => value(s.i?.[i], x));
    default: throw new Error(`FerretDB value of type ${s?.t ?? 'unknown'} is not decoded here`);
  }
}

function doc(schema: DocSchema, v: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of schema.$k ?? Object.keys(schema.p ?? {})) out[k] = value(schema.p?.[k], v[k]);
  return out;
}

/** A document as FerretDB stores it (`_jsonb`), as the driver would read it. */
export const fromPjson = (stored: Record<string, unknown>) => doc((stored.$s ?? {}) as DocSchema, stored);
