// The built-in scan executor: defines the scans plugin's 'scans.execute' Agenda job and runs
// each scan whose config names no runner labels (plugins/executor/service.ts). No routes.
//   EXECUTOR_CONCURRENCY     scans run at once by one service process (default 2, 1..20)
//   DRIFT_CLOUD_A_ENDPOINT   cloud_a API endpoint override (moto in tests and the demo)
// Both are read here and checked at boot: a bad value stops the process naming the variable.
import { definePlugin } from '../../core/context.ts';
import { EXECUTE_JOB } from '../scans/service.ts';
import { scanTimeoutMinutes } from '../scans/index.ts';
import { createExecutor } from './service.ts';
import { cloudAEndpoint } from './scan-job.ts';

/** Agenda's maxConcurrency in core/scheduler.ts: more would never run at once anyway. */
const MAX_CONCURRENCY = 20;

export function executorConcurrency(env = process.env): number {
  const raw = env.EXECUTOR_CONCURRENCY?.trim();
  if (!raw) return 2;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > MAX_CONCURRENCY) {
    throw new Error(`Configuration error: EXECUTOR_CONCURRENCY must be an integer from 1 to ${MAX_CONCURRENCY}, got "${raw}"`);
  }
  return n;
}

export default definePlugin((ctx) => {
  const executor = createExecutor(ctx, {
    concurrency: executorConcurrency(),
    endpoint: cloudAEndpoint(),
    timeoutMs: scanTimeoutMinutes() * 60_000,
  });
  ctx.services.executor = executor;
  ctx.scheduler.define<{ orgId: string; scanId: string }>(EXECUTE_JOB, async (data) => {
    await executor.execute(data.orgId, data.scanId);
  }, { concurrency: executorConcurrency() });

  return {
    handlers: {},
    stop: () => executor.stop(),
  };
});
