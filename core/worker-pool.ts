// A small pool of worker threads for CPU-bound work that must not hold the request thread:
// each worker runs one job at a time; a job that runs past its time limit has its worker
// terminated (V8 stops it wherever it is, even in a tight loop) and replaced, and its caller
// gets a WorkerTimeoutError. Jobs wait in a bounded queue, taken in turn per key (an
// organization): one key's backlog delays another key's job by at most one job per worker.
// Past the bounds (in all, or for one key) the caller gets WorkerPoolBusyError at once.
// Workers start on the first job and never keep the process alive.
//
// The worker module posts {ready: true} once its imports are loaded, then answers each message
// with {ok: true, value} or {ok: false, message} (see plugins/guardrails/evaluate-worker.ts). A
// job's clock starts when its worker is ready: loading code is not the job's time.
import { Worker } from 'node:worker_threads';

export class WorkerTimeoutError extends Error {}
export class WorkerPoolBusyError extends Error {}
export class WorkerPoolClosedError extends Error {}

export interface WorkerPoolOptions {
  /** The worker module (a .ts file runs on Node's type stripping, as the service does). */
  file: URL;
  size: number;
  /** A job's limit, from the moment its worker receives it (time in the queue not counted). */
  timeoutMs: number;
  /** Jobs that may wait for a worker, in all and per key; one more is refused. */
  maxQueue: number;
  maxQueuePerKey: number;
}

export type WorkerReply<T> = { ok: true; value: T } | { ok: false; message: string };
type Message<T> = WorkerReply<T> | { ready: true };

interface Job<In, Out> { input: In; resolve(v: Out): void; reject(e: Error): void }
interface Slot<In, Out> { worker: Worker | null; ready: boolean; job: Job<In, Out> | null; timer: NodeJS.Timeout | null }

export interface WorkerPool<In, Out> {
  /** `key` names whose job it is (jobs of different keys are taken in turn). */
  run(input: In, key?: string): Promise<Out>;
  /** Jobs running now (a test watches it to know a job is in a worker). */
  readonly running: number;
  readonly queued: number;
  close(): Promise<void>;
}

export function createWorkerPool<In, Out>(opts: WorkerPoolOptions): WorkerPool<In, Out> {
  const slots: Slot<In, Out>[] = Array.from({ length: Math.max(1, opts.size) }, () => ({ worker: null, ready: false, job: null, timer: null }));
  // Waiting jobs per key; a Map keeps insertion order, so moving a key to the end after it
  // gave a job makes the keys take turns.
  const queue = new Map<string, Job<In, Out>[]>();
  let waiting = 0;
  let closed = false;

  function take(): Job<In, Out> | undefined {
    const first = queue.entries().next();
    if (first.done) return undefined;
    const [key, jobs] = first.value;
    const job = jobs.shift()!;
    queue.delete(key);
    if (jobs.length) queue.set(key, jobs);
    waiting--;
    return job;
  }

  /** Ends the slot's job (if any) and starts the next queued one on it. */
  function finish(slot: Slot<In, Out>, settle: (job: Job<In, Out>) => void) {
    const job = slot.job;
    if (slot.timer) clearTimeout(slot.timer);
    slot.job = null;
    slot.timer = null;
    if (job) settle(job);
    const next = take();
    if (next) start(slot, next);
  }

  /** Throws the slot's worker away (stopping whatever it runs); the next job starts a new one. */
  function discard(slot: Slot<In, Out>) {
    const w = slot.worker;
    slot.worker = null;
    if (w) void w.terminate();
  }

  function spawn(slot: Slot<In, Out>): Worker {
    const w = new Worker(opts.file);
    w.unref();
    slot.ready = false;
    w.on('message', (reply: Message<Out>) => {
      if (slot.worker !== w) return;
      if ('ready' in reply) {
        slot.ready = true;
        if (slot.job) arm(slot);
        return;
      }
      finish(slot, (job) => (reply.ok ? job.resolve(reply.value) : job.reject(new Error(reply.message))));
    });
    // A crash (an exception outside the job's handler, out of memory): the job fails, the worker is replaced.
    const lost = (err: Error) => {
      if (slot.worker !== w) return;
      slot.worker = null;
      finish(slot, (job) => job.reject(err));
    };
    w.on('error', lost);
    w.on('exit', (code) => lost(new Error(`The worker stopped (exit code ${code})`)));
    return w;
  }

  /** Starts the running job's clock. */
  function arm(slot: Slot<In, Out>) {
    slot.timer = setTimeout(() => {
      discard(slot);
      if (!closed) slot.worker = spawn(slot); // replaced now, so the next job does not wait for a start
      finish(slot, (j) => j.reject(new WorkerTimeoutError(`The job ran past ${opts.timeoutMs} ms and was stopped`)));
    }, opts.timeoutMs);
    slot.timer.unref();
  }

  function start(slot: Slot<In, Out>, job: Job<In, Out>) {
    slot.worker ??= spawn(slot);
    slot.job = job;
    if (slot.ready) arm(slot);
    // Posted now either way: a worker still loading receives it once it listens.
    try {
      slot.worker.postMessage(job.input);
    } catch (err) {
      // The input cannot be cloned (a function, a symbol): the caller's mistake, the worker is fine.
      finish(slot, (j) => j.reject(err as Error));
    }
  }

  return {
    run(input: In, key = '') {
      return new Promise<Out>((resolve, reject) => {
        if (closed) return reject(new WorkerPoolClosedError('The worker pool is closed'));
        const job = { input, resolve, reject };
        const idle = slots.find((s) => !s.job);
        if (idle) return start(idle, job);
        const mine = queue.get(key) ?? [];
        if (waiting >= opts.maxQueue || mine.length >= opts.maxQueuePerKey) {
          return reject(new WorkerPoolBusyError(`${slots.length} jobs are running and ${waiting} are waiting (${mine.length} of this key)`));
        }
        mine.push(job);
        queue.set(key, mine);
        waiting++;
      });
    },
    get running() { return slots.filter((s) => s.job).length; },
    get queued() { return waiting; },
    async close() {
      closed = true;
      for (const jobs of queue.values()) for (const job of jobs) job.reject(new WorkerPoolClosedError('The worker pool is closed'));
      queue.clear();
      waiting = 0;
      await Promise.all(slots.map(async (slot) => {
        const w = slot.worker;
        slot.worker = null;
        if (slot.timer) clearTimeout(slot.timer);
        slot.job?.reject(new WorkerPoolClosedError('The worker pool is closed'));
        slot.job = null;
        if (w) await w.terminate();
      }));
    },
  };
}
