// The only file that touches `drift_widgets`; declares its index.
import { bulkWriteInChunks, type CollectionSpec, type Database, type Changes } from '../../core/db.ts';
import type { DriftStatus, Severity } from '../drifts/types.ts';

export const WIDGET_TYPES = ['count', 'chart', 'list'] as const;
export type WidgetType = (typeof WIDGET_TYPES)[number];
export interface WidgetFilters { status?: DriftStatus[]; severity?: Severity[]; resourceType?: string; repositoryConfigId?: string; q?: string }

export interface Widget {
  _id: string;
  orgId: string;
  title: string;
  type: WidgetType;
  filters: WidgetFilters;
  order: number;
  metric: number;
  lastRefreshed: Date;
  /** The issue-tracker ticket created from this widget (plugins/tracker). */
  ticket?: WidgetTicket | null;
  createdAt: Date;
  updatedAt: Date;
}
export interface WidgetTicket { id: string; key: string; url: string; createdAt: Date }

export const DRIFT_WIDGETS: CollectionSpec = { name: 'drift_widgets', owner: 'plugins/drift-widgets', indexes: [{ key: { orgId: 1, order: 1, createdAt: 1 } }] };
/** Widgets are a dashboard's tiles: a few per organization. */
export const MAX_WIDGETS = 200;

export function createWidgetStore(db: Database) {
  const col = db.collection<Widget>(DRIFT_WIDGETS);
  return {
    list: (orgId: string) => col.find({ orgId }).sort({ order: 1, createdAt: 1 }).limit(MAX_WIDGETS).toArray(),
    count: (orgId: string) => col.countDocuments({ orgId }),
    get: (orgId: string, id: string) => col.findOne({ _id: id, orgId }),
    insert: async (w: Widget) => { await col.insertOne(w); },
    update: async (orgId: string, id: string, set: Changes<Widget>) => (await col.updateOne({ _id: id, orgId }, { $set: set })).matchedCount > 0,
    remove: async (orgId: string, id: string) => (await col.deleteOne({ _id: id, orgId })).deletedCount > 0,
    /** Many widgets at once (refresh all, reorder): one command per BULK_STATEMENTS widgets. */
    async setMany(orgId: string, sets: { id: string; set: Changes<Widget> }[]) {
      await bulkWriteInChunks(col, sets.map(({ id, set }) => ({ updateOne: { filter: { _id: id, orgId }, update: { $set: set } } })));
    },
    removeOrg: async (orgId: string) => { await col.deleteMany({ orgId }); },
  };
}
export type WidgetStore = ReturnType<typeof createWidgetStore>;
