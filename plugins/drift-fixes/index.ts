// Handlers of the drift AI routes (manifests/drift-fixes.ts). Needs drifts (the records) and
// scm (file reads and pull requests through the app installation); uses ai-providers (the
// organization's provider, model and key) when enabled. Nothing needs this plugin.
import { definePlugin } from '../../core/plugin.ts';
import manifest from '../../manifests/drift-fixes.ts';
import { createFixStore } from './store.ts';
import { createFixService } from './service.ts';

export default definePlugin({
  manifest,
  needs: ['drifts', 'scm'],
  uses: ['ai-providers'],
  build(ctx, deps) {
    const store = createFixStore(ctx.db);
    const fixes = createFixService(ctx, store, { drifts: deps.drifts, scm: deps.scm, ai: deps['ai-providers'] });
    ctx.onOrgDelete((orgId) => fixes.removeOrg(orgId));
    return {
      stop: () => fixes.close(),
      handlers: {
        reanalyze: ({ org, params }) => fixes.reanalyze(org.id, params.driftId),
        generateFix: ({ org, params, query, principal }) => fixes.generateFix(org.id, params.driftId, principal.userId ?? null, query.strategy),
        approveFix: ({ org, params, principal }) => fixes.approveFix(org.id, params.driftId, principal.userId ?? principal.tokenId ?? 'unknown'),
        createPr: ({ org, params }) => fixes.createPr(org.id, params.driftId),
      },
    };
  },
});
