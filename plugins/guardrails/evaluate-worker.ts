// The worker thread of plan evaluation (evaluator.ts): receives {plan, guardrails}, answers
// {ok, value | message}. Runs the same pure evaluatePlan as everywhere else; it exists so a
// long evaluation holds this thread, never the request thread, and can be stopped.
import { parentPort } from 'node:worker_threads';
import { evaluatePlan, type GuardrailInput, type PlanDocument, type PlanResult } from './plan.ts';
import type { WorkerReply } from '../../core/worker-pool.ts';

parentPort!.on('message', (input: { plan: PlanDocument; guardrails: GuardrailInput[] }) => {
  let reply: WorkerReply<PlanResult>;
  try {
    reply = { ok: true, value: evaluatePlan(input.plan, input.guardrails) };
  } catch (err) {
    reply = { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
parentPort!.postMessage({ ready: true });
