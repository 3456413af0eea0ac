// Attribute definitions as filters, the compiler and PATCH see them: which stored field an
// attribute is, its type and case rule, its sub-attributes. A service describes its resources
// with these (plugins/sso-scim/scim-attributes.ts) and passes them to each call.
import { invalidFilter } from './errors.ts';
import type { AttrPath } from './filter.ts';

/** One attribute (lower-case name -> definition in an Attrs table; enterprise ones under `enterprise:`). */
export interface AttrDef {
  /** The stored field (dotted), or null when only the evaluator can read it. */
  field: string | null;
  type: 'string' | 'boolean' | 'dateTime' | 'complex' | 'reference';
  caseExact?: boolean;
  multi?: boolean;
  /** A stored lower-case copy the compiler compares against (unique lookups stay exact on an index). */
  lower?: string;
  /** Sub-attributes of a complex attribute (lower-case name -> definition relative to the element). */
  subs?: Record<string, AttrDef>;
  /** Served by an index as an equality: the only fields a compiled filter compares with equality. */
  keyed?: boolean;
}

export const str = (field: string | null, extra: Partial<AttrDef> = {}): AttrDef => ({ field, type: 'string', ...extra });
export const multiValued = (field: string, subs: Record<string, AttrDef>): AttrDef => ({ field, type: 'complex', multi: true, subs });

export type Attrs = Record<string, AttrDef>;

/** The definition of a path, and of its sub-attribute (for a complex attribute: `value` when none is named). */
export function resolve(attrs: Attrs, path: AttrPath, fail = invalidFilter, whole = false): { attr: AttrDef; sub?: AttrDef; name: string } {
  const key = path.schema === 'enterprise' ? `enterprise:${path.attr.toLowerCase()}` : path.attr.toLowerCase();
  const attr = attrs[key];
  if (!attr) throw fail(`Unknown attribute "${path.attr}"`);
  // PATCH may name a single-valued complex attribute as a whole (`name`, the manager).
  if (whole && attr.type === 'complex' && !attr.multi && !path.sub) return { attr, name: key };
  if (attr.type !== 'complex') {
    if (path.sub) throw fail(`"${path.attr}" has no sub-attributes`);
    return { attr, name: key };
  }
  const subName = (path.sub ?? (attr.multi || attr.subs?.value ? 'value' : '')).toLowerCase();
  const sub = attr.subs?.[subName];
  if (!sub) throw fail(`Unknown attribute "${path.attr}${path.sub ? `.${path.sub}` : ''}"`);
  return { attr, sub, name: key };
}
