// The only file that touches `cloud_credentials`; declares its index. One document per
// (organization, provider): the unique index makes a second concurrent first save of the
// same provider a duplicate key instead of a second document, and covers every query here
// (equality on orgId, or on orgId and provider).
import type { CollectionSpec, Database } from '../../core/db.ts';
import { isDuplicateKey } from '../../core/db.ts';
import { newId } from '../../core/crypto.ts';

export { PROVIDERS, type Provider } from './types.ts';
import type { Provider } from './types.ts';

export interface StoredCredential {
  _id: string;
  orgId: string;
  provider: Provider;
  /** AES-256-GCM sealed JSON of {orgId, provider, values}: every value, secret or not. */
  sealed: string;
  /** Masked identifiers and non-secret facts for the summary (see mask.ts). */
  summary: Record<string, string>;
  /** When the values were last set; rotation status is computed from it. */
  lastUpdated: Date;
  createdAt: Date;
}

export const CLOUD_CREDENTIALS: CollectionSpec = {
  name: 'cloud_credentials',
  owner: 'plugins/credentials',
  indexes: [{ key: { orgId: 1, provider: 1 }, unique: true }],
};

export function createCredentialStore(db: Database) {
  const col = db.collection<StoredCredential>(CLOUD_CREDENTIALS);

  return {
    get: (orgId: string, provider: Provider) => col.findOne({ orgId, provider }),

    /** Every provider stored for the organization (at most three documents). */
    list: (orgId: string) => col.find({ orgId }, { projection: { provider: 1, lastUpdated: 1 } }).toArray(),

    count: (orgId: string) => col.countDocuments({ orgId }),

    /** Inserts or replaces the organization's credentials of one provider. */
    async put(orgId: string, provider: Provider, set: Pick<StoredCredential, 'sealed' | 'summary' | 'lastUpdated'>): Promise<void> {
      const write = (upsert: boolean) => col.updateOne(
        { orgId, provider },
        { $set: set, $setOnInsert: { _id: newId(), createdAt: set.lastUpdated } },
        { upsert },
      );
      try {
        await write(true);
      } catch (err) {
        // Two first saves raced and the other one inserted: ours becomes the update.
        if (!isDuplicateKey(err)) throw err;
        await write(false);
      }
    },

    /** True when a document was removed. */
    async remove(orgId: string, provider: Provider): Promise<boolean> {
      const res = await col.deleteOne({ orgId, provider });
      return res.deletedCount > 0;
    },

    async removeOrg(orgId: string): Promise<void> {
      await col.deleteMany({ orgId });
    },
  };
}
export type CredentialStore = ReturnType<typeof createCredentialStore>;
