// Confinement of the tofu/terraform path on the service host (issue 32; docs/executor.md). A
// plan evaluates the customer's configuration with the service's files and network in reach:
// `file("/etc/passwd")`, a symbolic link out of the checkout, `data "external"`, a provisioner,
// a module fetched from an internal URL, a backend or provider endpoint on the internal network.
// On the built-in executor, `copyConfined` makes the scratch copy (links never leave it) and
// `confineConfiguration` refuses, naming the file and line, every construct that reads the
// host or runs a program or reaches an address of the configuration's choosing. Conservative
// on purpose: what it cannot prove confined it refuses, and a self-hosted runner runs it instead.
// Self-hosted runners do not call these: their plans run on the customer's own machine.
import { lstat, mkdir, readdir, readFile, readlink, realpath, copyFile, symlink } from 'node:fs/promises';
import path from 'node:path';
import { parse } from '@cdktf/hcl2json';
import { ScanError } from './errors.ts';
import { isObject } from './values.ts';

const SKIPPED = new Set(['.git', '.terraform']);
const inside = (root: string, p: string) => { const r = path.relative(root, p); return r === '' || (!r.startsWith('..') && !path.isAbsolute(r)); };
const refuse = (where: string, what: string) => new ScanError('plan_refused',
  `${where}: ${what}; the built-in executor does not plan it (give the config runnerLabels so a self-hosted runner plans it, or set its comparison to native)`);
/** Programs the operator may allow on the service host (EXECUTOR_PLAN_PROGRAMS=true). */
const refuseProgram = (where: string, what: string) => new ScanError('plan_refused',
  `${where}: ${what}; the built-in executor runs no program of a configuration unless the operator sets EXECUTOR_PLAN_PROGRAMS=true (or give the config runnerLabels so a self-hosted runner plans it, or set its comparison to native)`);

/** Copies `src` to `dst` without following links: a link stays a link to the same place inside the copy, one leading out is refused. */
export async function copyConfined(src: string, dst: string): Promise<void> {
  const root = await realpath(src);
  async function walk(rel: string): Promise<void> {
    for (const e of await readdir(path.join(root, rel), { withFileTypes: true })) {
      if (SKIPPED.has(e.name)) continue;
      const from = path.join(root, rel, e.name);
      const to = path.join(dst, rel, e.name);
      const st = await lstat(from);
      if (st.isSymbolicLink()) {
        const target = await realpath(from).catch(() => undefined);
        if (!target || !inside(root, target)) throw refuse(path.join(rel, e.name), `a symbolic link to ${target ? 'a path outside the repository' : 'nothing'} (${await readlink(from)})`);
        await symlink(path.relative(path.dirname(from), target), to);
      } else if (st.isDirectory()) {
        await mkdir(to, { recursive: true });
        await walk(path.join(rel, e.name));
      } else if (st.isFile()) await copyFile(from, to);
      // sockets, FIFOs and devices are not configuration: left out
    }
  }
  await mkdir(dst, { recursive: true });
  await walk('');
}

/** Functions that read a file of the host by path; the path (and fileset's pattern) must stay in the repository. */
const FILE_FUNCTIONS = 'file|fileexists|fileset|filebase64|filebase64sha256|filebase64sha512|filemd5|filesha1|filesha256|filesha512|templatefile';
// A call: the name, then spaces or comments, then `(`. `core::file(` matches too (`:` is not a word character).
const CALL = new RegExp(`\\b(${FILE_FUNCTIONS})(?:\\s|/\\*[^]*?\\*/|#[^\\n]*\\n|//[^\\n]*\\n)*\\(`, 'g');
const PROVIDER_FUNCTION = /\bprovider::[A-Za-z0-9_-]+::/g;
/** Resource and data source types that run programs, read local files or fetch URLs. */
/** `data "external"` runs a program: refused unless the operator allows programs. */
const PROGRAM_TYPES = /^external$/;
const HOST_TYPES = /^(http|local_\w+|template_file|template_dir|archive_file|archive_dir|dns_\w+)$/;
/**
 * Settings whose value is a path of the host, an address to call, or an identity of the host
 * (a profile of its ~/.aws, its managed identity, its CLI login, a credentials file).
 */
