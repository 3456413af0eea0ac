// Where a google (or google-beta) instance lives: its project from the most direct evidence —
// its own `project` attribute or the `projects/P/` of its id or self link, else its provider
// block's `project` (a literal, or a variable's default, tfvars or module argument: hcl-expr.ts),
// else the credentials' project — and its zone or region from its attributes or self link.
// With no project at all the instance is not compared (stats.regionUnknown), never reported deleted.
import { evaluate } from '../../hcl-expr.ts';
import type { RootModule } from '../../hcl.ts';
import { RegionResolver } from '../../region.ts';
import type { StateInstance } from '../../types.ts';
import type { Scope } from '../rest/reader.ts';
import { last, ownProject } from './kit.ts';

/** A zone or region the instance's attributes or self link name. */
export function ownLocation(a: Record<string, unknown>): string | null {
  for (const k of ['zone', 'region', 'location']) if (typeof a[k] === 'string' && a[k]) return last(a[k]);
  for (const k of ['self_link', 'id']) {
    const m = typeof a[k] === 'string' ? /\/(?:zones|regions|locations)\/([^/]+)/.exec(a[k] as string) : null;
    if (m) return m[1];
  }
  return null;
}

/** The scope the instance's own attributes name, for the re-check before a deletion. */
export function googleIdScope(instance: StateInstance): Scope | undefined {
  const project = ownProject(instance.attributes);
  return project ? { account: project, location: ownLocation(instance.attributes), source: 'attribute' } : undefined;
}

export class GoogleScopes {
  private readonly resolver: RegionResolver;
  private readonly credentialsProject: string;

  constructor(root: RootModule, repoRoot: string, credentialsProject: string) {
    this.resolver = new RegionResolver(root, repoRoot, '');
    this.credentialsProject = credentialsProject;
  }

  async prepare(instances: StateInstance[]): Promise<void> { await this.resolver.prepare(instances); }

  async scopeOf(instance: StateInstance): Promise<Scope | undefined> {
    const own = googleIdScope(instance);
    if (own) return own;
    const location = ownLocation(instance.attributes);
    const ref = instance.provider;
    const scoped = await this.resolver.moduleAt(ref?.module ?? '');
    const block = scoped?.module.cloudProviders?.find((p) => (p.type === 'google' || p.type === 'google-beta') && p.type === (ref?.type ?? 'google') && p.alias === (ref?.alias ?? ''))
      ?? scoped?.module.cloudProviders?.find((p) => p.type.startsWith('google') && p.alias === (ref?.alias ?? ''));
    if (block && scoped && block.project !== undefined) {
      const project = evaluate(block.project, scoped.scope);
      if (typeof project === 'string' && project) {
        const zone = location ?? (typeof evaluate(block.zone, scoped.scope) === 'string' ? evaluate(block.zone, scoped.scope) as string : null);
        return { account: project, location: zone, source: typeof block.project === 'string' && !block.project.includes('${') ? 'provider' : 'variable' };
      }
    }
    if (this.credentialsProject) return { account: this.credentialsProject, location, source: 'credentials' };
    return undefined;
  }
}
