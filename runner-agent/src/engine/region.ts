// The region of each state instance, from the most to the least direct evidence:
//   1. the instance's own `region` attribute (AWS provider v6 resources carry one);
//   2. its provider configuration, named in the state in any form (address.ts), root or
//      module-local, with the alias's (and for_each instance's) region from its provider block:
//      a literal, or variables (defaults, terraform.tfvars, *.auto.tfvars, module arguments)
//      and locals that resolve to a literal (hcl-expr.ts);
//   3. the region inside the instance's ARN, or its availability zone, in the state;
//   4. the region of the resource it belongs to in the same state (a bucket's policy is where
//      the bucket is, a group rule where its group is), by reference attributes;
//   5. the region the ARNs and zones of the other instances of the same provider configuration
//      agree on (one provider configuration talks to one region);
//   6. the credentials' region (what the provider itself falls back to);
//   7. for global APIs (IAM, Route 53, CloudFront...), us-east-1, where their endpoint is.
// When none answers, the region is unknown and the instance is not compared: it is never
// reported `deleted` from a guess.
import path from 'node:path';
import { moduleOf, type ProviderRef } from './address.ts';
import { evaluate, type Scope } from './hcl-expr.ts';
import { parseRootModule, type RootModule } from './hcl.ts';
import type { IgnoreChanges } from './lifecycle.ts';
import type { DeclaredIn, ScanStats, StateInstance } from './types.ts';
import { Declarations } from './where.ts';

export type RegionSource = 'attribute' | 'provider' | 'variable' | 'arn' | 'zone' | 'reference' | 'peers' | 'credentials' | 'global';
export interface RegionAnswer { region?: string; source?: RegionSource }

const REGION = /^[a-z]{2}(-gov|-iso[a-z]?)?-[a-z]+-\d+$/;
/** Types whose API has one endpoint whatever the region (IAM, Route 53, CloudFront...). */
const GLOBAL = /^aws_(iam_|route53_(?!resolver)|cloudfront_|organizations_|budgets_|shield_)/;
/** A module argument that did not reduce to a literal: it hides the child's default. */
const UNRESOLVED = Symbol('unresolved');

export function arnRegion(attributes: Record<string, unknown>): string | undefined {
  const arn = attributes.arn;
  const m = typeof arn === 'string' ? /^arn:aws[\w-]*:[^:]*:([^:]*):/.exec(arn) : null;
  return m && REGION.test(m[1]) ? m[1] : undefined;
}

function zoneRegion(attributes: Record<string, unknown>): string | undefined {
  const az = attributes.availability_zone;
  // us-east-1a, and local zones such as us-west-2-lax-1a.
  const m = typeof az === 'string' ? /^([a-z]{2}(?:-gov)?-[a-z]+-\d+)/.exec(az) : null;
  return m ? m[1] : undefined;
}

interface ModuleScope { module: RootModule; scope: Scope }

/** Attributes naming the resource an instance belongs to (its id, or its ARN, which carries the region). */
const REFERENCES = [
  'bucket', 'security_group_id', 'vpc_id', 'subnet_id', 'instance_id', 'function_name', 'rest_api_id', 'api_id',
  'load_balancer_arn', 'listener_arn', 'target_group_arn', 'topic_arn', 'queue_url', 'repository', 'table_name',
  'cluster', 'db_instance_identifier', 'cluster_identifier', 'log_group_name', 'autoscaling_group_name', 'network_acl_id',
  'route_table_id', 'allocation_id',
];

const providerKey = (p: ProviderRef | undefined) => (p ? JSON.stringify([p.module ?? '', p.alias ?? '', p.key ?? null]) : '');
/** A root module with no configuration: a state file read on its own (coverage). */
export const noConfiguration = (dir: string): RootModule => ({
  dir, files: [], providerRegions: new Map(), providers: [], variables: new Map(), locals: new Map(),
  moduleCalls: new Map(), resources: new Set(), hasAwsProvider: false,
});

