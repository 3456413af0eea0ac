// What is never reported as drift. Two layers, both matched against attribute paths such as
// `tags.Env` or `versioning_configuration.0.status`:
//   1. IGNORED_ATTRIBUTES (catalogue.ts): computed or noisy attributes per resource type, kept
//      beside each type's reader in its provider's folders, and IGNORED_EVERYWHERE below;
//   2. the repository's `.driftignore` at its root (format below, and in the README).
//
// .driftignore: one pattern per line; `#` starts a comment; blank lines are skipped.
//   <selector>.<attribute path>      e.g.  aws_instance.tags.LastSeen
//                                          aws_instance.web.tags.LastSeen
//                                          module.net.aws_security_group.app["a"].description
//   `*` matches any run of characters: aws_instance.*.tags.LastSeen, *.tags.Team
//   A pattern also covers everything under it: `aws_s3_bucket.logs.tags` ignores every tag of that
//   bucket, `aws_iam_role.legacy` every attribute of it (changes only; a deleted resource is still
//   reported, since a gone resource is never noise).
// The selector is a resource type or a resource address; each diff is tried as
// `<type>.<attribute>`, `<address>.<attribute>` and, inside modules, as the address without its
// module path, so `aws_instance.*.tags.LastSeen` also covers `module.app.aws_instance.web`.
import { readFile } from 'node:fs/promises';
import { formatAddress, parseAddress } from './address.ts';
import { insideCheckout } from './paths.ts';
import { globRegExp } from './values.ts';

/** Attribute patterns ignored on every type; each provider's per-type lists are in its folders (catalogue.ts gathers them). */
export const IGNORED_EVERYWHERE: Record<string, string[]> = {
  '*': ['id', 'arn', 'tags_all', 'timeouts', 'region'],
};

export interface IgnoreRules {
  /** True when the diff at `attribute` of this resource is not to be reported. */
  ignores(resourceType: string, address: string, attribute: string): boolean;
  /** Number of repository patterns in force. */
  patternCount: number;
}

export function parseIgnoreFile(text: string): string[] {
  return text.split(/\r?\n/).map((l) => l.replace(/(^|\s)#.*$/, '').trim()).filter(Boolean);
}

/** `table`: attribute patterns per resource type (catalogue.ts IGNORED_ATTRIBUTES; `*` applies to every type). */
export function buildIgnoreRules(repoPatterns: string[], table: Record<string, string[]>): IgnoreRules {
  const builtIn = new Map<string, RegExp[]>();
  // `!<pattern>` in a type's list takes that pattern of the `*` list back for the type (an
  // EventBridge target's `arn` is the target it delivers to, not its own computed ARN).
  const everyType = table['*'] ?? [];
  for (const [type, attrs] of Object.entries(table)) {
    const kept = new Set(attrs.filter((a) => a.startsWith('!')).map((a) => a.slice(1)));
    const own = attrs.filter((a) => !a.startsWith('!'));
    builtIn.set(type, (type === '*' ? own : [...own, ...everyType.filter((a) => !kept.has(a))]).map((a) => globRegExp(a, true)));
  }
  const repo = repoPatterns.map((p) => globRegExp(p, true));
  return {
    patternCount: repoPatterns.length,
    ignores(resourceType, address, attribute) {
      if ((builtIn.get(resourceType) ?? builtIn.get('*'))?.some((re) => re.test(attribute))) return true;
      if (repo.length === 0) return false;
      const keys = [`${resourceType}.${attribute}`, `${address}.${attribute}`];
      if (address.startsWith('module.')) keys.push(`${localAddress(address)}.${attribute}`);
      return repo.some((re) => keys.some((k) => re.test(k)));
    },
  };
}

/** `module.a.aws_instance.web[0]` -> `aws_instance.web[0]`. */
function localAddress(address: string): string {
  try {
    const { type, name, indexKey } = parseAddress(address);
    return formatAddress({ type, name, indexKey });
  } catch {
    return address;
  }
}

/** Reads `<root>/.driftignore` (missing file = no patterns); a link out of the checkout is refused (paths.ts). */
export async function loadIgnoreFile(repoRoot: string): Promise<string[]> {
  const file = await insideCheckout(repoRoot, '.driftignore', '.driftignore', 'file');
  return file ? parseIgnoreFile(await readFile(file, 'utf8')) : [];
}
