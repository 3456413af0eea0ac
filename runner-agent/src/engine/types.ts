// Shared shapes of the detection engine. index.ts re-exports the public ones.
import type { ProviderRef } from './address.ts';
import type { BudgetOptions } from './budget/rates.ts';

export type Provider = 'cloud_a' | 'cloud_b' | 'cloud_c';
export type Severity = 'critical' | 'high' | 'medium' | 'low';
/**
 * `changed`: the resource exists and at least one compared attribute differs from the state.
 * `deleted`: the state holds the resource but the cloud no longer has it (or has it terminated).
 */
export type ChangeType = 'changed' | 'deleted';

export interface AwsCredentials { accessKeyId: string; secretAccessKey: string; region: string; sessionToken?: string }

/** What a confined clone runs: the normalised URL, and `-c` settings for git. */
export interface CloneTarget { url: string; config: string[] }
export type CloneGuard = (url: string) => Promise<CloneTarget>;

export interface ScanInput {
  source: { kind: 'git'; url: string; branch: string } | { kind: 'path'; path: string };
  /** Folders inside the repository holding .tf files, each a root module ([] = repository root). */
  iacPaths: string[];
  provider: Provider;
  credentials: AwsCredentials | Record<string, unknown> | null;
  /**
   * API endpoint override, from config: cloud_a's (moto); cloud_b's serves ARM under
   * `{endpoint}/management` and the token endpoint at `{endpoint}/{tenant}/oauth2/v2.0/token`;
   * cloud_c's serves each Google API under `{endpoint}/{service}` and tokens at `{endpoint}/token`.
   */
  endpoint?: string;
  /** Extra CA certificates (PEM) trusted for cloud_b/cloud_c API and token calls. */
  ca?: string;
  /** Explicit state location: a path inside the repository (relative to each iacPath), or s3://bucket/key. */
  statePath?: string;
  /**
   * A targeted re-check: only these state addresses are read live and compared (the states are
   * still read whole, for rules that standalone resources manage). Absent: every address.
   */
  addresses?: string[];
  /**
   * How the scan compares (the repository config's `comparison`): `auto` (default) reads every
   * instance a native reader compares and sends the rest through one targeted refresh-only plan;
   * `native` never plans; `provider` compares everything through the plan.
   */
  comparison?: Comparison;
  /**
   * Whether this host may run provider plans: a self-hosted runner with tofu/terraform, or the
   * built-in executor when the operator set EXECUTOR_PROVIDER_PLANS. Off: native only, and the
   * scan's stats say why (`providerPlan.reason`).
   */
  providerPlans?: boolean;
  /**
   * On a confined host (the built-in executor), let a planned configuration declare programs
   * (`data "external"`, provisioners): the operator's EXECUTOR_PLAN_PROGRAMS. Refused otherwise.
   */
  allowPlanPrograms?: boolean;
  /**
   * The built-in executor's confinement (plugins/executor/clone-guard.ts): checks a git URL
   * before the clone and returns the URL to clone with the git settings that pin it (protocols,
   * redirects, the checked address); throws a ScanError when refused. Absent on self-hosted
   * runners, which clone internal hosts on purpose.
   */
  cloneGuard?: CloneGuard;
  /**
   * The scan runs on the service host (the built-in executor): a tofu/terraform plan copies the
   * repository without links leading out and refuses configurations that read the host, run
   * programs or choose addresses (tofu-confine.ts).
   */
  confined?: boolean;
  /**
   * The cloud API budget (budget/): the store its buckets live in (the service's Redis; absent:
   * this process's) and the organization's rates. Without an endpoint override the default rates
   * apply to every service the organization sets none for.
   */
  apiBudget?: BudgetOptions;
  signal?: AbortSignal;
  onProgress?: (p: { phase: string; done: number; total: number }) => void;
}

export type Comparison = 'auto' | 'native' | 'provider';
/** Who compared an instance: the engine's own reader, or the provider through a refresh-only plan. */
export type ComparedBy = 'native' | 'provider';

export interface DiffEntry { attribute: string; before: unknown; after: unknown }

export interface DetectedDrift {
  resourceType: string;
  resourceAddress: string;
  changeType: ChangeType;
  severity: Severity;
  diff: DiffEntry[];
  comparedBy: ComparedBy;
  /** Id of the severity rule that decided `severity` (rules.ts). */
  ruleId?: string;
  /** Where the resource lives and is declared (where.ts); absent or null when unknown. */
  resourceId?: string | null;
  provider?: Provider | null;
  location?: string | null;
  account?: string | null;
  /** Module path of the address (`module.a.module.b`, instance keys stripped), '' for the root module. */
  module?: string;
  declaredIn?: DeclaredIn | null;
  commit?: string | null;
}

/** The `resource` block of a drifted instance: the file relative to the repository root, its 1-based line. */
export interface DeclaredIn { file: string; line: number }

