// Learn runs and the metrics of past runs (docs/predictions.md): POST /learn queues one run per
// organization at a time (a unique key per organization in prediction_learns), the job runs it
// once (learn.ts); a run holding the slot past STALE_MS is presumed dead and released.
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { AppError } from '../../core/errors.ts';
import type { DriftService } from '../drifts/service.ts';
import type { ScanService } from '../scans/service.ts';
import { learn, type Metrics } from './learn.ts';
import type { LearnLock, PredictionStore } from './store.ts';

export const LEARN_JOB = 'predictions.learn';
/** A learn run holding its organization's slot longer than this is presumed dead. */
const STALE_MS = 30 * 60_000;

interface Deps { store: PredictionStore; drifts: DriftService; scans: ScanService }

export function createLearning(ctx: AppContext, d: Deps) {
  const learningView = (l: LearnLock, alreadyRunning: boolean) => ({ runId: l.runId, status: l.status, trigger: l.trigger, queuedAt: l.queuedAt, alreadyRunning });

  async function requestLearn(orgId: string, trigger: LearnLock['trigger']) {
    await d.store.markActive(orgId);
    for (let attempt = 0; attempt < 3; attempt++) {
      const lock: LearnLock = { _id: orgId, orgId, runId: newId(), status: 'queued', trigger, queuedAt: new Date(), startedAt: null };
      if (await d.store.claimLearn(lock)) {
        await ctx.scheduler.now(LEARN_JOB, { orgId, runId: lock.runId });
        return learningView(lock, false);
      }
      const held = await d.store.learning(orgId);
      if (!held) continue; // finished between our insert and this read: take the slot now
      const since = (held.startedAt ?? held.queuedAt).getTime();
      if (Date.now() - since < STALE_MS) return learningView(held, true);
      ctx.log.warn({ orgId, runId: held.runId }, 'predictions: a stale learn run held the slot; released');
      await d.store.releaseLearn(orgId, held.runId);
    }
    throw new AppError('conflict', { message: 'A learn run is starting; try again shortly' });
  }

  /** The job: runs the queued run once (a second delivery of the job finds the claim taken, or the slot released). */
  async function runLearn(orgId: string, runId: string, now = new Date()) {
    const held = await d.store.learning(orgId);
    if (!held || held.runId !== runId) return null;
    const result = await ctx.once.runOnce(`predictions-learn:${runId}`, orgId, async () => {
      await d.store.setLearning(orgId, runId, { status: 'running', startedAt: new Date() });
      try {
        const r = await learn({ store: d.store, drifts: d.drifts, scans: d.scans }, orgId, runId, now);
        ctx.log.info({ orgId, runId, ...r }, 'predictions: learn run finished');
        return r;
      } catch (err) {
        ctx.log.error({ err, orgId, runId }, 'predictions: learn run failed');
        await d.store.saveModel(orgId, { lastError: (err as Error).message });
        return null;
      } finally {
        await d.store.releaseLearn(orgId, runId);
      }
    });
    return result.won ? result.value : null;
  }

  return { requestLearn, runLearn };
}

/** Precision and recall of past high-risk predictions, with the feedback, actions and seen counts. */
export function createMetrics(store: PredictionStore) {
  const d = { store };
  async function feedbackCounts(orgId: string, repositoryConfig?: string) {
    const rows = (await d.store.touched(orgId)).filter((p) => !repositoryConfig || p.repositoryConfig === repositoryConfig);
    const accurate = rows.filter((p) => p.feedback?.accurate === true).length;
    const inaccurate = rows.filter((p) => p.feedback?.accurate === false).length;
    const actions = { investigate: 0, ignore: 0, scan: 0 };
    for (const p of rows) if (p.action) actions[p.action.action as keyof typeof actions]++;
    return { feedback: { total: accurate + inaccurate, accurate, inaccurate }, actions, seen: rows.filter((p) => p.seenAt).length };
  }

  async function metrics(orgId: string, repositoryConfig?: string) {
    const m = (await d.store.model(orgId))?.summary?.metrics as Metrics | undefined;
    const c = (repositoryConfig ? m?.byRepository?.[repositoryConfig] : m?.overall) ?? { truePositives: 0, falsePositives: 0, falseNegatives: 0, trueNegatives: 0 };
    const ratio = (a: number, b: number) => (b ? Math.round((a / b) * 10000) / 10000 : null);
    return {
      repositoryConfigId: repositoryConfig ?? null, evaluatedRuns: m?.evaluatedRuns ?? 0, ...c,
      precision: ratio(c.truePositives, c.truePositives + c.falsePositives), recall: ratio(c.truePositives, c.truePositives + c.falseNegatives),
      ...(await feedbackCounts(orgId, repositoryConfig)),
    };
  }

  return metrics;
}