export class RegionResolver {
  private readonly modules = new Map<string, ModuleScope | undefined>();
  /** Regions named by the ARNs and zones of each provider configuration's instances. */
  private readonly peers = new Map<string, Set<string>>();
  /** Region of each instance whose own state names one, by its id, name and bucket. */
  private readonly byId = new Map<string, string>();

  private readonly root: RootModule;
  private readonly repoRoot: string;
  private readonly credentialsRegion: string;

  constructor(root: RootModule, repoRoot: string, credentialsRegion: string) {
    this.root = root;
    this.repoRoot = repoRoot;
    this.credentialsRegion = credentialsRegion;
    this.modules.set('', { module: root, scope: { variables: root.variables, locals: root.locals } });
  }

  /** Parses the local child modules that configure providers named by `instances`. */
  async prepare(instances: StateInstance[]): Promise<void> {
    for (const i of instances) {
      const own = typeof i.attributes.region === 'string' && REGION.test(i.attributes.region) ? i.attributes.region : undefined;
      const r = own ?? arnRegion(i.attributes) ?? zoneRegion(i.attributes);
      if (!r) continue;
      for (const k of ['id', 'name', 'bucket', 'arn']) if (typeof i.attributes[k] === 'string') this.byId.set(i.attributes[k] as string, r);
      // An instance with its own region attribute (provider v6) may differ from its provider's.
      if (own || i.attributes.region !== undefined) continue;
      const k = providerKey(i.provider);
      if (!this.peers.has(k)) this.peers.set(k, new Set());
      this.peers.get(k)!.add(r);
    }
    for (const p of new Set(instances.map((i) => i.provider?.module).filter((m): m is string => !!m))) await this.moduleAt(p);
  }

  /** The parsed module at a module path (instance keys allowed); undefined when it is not a local module of the checkout. */
  async moduleAt(modulePath: string): Promise<ModuleScope | undefined> {
    if (this.modules.has(modulePath)) return this.modules.get(modulePath);
    this.modules.set(modulePath, undefined);
    // `module.a["x"].module.b` -> parent `module.a["x"]`, call `b` (instance keys do not change the source).
    const m = /^(?:(.*)\.)?module\.([\w-]+)(?:\[[^\]]*\])?$/.exec(modulePath);
    if (!m) return undefined;
    const parent = m[1] ? await this.moduleAt(m[1]) : this.modules.get('');
    const call = parent?.module.moduleCalls.get(m[2]);
    if (!parent || !call || !/^\.\.?\//.test(call.source)) return undefined; // registry and git sources are not fetched
    const dir = path.resolve(parent.module.dir, call.source);
    if (path.relative(this.repoRoot, dir).startsWith('..')) return undefined; // stays inside the checkout
    let child: RootModule;
    try {
      child = await parseRootModule(this.repoRoot, path.relative(this.repoRoot, dir).split(path.sep).join('/'), true);
    } catch {
      return undefined;
    }
    const variables = new Map(child.variables);
    for (const [k, v] of Object.entries(call.args)) {
      if (['source', 'version', 'providers', 'count', 'for_each', 'depends_on'].includes(k)) continue;
      const value = evaluate(v, parent.scope);
      variables.set(k, value === undefined ? UNRESOLVED : value);
    }
    const scoped = { module: child, scope: { variables, locals: child.locals } };
    this.modules.set(modulePath, scoped);
    return scoped;
  }

  /** The region its provider block gives, or undefined. */
  private providerRegion(ref: ProviderRef | undefined): RegionAnswer {
    const scoped = this.modules.get(ref?.module ?? '');
    const block = scoped?.module.providers.find((p) => p.alias === (ref?.alias ?? ''));
    if (!scoped || !block || block.region === undefined) return {};
    let scope = scoped.scope;
    if (ref?.key !== undefined && block.forEach !== undefined) {
      // OpenTofu provider for_each: each.key is the instance key; each.value the map's value (a set's element is its key).
      const all = evaluate(block.forEach, scope);
      const key = String(ref.key);
      const value = Array.isArray(all) ? key : all && typeof all === 'object' ? (all as Record<string, unknown>)[key] : undefined;
      scope = { ...scope, each: { key, value } };
    }
    const region = evaluate(block.region, scope);
    if (typeof region !== 'string' || !REGION.test(region)) return {};
    return { region, source: typeof block.region === 'string' && !block.region.includes('${') ? 'provider' : 'variable' };
  }

