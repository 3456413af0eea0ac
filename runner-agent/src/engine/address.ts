// Terraform resource addresses: formatting them from state v4 entries and parsing them back
// (plan JSON gives addresses as strings), e.g. `module.net["eu"].aws_instance.web[0]`.

export type IndexKey = number | string;

export function formatIndex(key: IndexKey | undefined): string {
  if (key === undefined || key === null) return '';
  return typeof key === 'number' ? `[${key}]` : `[${JSON.stringify(key)}]`;
}

/** `module` is state v4's module path (`module.a` or `module.a[0].module.b`), absent for the root. */
export function formatAddress(parts: { module?: string; type: string; name: string; indexKey?: IndexKey; mode?: string }): string {
  const prefix = parts.module ? `${parts.module}.` : '';
  const data = parts.mode === 'data' ? 'data.' : '';
  return `${prefix}${data}${parts.type}.${parts.name}${formatIndex(parts.indexKey)}`;
}

export interface ParsedAddress { module?: string; mode: 'managed' | 'data'; type: string; name: string; indexKey?: IndexKey }

/** Splits an address into dot-separated steps, each with an optional [index] (quoted keys may hold dots and brackets). */
function steps(address: string): { name: string; index?: IndexKey; raw: string }[] {
  const out: { name: string; index?: IndexKey; raw: string }[] = [];
  let i = 0;
  while (i < address.length) {
    const start = i;
    while (i < address.length && address[i] !== '.' && address[i] !== '[') i++;
    const name = address.slice(start, i);
    if (!name) throw new Error(`invalid resource address "${address}": empty name at ${start}`);
    let index: IndexKey | undefined;
    if (address[i] === '[') {
      const close = indexEnd(address, i);
      const inner = address.slice(i + 1, close);
      index = inner.startsWith('"') ? (JSON.parse(inner) as string) : Number(inner);
      if (typeof index === 'number' && !Number.isInteger(index)) throw new Error(`invalid resource address "${address}": bad index ${inner}`);
      i = close + 1;
    }
    out.push({ name, index, raw: address.slice(start, i) });
    if (i < address.length) {
      if (address[i] !== '.') throw new Error(`invalid resource address "${address}": unexpected "${address[i]}" at ${i}`);
      i++;
      if (i === address.length) throw new Error(`invalid resource address "${address}": trailing dot`);
    }
  }
  return out;
}

function indexEnd(s: string, open: number): number {
  let i = open + 1;
  if (s[i] === '"') {
    i++;
    while (i < s.length && s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
    i++;
  }
  while (i < s.length && s[i] !== ']') i++;
  if (s[i] !== ']') throw new Error(`invalid resource address "${s}": unclosed [ at ${open}`);
  return i;
}

export function parseAddress(address: string): ParsedAddress {
  const parts = steps(address);
  const mod: string[] = [];
  let k = 0;
  while (k < parts.length && parts[k].name === 'module' && parts[k].index === undefined && k + 1 < parts.length) {
    mod.push(`module.${parts[k + 1].raw}`);
    k += 2;
  }
  let mode: 'managed' | 'data' = 'managed';
  if (parts[k]?.name === 'data' && parts[k].index === undefined) { mode = 'data'; k++; }
  const rest = parts.slice(k);
  if (rest.length !== 2 || rest[0].index !== undefined) throw new Error(`invalid resource address "${address}": expected [module.X.]TYPE.NAME[index]`);
  return { module: mod.length ? mod.join('.') : undefined, mode, type: rest[0].name, name: rest[1].name, indexKey: rest[1].index };
}

/**
 * A provider configuration as a state names it. Every form Terraform 0.12+ and OpenTofu write:
 *   provider.aws, provider.aws.west                          (0.12's legacy form)
 *   provider["registry.terraform.io/hashicorp/aws"].west     (0.13 and later)
 *   module.m.provider["registry.terraform.io/hashicorp/aws"] (a provider configured inside a module)
 *   provider["registry.opentofu.org/hashicorp/aws"].by_region["eu-west-1"] (OpenTofu 1.9 provider for_each)
 */
export interface ProviderRef {
  /** Module path of the configuring module (`module.a.module.b`), absent for the root module. */
  module?: string;
  /** Provider type: the last part of its source address (`aws`). */
  type: string;
  alias?: string;
  /** Instance key of a provider configured with for_each (OpenTofu 1.9). */
  key?: IndexKey;
}

export function parseProviderAddress(address: string): ProviderRef {
  const parts = steps(address);
  const mod: string[] = [];
  let k = 0;
  while (parts[k]?.name === 'module' && parts[k].index === undefined && k + 1 < parts.length) {
    mod.push(`module.${parts[k + 1].raw}`);
    k += 2;
  }
  const head = parts[k];
  if (head?.name !== 'provider') throw new Error(`invalid provider address "${address}": expected [module.X.]provider...`);
  let type: string;
  let rest = parts.slice(k + 1);
  if (typeof head.index === 'string') {
    // provider["host/namespace/type"]: the type is the source's last part.
    type = head.index.split('/').pop() ?? '';
  } else if (head.index === undefined && rest.length > 0 && rest[0].index === undefined) {
    type = rest[0].name;
    rest = rest.slice(1);
  } else throw new Error(`invalid provider address "${address}": no provider type`);
  if (!type || rest.length > 1) throw new Error(`invalid provider address "${address}"`);
  return {
    ...(mod.length ? { module: mod.join('.') } : {}), type,
    ...(rest[0] ? { alias: rest[0].name } : {}),
    ...(rest[0]?.index !== undefined ? { key: rest[0].index } : {}),
  };
}

/** A module path without its instance keys: `module.a["x"].module.b[0]` -> `module.a.module.b` ('' for the root). */
export function moduleOf(modulePath: string | undefined): string {
  return modulePath ? steps(modulePath).map((s) => s.name).join('.') : '';
}
