// Targeted re-checks: a stored write event on a resource that repository configs manage (the
// managed inventory their scans record, scans.managedBy) queues, per (config, resource), one
// pending check due after the debounce window; further events on that resource while it is
// pending change nothing (the unique pending key). When due, the check job gathers the config's
// due checks into one scan of only their addresses (scans.triggerEvent: the Scan rate limit,
// the scans-per-day limit, the executor or a runner). An event on a resource no config manages
// is stored and queues nothing.
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import type { ScanService } from '../scans/service.ts';
import { PENDING, type CloudEvent, type CloudEventStore, type PendingCheck } from './store.ts';

export const CHECK_JOB = 'cloud-events.check';
export const DEFAULT_DEBOUNCE_SECONDS = 60;

type Scans = Pick<ScanService, 'triggerEvent' | 'managedBy'>;

export function createChecks(ctx: AppContext, store: CloudEventStore, scans: Scans, debounceMs: number) {
  return {
    /** Queues the checks the stored events call for; answers how many new ones. */
    async queue(orgId: string, events: CloudEvent[], now = new Date()): Promise<number> {
      const writes = events.filter((e) => !e.errorCode && e.resourceIds.length);
      if (!writes.length) return 0;
      const managed = await scans.managedBy(orgId, [...new Set(writes.flatMap((e) => e.resourceIds))]);
      if (!managed.size) return 0;
      const dueAt = new Date(now.getTime() + debounceMs);
      const byKey = new Map<string, PendingCheck>();
      for (const e of writes) {
        for (const resourceId of e.resourceIds) {
          for (const m of managed.get(resourceId) ?? []) {
            const key = `${m.repositoryConfigId}|${resourceId}`;
            const check = byKey.get(key) ?? {
              _id: newId(), orgId, repositoryConfig: m.repositoryConfigId, resourceId, addresses: [], eventId: e.eventId,
              dueAt, pendingKey: PENDING, createdAt: now,
            };
            if (!check.addresses.includes(m.address)) check.addresses.push(m.address);
            byKey.set(key, check);
          }
        }
      }
      const docs = [...byKey.values()];
      const refused = await store.insertChecks(orgId, docs);
      const fresh = docs.filter((_, i) => !refused.has(i));
      // One job per config with new checks, when the window closes.
      for (const configId of new Set(fresh.map((c) => c.repositoryConfig))) {
        await ctx.scheduler.at(dueAt, CHECK_JOB, { orgId, repositoryConfigId: configId });
      }
      return fresh.length;
    },

    /**
     * The check job: the config's checks due by `now`, as one targeted scan. Exactly once per set
     * of checks (the claim is keyed by the first check's id); when the Scan rate limit refuses
     * it, the claim is given back and the job planned again when a point frees.
     */
    async run(orgId: string, repositoryConfigId: string, now = new Date()) {
      const due = (await store.pendingOf(orgId, repositoryConfigId, now)).sort((a, b) => a._id.localeCompare(b._id));
      if (!due.length) return null;
      const key = `cloud-events-check:${due[0]._id}`;
      if (!(await ctx.once.claim(key, orgId))) return null;
      const first = [...due].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime())[0];
      const trigger = {
        eventId: first.eventId,
        resourceIds: [...new Set(due.map((c) => c.resourceId))],
        addresses: [...new Set(due.flatMap((c) => c.addresses))],
      };
      const out = await scans.triggerEvent(orgId, repositoryConfigId, trigger);
      if ('retryAfterMs' in out) {
        await ctx.once.release(key);
        await ctx.scheduler.at(new Date(Date.now() + out.retryAfterMs), CHECK_JOB, { orgId, repositoryConfigId });
        return out;
      }
      await store.markRan(orgId, due.map((c) => c._id), 'scan' in out ? out.scan._id : `skipped-${due[0]._id}`);
      return out;
    },
  };
}
export type Checks = ReturnType<typeof createChecks>;
