// The PATCH engine (RFC 7644 §3.5.2) on a resource's SCIM JSON: add, replace and remove, with
// and without `path`, value-filter paths (`emails[type eq "work"].value`, `members[value eq
// "id"]`), and the shapes identity providers are documented to send: Entra ID's capitalised
// ops, `replace` without a path whose value keys are attribute paths ("name.givenName",
// "urn:...:enterprise:2.0:User:department") and `"active": "False"` strings; Okta's `replace`
// of `active` and of the whole group (`{id, displayName}`), and member removal by filter path.
import { invalidPath, invalidValue, mutability, noTarget } from './errors.ts';
import { resolve, type Attrs } from './attributes.ts';
import { attrPath, ENTERPRISE_URN, parsePatchPath, type AttrPath, type PatchPath } from './filter.ts';
import { matches } from './match.ts';

export type Json = Record<string, unknown>;
export interface PatchOp { op: string; path?: string; value?: unknown }

/** "True"/"false" strings (Entra ID) as booleans, for boolean attributes. */
export function coerceBoolean(v: unknown): unknown {
  if (typeof v === 'string' && /^(true|false)$/i.test(v)) return v.toLowerCase() === 'true';
  return v;
}

const keyIn = (o: Json, name: string) => Object.keys(o).find((k) => k.toLowerCase() === name.toLowerCase());

/** The object holding a path's attribute (the resource, or its enterprise extension object). */
function container(resource: Json, path: AttrPath, create: boolean): Json | undefined {
  if (path.schema === 'core') return resource;
  const key = keyIn(resource, ENTERPRISE_URN) ?? ENTERPRISE_URN;
  let ext = resource[key] as Json | undefined;
  if (!ext && create) { ext = {}; resource[key] = ext; }
  return ext;
}

function coerce(attrs: Attrs, path: AttrPath, value: unknown): unknown {
  const { attr, sub } = resolve(attrs, path, invalidPath, true);
  const def = path.sub ? sub : attr;
  if (def?.type === 'boolean') return coerceBoolean(value);
  if (attr.type === 'complex' && !path.sub && value && typeof value === 'object') {
    // Sub-attribute booleans inside complex values (emails[].primary "True").
    const fix = (el: unknown) => {
      if (!el || typeof el !== 'object' || Array.isArray(el)) return el;
      return Object.fromEntries(Object.entries(el as Json).map(([k, v]) => [k, attr.subs?.[k.toLowerCase()]?.type === 'boolean' ? coerceBoolean(v) : v]));
    };
    return Array.isArray(value) ? value.map(fix) : fix(value);
  }
  return value;
}

/** Sets (replace) or adds to (add) one attribute path without a filter. */
function setAttr(attrs: Attrs, resource: Json, path: AttrPath, raw: unknown, mode: 'add' | 'replace') {
  const { attr } = resolve(attrs, path, invalidPath, true);
  const value = coerce(attrs, path, raw);
  const holder = container(resource, path, true)!;
  const key = keyIn(holder, path.attr) ?? path.attr;
  if (path.sub) {
    if (attr.multi) {
      // `emails.value` without a filter: every element (RFC: replace on all; add likewise).
      const list = Array.isArray(holder[key]) ? (holder[key] as Json[]) : [];
      if (!list.length) holder[key] = [{ [path.sub]: value }];
      else for (const el of list) el[keyIn(el, path.sub) ?? path.sub] = value;
      return;
    }
    const obj = (holder[key] && typeof holder[key] === 'object' ? holder[key] : {}) as Json;
    obj[keyIn(obj, path.sub) ?? path.sub] = value;
    holder[key] = obj;
    return;
  }
  if (attr.multi) {
    const items = Array.isArray(value) ? value : [value];
    if (mode === 'replace') { holder[key] = items; return; }
    const list = Array.isArray(holder[key]) ? (holder[key] as Json[]) : [];
    // Adding a value already present changes nothing (members added twice stay once).
    for (const item of items) {
      const v = (item as Json)?.value;
      if (v !== undefined && list.some((el) => el?.value === v)) continue;
      list.push(item as Json);
    }
    holder[key] = list;
    return;
  }
  if (attr.type === 'complex' && value && typeof value === 'object' && !Array.isArray(value) && mode === 'add') {
    holder[key] = { ...((holder[key] as Json) ?? {}), ...(value as Json) };
    return;
  }
  holder[key] = value;
}

/** A value filter's simple `type eq "work"` as an element to create when nothing matches yet (Entra ID adds emails this way). */
function seedOf(p: PatchPath): Json | null {
  const f = p.filter;
  if (f?.kind === 'cmp' && f.op === 'eq' && typeof f.value === 'string' && !f.path.sub) return { [f.path.attr]: f.value };
  return null;
}

