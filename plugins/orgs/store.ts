// The only file that touches `invitations`; declares its indexes. Organizations,
// memberships and roles are the engine's (core/tenancy/store.ts).
import type { Filter } from 'mongodb';
import type { CollectionSpec, Database } from '../../core/db.ts';
import { pageWindow, type Page } from '../../core/schemas.ts';
import type { InvitationStatus } from './schemas.ts';

export interface Invitation {
  _id: string;
  orgId: string;
  type: 'email' | 'link';
  /** Email invitations: the invited address, lower-cased. */
  email?: string;
  /** Built-in role name or custom role id. */
  role: string;
  /** SHA-256 of the token; the token itself exists only in the email or the creation answer. */
  tokenHash: string;
  status: InvitationStatus;
  invitedBy: string;
  createdAt: Date;
  expiresAt: Date;
  acceptedBy?: string;
  acceptedAt?: Date;
  revokedBy?: string;
  revokedAt?: Date;
}

export const INVITATIONS: CollectionSpec = {
  name: 'invitations',
  owner: 'plugins/orgs',
  indexes: [
    { key: { tokenHash: 1 }, unique: true },
    { key: { orgId: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, status: 1, createdAt: -1, _id: -1 } },
    { key: { orgId: 1, email: 1, status: 1 } },
    { key: { orgId: 1, role: 1, status: 1 } },
    { key: { status: 1, expiresAt: 1 } },
  ],
};

const NEWEST_FIRST = { createdAt: -1, _id: -1 } as const;

export function createInvitationStore(db: Database) {
  const col = db.collection<Invitation>(INVITATIONS);
  const scope = (orgId: string, status?: InvitationStatus): Filter<Invitation> => (status ? { orgId, status } : { orgId });

  return {
    insert: async (inv: Invitation) => { await col.insertOne(inv); },
    byTokenHash: (tokenHash: string) => col.findOne({ tokenHash }),
    get: (orgId: string, id: string) => col.findOne({ _id: id, orgId }),
    list(orgId: string, status: InvitationStatus | undefined, page: Page) {
      const { skip, limit } = pageWindow(page);
      return col.find(scope(orgId, status)).sort(NEWEST_FIRST).skip(skip).limit(limit).toArray();
    },
    count: (orgId: string, status?: InvitationStatus) => col.countDocuments(scope(orgId, status)),
    pendingFor: (orgId: string, email: string) => col.findOne({ orgId, email, status: 'pending' }),
    async update(orgId: string, id: string, set: Partial<Omit<Invitation, '_id' | 'orgId' | 'createdAt'>>) {
      await col.updateOne({ _id: id, orgId }, { $set: set });
    },
    /** Pending invitations to a deleted custom role now invite as member. */
    async reassignRole(orgId: string, from: string, to: string) {
      await col.updateMany({ orgId, role: from, status: 'pending' }, { $set: { role: to } });
    },
    /** Marks every pending invitation past its expiry as expired, in one statement. */
    async expireDue(now: Date): Promise<number> {
      const res = await col.updateMany({ status: 'pending', expiresAt: { $lt: now } }, { $set: { status: 'expired' } });
      return res.modifiedCount;
    },
    async removeOrg(orgId: string) {
      await col.deleteMany({ orgId });
    },
  };
}
export type InvitationStore = ReturnType<typeof createInvitationStore>;
