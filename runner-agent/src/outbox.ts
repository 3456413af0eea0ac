// Job reports are written here before they are sent and removed only after the service
// answered 2xx, so a server outage or an agent restart loses nothing: delivery resumes, in
// order, on the next flush. One JSON file per report, written to a temporary name and renamed
// (a crash never leaves half a report). The service's jobs/status is idempotent, so a report
// sent twice (answered, but the answer lost) changes nothing.
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApiError } from './api.ts';

export interface JobReport {
  jobId: string;
  status: 'running' | 'completed' | 'failed' | 'cancelled';
  result?: { drifts: unknown[]; resourcesScanned?: number; stats?: Record<string, unknown>; inventory?: unknown[] };
  error?: string;
}

export interface Outbox {
  add(report: JobReport): Promise<void>;
  /** Reports not yet delivered, oldest first. */
  pending(): Promise<{ file: string; report: JobReport }[]>;
  /**
   * Sends every pending report in order. A report the service refuses for good (4xx other than
   * 401/408/429: the job is not this runner's any more, or the report is malformed) is dropped
   * with a warning; a retryable failure stops the flush and is thrown, keeping the rest queued.
   */
  flush(send: (r: JobReport) => Promise<unknown>, warn: (msg: string) => void): Promise<number>;
}

export async function createOutbox(stateDir: string): Promise<Outbox> {
  const dir = path.join(stateDir, 'outbox');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  let seq = 0;
  const name = (r: JobReport) => `${String(Date.now()).padStart(15, '0')}-${String(seq++).padStart(6, '0')}-${r.jobId}-${r.status}.json`;

  async function pending() {
    const files = (await readdir(dir)).filter((f) => f.endsWith('.json')).sort();
    const out: { file: string; report: JobReport }[] = [];
    for (const file of files) {
      try {
        out.push({ file, report: JSON.parse(await readFile(path.join(dir, file), 'utf8')) as JobReport });
      } catch {
        await rename(path.join(dir, file), path.join(dir, `${file}.unreadable`)); // kept for the operator, not retried forever
      }
    }
    return out;
  }

  return {
    async add(report) {
      const file = path.join(dir, name(report));
      await writeFile(`${file}.tmp`, JSON.stringify(report), { mode: 0o600 });
      await rename(`${file}.tmp`, file);
    },
    pending,
    async flush(send, warn) {
      let sent = 0;
      for (const { file, report } of await pending()) {
        try {
          await send(report);
        } catch (err) {
          if (!(err instanceof ApiError) || err.retryable) throw err;
          warn(`dropping the ${report.status} report of job ${report.jobId}: ${err.message}`);
        }
        await rm(path.join(dir, file), { force: true });
        sent++;
      }
      return sent;
    },
  };
}
