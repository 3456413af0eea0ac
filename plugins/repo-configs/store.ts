// The only file that touches `repo_configs`; declares its indexes.
// `slot` is kept from when this plugin held the repository limit itself (numbered slots "0"..
// under a unique index): configs stored then keep theirs, new ones take their own id, and the
// unique index stays so both kinds stay valid. The limit is now the engine's (core/limits.ts).
import type { CollectionSpec, Database, Changes } from '../../core/db.ts';
import type { Collection, Document } from 'mongodb';

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

export const REPO_CONFIGS: CollectionSpec = {
  name: 'repo_configs', owner: 'plugins/repo-configs',
  indexes: [
    { key: { orgId: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, slot: 1 }, unique: true },
    { key: { orgId: 1, workspaceId: 1 } },
    { key: { orgId: 1, projectId: 1 } },
    { key: { orgId: 1, status: 1 } },
    // The admin scheduler routes: every config with a schedule, across organizations.
    { key: { scheduleCron: 1 } },
  ],
};

/** Records per organization for several organizations, in one aggregation (the admin user list). */
async function countPerOrg<T extends Document>(col: Collection<T>, orgIds: string[]): Promise<Map<string, number>> {
  if (!orgIds.length) return new Map();
  const rows = await col.aggregate<{ _id: string; n: number }>([{ $match: { orgId: { $in: orgIds } } }, { $group: { _id: '$orgId', n: { $sum: 1 } } }]).toArray();
  return new Map(rows.map((r) => [r._id, r.n]));
}


/** Configs per organization are few (plan limits, or a team's repositories): lists read them whole, capped. */
export const MAX_CONFIGS = 1000;

export function createRepoConfigStore(db: Database) {
  const col = db.collection<RepoConfig>(REPO_CONFIGS);
  return {
    /** Every config of the organization (or of the given ids), newest first. */
    list(orgId: string, ids?: readonly string[]) {
      const filter = ids ? { orgId, _id: { $in: [...ids] } } : { orgId };
      return col.find(filter).sort({ createdAt: -1, _id: -1 }).limit(MAX_CONFIGS).toArray();
    },
    get: (orgId: string, id: string) => col.findOne({ _id: id, orgId }),
    count: (orgId: string) => col.countDocuments({ orgId }),
    countActive: (orgId: string) => col.countDocuments({ orgId, status: 'active' }),
    async insert(doc: RepoConfig): Promise<void> {
      await col.insertOne(doc);
    },
    async update(orgId: string, id: string, set: Changes<RepoConfig>) {
      return (await col.updateOne({ _id: id, orgId }, { $set: set })).matchedCount > 0;
    },
    async remove(orgId: string, id: string) {
      return (await col.deleteOne({ _id: id, orgId })).deletedCount > 0;
    },
    /** repoConfigCount per workspace (or project): one aggregation over the organization's configs. */
    async countBy(orgId: string, field: 'workspaceId' | 'projectId'): Promise<Map<string, number>> {
      const rows = await col.aggregate<{ _id: string | null; n: number }>([
        { $match: { orgId } }, { $group: { _id: `$${field}`, n: { $sum: 1 } } },
      ]).toArray();
      return new Map(rows.filter((r) => r._id).map((r) => [r._id as string, r.n]));
    },
    countInWorkspace: (orgId: string, workspaceId: string) => col.countDocuments({ orgId, workspaceId }),
    countInProject: (orgId: string, projectId: string) => col.countDocuments({ orgId, projectId }),
    async moveWorkspace(orgId: string, from: string, to: string) {
      await col.updateMany({ orgId, workspaceId: from }, { $set: { workspaceId: to } });
    },
    async recordScan(orgId: string, id: string, at: Date, status: string) {
      await col.updateOne({ _id: id, orgId }, { $set: { lastScanAt: at, lastScanStatus: status } });
    },
    async removeOrg(orgId: string) {
      await col.deleteMany({ orgId });
    },
    // --- platform-wide reads (admin routes), never from a request of an organization
    countAll: () => col.estimatedDocumentCount(),
    countPerOrg: (orgIds: string[]) => countPerOrg(col, orgIds),
    /** Configs with a schedule (oldest first, at most `limit`), every organization. */
    scheduled: (limit: number) => col.find({ scheduleCron: { $type: 'string' } }, { projection: { _id: 1, orgId: 1, scheduleCron: 1 } }).limit(limit).toArray(),
    countScheduled: () => col.countDocuments({ scheduleCron: { $type: 'string' } }),
  };
}
export type RepoConfigStore = ReturnType<typeof createRepoConfigStore>;
