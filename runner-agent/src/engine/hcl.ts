// Reading one root module's configuration: every .tf file parsed with a real HCL parser
// (@cdktf/hcl2json, HashiCorp's hcl library compiled to WebAssembly), plus .tf.json files. The
// engine needs the backend (where the state is), provider regions, and which resources are declared.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { ScanError } from './errors.ts';
import { isObject } from './values.ts';

export interface Backend { type: string; config: Record<string, unknown> }

export interface RootModule {
  dir: string;
  files: string[];
  backend?: Backend;
  /** Literal `region` of each aws provider block, by alias ('' = the default provider). */
  providerRegions: Map<string, string>;
  /** Declared managed resources, as `type.name`. */
  resources: Set<string>;
  hasAwsProvider: boolean;
}

type Json = Record<string, unknown>;
const blocks = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : isObject(v) ? [v] : []);
/** A literal string (interpolations such as "${var.region}" are not literals). */
const literal = (v: unknown): string | undefined => (typeof v === 'string' && !v.includes('${') ? v : undefined);

export async function parseRootModule(dir: string, shown: string): Promise<RootModule> {
  let entries: string[];
  try {
    entries = (await readdir(dir)).sort();
  } catch {
    throw new ScanError('source_unavailable', `IaC path "${shown}" does not exist in the repository`);
  }
  const files = entries.filter((f) => f.endsWith('.tf') || f.endsWith('.tf.json'));
  if (files.length === 0) throw new ScanError('parse_error', `IaC path "${shown}" holds no .tf files`);
  const mod: RootModule = { dir, files, providerRegions: new Map(), resources: new Set(), hasAwsProvider: false };
  for (const file of files) {
    const text = await readFile(path.join(dir, file), 'utf8');
    let doc: Json;
    try {
      doc = file.endsWith('.json') ? (JSON.parse(text) as Json) : ((await parse(file, text)) as Json);
    } catch (e) {
      const msg = (e instanceof Error ? e.message : String(e)).split('\n').slice(0, 3).join(' ');
      throw new ScanError('parse_error', `Could not parse ${path.posix.join(shown, file)}: ${msg}`, { cause: e });
    }
    collect(mod, doc, path.posix.join(shown, file));
  }
  return mod;
}

function collect(mod: RootModule, doc: Json, file: string): void {
  for (const tf of blocks(doc.terraform)) {
    for (const [type, bodies] of Object.entries(isObject(tf.backend) ? tf.backend : {})) {
      if (mod.backend) throw new ScanError('parse_error', `${file}: more than one backend block in the root module`);
      mod.backend = { type, config: blocks(bodies)[0] ?? {} };
    }
    if (tf.cloud !== undefined && !mod.backend) mod.backend = { type: 'cloud', config: blocks(tf.cloud)[0] ?? {} };
  }
  for (const aws of blocks(isObject(doc.provider) ? doc.provider.aws : undefined)) {
    mod.hasAwsProvider = true;
    const region = literal(aws.region);
    if (region) mod.providerRegions.set(literal(aws.alias) ?? '', region);
  }
  if (isObject(doc.resource)) {
    for (const [type, byName] of Object.entries(doc.resource)) {
      if (isObject(byName)) for (const name of Object.keys(byName)) mod.resources.add(`${type}.${name}`);
    }
  }
}
