// The only file that touches `ai_provider_settings`: one document per organization
// (_id = orgId) with the chosen provider and model and each provider's sealed key.
import type { CollectionSpec, Database } from '../../core/db.ts';
import type { AiProvider } from './schemas.ts';

export interface StoredKey { sealed: string; prefix: string; updatedAt: Date }
export interface AiSettings {
  _id: string;
  orgId: string;
  provider?: AiProvider;
  model?: string;
  keys?: Partial<Record<AiProvider, StoredKey | null>>;
  updatedAt: Date;
}

export const AI_PROVIDER_SETTINGS: CollectionSpec = { name: 'ai_provider_settings', owner: 'plugins/ai-providers', indexes: [] };

export function createAiStore(db: Database) {
  const col = db.collection<AiSettings>(AI_PROVIDER_SETTINGS);
  const set = async (orgId: string, fields: Record<string, unknown>) => {
    await col.updateOne({ _id: orgId }, { $set: { ...fields, orgId, updatedAt: new Date() } }, { upsert: true });
  };
  return {
    get: (orgId: string) => col.findOne({ _id: orgId }),
    setProvider: (orgId: string, provider: AiProvider, model: string) => set(orgId, { provider, model }),
    setKey: (orgId: string, provider: AiProvider, key: StoredKey | null) => set(orgId, { [`keys.${provider}`]: key }),
    removeOrg: async (orgId: string) => { await col.deleteOne({ _id: orgId }); },
  };
}
export type AiStore = ReturnType<typeof createAiStore>;
