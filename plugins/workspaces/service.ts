// Workspaces: one default per organization (created on first use), reorder, set default,
// delete moves its configs to the default (the default itself cannot be deleted).
import { newId } from '../../core/crypto.ts';
import { badRequest, conflict, notFound } from '../../core/errors.ts';
import { firstWorkspaceId, type Workspace, type WorkspaceStore } from './store.ts';
import { namedChanges } from '../../core/db.ts';
import type { NextOrder } from '../../core/redis.ts';

export const DEFAULT_WORKSPACE_NAME = 'Default';

/** The organization's default workspace id, creating the default workspace on first use (race-safe). */
export async function ensureDefaultWorkspace(store: WorkspaceStore, orgId: string): Promise<string> {
  const known = await store.defaultId(orgId);
  if (known) return known;
  const id = firstWorkspaceId(orgId);
  const now = new Date();
  // Both writes are idempotent (fixed id, insert-only pointer), so concurrent first calls agree.
  await store.insert({ _id: id, orgId, name: DEFAULT_WORKSPACE_NAME, description: '', order: 0, createdAt: now, updatedAt: now });
  await store.initDefault(orgId, id);
  return (await store.defaultId(orgId)) ?? id;
}

/**
 * What workspaces need to know of the repository configs they group. The repo-configs
 * plugin, which needs workspaces, attaches it (attachConfigs): workspaces never import it.
 */
export interface GroupedConfigs {
  countBy(orgId: string): Promise<Map<string, number>>;
  countIn(orgId: string, workspaceId: string): Promise<number>;
  /** Moves every config of one workspace to another (deleting a workspace). */
  move(orgId: string, from: string, to: string): Promise<void>;
}
const NO_CONFIGS: GroupedConfigs = { countBy: async () => new Map(), countIn: async () => 0, move: async () => undefined };

export function createWorkspaceService(store: WorkspaceStore, nextOrder: NextOrder) {
  let configs = NO_CONFIGS;
  const view = (w: Workspace, defaultId: string, counts: Map<string, number>) => ({
    _id: w._id, name: w.name, description: w.description, isDefault: w._id === defaultId, order: w.order,
    repoConfigCount: counts.get(w._id) ?? 0, createdAt: w.createdAt.toISOString(), updatedAt: w.updatedAt.toISOString(),
  });

  async function load(orgId: string, id: string) {
    const w = await store.get(orgId, id);
    if (!w) throw notFound('Workspace');
    return w;
  }

  async function one(orgId: string, w: Workspace) {
    const [defaultId, count] = await Promise.all([ensureDefaultWorkspace(store, orgId), configs.countIn(orgId, w._id)]);
    return view(w, defaultId, new Map([[w._id, count]]));
  }

  /** Every workspace in display order, with its config count. */
  async function list(orgId: string) {
    const defaultId = await ensureDefaultWorkspace(store, orgId);
    const [rows, counts] = await Promise.all([store.list(orgId), configs.countBy(orgId)]);
    return rows.map((w) => view(w, defaultId, counts));
  }

  return {
    attachConfigs(grouped: GroupedConfigs) { configs = grouped; },
    /** A workspace of the organization, or null. */
    find: (orgId: string, id: string) => store.get(orgId, id),
    /** The organization's default workspace id (created on first use). */
    defaultId: (orgId: string) => ensureDefaultWorkspace(store, orgId),
    list,
    async create(orgId: string, input: { name: string; description?: string }) {
      await ensureDefaultWorkspace(store, orgId);
      const existing = await store.list(orgId);
      const now = new Date();
      const w: Workspace = {
        _id: newId(), orgId, name: input.name, description: input.description ?? '',
        order: await nextOrder(orgId, existing.reduce((max, x) => Math.max(max, x.order), -1) + 1), createdAt: now, updatedAt: now,
      };
      await store.insert(w);
      return one(orgId, w);
    },
    get: async (orgId: string, id: string) => one(orgId, await load(orgId, id)),
    async update(orgId: string, id: string, input: { name?: string; description?: string }) {
      await load(orgId, id);
      await store.update(orgId, id, namedChanges({ name: input.name, description: input.description, updatedAt: new Date() }));
      return one(orgId, await load(orgId, id));
    },
    async remove(orgId: string, id: string) {
      await load(orgId, id);
      const defaultId = await ensureDefaultWorkspace(store, orgId);
      if (id === defaultId) throw conflict('The default workspace cannot be deleted; make another workspace the default first');
      // Move first, then delete: a crash in between leaves an empty workspace, never orphaned configs.
      await configs.move(orgId, id, defaultId);
      await store.remove(orgId, id);
      return { message: 'Workspace deleted; its repository configs moved to the default workspace' };
    },
    async setDefault(orgId: string, id: string) {
      await ensureDefaultWorkspace(store, orgId);
      const w = await load(orgId, id);
      await store.setDefault(orgId, id);
      return one(orgId, w);
    },
    async reorder(orgId: string, order: string[]) {
      const rows = await store.list(orgId);
      const known = new Set(rows.map((w) => w._id));
      const unknown = order.filter((id) => !known.has(id));
      if (unknown.length) throw badRequest('order names workspaces that do not exist in this organization', { unknown });
      // Listed ones first in the given order, the rest after them in their current order.
      const rest = rows.filter((w) => !order.includes(w._id)).map((w) => w._id);
      await store.setOrders(orgId, [...order, ...rest], new Date());
      return list(orgId);
    },
  };
}
export type WorkspaceService = ReturnType<typeof createWorkspaceService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { workspaces: WorkspaceService }
}
