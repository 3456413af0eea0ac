// `lifecycle { ignore_changes = [...] }` and `ignore_changes = all` of the resource block that
// declares an instance (hcl.ts reads them; region.ts and rest-scan.ts attach them to each
// instance, whatever its count or for_each key, in the root or a local module): Terraform
// never plans these attributes back, so their changes are no drift. A deletion is still one.
import type { IgnoreRules } from './ignore.ts';

/** Attribute paths in the engine's form (`tags.Env`, `foo.0.bar`), or every attribute. */
export type IgnoreChanges = string[] | 'all';

/** `desired_capacity`, `tags["x"]`, `foo[0].bar`, `"tags"` (0.11 style) -> `desired_capacity`, `tags.x`, `foo.0.bar`, `tags`. */
export function referencePath(ref: string): string | undefined {
  const text = ref.trim().replace(/^\$\{([^]*)\}$/, '$1').trim();
  if (!/^[A-Za-z_][\w-]*/.test(text)) return undefined;
  const path = text
    .replace(/\[\s*"((?:[^"\\]|\\.)*)"\s*\]/g, (_, k: string) => `.${k.replace(/\\(.)/g, '$1')}`)
    .replace(/\[\s*(\d+)\s*\]/g, '.$1');
  return /[[\]${}]/.test(path) ? undefined : path;
}

/** hcl2json's `ignore_changes` value as paths, `all`, or undefined when absent or empty. */
export function parseIgnoreChanges(v: unknown): IgnoreChanges | undefined {
  const all = (x: unknown) => typeof x === 'string' && /^(\$\{\s*all\s*\}|all|\*)$/.test(x.trim());
  if (all(v)) return 'all';
  if (!Array.isArray(v)) return undefined;
  if (v.some(all)) return 'all'; // 0.11's ["*"], and ["all"]
  const paths = v.map((x) => (typeof x === 'string' ? referencePath(x) : undefined)).filter((x): x is string => !!x);
  return paths.length ? paths : undefined;
}

/** Whether `path` (segments; `*` = any one) is `attribute` or a prefix of it. */
function covers(path: string, attribute: string): boolean {
  const p = path.split('.');
  const a = attribute.split('.');
  return p.length <= a.length && p.every((s, i) => s === '*' || s === a[i]);
}

/** `rules` that also ignore `paths` (or every attribute) of this one instance: its ignore_changes, and provider noise (noise.ts). */
export function withInstanceIgnores(rules: IgnoreRules, paths: IgnoreChanges | undefined): IgnoreRules {
  if (!paths || (paths !== 'all' && paths.length === 0)) return rules;
  return {
    patternCount: rules.patternCount,
    ignores: (type, address, attribute) => paths === 'all' || paths.some((p) => covers(p, attribute)) || rules.ignores(type, address, attribute),
  };
}
