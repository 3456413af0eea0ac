// The tofu/terraform path: `plan -refresh-only` then `show -json`, whose resource_drift[] lists
// what the refresh found changed outside IaC ({address, type, change: {actions, before, after}}).
// Entries become the same DetectedDrift records as the SDK path, through the same ignore and
// severity tables. The binary needs the provider plugins (a registry, or a filesystem mirror
// named in the CLI configuration, TF_CLI_CONFIG_FILE).
import { AWS_READERS, AZURE_READERS, GOOGLE_READERS, SEVERITY_RULES } from './catalogue.ts';
import { stateView } from './cloud/rest/compare.ts';
import { compareAttributes } from './diff.ts';
import type { IgnoreRules } from './ignore.ts';
import { moduleOf, parseAddress } from './address.ts';
import { classify } from './rules.ts';
import { hashSensitive, redactDiff } from './sensitive.ts';
export { findTofu } from './plan-binary.ts';
import type { ChangeType, DetectedDrift, DiffEntry } from './types.ts';
import { isObject } from './values.ts';
import { accountOf, resourceIdOf } from './where.ts';
import { ownRegion } from './inventory.ts';

type Json = Record<string, unknown>;

/** Paths marked `true` in a plan's before_sensitive / after_sensitive mirror of the values. */
function sensitivePaths(mirror: unknown, at: string[] = [], out: string[][] = []): string[][] {
  if (mirror === true) out.push(at);
  else if (Array.isArray(mirror)) mirror.forEach((m, i) => sensitivePaths(m, [...at, String(i)], out));
  else if (isObject(mirror)) for (const [k, m] of Object.entries(mirror)) sensitivePaths(m, [...at, k], out);
  return out;
}

/** Addresses of the managed instances of a plan's module tree (prior_state: the refreshed state). */
function managedAddresses(module: unknown, out: string[] = []): string[] {
  if (!isObject(module)) return out;
  for (const r of Array.isArray(module.resources) ? module.resources : []) {
    if (isObject(r) && r.mode === 'managed' && typeof r.address === 'string') out.push(r.address);
  }
  for (const c of Array.isArray(module.child_modules) ? module.child_modules : []) managedAddresses(c, out);
  return out;
}

const moduleOfAddress = (address: string) => { try { return parseAddress(address).module; } catch { return undefined; } };

export interface MapOptions {
  /** A targeted plan: only these addresses count (the plan also refreshes what they depend on; native readers compared those). */
  only?: Set<string>;
  /** The rules for one address: the table and .driftignore plus its lifecycle ignore_changes and provider noise. */
  ignoreOf?: (address: string) => IgnoreRules;
}

/**
 * Maps a plan JSON document's resource_drift entries to drift records; `resourcesScanned`: the
 * instances the plan compared (those it refreshed, and those it found deleted).
 */
export function mapResourceDrift(plan: unknown, ignore: IgnoreRules, opts: MapOptions = {}): { drifts: DetectedDrift[]; resourcesScanned: number; ignored: number; compared: string[] } {
  const doc = isObject(plan) ? plan : {};
  const entries = (Array.isArray(doc.resource_drift) ? doc.resource_drift : []).filter(isObject) as Json[];
  const prior = isObject(doc.prior_state) && isObject(doc.prior_state.values) ? doc.prior_state.values.root_module : undefined;
  const drifts: DetectedDrift[] = [];
  let ignored = 0;
  for (const e of entries) {
    if (e.mode !== undefined && e.mode !== 'managed') continue;
    const change = isObject(e.change) ? e.change : {};
    const actions = Array.isArray(change.actions) ? change.actions : [];
    const type = String(e.type ?? '');
    const address = String(e.address ?? '');
    if (opts.only && !opts.only.has(address)) continue;
    const before = isObject(change.before) ? change.before : {};
    const sensitive = [...sensitivePaths(change.before_sensitive), ...sensitivePaths(change.after_sensitive)];
    let changeType: ChangeType;
    let diff: DiffEntry[];
    if (actions.includes('delete') || change.after === null) {
      changeType = 'deleted';
      diff = redactDiff([{ attribute: 'id', before: before.id ?? null, after: null }], sensitive);
    } else if (actions.includes('update')) {
      changeType = 'changed';
      // Google's labels compare as the API has them (effective_labels), as on the API path.
      const after = stateView(isObject(change.after) ? change.after : {});
      const spec = (AWS_READERS[type] ?? AZURE_READERS[type] ?? GOOGLE_READERS[type])?.spec ?? {};
      const r = compareAttributes(type, address, hashSensitive(stateView(before), sensitive, spec), hashSensitive(after, sensitive, spec), spec, opts.ignoreOf?.(address) ?? ignore);
      ignored += r.ignored;
      diff = redactDiff(r.diff, sensitive);
      if (diff.length === 0) continue; // only noise changed
    } else continue;
    const { severity, ruleId } = classify({ resourceType: type, changeType, diff }, before, SEVERITY_RULES);
    // A plan names no region per resource: the one its own attributes name (region, ARN, zone), else null.
    drifts.push({
      resourceType: type, resourceAddress: address, comparedBy: 'provider', changeType, severity, diff, ruleId,
      resourceId: resourceIdOf(before), location: (type.startsWith('aws_') ? ownRegion(before) : undefined) ?? null, account: accountOf(before), module: moduleOf(moduleOfAddress(address)), declaredIn: null,
    });
  }
  // prior_state is the refreshed state: resources found deleted are no longer in it.
  const deleted = drifts.filter((d) => d.changeType === 'deleted').map((d) => d.resourceAddress);
  const refreshed = prior ? managedAddresses(prior) : entries.map((e) => String(e.address ?? ''));
  const compared = [...new Set([...refreshed, ...deleted])].filter((a) => !opts.only || opts.only.has(a));
  return { drifts, resourcesScanned: compared.length, ignored, compared };
}