/** The refresh-only plan of a scan: whether it ran, with what, on how many addresses, or why not. */
export interface ProviderPlanStats {
  ran: boolean;
  /** Binary name and version (`terraform 1.11.4`), null when none was found or asked for. */
  binary: string | null;
  /** Addresses the plan was targeted at (0 for a plan of everything: comparison `provider`). */
  targets: number;
  /** Instances the plan compared. */
  compared: number;
  durationMs: number;
  /** Why it did not run or failed (the instances stay in notCompared). */
  reason?: string;
}

export interface ScanStats {
  mode: 'sdk' | 'tofu';
  /** Instances compared by the engine's readers and through the provider's plan. */
  comparedBy: Record<ComparedBy, number>;
  providerPlan?: ProviderPlanStats;
  durationMs: number;
  /** SDK requests sent (each retry counted once more), and per service. */
  sdkCalls: number;
  sdkCallsByService: Record<string, number>;
  /** Calls the cloud answered as throttled (each halved its bucket and was retried). */
  throttledCalls?: number;
  /** Milliseconds calls waited for a token of the API budget or backed off after a throttle, summed over concurrent calls. */
  waitedMs?: number;
  /** Root modules scanned (the iacPaths), with where each state came from. */
  roots: { path: string; state: string; resources: number }[];
  /** Managed resource instances of types the engine has no live reader for, by type. */
  unsupported: Record<string, number>;
  /** Attribute differences dropped by the built-in ignore table or .driftignore. */
  ignoredDiffs: number;
  /** Patterns read from the repository's .driftignore. */
  ignorePatterns: number;
  /** Commit scanned, for git sources. */
  commit?: string;
  /** Compared instances by where their region came from (region.ts: provider, variable, arn, zone, credentials...). */
  regionSources?: Record<string, number>;
  /** Instances not compared because no region could be determined for them (never reported deleted), by type. */
  regionUnknown?: Record<string, number>;
  /** cloud_b/cloud_c: instances not found in the scope asked but found in the one their id names (first 100 addresses). */
  foundInIdScope?: string[];
  /** Instances not found in the region asked but found in the region their ARN names (first 100 addresses). */
  foundInArnRegion?: string[];
  /**
   * Deletions reported in a region no configuration or ARN of the instance named (the credentials'
   * region, or the one its provider's other instances live in): "address (region, from source)".
   */
  deletedInAssumedRegion?: string[];
  /** Instances read from `attributes_flat` (states upgraded from Terraform 0.11), first 100 addresses, and their count. */
  flatInstances?: { count: number; addresses: string[] };
  /** Managed instances the state holds with no attributes at all, not compared (first 100 addresses). */
  emptyInstances?: string[];
  /** Instances of a type the credentials may not read (the reader's calls were denied), by type: not compared, the scan goes on. */
  accessDenied?: Record<string, number>;
  /** Instances whose state shape the engine cannot compare (no attributes, no id its reader looks it up by), by type. */
  unsupportedShape?: Record<string, number>;
  /**
   * What the scan did not compare, per resource type and reason (not-compared.ts), from the counts
   * above: `no_reader` (unsupported), `unknown_region` (regionUnknown), `access_denied`,
   * `unsupported_shape`. Sorted by count, largest first.
   */
  notCompared?: NotCompared[];
}

export type NotComparedReason = 'no_reader' | 'unknown_region' | 'access_denied' | 'unsupported_shape';
export interface NotCompared { resourceType: string; reason: NotComparedReason; count: number }

/**
 * One managed resource instance of the states a scan read (inventory.ts): its address and type,
 * the id the engine's reader looks it up by (null when the state holds none), and where it lives.
 */
export interface InventoryItem { address: string; type: string; resourceId: string | null; region: string | null; account: string | null }

export interface ScanOutcome {
  drifts: DetectedDrift[];
  resourcesScanned: number;
  stats: ScanStats;
  /** Every managed instance of the state(s) read, whatever its type (also those not compared). */
  inventory: InventoryItem[];
}

/** One managed resource instance from a state file. */
export interface StateInstance {
  address: string;
  type: string;
  name: string;
  module?: string;
  indexKey?: number | string;
  /** Provider alias of a root-module provider, from `provider["registry.terraform.io/hashicorp/aws"].alias`. */
  providerAlias?: string;
  /** The provider configuration the instance was written by (resource's or, in OpenTofu 1.9, the instance's own). */
  provider?: ProviderRef;
  attributes: Record<string, unknown>;
  /** Attribute paths the state marks sensitive (`sensitive_attributes`), e.g. [["password"]]; never shown in a drift. */
  sensitivePaths?: string[][];
  /** Attributes decoded from `attributes_flat` (a state upgraded from Terraform 0.11). */
  flat?: boolean;
}

export type LiveAttributes = Record<string, unknown>;

/** Rule atoms managed by standalone rule resources, carried on a group's state attributes (standalone.ts). */
export const MANAGED_ATOMS = Symbol('managedAtoms');
export type ManagedAtoms = { ingress: Set<string>; egress: Set<string> };
