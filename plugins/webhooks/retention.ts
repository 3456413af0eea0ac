// Retention of the outbox (docs/integrations.md "Retention"): ended deliveries (delivered,
// failed) and attempt keys are deleted WEBHOOK_RETENTION_DAYS after the UTC day they ended or
// were claimed. The purge deletes whole days by equality (`completedDay`, `claimedDay`), which
// the embedded database pushes down; a range on a date would read every record into FerretDB.
// Records written before the day fields existed are purged by their dates (purgeUndated), a
// read of the candidates into FerretDB, done by each process's purges only until one finds no
// undated record left (at most the retention after the upgrade: a younger one waits its turn).
import type { AppContext } from '../../core/context.ts';
import { dayOf, type WebhookStore } from './store.ts';

export const PURGE_JOB = 'webhooks.purge';
export const PURGE_EVERY = '1 hour';
const DAY_MS = 24 * 60 * 60 * 1000;
/**
 * Days before the cutoff each purge looks at: older days were emptied by earlier purges (the job
 * runs hourly), so a purge is a bounded number of commands however much history there is.
 */
export const LOOKBACK_DAYS = 14;

export function createRetention(ctx: AppContext, store: WebhookStore) {
  // Whether undated records may still exist (true until a purge of this process finds none).
  let undated = true;
  return {
    /**
     * Deletes the records of every whole UTC day that ended more than the retention ago: a
     * record is kept at least WEBHOOK_RETENTION_DAYS, at most a day more. Idempotent.
     */
    async purge(now = new Date()): Promise<{ deliveries: number; attempts: number }> {
      const cutoff = now.getTime() - ctx.config.WEBHOOK_RETENTION_DAYS * DAY_MS;
      const days = Array.from({ length: LOOKBACK_DAYS }, (_, i) => dayOf(new Date(cutoff - (i + 1) * DAY_MS)));
      const purged = await store.purgeDays(days);
      if (undated) {
        // The same bound as the days': whatever ended before the cutoff's UTC day.
        const old = await store.purgeUndated(new Date(`${dayOf(new Date(cutoff))}T00:00:00.000Z`));
        purged.deliveries += old.deliveries;
        purged.attempts += old.attempts;
        undated = old.left;
      }
      return purged;
    },
  };
}
export type Retention = ReturnType<typeof createRetention>;