const HOST_KEYS = /(endpoint|endpoints|_file|_files|_path|_paths|ca_bundle|proxy|_dir|address|_url|^path$|hostname|^profile$|^credentials$|^use_msi$|^use_cli$|^use_oidc$)$/;
const BACKENDS = new Set(['s3', 'azurerm', 'gcs']);

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;
function lineMatching(text: string, re: RegExp): number {
  const m = re.exec(text);
  return m ? lineOf(text, m.index) : 1;
}
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The first argument(s) of a file function, if each is a path literal that stays inside the repository. */
function argumentsConfined(text: string, at: number, fn: string, root: string, bases: string[]): { ok: boolean; template?: string } {
  const rest = text.slice(at);
  const args: string[] = [];
  const re = /\s*(path\.module|"((?:\$\{path\.module\}\/)?[^"$%\\\n]*)")\s*([,)])/y;
  let pos = 0;
  for (let i = 0; i < (fn === 'fileset' ? 2 : 1); i++) {
    re.lastIndex = pos;
    const m = re.exec(rest);
    if (!m) return { ok: false };
    args.push(m[1] === 'path.module' ? '.' : m[2]);
    pos = re.lastIndex;
    if (m[3] === ')') break;
  }
  for (const a of args) {
    const moduleRelative = a.startsWith('${path.module}/');
    const rel = moduleRelative ? a.slice('${path.module}/'.length) : a;
    if (path.isAbsolute(rel) || rel.startsWith('~')) return { ok: false };
    const from = moduleRelative ? [bases[0]] : bases;
    if (!from.every((b) => inside(root, path.resolve(b, rel)))) return { ok: false };
  }
  if (fn === 'templatefile') {
    const rel = args[0].replace(/^\$\{path\.module\}\//, '');
    return { ok: true, template: path.resolve(args[0].startsWith('${path.module}/') ? bases[0] : bases[1], rel) };
  }
  return { ok: true };
}

/** Function calls in one file's text (a .tf file, a .tf.json file or a template). */
async function checkCalls(root: string, file: string, moduleDir: string, seen: Set<string>): Promise<void> {
  if (seen.has(file)) return;
  seen.add(file);
  const rel = path.relative(root, file);
  const text = await readFile(file, 'utf8');
  for (const m of text.matchAll(PROVIDER_FUNCTION)) throw refuse(`${rel}:${lineOf(text, m.index)}`, `a provider-defined function (${m[0]}...) is called`);
  for (const m of text.matchAll(CALL)) {
    const r = argumentsConfined(text, m.index + m[0].length, m[1], root, [path.dirname(file), moduleDir]);
    if (!r.ok) throw refuse(`${rel}:${lineOf(text, m.index)}`, `${m[1]}() reads a path that is not a literal inside the repository`);
    if (r.template) {
      const real = await realpath(r.template).catch(() => undefined);
      if (real && inside(root, real)) await checkCalls(root, real, moduleDir, seen);
    }
  }
}

/** Blocks, whichever of hcl2json's shapes (a list of bodies or one body). */
const bodies = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.filter(isObject) : isObject(v) ? [v] : []);

function checkKeys(rel: string, text: string, where: string, body: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(body)) {
    if (HOST_KEYS.test(k)) throw refuse(`${rel}:${lineMatching(text, new RegExp(`\\b${esc(k)}\\b`))}`, `${where} sets ${k}, a path, address or identity of the host`);
    for (const b of bodies(v)) if (Array.isArray(v) || isObject(v)) checkKeys(rel, text, where, b);
  }
}