function applyFiltered(attrs: Attrs, resource: Json, p: PatchPath, op: 'add' | 'replace' | 'remove', raw: unknown) {
  const { attr } = resolve(attrs, p.path, invalidPath);
  if (!attr.multi || !attr.subs) throw invalidPath(`"${p.path.attr}" takes no value filter`);
  const holder = container(resource, p.path, op !== 'remove');
  const key = holder && (keyIn(holder, p.path.attr) ?? p.path.attr);
  const list = holder && Array.isArray(holder[key!]) ? (holder[key!] as Json[]) : [];
  const hits = list.filter((el) => matches(attrs[p.path.attr.toLowerCase()]?.subs ?? attr.subs!, p.filter!, el));
  if (op === 'remove') {
    if (!holder || !hits.length) return; // removing what is not there is not an error for a remove by filter
    if (p.sub) for (const el of hits) delete el[keyIn(el, p.sub) ?? p.sub];
    else holder[key!] = list.filter((el) => !hits.includes(el));
    return;
  }
  const value = p.sub ? coerce(attrs, { ...p.path, sub: p.sub }, raw) : coerce(attrs, p.path, raw);
  if (!hits.length) {
    const seed = seedOf(p);
    if (!seed) throw noTarget(`No value of "${p.path.attr}" matches the path's filter`);
    const el: Json = p.sub ? { ...seed, [p.sub]: value } : { ...seed, ...(value as Json) };
    holder![key!] = [...list, el];
    return;
  }
  for (const el of hits) {
    if (p.sub) el[keyIn(el, p.sub) ?? p.sub] = value;
    else if (value && typeof value === 'object') {
      if (op === 'replace') { for (const k of Object.keys(el)) delete el[k]; }
      Object.assign(el, value);
    }
  }
}

function remove(attrs: Attrs, resource: Json, p: PatchPath, value: unknown) {
  if (p.filter) return applyFiltered(attrs, resource, p, 'remove', value);
  const { attr } = resolve(attrs, p.path, invalidPath, true);
  const holder = container(resource, p.path, false);
  if (!holder) return;
  const key = keyIn(holder, p.path.attr);
  if (!key) return;
  if (p.path.sub) {
    const target = holder[key];
    const items = Array.isArray(target) ? target : [target];
    for (const el of items) if (el && typeof el === 'object') delete (el as Json)[keyIn(el as Json, p.path.sub) ?? p.path.sub];
    return;
  }
  // Entra ID removes members by `{"op":"Remove","path":"members","value":[{"value":"<id>"}]}`.
  if (attr.multi && Array.isArray(value) && Array.isArray(holder[key])) {
    const gone = new Set<unknown>(value.map((v) => (v as Json)?.value).filter((v) => v !== undefined));
    holder[key] = (holder[key] as Json[]).filter((el) => !gone.has(el?.value));
    return;
  }
  delete holder[key];
}

/**
 * Applies the operations in order to a copy of the resource's JSON and returns it. `readOnly`
 * names attributes a client may not change (id, meta); `schemas` is ignored in values.
 */
export function applyPatch(attrs: Attrs, resource: Json, ops: PatchOp[], readOnly = new Set(['id', 'meta', 'schemas'])): Json {
  const out = structuredClone(resource);
  for (const raw of ops) {
    const op = raw.op.toLowerCase();
    if (op !== 'add' && op !== 'replace' && op !== 'remove') throw invalidValue(`Unknown PATCH op "${raw.op}"; expected add, replace or remove`);
    const path = raw.path?.trim();
    if (!path) {
      if (op === 'remove') throw noTarget('A remove operation needs a path');
      if (!raw.value || typeof raw.value !== 'object' || Array.isArray(raw.value)) throw invalidValue(`A ${op} without a path takes an object of attributes`);
      for (const [k, v] of Object.entries(raw.value as Json)) {
        if (readOnly.has(k.toLowerCase())) continue;
        // The extension as a whole: its attributes one by one.
        if (k.toLowerCase() === ENTERPRISE_URN.toLowerCase() && v && typeof v === 'object') {
          for (const [ek, ev] of Object.entries(v as Json)) if (ek.toLowerCase() !== 'schemas') setAttr(attrs, out, attrPath(`${ENTERPRISE_URN}:${ek}`, invalidPath), ev, op);
          continue;
        }
        setAttr(attrs, out, attrPath(k, invalidPath), v, op);
      }
      continue;
    }
    // The enterprise extension as a whole (RFC 7644 §3.5.2 paths may name a schema's attributes together).
    if (path.toLowerCase() === ENTERPRISE_URN.toLowerCase()) {
      const key = keyIn(out, ENTERPRISE_URN) ?? ENTERPRISE_URN;
      if (op === 'remove' || op === 'replace') delete out[key];
      if (op === 'remove') continue;
      if (!raw.value || typeof raw.value !== 'object' || Array.isArray(raw.value)) throw invalidValue(`A ${op} of the extension takes an object of its attributes`);
      for (const [ek, ev] of Object.entries(raw.value as Json)) {
        if (ek.toLowerCase() !== 'schemas') setAttr(attrs, out, attrPath(`${ENTERPRISE_URN}:${ek}`, invalidPath), ev, op);
      }
      continue;
    }
    const p = parsePatchPath(path);
    if (p.path.schema === 'core' && readOnly.has(p.path.attr.toLowerCase())) throw mutability(`"${p.path.attr}" cannot be changed`);
    if (op === 'remove') { remove(attrs, out, p, raw.value); continue; }
    if (raw.value === undefined) throw invalidValue(`A ${op} operation needs a value`);
    if (p.filter) applyFiltered(attrs, out, p, op, raw.value);
    else setAttr(attrs, out, p.path, raw.value, op);
  }
  return out;
}
