// Reading one module's configuration: every .tf and .tofu file parsed with a real HCL parser
// (@cdktf/hcl2json, HashiCorp's hcl library compiled to WebAssembly), plus .tf.json / .tofu.json
// files, and the values a plan would take for its variables (*.tfvars). The engine needs the
// backend (where the state is), the provider blocks (their regions), variables, locals and
// module calls (to resolve a region written as an expression: region.ts), and which resources
// are declared.
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { jsonProblem, ScanError } from './errors.ts';
import { templateLiteral } from './hcl-string.ts';
import { insideCheckout } from './paths.ts';
import { isObject } from './values.ts';
import { parseIgnoreChanges, type IgnoreChanges } from './lifecycle.ts';

export interface Backend { type: string; config: Record<string, unknown> }

/** One `provider "aws"` block; `region` and `forEach` as hcl2json gives them (literals, or "${expr}"). */
export interface ProviderBlock { alias: string; region?: unknown; forEach?: unknown }

/** A `provider "google"`, `"google-beta"` or `"azurerm"` block: where its resources live (literals or "${expr}"). */
export interface CloudProviderBlock { type: string; alias: string; project?: unknown; region?: unknown; zone?: unknown; subscriptionId?: unknown }

export interface RootModule {
  dir: string;
  files: string[];
  backend?: Backend;
  /** Literal `region` of each aws provider block, by alias ('' = the default provider). */
  providerRegions: Map<string, string>;
  providers: ProviderBlock[];
  /** google, google-beta and azurerm provider blocks. */
  cloudProviders?: CloudProviderBlock[];
  /** Variables: their defaults, replaced by terraform.tfvars and *.auto.tfvars values. */
  variables: Map<string, unknown>;
  locals: Map<string, unknown>;
  /** `module` blocks: source and arguments (arguments feed the child's variables). */
  moduleCalls: Map<string, { source: string; args: Record<string, unknown> }>;
  /** Declared managed resources, as `type.name`. */
  resources: Set<string>;
  /** `lifecycle { ignore_changes }` of declared resources, by `type.name` (lifecycle.ts). */
  ignoreChanges?: Map<string, IgnoreChanges>;
  hasAwsProvider: boolean;
}

type Json = Record<string, unknown>;
const blocks = (v: unknown): Json[] => (Array.isArray(v) ? v.filter(isObject) : isObject(v) ? [v] : []);
/** A literal string (interpolations such as "${var.region}" are not literals; `$${` is a literal `${`). */
const literal = (v: unknown): string | undefined => (typeof v === 'string' ? templateLiteral(v) : undefined);

const CONFIG = /\.(tf|tofu)(\.json)?$/;
/** OpenTofu reads `x.tofu` instead of `x.tf` when both exist (and `.tofu.json` instead of `.tf.json`). */
function configFiles(entries: string[]): string[] {
  const set = new Set(entries);
  return entries.filter((f) => CONFIG.test(f) && !(/\.tf(\.json)?$/.test(f) && set.has(f.replace(/\.tf(\.json)?$/, '.tofu$1'))));
}

/** terraform.tfvars(.json) first, then *.auto.tfvars(.json) in lexical order: later files win, as in Terraform. */
const varFiles = (entries: string[]) => [
  ...entries.filter((f) => f === 'terraform.tfvars' || f === 'terraform.tfvars.json'),
  ...entries.filter((f) => /\.auto\.tfvars(\.json)?$/.test(f)),
];

/**
 * One file of the module, opened only inside the checkout (paths.ts: a symbolic link leading
 * out of it is refused, never read). A parse error names the file and, at most, a line and a
 * column: never the file's bytes.
 */
