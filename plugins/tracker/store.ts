// The only file that touches `tracker_connections`: one document per organization
// (_id = orgId) with the Jira site, the sealed OAuth tokens and the ticket defaults.
import type { CollectionSpec, Database } from '../../core/db.ts';

export interface TrackerConnection {
  _id: string;
  orgId: string;
  cloudId: string | null;
  siteUrl: string | null;
  /** Sealed tokens (AES-256-GCM); null when not connected. */
  accessToken: string | null;
  refreshToken: string | null;
  expiresAt: Date | null;
  connectedBy: string | null;
  defaultProject: string | null;
  defaultIssueType: string | null;
  updatedAt: Date;
}

export const TRACKER_CONNECTIONS: CollectionSpec = { name: 'tracker_connections', owner: 'plugins/tracker', indexes: [] };

export function createTrackerStore(db: Database) {
  const col = db.collection<TrackerConnection>(TRACKER_CONNECTIONS);
  const set = async (orgId: string, fields: Partial<TrackerConnection>) => {
    await col.updateOne({ _id: orgId }, {
      $set: { ...fields, orgId, updatedAt: new Date() },
      $setOnInsert: Object.fromEntries((['cloudId', 'siteUrl', 'accessToken', 'refreshToken', 'expiresAt', 'connectedBy', 'defaultProject', 'defaultIssueType'] as const)
        .filter((k) => !(k in fields)).map((k) => [k, null])),
    }, { upsert: true });
  };
  return {
    get: (orgId: string) => col.findOne({ _id: orgId }),
    set,
    /** Disconnect: the tokens and the site go; the defaults stay for a later connection. */
    disconnect: (orgId: string) => set(orgId, { cloudId: null, siteUrl: null, accessToken: null, refreshToken: null, expiresAt: null, connectedBy: null }),
    removeOrg: async (orgId: string) => { await col.deleteOne({ _id: orgId }); },
  };
}
export type TrackerStore = ReturnType<typeof createTrackerStore>;
