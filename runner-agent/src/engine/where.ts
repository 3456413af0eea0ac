// Where a drifted resource lives and where it is declared, for a record a user can act on:
// the cloud's own id, the account, the module path, and the file and line of its `resource`
// block. hcl2json gives no positions, so the block is found in the module's files' text; files
// are read only through insideCheckout (paths.ts), as hcl.ts reads them.
import { readFile, realpath } from 'node:fs/promises';
import path from 'node:path';
import { moduleOf } from './address.ts';
import type { RootModule } from './hcl.ts';
import { insideCheckout } from './paths.ts';
import type { DeclaredIn, DetectedDrift, StateInstance } from './types.ts';

const str = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/** The cloud's id as the state records it: `id` (instance, group, role name), else the ARN, else a bucket or name. */
export function resourceIdOf(attributes: Record<string, unknown>): string | null {
  for (const k of ['id', 'arn', 'bucket', 'name']) if (str(attributes[k])) return attributes[k] as string;
  return null;
}

const ACCOUNT = /^\d{12}$/;
/** The AWS account an ARN names (`arn:aws:svc:region:ACCOUNT:...`), else the owner the state records. */
export function accountOf(attributes: Record<string, unknown>): string | null {
  const arn = str(attributes.arn) ? /^arn:aws[\w-]*:[^:]*:[^:]*:(\d{12}):/.exec(attributes.arn)?.[1] : undefined;
  if (arn) return arn;
  for (const k of ['owner_id', 'account_id']) if (str(attributes[k]) && ACCOUNT.test(attributes[k] as string)) return attributes[k] as string;
  return null;
}

type Placement = Pick<DetectedDrift, 'resourceId' | 'location' | 'account' | 'module' | 'declaredIn'>;
/** What a drift of `instance` carries besides its diff; `region` is the one it was read in. */
export function placementOf(instance: StateInstance, region: string | undefined, declaredIn: DeclaredIn | null | undefined): Placement {
  return {
    resourceId: resourceIdOf(instance.attributes), location: region || null, account: accountOf(instance.attributes),
    module: moduleOf(instance.module), declaredIn: declaredIn ?? null,
  };
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const lineAt = (text: string, index: number) => text.slice(0, index).split('\n').length;

/** 1-based line of `resource "TYPE" "NAME" {` (quotes optional, as HCL allows), or of the name's key in a .tf.json file. */
export function blockLine(text: string, type: string, name: string, json: boolean): number | undefined {
  if (json) {
    // "resource": {"TYPE": {"NAME": {...}}}: the name's key after the type's, after "resource".
    const r = text.search(/"resource"\s*:/);
    const t = r < 0 ? -1 : text.indexOf(`"${type}"`, r);
    const n = t < 0 ? -1 : text.indexOf(`"${name}"`, t + type.length + 2);
    return n < 0 ? undefined : lineAt(text, n);
  }
  const m = new RegExp(`^[ \\t]*resource[ \\t]+"?${escape(type)}"?[ \\t]+"?${escape(name)}"?[ \\t]*\\{`, 'm').exec(text);
  return m ? lineAt(text, m.index) : undefined;
}

/** Finds resource blocks in parsed modules; each file's text is read once per scan. */
export class Declarations {
  private readonly texts = new Map<string, Promise<string | undefined>>();
  private realRoot?: Promise<string>;

  private readonly repoRoot: string;

  constructor(repoRoot: string) { this.repoRoot = repoRoot; }

  private text(rel: string): Promise<string | undefined> {
    if (!this.texts.has(rel)) {
      this.texts.set(rel, insideCheckout(this.repoRoot, rel, rel, 'file')
        .then((real) => (real ? readFile(real, 'utf8') : undefined))
        .catch(() => undefined));
    }
    return this.texts.get(rel)!;
  }

  /** The block of `type.name` in `mod` (undefined: a module from outside the repository), or null. */
  async find(mod: RootModule | undefined, type: string, name: string): Promise<DeclaredIn | null> {
    if (!mod || !mod.resources.has(`${type}.${name}`)) return null;
    const root = await (this.realRoot ??= realpath(this.repoRoot));
    const dir = path.relative(root, mod.dir).split(path.sep).join('/');
    if (dir.startsWith('..')) return null;
    for (const f of mod.files) {
      const rel = dir ? `${dir}/${f}` : f;
      const text = await this.text(rel);
      const line = text === undefined ? undefined : blockLine(text, type, name, f.endsWith('.json'));
      if (line) return { file: rel, line };
    }
    return null;
  }
}
