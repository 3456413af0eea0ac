// Plan evaluation off the request thread (issue 32): a small pool of worker threads runs
// evaluatePlan with a time limit (GUARDRAIL_EVALUATION_TIMEOUT_MS, default 5 s). A plan past it
// has its worker stopped and replaced, and the request answers 422
// guardrails.evaluation_timeout; a full queue answers 503 guardrails.evaluation_busy. The pool
// starts with the first evaluation and is closed with the app (the plugin's stop).
import { AppError } from '../../core/errors.ts';
import { createWorkerPool, WorkerPoolBusyError, WorkerPoolClosedError, WorkerTimeoutError } from '../../core/worker-pool.ts';
import type { GuardrailInput, PlanDocument, PlanResult } from './plan.ts';

/** Evaluations that may wait for a worker, in all and per organization; more is an overload, answered at once. */
const MAX_QUEUE = 64;
const MAX_QUEUE_PER_ORG = 8;
/** Seconds a client waits before retrying an evaluation refused for capacity. */
const RETRY_AFTER_S = 5;

export interface Evaluator {
  /** Organizations' evaluations take turns for the workers (one organization's backlog does not hold another's). */
  evaluate(orgId: string, plan: PlanDocument, guardrails: GuardrailInput[]): Promise<PlanResult>;
  /** Evaluations running in a worker now, and waiting for one (the drift_guardrail_evaluations gauge). */
  readonly running: number;
  readonly queued: number;
  close(): Promise<void>;
}

export function createEvaluator(opts: { workers: number; timeoutMs: number }): Evaluator {
  const pool = createWorkerPool<{ plan: PlanDocument; guardrails: GuardrailInput[] }, PlanResult>({
    file: new URL('./evaluate-worker.ts', import.meta.url), size: opts.workers, timeoutMs: opts.timeoutMs,
    maxQueue: MAX_QUEUE, maxQueuePerKey: MAX_QUEUE_PER_ORG,
  });
  return {
    async evaluate(orgId, plan, guardrails) {
      try {
        return await pool.run({ plan, guardrails }, orgId);
      } catch (err) {
        if (err instanceof WorkerTimeoutError) {
          throw new AppError('guardrails.evaluation_timeout', {
            message: `The plan could not be evaluated within ${opts.timeoutMs / 1000} s and was stopped: send a smaller plan (fewer resource changes or shorter values) or simplify the deployed guardrails' rules`,
          });
        }
        if (err instanceof WorkerPoolBusyError) {
          throw new AppError('guardrails.evaluation_busy', { headers: { 'retry-after': String(RETRY_AFTER_S) } });
        }
        if (err instanceof WorkerPoolClosedError) throw new AppError('shutting_down');
        throw err;
      }
    },
    get running() { return pool.running; },
    get queued() { return pool.queued; },
    close: () => pool.close(),
  };
}
