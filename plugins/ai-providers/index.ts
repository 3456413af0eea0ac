// Handlers of the AI-provider routes (manifests/ai-providers.ts).
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/ai-providers.ts';
import { createAiStore } from './store.ts';
import { createAiService } from './service.ts';

export default definePlugin({
  manifest,
  needs: [],
  build(ctx) {
    const store = createAiStore(ctx.db);
    const service = createAiService(ctx, store);
    ctx.onOrgDelete((orgId) => store.removeOrg(orgId));
    return {
      provides: service,
      stop: () => service.close(),
      handlers: {
        get: ({ org }) => service.get(org.id),
        set: ({ org, body }) => service.set(org.id, body.provider, body.model),
        getKeyA: ({ org }) => service.keyStatus(org.id, 'provider_a'),
        saveKeyA: ({ org, body }) => service.saveKey(org.id, 'provider_a', body.apiKey),
        deleteKeyA: ({ org }) => service.deleteKey(org.id, 'provider_a'),
        verifyKeyA: ({ org }) => service.verify(org.id, 'provider_a'),
        getKeyB: ({ org }) => service.keyStatus(org.id, 'provider_b'),
        saveKeyB: ({ org, body }) => service.saveKey(org.id, 'provider_b', body.apiKey),
        deleteKeyB: ({ org }) => service.deleteKey(org.id, 'provider_b'),
        verifyKeyB: ({ org }) => service.verify(org.id, 'provider_b'),
      },
    };
  },
});
