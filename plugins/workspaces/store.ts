// The only file that touches `workspaces` and `workspace_defaults`; declares their indexes.
// Which workspace is the default lives in one pointer document per organization (_id =
// orgId): "set default" is a single-document write, so there is exactly one default even
// when two callers set different defaults at the same moment (DESIGN.md: an update is not
// atomic with its filter on the embedded database, a single document is).
import { bulkWriteInChunks, type CollectionSpec, type Database } from '../../core/db.ts';
import { insertUnlessDuplicate } from '../../core/db.ts';
import { sha256Hex } from '../../core/crypto.ts';

export interface Workspace {
  _id: string;
  orgId: string;
  name: string;
  description: string;
  order: number;
  createdAt: Date;
  updatedAt: Date;
}
interface DefaultPointer { _id: string; workspaceId: string }

export const WORKSPACES: CollectionSpec = {
  name: 'workspaces', owner: 'plugins/workspaces',
  indexes: [{ key: { orgId: 1, order: 1, createdAt: 1 } }],
};
export const WORKSPACE_DEFAULTS: CollectionSpec = { name: 'workspace_defaults', owner: 'plugins/workspaces', indexes: [] };

/** The first default workspace has an id derived from the organization, so two concurrent first calls create one. */
export const firstWorkspaceId = (orgId: string) => sha256Hex(`workspace:default:${orgId}`).slice(0, 24);

export function createWorkspaceStore(db: Database) {
  const col = db.collection<Workspace>(WORKSPACES);
  const defaults = db.collection<DefaultPointer>(WORKSPACE_DEFAULTS);

  return {
    list: (orgId: string) => col.find({ orgId }).sort({ order: 1, createdAt: 1 }).limit(1000).toArray(),
    get: (orgId: string, id: string) => col.findOne({ _id: id, orgId }),
    async insert(doc: Workspace): Promise<boolean> {
      return insertUnlessDuplicate(col, doc);
    },
    async update(orgId: string, id: string, set: Partial<Pick<Workspace, 'name' | 'description' | 'order' | 'updatedAt'>>) {
      return (await col.updateOne({ _id: id, orgId }, { $set: set })).matchedCount > 0;
    },
    async setOrders(orgId: string, ids: string[], at: Date) {
      await bulkWriteInChunks(col, ids.map((id, order) => ({ updateOne: { filter: { _id: id, orgId }, update: { $set: { order, updatedAt: at } } } })), true);
    },
    async remove(orgId: string, id: string) {
      return (await col.deleteOne({ _id: id, orgId })).deletedCount > 0;
    },
    async defaultId(orgId: string): Promise<string | null> {
      return (await defaults.findOne({ _id: orgId }))?.workspaceId ?? null;
    },
    /** Sets the pointer only when none exists (first default); false when one already did. */
    async initDefault(orgId: string, workspaceId: string): Promise<boolean> {
      return insertUnlessDuplicate(defaults, { _id: orgId, workspaceId });
    },
    async setDefault(orgId: string, workspaceId: string) {
      await defaults.updateOne({ _id: orgId }, { $set: { workspaceId } }, { upsert: true });
    },
    async removeOrg(orgId: string) {
      await col.deleteMany({ orgId });
      await defaults.deleteOne({ _id: orgId });
    },
  };
}
export type WorkspaceStore = ReturnType<typeof createWorkspaceStore>;
