// What a scan needs to run, wherever it runs: the built-in executor calls detectDrift with it
// in-process, the runners plugin hands the same input to a self-hosted runner as its job. One
// builder (used by execution.ts), so a scan reads its repository, credentials and endpoint the
// same way in both.
import { REPOSITORY_URL_HINT, repositoryUrlKind, type RepoConfig } from '../repo-configs/types.ts';
import type { ScanResult } from './schemas.ts';
import type { ScanResults } from './record.ts';
import type { ApiRates, Comparison, DetectedDrift, ScanInput } from '../../runner-agent/src/engine/index.ts';
import { ScanError } from '../../runner-agent/src/engine/index.ts';

/** The engine input minus the per-run parts (signal, progress); what a runner job carries as `scan`. */
export type ScanJobInput = Pick<ScanInput, 'source' | 'iacPaths' | 'provider' | 'endpoint' | 'statePath' | 'addresses'>
  & { credentials: Record<string, unknown> | null; comparison: Comparison; /** The organization's API rates (api-budget.ts); absent: the engine's defaults. */ apiRates?: ApiRates };

/** A problem with the config itself: the scan fails with this message, nothing runs. */
export class ConfigProblem extends Error {}

export const runnerLabelsOf = (config: RepoConfig): string[] => config.runnerLabels ?? [];

/** Self-hosted runners take the scan when its config names labels; otherwise the built-in executor does. */
export const isForRunners = (config: RepoConfig) => runnerLabelsOf(config).length > 0;

/** A runner may take the scan when it carries every label the config asks for. */
export const labelsMatch = (config: RepoConfig, runnerLabels: readonly string[]) =>
  isForRunners(config) && runnerLabelsOf(config).every((l) => runnerLabels.includes(l));

/**
 * URLs (https://, ssh://, git://, file://) and scp-like `git@host:owner/repo` are cloned at
 * the config's branch; an absolute path is a folder used in place (its working tree as it is).
 */
export function sourceOf(config: RepoConfig): ScanInput['source'] {
  const url = config.repositoryUrl?.trim();
  if (!url) {
    throw new ConfigProblem(`repositoryUrl is not set on repository config ${config.repositoryName}: set it to the git URL of the IaC repository, then scan again`);
  }
  const kind = repositoryUrlKind(url);
  if (kind === 'git') return { kind: 'git', url, branch: config.branch };
  if (kind === 'path') return { kind: 'path', path: url };
  throw new ConfigProblem(`repositoryUrl "${url}" ${REPOSITORY_URL_HINT}`);
}

/** The credential services of the scans plugin's `uses` (absent when that plugin is disabled). */
export interface CredentialReaders {
  credentials?: { values(orgId: string, provider: RepoConfig['provider']): Promise<object | null> };
  projects?: { credentialValues(orgId: string, projectId: string): Promise<Record<string, unknown> | null> };
  /**
   * The source host (plugins/scm): the clone URL with a fresh installation token when the
   * repository belongs to the organization's active app installation, else null. Built only
   * when the scan is handed to the executor or a runner; never stored on the scan.
   */
  sourceHost?: { cloneUrl(orgId: string, repositoryName: string, repositoryUrl: string | undefined): Promise<string | null> };
  /** The organization's cloud API rates (api-budget.ts), handed to the executor and runners with each scan. */
  apiRates?(orgId: string): Promise<ApiRates>;
}

/**
 * The project's credentials when the config belongs to a project that has some, else the
 * organization's for the config's provider. Null when neither exists: the engine then fails
 * the scan with its own `no_credentials` message.
 */
export async function credentialsFor(readers: CredentialReaders, config: RepoConfig): Promise<Record<string, unknown> | null> {
  if (config.projectId && readers.projects) {
    const own = await readers.projects.credentialValues(config.orgId, config.projectId);
    if (own) return own;
  }
  return ((await readers.credentials?.values(config.orgId, config.provider)) as Record<string, unknown> | null | undefined) ?? null;
}

