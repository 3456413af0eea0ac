// A repository config's type and the rules of its repositoryUrl, shared with the plugins that
// read configs (scans): they import them from here, never from store.ts.
import path from 'node:path';
import type { Comparison } from '../../runner-agent/src/engine/index.ts';

export const PROVIDERS = ['cloud_a', 'cloud_b', 'cloud_c'] as const;
export type Provider = (typeof PROVIDERS)[number];
/** How a scan compares (runner-agent/src/engine/types.ts Comparison); configs stored before it read as `auto`. */
export const COMPARISONS = ['auto', 'native', 'provider'] as const satisfies readonly Comparison[];

export interface RepoConfig {
  _id: string;
  orgId: string;
  repositoryName: string;
  branch: string;
  iacPaths: string[];
  provider: Provider;
  scheduleCron: string | null;
  /**
   * The minute (ms / 60,000, UTC) of the cron's next fire, swept by the scheduled-scan due scan
   * (core/due-scan.ts); null without a schedule; absent on configs stored before it (set by the
   * first sweep of a process).
   */
  dueMinute?: number | null;
  workspaceId: string;
  projectId: string | null;
  /** git URL or absolute path of the IaC sources; null: a scan fails saying to set it. */
  repositoryUrl: string | null;
  /** Non-empty: only runners carrying all of these labels take the scans. */
  runnerLabels: string[];
  /** Explicit state location; null: the backend block decides. */
  statePath: string | null;
  /** auto (native readers, then a provider plan for the rest), native, or provider; absent on configs stored before it (auto). */
  comparison?: Comparison;
  status: 'active';
  slot: string;
  lastScanAt: Date | null;
  lastScanStatus: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * URLs (https://, ssh://, git://, file://) and scp-like `git@host:owner/repo` are cloned at the
 * config's branch; an absolute path is a folder used in place, on the machine that runs the scan.
 */
export function repositoryUrlKind(url: string): 'git' | 'path' | null {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) || /^[\w.-]+@[\w.-]+:/.test(url)) return 'git';
  return path.isAbsolute(url) ? 'path' : null;
}
/**
 * A repositoryUrl is shown to every reader of the config and handed to runners, so it may not
 * carry a secret: no user or token in an http(s) URL, no password in any URL.
 */
export function repositoryUrlSecret(url: string): boolean {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/@]*)@/i.exec(url);
  if (!m) return false;
  return /^https?$/i.test(m[1]) || m[2].includes(':');
}
export const REPOSITORY_URL_SECRET = 'repositoryUrl must not contain credentials (it is shown to readers of the config and sent to runners): give the runner its own git credentials, or use an ssh:// or git@ URL with a deploy key';

export const REPOSITORY_URL_HINT = 'is neither a URL nor an absolute path: use https://, ssh://, git@host:owner/repo, file:// or /an/absolute/path';
