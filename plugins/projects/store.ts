// The only file that touches `projects` and `project_defaults`; declares their indexes.
// The default project is one pointer document per organization (_id = orgId), as for
// workspaces: a single-document write, so never two defaults.
import type { CollectionSpec, Database, Changes } from '../../core/db.ts';
import { isDuplicateKey } from '../../core/db.ts';
import type { Provider } from '../credentials/types.ts';

export interface Project {
  _id: string;
  orgId: string;
  name: string;
  provider: Provider;
  /** AES-256-GCM sealed JSON of {orgId, projectId, provider, values}; null until set. */
  sealed: string | null;
  /** Masked identifiers and non-secret facts, built when the credentials are saved. */
  summary: Record<string, string> | null;
  credentialsUpdatedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}
interface DefaultPointer { _id: string; projectId: string }

export const PROJECTS: CollectionSpec = { name: 'projects', owner: 'plugins/projects', indexes: [{ key: { orgId: 1, createdAt: 1 } }] };
export const PROJECT_DEFAULTS: CollectionSpec = { name: 'project_defaults', owner: 'plugins/projects', indexes: [] };

export function createProjectStore(db: Database) {
  const col = db.collection<Project>(PROJECTS);
  const defaults = db.collection<DefaultPointer>(PROJECT_DEFAULTS);
  return {
    list: (orgId: string) => col.find({ orgId }).sort({ createdAt: 1 }).limit(1000).toArray(),
    get: (orgId: string, id: string) => col.findOne({ _id: id, orgId }),
    /** Projects whose credentials are saved: cloud accounts (plan limit). */
    countWithCredentials: (orgId: string) => col.countDocuments({ orgId, sealed: { $ne: null } }),
    insert: async (doc: Project) => { await col.insertOne(doc); },
    async update(orgId: string, id: string, set: Changes<Project>) {
      return (await col.updateOne({ _id: id, orgId }, { $set: set })).matchedCount > 0;
    },
    async remove(orgId: string, id: string) {
      return (await col.deleteOne({ _id: id, orgId })).deletedCount > 0;
    },
    defaultId: async (orgId: string) => (await defaults.findOne({ _id: orgId }))?.projectId ?? null,
    async initDefault(orgId: string, projectId: string) {
      try {
        await defaults.insertOne({ _id: orgId, projectId });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },
    setDefault: async (orgId: string, projectId: string) => { await defaults.updateOne({ _id: orgId }, { $set: { projectId } }, { upsert: true }); },
    clearDefault: async (orgId: string, projectId: string) => { await defaults.deleteOne({ _id: orgId, projectId }); },
    async removeOrg(orgId: string) {
      await col.deleteMany({ orgId });
      await defaults.deleteOne({ _id: orgId });
    },
  };
}
export type ProjectStore = ReturnType<typeof createProjectStore>;
