// The only file that touches `notifications`; declares its indexes. Notifications belong
// to a user (every member of the organization an event happened in gets one).
import type { CollectionSpec, Database } from '../../core/db.ts';

export interface Notification {
  _id: string;
  userId: string;
  orgId: string;
  type: string;
  title: string;
  message: string;
  read: boolean;
  createdAt: Date;
  metadata: { scanId?: string; repositoryName?: string; repositoryConfigId?: string; count?: number };
}

export const NOTIFICATIONS: CollectionSpec = {
  name: 'notifications', owner: 'plugins/notifications',
  indexes: [
    { key: { userId: 1, createdAt: -1, _id: -1 } },
    { key: { userId: 1, read: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, createdAt: -1 } },
  ],
};

export function createNotificationStore(db: Database) {
  const col = db.collection<Notification>(NOTIFICATIONS);
  const filterOf = (userId: string, unreadOnly: boolean) => (unreadOnly ? { userId, read: false } : { userId });
  return {
    async page(userId: string, unreadOnly: boolean, skip: number, limit: number) {
      const filter = filterOf(userId, unreadOnly);
      const [rows, total] = await Promise.all([
        col.find(filter).sort({ createdAt: -1, _id: -1 }).skip(skip).limit(limit).toArray(),
        col.countDocuments(filter),
      ]);
      return { rows, total };
    },
    unread: (userId: string) => col.countDocuments({ userId, read: false }),
    insertMany: async (docs: Notification[]) => { if (docs.length) await col.insertMany(docs, { ordered: false }); },
    markAllRead: async (userId: string) => (await col.updateMany({ userId, read: false }, { $set: { read: true } })).modifiedCount,
    markRead: async (userId: string, id: string) => (await col.updateOne({ _id: id, userId }, { $set: { read: true } })).matchedCount > 0,
    remove: async (userId: string, id: string) => (await col.deleteOne({ _id: id, userId })).deletedCount > 0,
    removeOrg: async (orgId: string) => { await col.deleteMany({ orgId }); },
  };
}
export type NotificationStore = ReturnType<typeof createNotificationStore>;
