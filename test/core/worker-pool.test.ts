// core/worker-pool.ts with a real worker (test/fixtures/pool-worker.ts): answers, a job past its
// time limit stopped (a worker spinning in a loop) and replaced, crashes, the bounded queue
// and its turns per key, close; the guardrail pool's settings.
import t, { type Test } from 'tap';
import { createWorkerPool, WorkerPoolBusyError, WorkerPoolClosedError, WorkerTimeoutError } from '../../core/worker-pool.ts';
import { loadConfig } from '../../core/config.ts';
import { TEST_SECRETS } from '../helper.ts';

type In = { echo?: unknown; spin?: true; fail?: string; crash?: true };
const FILE = new URL('../fixtures/pool-worker.ts', import.meta.url);
/** Rejects with an error of this class. */
const rejectsWith = (t: Test, p: Promise<unknown>, kind: new (m: string) => Error, msg?: string) =>
  p.then(() => t.fail(`resolved; expected ${kind.name}`), (err) => t.ok(err instanceof kind, msg ?? `rejects with ${kind.name}: ${(err as Error).message}`));

t.test('answers; a job past its limit is stopped and its worker replaced; errors and crashes reject', async (t) => {
  const pool = createWorkerPool<In, unknown>({ file: FILE, size: 1, timeoutMs: 300, maxQueue: 4, maxQueuePerKey: 4 });
  t.teardown(() => pool.close());
  t.same(await pool.run({ echo: { a: [1, 'x'] } }), { a: [1, 'x'] });
  const spinning = pool.run({ spin: true });
  const queued = pool.run({ echo: 'after' });
  t.equal(pool.running, 1);
  t.equal(pool.queued, 1);
  await rejectsWith(t, spinning, WorkerTimeoutError, 'an endless loop is stopped at the limit');
  t.equal(await queued, 'after', 'the job behind it runs on the replacement');
  await t.rejects(pool.run({ fail: 'bad input' }), { message: 'bad input' });
  await t.rejects(pool.run({ crash: true }), { message: 'worker crashed' });
  t.equal(await pool.run({ echo: 'still here' }), 'still here', 'a crashed worker is replaced too');
});

t.test('the queue is bounded in all and per key, and keys take turns', async (t) => {
  const pool = createWorkerPool<In, unknown>({ file: FILE, size: 1, timeoutMs: 60_000, maxQueue: 4, maxQueuePerKey: 2 });
  t.teardown(() => pool.close());
  await pool.run({ echo: 0 }); // started and ready
  const order: string[] = [];
  const job = (key: string, n: number) => pool.run({ echo: `${key}${n}` }, key).then((v) => { order.push(String(v)); });
  // The first runs at once; the rest wait: a, a (a's bound is 2), then b, b.
  const all = [job('a', 0), job('a', 1), job('a', 2)];
  await rejectsWith(t, pool.run({ echo: 'a3' }, 'a'), WorkerPoolBusyError, 'a third waiting job of one key is refused');
  all.push(job('b', 0), job('b', 1));
  await rejectsWith(t, pool.run({ echo: 'c0' }, 'c'), WorkerPoolBusyError, 'past the bound in all');
  await Promise.all(all);
  t.same(order, ['a0', 'a1', 'b0', 'a2', 'b1'], 'waiting keys take turns');
});

t.test('close rejects what waits and what runs', async (t) => {
  const pool = createWorkerPool<In, unknown>({ file: FILE, size: 1, timeoutMs: 60_000, maxQueue: 4, maxQueuePerKey: 4 });
  const running = rejectsWith(t, pool.run({ spin: true }), WorkerPoolClosedError, 'the running job');
  const waiting = rejectsWith(t, pool.run({ echo: 1 }), WorkerPoolClosedError, 'the waiting job');
  await pool.close();
  await Promise.all([running, waiting]);
  await rejectsWith(t, pool.run({ echo: 2 }), WorkerPoolClosedError);
});

t.test('GUARDRAIL_WORKERS and GUARDRAIL_EVALUATION_TIMEOUT_MS are checked at boot', async (t) => {
  const base = { MONGODB_URI: 'mongodb://x', REDIS_URL: 'redis://x', ...TEST_SECRETS };
  t.match(loadConfig({}, base), { GUARDRAIL_WORKERS: 2, GUARDRAIL_EVALUATION_TIMEOUT_MS: 5000 }, 'defaults: 2 workers, 5 s');
  t.match(loadConfig({ GUARDRAIL_WORKERS: '4', GUARDRAIL_EVALUATION_TIMEOUT_MS: '20000' }, base), { GUARDRAIL_WORKERS: 4, GUARDRAIL_EVALUATION_TIMEOUT_MS: 20000 });
  for (const bad of ['0', '17', 'two']) t.throws(() => loadConfig({ GUARDRAIL_WORKERS: bad }, base), /Configuration error: GUARDRAIL_WORKERS is invalid/, `refuses GUARDRAIL_WORKERS="${bad}"`);
  t.throws(() => loadConfig({ GUARDRAIL_EVALUATION_TIMEOUT_MS: '5' }, base), /GUARDRAIL_EVALUATION_TIMEOUT_MS is invalid/);
});
