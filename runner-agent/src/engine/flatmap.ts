// Decoding `attributes_flat`: the flatmap form Terraform 0.11 stored attributes in, which a
// state upgraded to v4 keeps until the resource is next applied. Keys are dotted paths with
// counts beside containers: `tags.%` (a map of N entries), `ingress.#` (a list or set of N
// elements, sets indexed by a hash), `ingress.1234.from_port`. Every value is a string; the
// comparison treats "22" and 22 alike (values.ts), so no schema is needed to compare.

type Node = unknown;

/** The nested value of a flatmap, e.g. {"tags.%":"1","tags.Name":"a"} -> {tags:{Name:"a"}}. */
export function decodeFlatmap(flat: Record<string, string>): Record<string, unknown> {
  const keys = Object.keys(flat).sort();
  return decodeObject(flat, keys, '') as Record<string, unknown>;
}

/** The keys at `path` or under it (`tags` must not take `tags_all`). */
const childKeys = (keys: string[], path: string) => keys.filter((k) => k === path || k.startsWith(`${path}.`));

function decodeObject(flat: Record<string, string>, keys: string[], prefix: string): Node {
  const out: Record<string, unknown> = {};
  const names = [...new Set(keys.map((k) => k.slice(prefix.length).split('.')[0]))];
  for (const name of names) out[name] = decodeAt(flat, childKeys(keys, `${prefix}${name}`), `${prefix}${name}`);
  return out;
}

/** The value at `path`: a scalar, or a container announced by `path.#` / `path.%`. */
function decodeAt(flat: Record<string, string>, keys: string[], path: string): Node {
  if (path in flat && !(`${path}.#` in flat) && !(`${path}.%` in flat)) return flat[path];
  const inner = keys.filter((k) => k.startsWith(`${path}.`));
  if (`${path}.#` in flat) {
    const elems = inner.filter((k) => k !== `${path}.#`);
    const ids = [...new Set(elems.map((k) => k.slice(path.length + 1).split('.')[0]))];
    // List indexes are numbers; set elements are keyed by hashes whose order means nothing.
    ids.sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
    return ids.map((id) => decodeAt(flat, childKeys(elems, `${path}.${id}`), `${path}.${id}`));
  }
  if (`${path}.%` in flat) {
    const entries = inner.filter((k) => k !== `${path}.%`);
    const count = Number(flat[`${path}.%`]);
    // A map of scalars (tags, the common case): each remaining key is one entry, dots included
    // ("kubernetes.io/cluster/x"). A map of containers falls back to the nested reading.
    if (entries.length === count) return Object.fromEntries(entries.map((k) => [k.slice(path.length + 1), flat[k]]));
    return decodeObject(flat, entries, `${path}.`);
  }
  if (inner.length === 0) return flat[path];
  return decodeObject(flat, inner, `${path}.`);
}