async function parseFile(root: string, rel: string): Promise<Json> {
  const real = await insideCheckout(root, rel, rel, 'file');
  if (!real) throw new ScanError('source_unavailable', `${rel} is a symbolic link to nothing`);
  const text = await readFile(real, 'utf8');
  let doc: unknown;
  if (rel.endsWith('.json')) {
    try {
      doc = JSON.parse(text);
    } catch (e) {
      throw new ScanError('parse_error', `Could not parse ${rel}: ${jsonProblem(e, text)}`);
    }
  } else {
    try {
      doc = await parse(path.posix.basename(rel).replace(/\.tofu$/, '.tf'), text);
    } catch (e) {
      throw new ScanError('parse_error', `Could not parse ${rel}: ${hclProblem(e instanceof Error ? e.message : String(e))}`);
    }
  }
  return isObject(doc) ? doc : {};
}

/**
 * The module at `shown` (repository-relative, '' = the root) of the checkout at `root`: its
 * .tf/.tofu files, then the values of terraform.tfvars and *.auto.tfvars. The folder and each
 * file are resolved inside the checkout first. `asChild`: a module called by another, whose
 * variables come from its call, not from *.tfvars.
 */
export async function parseRootModule(root: string, shown: string, asChild = false): Promise<RootModule> {
  const where = `IaC path "${shown}"`;
  const dir = await insideCheckout(root, shown || '.', where, 'folder');
  if (!dir) throw new ScanError('source_unavailable', `${where} does not exist in the repository`);
  const entries = (await readdir(dir, { withFileTypes: true })).filter((e) => e.isFile() || e.isSymbolicLink()).map((e) => e.name).sort();
  const files = configFiles(entries);
  if (files.length === 0) throw new ScanError('parse_error', `${where} holds no .tf or .tofu files`);
  const mod: RootModule = {
    dir, files, providerRegions: new Map(), providers: [], variables: new Map(), locals: new Map(),
    moduleCalls: new Map(), resources: new Set(), hasAwsProvider: false,
  };
  for (const file of files) collect(mod, await parseFile(root, path.posix.join(shown, file)), path.posix.join(shown, file));
  for (const file of asChild ? [] : varFiles(entries)) {
    for (const [k, v] of Object.entries(await parseFile(root, path.posix.join(shown, file)))) mod.variables.set(k, v);
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
    const alias = literal(aws.alias) ?? '';
    mod.providers.push({ alias, region: aws.region, forEach: aws.for_each });
    const region = literal(aws.region);
    if (region) mod.providerRegions.set(alias, region);
  }
  for (const type of ['google', 'google-beta', 'azurerm']) {
    for (const b of blocks(isObject(doc.provider) ? doc.provider[type] : undefined)) {
      (mod.cloudProviders ??= []).push({ type, alias: literal(b.alias) ?? '', project: b.project, region: b.region, zone: b.zone, subscriptionId: b.subscription_id });
    }
  }
  for (const [name, bodies] of Object.entries(isObject(doc.variable) ? doc.variable : {})) {
    const body = blocks(bodies)[0];
    // A variable set by a tfvars file keeps that value (tfvars files are read after every .tf file).
    if (body && 'default' in body && !mod.variables.has(name)) mod.variables.set(name, body.default);
  }
  for (const l of blocks(doc.locals)) for (const [k, v] of Object.entries(l)) mod.locals.set(k, v);
  for (const [name, bodies] of Object.entries(isObject(doc.module) ? doc.module : {})) {
    const body = blocks(bodies)[0];
    if (body && typeof body.source === 'string') mod.moduleCalls.set(name, { source: body.source, args: body });
  }
  if (isObject(doc.resource)) {
    for (const [type, byName] of Object.entries(doc.resource)) {
      if (!isObject(byName)) continue;
      for (const [name, bodies] of Object.entries(byName)) {
        mod.resources.add(`${type}.${name}`);
        const ignored = parseIgnoreChanges(blocks(blocks(bodies)[0]?.lifecycle)[0]?.ignore_changes);
        if (ignored) (mod.ignoreChanges ??= new Map()).set(`${type}.${name}`, ignored);
      }
    }
  }
}