  private referencedRegion(instance: StateInstance): string | undefined {
    for (const k of REFERENCES) {
      const v = instance.attributes[k];
      if (typeof v !== 'string' || !v) continue;
      const r = arnRegion({ arn: v }) ?? this.byId.get(v) ?? /^https:\/\/sqs\.([a-z0-9-]+)\.amazonaws\.com\//.exec(v)?.[1];
      if (r && REGION.test(r)) return r;
    }
    return undefined;
  }

  regionOf(instance: StateInstance): RegionAnswer {
    const own = instance.attributes.region;
    if (typeof own === 'string' && REGION.test(own)) return { region: own, source: 'attribute' };
    const fromProvider = this.providerRegion(instance.provider);
    if (fromProvider.region) return fromProvider;
    const arn = arnRegion(instance.attributes);
    if (arn) return { region: arn, source: 'arn' };
    const zone = zoneRegion(instance.attributes);
    if (zone) return { region: zone, source: 'zone' };
    const owner = this.referencedRegion(instance);
    if (owner) return { region: owner, source: 'reference' };
    const peers = this.peers.get(providerKey(instance.provider));
    if (peers?.size === 1) return { region: [...peers][0], source: 'peers' };
    if (this.credentialsRegion) return { region: this.credentialsRegion, source: 'credentials' };
    if (GLOBAL.test(instance.type)) return { region: 'us-east-1', source: 'global' };
    return {};
  }
}

/** The root module's default provider region, literal or resolved (for the scan's default clients). */
export function defaultProviderRegion(root: RootModule): string | undefined {
  const block = root.providers.find((p) => p.alias === '');
  const region = block ? evaluate(block.region, { variables: root.variables, locals: root.locals }) : undefined;
  return typeof region === 'string' && REGION.test(region) ? region : undefined;
}

/** An instance with where to read it, where it is declared and what its block's lifecycle ignores. */
export interface RegionEntry { instance: StateInstance; region: string; regionSource?: RegionSource; declaredIn?: DeclaredIn | null; ignoreChanges?: IgnoreChanges }

/**
 * Each instance with the region to read it in. Instances of types `compared` says are read but
 * whose region is unknown are left out and counted in `stats.regionUnknown`; the sources of the
 * regions used are counted in `stats.regionSources`.
 */
export async function withRegions(
  roots: { module: RootModule; instances: StateInstance[] }[], repoRoot: string, credentialsRegion: string,
  compared: (type: string) => boolean, stats: Pick<ScanStats, 'regionSources' | 'regionUnknown'>,
): Promise<RegionEntry[]> {
  const out: RegionEntry[] = [];
  const declarations = new Declarations(repoRoot);
  for (const { module, instances } of roots) {
    const resolver = new RegionResolver(module, repoRoot, credentialsRegion);
    await resolver.prepare(instances);
    for (const instance of instances) {
      if (!compared(instance.type)) { out.push({ instance, region: '' }); continue; } // counted as unsupported by the comparison
      const { region, source } = resolver.regionOf(instance);
      const counts = region && source ? (stats.regionSources ??= {}) : (stats.regionUnknown ??= {});
      const key = region && source ? source : instance.type;
      counts[key] = (counts[key] ?? 0) + 1;
      if (!region) continue;
      // Instance keys do not change a module's source: one parse per module call, whatever its count or for_each.
      const declaring = (await resolver.moduleAt(moduleOf(instance.module)))?.module;
      const declaredIn = await declarations.find(declaring, instance.type, instance.name);
      const ignoreChanges = declaring?.ignoreChanges?.get(`${instance.type}.${instance.name}`);
      out.push({ instance, region, regionSource: source, declaredIn, ...(ignoreChanges ? { ignoreChanges } : {}) });
    }
  }
  return out;
}
