// Reading one root module's configuration: every .tf file parsed with a real HCL parser
// (@cdktf/hcl2json, HashiCorp's hcl library compiled to WebAssembly), plus .tf.json files. The
// engine needs the backend (where the state is), provider regions, and which resources are declared.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { jsonProblem, ScanError } from './errors.ts';
import { insideCheckout } from './paths.ts';
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

/**
 * The root module at `shown` (repository-relative, '' = the root) of the checkout at `root`. The
 * folder and each file are resolved inside the checkout first (paths.ts): a symbolic link leading
 * out of it is refused, never read.
 */
export async function parseRootModule(root: string, shown: string): Promise<RootModule> {
  const where = `IaC path "${shown}"`;
  const dir = await insideCheckout(root, shown || '.', where, 'folder');
  if (!dir) throw new ScanError('source_unavailable', `${where} does not exist in the repository`);
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() || e.isSymbolicLink()).map((e) => e.name).sort();
  const files = entries.filter((f) => f.endsWith('.tf') || f.endsWith('.tf.json'));
  if (files.length === 0) throw new ScanError('parse_error', `${where} holds no .tf files`);
  const mod: RootModule = { dir, files, providerRegions: new Map(), resources: new Set(), hasAwsProvider: false };
  for (const file of files) {
    const rel = path.posix.join(shown, file);
    const real = await insideCheckout(root, rel, rel, 'file');
    if (!real) throw new ScanError('source_unavailable', `${rel} is a symbolic link to nothing`);
    const text = await readFile(real, 'utf8');
    let doc: Json;
    if (file.endsWith('.json')) {
      try {
        doc = JSON.parse(text) as Json;
      } catch (e) {
        throw new ScanError('parse_error', `Could not parse ${rel}: ${jsonProblem(e, text)}`);
      }
    } else {
      try {
        doc = (await parse(file, text)) as Json;
      } catch (e) {
        throw new ScanError('parse_error', `Could not parse ${rel}: ${hclProblem(e instanceof Error ? e.message : String(e))}`);
      }
    }
    collect(mod, doc, rel);
  }
  return mod;
}

/**
 * The first diagnostic of a failed HCL parse as "<summary> at line L, column C". HCL's details
 * (after the `;`) may quote the source, and a message never carries a file's bytes: they are
 * dropped, and so is a summary that is not plain words.
 */
function hclProblem(message: string): string {
  const m = /:(\d+),(\d+)(?:-[\d,]+)?: ([^;\]]*);/.exec(message);
  if (!m) return 'not valid HCL';
  const summary = /^[A-Z][A-Za-z -]{0,80}$/.test(m[3]) ? m[3] : 'HCL syntax error';
  return `${summary} at line ${m[1]}, column ${m[2]}`;
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