/** `addresses`: a targeted re-check's (the scan's trigger); only those are read and compared. */
/** Endpoint overrides per provider (DRIFT_CLOUD_A/B/C_ENDPOINT). */
export type Endpoints = Partial<Record<RepoConfig['provider'], string>>;

export async function buildScanInput(readers: CredentialReaders, config: RepoConfig, endpoints: Endpoints, addresses?: string[]): Promise<ScanJobInput> {
  const endpoint = endpoints[config.provider];
  const statePath = config.statePath;
  const apiRates = await readers.apiRates?.(config.orgId);
  const cloneUrl = await readers.sourceHost?.cloneUrl(config.orgId, config.repositoryName, config.repositoryUrl ?? undefined);
  return {
    source: cloneUrl ? { kind: 'git', url: cloneUrl, branch: config.branch } : sourceOf(config),
    iacPaths: config.iacPaths ?? [],
    provider: config.provider,
    credentials: await credentialsFor(readers, config),
    // Configs stored before the field compare as the engine's default does.
    comparison: config.comparison ?? 'auto',
    ...(endpoint ? { endpoint } : {}),
    ...(typeof statePath === 'string' && statePath ? { statePath } : {}),
    ...(addresses ? { addresses } : {}),
    ...(apiRates && Object.keys(apiRates).length ? { apiRates } : {}),
  };
}

/**
 * The scan's input, or null once the scan is recorded failed because of a problem with its
 * config (no repositoryUrl, a refused source: nothing could run it). `check` may refuse the
 * input with a ConfigProblem of its own. Any other error propagates.
 */
export async function scanInputOrFail(
  readers: CredentialReaders, results: ScanResults, config: RepoConfig, scanId: string, endpoints: Endpoints, check?: (input: ScanJobInput) => void,
  addresses?: string[],
): Promise<ScanJobInput | null> {
  try {
    const input = await buildScanInput(readers, config, endpoints, addresses);
    check?.(input);
    return input;
  } catch (err) {
    if (!(err instanceof ConfigProblem)) throw err;
    await results.recordScanResult(config.orgId, scanId, { status: 'failed', error: failureMessage(err) });
    return null;
  }
}

/**
 * The engine's drifts as the scan result's. `diff` is `{changes: [{attribute, before, after}]}`:
 * the engine's list kept whole, since attribute paths such as `versioning_configuration.0.status`
 * cannot be object keys in the database. The engine's `deleted` (gone from the cloud) is the
 * drift records' `removed` (plugins/drifts CHANGE_TYPES: changed, added, removed).
 */
export function toReportedDrifts(drifts: DetectedDrift[]): Extract<ScanResult, { status: 'completed' }>['drifts'] {
  return drifts.map((d) => ({
    resourceType: d.resourceType.slice(0, 200),
    resourceAddress: d.resourceAddress.slice(0, 1000),
    severity: d.severity,
    changeType: d.changeType === 'deleted' ? 'removed' as const : 'changed' as const,
    diff: { changes: d.diff.map((e) => ({ attribute: e.attribute, before: e.before ?? null, after: e.after ?? null })) },
    ruleId: d.ruleId?.slice(0, 100) ?? null,
    resourceId: d.resourceId?.slice(0, 2048) ?? null,
    provider: d.provider ?? null,
    location: d.location?.slice(0, 100) ?? null,
    account: d.account?.slice(0, 100) ?? null,
    module: d.module?.slice(0, 1000) ?? null,
    declaredIn: d.declaredIn ? { file: d.declaredIn.file.slice(0, 1000), line: d.declaredIn.line } : null,
    commit: d.commit ?? null,
    // A runner older than hybrid scans sends none: its engine only had native readers.
    comparedBy: d.comparedBy === 'provider' ? 'provider' as const : 'native' as const,
  }));
}

const MAX_ERROR = 2000;

/** A message the user can act on: the engine's ScanError text, a config problem, or a generic one. */
export function failureMessage(err: unknown): string {
  const text = err instanceof ScanError || err instanceof ConfigProblem
    ? err.message
    : `The scan stopped on an unexpected error (${(err as Error)?.message ?? String(err)}); trigger it again, and report it if it persists`;
  return text.slice(0, MAX_ERROR);
}
