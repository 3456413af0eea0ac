// Reading state format v4 (Terraform 0.12 and later, OpenTofu): managed resource instances with
// their attributes, provider configuration and sensitive paths. Every malformed shape is a
// parse_error that names where it is (a real state written by a tool, or edited by hand, can
// hold `resources: [null]`, `instances: {}` ...), never a TypeError.
import { formatAddress, parseProviderAddress, type ProviderRef } from './address.ts';
import { jsonProblem, ScanError } from './errors.ts';
import { decodeFlatmap } from './flatmap.ts';
import type { StateInstance } from './types.ts';
import { isObject } from './values.ts';

export interface StateDocument {
  instances: StateInstance[];
  /** Managed instances skipped because they hold no attributes at all. */
  empty: { address: string; type: string }[];
  /** Deposed objects (create_before_destroy leftovers), not compared. */
  deposed: number;
}

const describeValue = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`);

/** `sensitive_attributes` paths ([[{type:"get_attr",value:"password"}]]) as attribute path segments. */
function sensitivePaths(raw: unknown, fail: (what: string) => never): string[][] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) fail(`"sensitive_attributes" is ${describeValue(raw)}, not a list of paths`);
  return raw.map((p, i) => {
    if (!Array.isArray(p)) fail(`"sensitive_attributes"[${i}] is ${describeValue(p)}, not a path`);
    return p.map((step) => {
      if (isObject(step) && step.type === 'get_attr' && typeof step.value === 'string') return step.value;
      // Index steps carry a cty value: {"value": 0, "type": "number"}.
      if (isObject(step) && step.type === 'index' && isObject(step.value)) return String(step.value.value);
      return fail(`"sensitive_attributes"[${i}] has a step that is neither get_attr nor index`);
    });
  });
}

function provider(raw: unknown, fail: (what: string) => never): ProviderRef | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  if (typeof raw !== 'string') fail(`"provider" is ${describeValue(raw)}, not a provider address`);
  try {
    return parseProviderAddress(raw);
  } catch (e) {
    return fail((e as Error).message);
  }
}

export function readStateDocument(text: string, where: string): StateDocument {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    // JSON.parse's message quotes the text; the scan's error says only where and what kind.
    throw new ScanError('parse_error', `The state at ${where} is ${jsonProblem(e, text)}`);
  }
  if (!isObject(doc)) throw new ScanError('parse_error', `The state at ${where} is ${describeValue(doc)}, not a state file`);
  if (doc.version !== 4) {
    const v = doc.version;
    const why = v === undefined ? 'has no "version" field'
      : typeof v === 'number' ? `has format version ${v}`
        : `has a "version" that is ${describeValue(v)}${typeof v === 'string' && /^[\w.-]{1,8}$/.test(v) ? ` (${JSON.stringify(v)})` : ''}; the format version is the number 4, unquoted`;
    throw new ScanError('parse_error', `The state at ${where} ${why}; the scanner reads format version 4 (Terraform 0.12 and later, OpenTofu)`);
  }
  const resources = doc.resources ?? [];
  if (!Array.isArray(resources)) throw new ScanError('parse_error', `The state at ${where}: "resources" is ${describeValue(resources)}, not a list`);
  const out: StateDocument = { instances: [], empty: [], deposed: 0 };
  resources.forEach((r: unknown, ri) => {
    const failAt = (at: string) => (what: string): never => { throw new ScanError('parse_error', `The state at ${where}: ${at} ${what}`); };
    if (!isObject(r)) failAt(`resources[${ri}] is`)(`${describeValue(r)}, not a resource object`);
    const res = r as Record<string, unknown>;
    for (const f of ['mode', 'type', 'name'] as const) {
      if (typeof res[f] !== 'string' || !res[f]) failAt(`resources[${ri}]`)(`has no "${f}" string`);
    }
    if (res.module !== undefined && typeof res.module !== 'string') failAt(`resources[${ri}]`)(`"module" is ${describeValue(res.module)}, not a module path`);
    const base = { module: res.module as string | undefined, type: res.type as string, name: res.name as string };
    const label = formatAddress({ ...base, mode: res.mode as string });
    const instances = res.instances ?? [];
    if (!Array.isArray(instances)) failAt(label)(`"instances" is ${describeValue(instances)}, not a list`);
    if (res.mode !== 'managed') return;
    const resourceProvider = provider(res.provider, failAt(label));
    (instances as unknown[]).forEach((inst, ii) => {
      const fail = failAt(`${label} instances[${ii}]`);
      if (!isObject(inst)) fail(`is ${describeValue(inst)}, not an instance object`);
      const i = inst as Record<string, unknown>;
      if (i.deposed) { out.deposed++; return; }
      const key = i.index_key;
      if (key !== undefined && key !== null && typeof key !== 'string' && !(typeof key === 'number' && Number.isInteger(key))) {
        fail(`"index_key" is ${describeValue(key)}, not a number or string`);
      }
      const indexKey = (key ?? undefined) as number | string | undefined;
      const address = formatAddress({ ...base, indexKey });
      const prov = provider(i.provider, fail) ?? resourceProvider;
      let attributes: Record<string, unknown>;
      let flat = false;
      if (i.attributes !== undefined && i.attributes !== null) {
        if (!isObject(i.attributes)) fail(`"attributes" is ${describeValue(i.attributes)}, not an object`);
        attributes = i.attributes as Record<string, unknown>;
      } else if (i.attributes_flat !== undefined && i.attributes_flat !== null) {
        const f = i.attributes_flat;
        if (!isObject(f) || !Object.values(f).every((v) => typeof v === 'string')) fail('"attributes_flat" is not an object of strings');
        attributes = decodeFlatmap(f as Record<string, string>);
        flat = true;
      } else {
        out.empty.push({ address, type: base.type });
        return;
      }
      out.instances.push({
        address, ...base, indexKey,
        ...(prov ? { provider: prov } : {}),
        ...(prov && !prov.module && prov.alias ? { providerAlias: prov.alias } : {}),
        attributes,
        ...(flat ? { flat: true } : {}),
        sensitivePaths: sensitivePaths(i.sensitive_attributes, fail),
      });
    });
  });
  return out;
}

/** Managed resource instances of a v4 state (data sources and deposed objects are skipped). */
export function parseState(text: string, where: string): StateInstance[] {
  return readStateDocument(text, where).instances;
}