/** The structure of one configuration file: data sources, resources, provisioners, modules, backends, providers. */
function checkStructure(root: string, file: string, text: string, doc: Record<string, unknown>, allowPrograms: boolean): void {
  const rel = path.relative(root, file);
  for (const kind of ['data', 'resource'] as const) {
    for (const byType of bodies(doc[kind])) {
      for (const [type, byName] of Object.entries(byType)) {
        const at = `${rel}:${lineMatching(text, new RegExp(`${kind}\\s*"?${esc(type)}"?`))}`;
        if (PROGRAM_TYPES.test(type) && !allowPrograms) throw refuseProgram(at, `${kind} "${type}" runs a program`);
        if (HOST_TYPES.test(type)) throw refuse(at, `${kind} "${type}" reads the host's files or calls a URL`);
        for (const named of bodies(byName)) {
          for (const body of Object.values(named).flatMap(bodies)) {
            if (body.provisioner !== undefined && !allowPrograms) throw refuseProgram(`${rel}:${lineMatching(text, /provisioner/)}`, `a provisioner (local-exec, remote-exec, file) in ${kind} "${type}"`);
            if (type === 'terraform_remote_state') {
              const backend = typeof body.backend === 'string' ? body.backend : '';
              if (!BACKENDS.has(backend)) throw refuse(at, `terraform_remote_state reads backend "${backend}"`);
              for (const c of bodies(body.config)) checkKeys(rel, text, 'terraform_remote_state', c);
            }
          }
        }
      }
    }
  }
  for (const calls of bodies(doc.module)) {
    for (const [name, call] of Object.entries(calls)) {
      for (const body of bodies(call)) {
        const source = typeof body.source === 'string' ? body.source : '';
        const local = /^\.\.?\//.test(source) && inside(root, path.resolve(path.dirname(file), source));
        if (!local) throw refuse(`${rel}:${lineMatching(text, new RegExp(`module\\s*"?${esc(name)}"?`))}`, `module "${name}" comes from "${source}", not a folder of the repository`);
      }
    }
  }
  // No backend check: the plan's backend is overridden to local (tofu-run.ts), the real one is never reached.
  for (const byType of bodies(doc.provider)) {
    for (const [type, blocks] of Object.entries(byType)) for (const b of bodies(blocks)) checkKeys(rel, text, `provider "${type}"`, b);
  }
}

/**
 * Refuses, with a ScanError naming the file and line, a configuration under `root` (the scratch
 * copy) that reads host paths through file functions, calls provider-defined functions, uses
 * data sources or resources that run programs or read the host, provisioners, modules from
 * outside the repository, or host paths and endpoints in provider and remote-state settings.
 * `allowPrograms` (the operator's EXECUTOR_PLAN_PROGRAMS) lets data "external" and provisioners through. `moduleDir`: the root module planned (the
 * working directory relative paths resolve against).
 */
export async function confineConfiguration(root: string, moduleDir: string, opts: { allowPrograms?: boolean } = {}): Promise<void> {
  const real = await realpath(root);
  const cwd = path.resolve(real, path.relative(root, moduleDir));
  const seen = new Set<string>();
  async function walk(dir: string): Promise<void> {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (SKIPPED.has(e.name)) continue;
      const file = path.join(dir, e.name);
      if (e.isDirectory()) await walk(file);
      else if (e.isFile() && /\.(tf|tofu)(\.json)?$/.test(e.name)) {
        await checkCalls(real, file, cwd, seen);
        const text = await readFile(file, 'utf8');
        let doc: unknown;
        try {
          doc = e.name.endsWith('.json') ? JSON.parse(text) : await parse(e.name.replace(/\.tofu$/, '.tf'), text);
        } catch {
          throw new ScanError('parse_error', `Could not parse ${path.relative(real, file)}`);
        }
        if (isObject(doc)) checkStructure(real, file, text, doc, opts.allowPrograms === true);
      }
    }
  }
  await walk(real);
}
