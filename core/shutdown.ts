// Graceful shutdown on SIGTERM/SIGINT: stop taking requests (the listener closes; requests on
// kept-alive connections answer 503 shutting_down), let the ones in flight finish, stop the job
// loop, the plugins and the stores (the app's onClose hooks, core/app.ts), all within a bound:
// past SHUTDOWN_TIMEOUT_MS the process exits with code 1 whatever is left.
import type { FastifyInstance } from 'fastify';

export interface ShutdownOptions {
  timeoutMs: number;
  /** Runs after the app closed (stop the local services a script started). */
  after?: () => Promise<void>;
  exit?: (code: number) => void;
}

export function closeOnSignals(app: FastifyInstance, opts: ShutdownOptions): void {
  const exit = opts.exit ?? ((code: number) => process.exit(code));
  let stopping = false;
  const shutdown = (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal, timeoutMs: opts.timeoutMs }, 'shutting down: no new requests, finishing those in flight');
    const started = Date.now();
    const timer = setTimeout(() => {
      app.log.error({ timeoutMs: opts.timeoutMs }, 'shutdown took longer than its bound; exiting');
      exit(1);
    }, opts.timeoutMs);
    timer.unref();
    app.close()
      .then(() => opts.after?.())
      .then(() => {
        clearTimeout(timer);
        app.log.info({ ms: Date.now() - started }, 'shut down');
        exit(0);
      }, (err: unknown) => {
        clearTimeout(timer);
        app.log.error({ err }, 'shutdown failed');
        exit(1);
      });
  };
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => shutdown(sig));
}
