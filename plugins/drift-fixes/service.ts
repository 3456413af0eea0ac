// The drift AI routes (docs/drift-fixes.md): analysis, computed fixes, their approval and the
// pull request that carries them. Fixes are computed from the drift record (declaredIn, commit,
// the diff's live values) and the declaring file read from the source host at the scanned
// commit; the AI provider, when the organization has a key, writes only words. The service
// composes fix-compute.ts (the fix from the drift and its declaring file) and fix-source.ts (the
// source host: installation, file read, pull request).
import { createHash } from 'node:crypto';
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { AppError, conflict } from '../../core/errors.ts';
import { acquireLock } from '../../core/redis.ts';
import type { AiProviderService } from '../ai-providers/service.ts';
import type { DriftService } from '../drifts/service.ts';
import type { DriftView } from '../drifts/schemas.ts';
import type { ScmService } from '../scm/service.ts';
import { createAiClient, ruleAnalysis } from './analysis.ts';
import { createFixCompute, facts } from './fix-compute.ts';
import { createFixSource } from './fix-source.ts';
import type { DriftFix, FixStore } from './store.ts';

export { typeAndName } from './fix-compute.ts';

interface Deps { drifts: DriftService; scm: ScmService; ai?: AiProviderService }

const canonical = (v: unknown): unknown => (Array.isArray(v) ? v.map(canonical)
  : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v);
/** What an approval is bound to: the drift's diff and the commit it was found at. */
export const diffHashOf = (d: Pick<DriftView, 'diff' | 'commit'>) => createHash('sha256').update(JSON.stringify(canonical({ diff: d.diff, commit: d.commit }))).digest('hex');

export function createFixService(ctx: AppContext, store: FixStore, d: Deps) {
  const ai = createAiClient(ctx);
  const source = createFixSource(d.scm);
  const compute = createFixCompute(source);

  async function aiSettings(orgId: string) {
    const s = d.ai ? await d.ai.settingsFor(orgId) : null;
    return s?.apiKey ? { ...s, apiKey: s.apiKey } : null;
  }

  const view = (fix: DriftFix) => ({
    fixCode: fix.fixCode, explanation: fix.explanation, strategy: fix.strategy, exact: fix.exact, advice: fix.advice,
    file: fix.files[0]?.path ?? null, commit: fix.commit, generatedAt: fix.generatedAt.toISOString(), approved: Boolean(fix.approvedAt),
  });

  /** The drift's fix, checked against its current diff: 409 naming what is missing. */
  async function currentFix(orgId: string, drift: DriftView, need: 'approval' | 'fix') {
    const fix = await store.get(orgId, drift._id);
    if (!fix) throw conflict(`No fix has been generated for this drift: POST /api/drifts/${drift._id}/generate-fix first`);
    if (fix.diffHash !== diffHashOf(drift)) throw conflict('The fix was generated for an older diff of this drift (a scan found it changed since): generate the fix again');
    if (need === 'approval' && !fix.approvedAt) throw conflict(`The fix is not approved: POST /api/drifts/${drift._id}/approve-fix first`);
    return fix;
  }

  return {
    async reanalyze(orgId: string, driftId: string) {
      const drift = await d.drifts.get(orgId, driftId);
      const f = facts(drift);
      const settings = await aiSettings(orgId);
      // A provider failure throws before anything is written: the old analysis stays.
      const analysis = settings ? await ai.analyse(settings, f) : ruleAnalysis(f);
      return d.drifts.setAiAnalysis(orgId, driftId, analysis);
    },

    async generateFix(orgId: string, driftId: string, userId: string | null, requested?: 'accept' | 'revert') {
      const drift = await d.drifts.get(orgId, driftId);
      const strategy = requested ?? (drift.severity === 'critical' || drift.severity === 'high' ? 'revert' : 'accept');
      const c = await compute(orgId, drift, strategy);
      const settings = await aiSettings(orgId);
      const explanation = settings ? await ai.explain(settings, c.f, { strategy, fixCode: c.fixCode, notes: c.notes }) : c.notes;
      const diffHash = diffHashOf(drift);
      const previous = await store.get(orgId, driftId);
      // The same change again keeps its approval and pull request; another one starts over.
      const same = previous && previous.diffHash === diffHash && previous.fixCode === c.fixCode && previous.strategy === strategy;
      const fix: DriftFix = {
        _id: previous?._id ?? newId(), orgId, driftId, diffHash, strategy, fixCode: c.fixCode, explanation, exact: c.exact, advice: c.advice,
        files: c.files, commit: drift.commit, repositoryName: drift.repositoryName, generatedAt: new Date(), generatedBy: userId,
        approvedBy: same ? previous.approvedBy : null, approvedAt: same ? previous.approvedAt : null, pr: same ? previous.pr : null,
      };
      await store.put(fix);
      return view(fix);
    },

    async approveFix(orgId: string, driftId: string, userId: string) {
      const drift = await d.drifts.get(orgId, driftId);
      const fix = await currentFix(orgId, drift, 'fix');
      const at = fix.approvedAt ?? new Date();
      const by = fix.approvedBy ?? userId;
      if (!fix.approvedAt) await store.approve(orgId, driftId, by, at);
      return { approved: true as const, approvedBy: by, approvedAt: at.toISOString(), strategy: fix.strategy };
    },

    async createPr(orgId: string, driftId: string) {
      const drift = await d.drifts.get(orgId, driftId);
      const fix = await currentFix(orgId, drift, 'approval');
      if (fix.pr) return fix.pr;
      if (!fix.files.length) throw conflict('The approved fix changes no file (strategy revert, or only advice): re-apply the declared configuration, or generate a fix with strategy accept');
      const inst = await source.installation(orgId, drift.repositoryName);
      const release = await acquireLock(ctx.redis.main, `drift-fix-pr:${orgId}:${driftId}`, {
        ttlMs: 60_000, waitMs: 30_000,
        down: () => new AppError('store_unavailable'),
        busy: () => conflict('A pull request for this fix is being created; retry shortly'),
      });
      try {
        const again = await store.get(orgId, driftId);
        if (again?.pr) return again.pr;
        const pr = await source.openPullRequest(inst, fix, drift);
        await store.setPr(orgId, driftId, pr);
        return pr;
      } finally {
        await release();
      }
    },
    removeOrg: (orgId: string) => store.removeOrg(orgId),
    close: () => ai.close(),
  };
}
export type FixService = ReturnType<typeof createFixService>;
