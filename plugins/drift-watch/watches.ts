// Watches themselves: create, read, change (one or many), snooze and unsnooze, remove, and the
// accepted baseline. Every change that moves a watch's times reschedules its runs (its due minute).
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { badRequest, conflict, notFound } from '../../core/errors.ts';
import { pageCount } from '../../core/schemas.ts';
import { SNOOZE_JOB, SNOOZE_MS, type WatchDeps } from './watch-jobs.ts';
import type { WatchRuns } from './runs.ts';
import { watchView, type BulkUpdate, type CreateWatch, type UpdateWatch } from './schemas.ts';
import type { SnoozeDuration, Watch } from './store.ts';

/** The fields of a create body that PATCH and bulk-update may change. */
const CREATE_FIELDS = ['name', 'repositoryId', 'workspace', 'interval', 'notifyOn', 'filters'] as const;

export function createWatches(ctx: AppContext, d: WatchDeps, schedule: WatchRuns['schedule']) {
  const { store } = d;

  async function load(orgId: string, id: string) {
    const w = await store.get(orgId, id);
    if (!w) throw notFound('Watch');
    return w;
  }
  /** repositoryId must name a repository config of the organization: unknown or another's is 404. */
  async function mustBeConfig(orgId: string, repositoryId: string) {
    if (!(await d.configs.find(orgId, repositoryId))) throw notFound('Repository config');
  }

  async function insertWatch(orgId: string, userId: string | null, input: CreateWatch) {
    await mustBeConfig(orgId, input.repositoryId);
    const now = new Date();
    const w: Watch = {
      _id: newId(), orgId, name: input.name, repositoryId: input.repositoryId, workspace: input.workspace ?? 'default',
      status: 'active', interval: input.interval, notifyOn: input.notifyOn ?? 'drift', filters: input.filters ?? {},
      snoozedUntil: null, snoozeReason: null, lastRun: null, lastRunStatus: null, lastScanId: null, lastError: null,
      driftCount: 0, createdBy: userId, createdAt: now, updatedAt: now,
    };
    await store.insert(w);
    await schedule(w);
    return watchView(w);
  }

  async function remove(orgId: string, id: string) {
    if (!(await store.remove(orgId, id))) throw notFound('Watch');
    await ctx.scheduler.cancel({ name: SNOOZE_JOB, data: { watchId: id } });
    await store.removeWatchRuns(orgId, id);
  }

  return {
    insertWatch,
    remove,
    /** The repository config is deleted: its watches go (their jobs stop at their next tick). */
    async removeOfRepository(orgId: string, repositoryId: string) {
      for (const w of await store.ofRepository(orgId, repositoryId)) await remove(orgId, w._id);
    },
    async list(orgId: string, q: { status?: Watch['status']; repositoryId?: string; page: number; limit: number }) {
      const { rows, total } = await store.page(orgId, { status: q.status, repositoryId: q.repositoryId }, (q.page - 1) * q.limit, q.limit);
      return { watches: rows.map(watchView), total, page: q.page, pages: pageCount(total, q.limit) };
    },
    get: async (orgId: string, id: string) => watchView(await load(orgId, id)),
    create: (orgId: string, userId: string | null, input: CreateWatch) => insertWatch(orgId, userId, input),

    async update(orgId: string, id: string, input: UpdateWatch) {
      const w = await load(orgId, id);
      if (input.repositoryId && input.repositoryId !== w.repositoryId) await mustBeConfig(orgId, input.repositoryId);
      const now = new Date();
      const set: Partial<Watch> = { updatedAt: now };
      for (const k of CREATE_FIELDS) {
        if (input[k] !== undefined) (set as Record<string, unknown>)[k] = input[k];
      }
      if (input.status) Object.assign(set, { status: input.status, snoozedUntil: null, snoozeReason: null });
      if (Object.keys(set).length === 1) throw badRequest(`Give at least one of ${CREATE_FIELDS.join(', ')}, status`);
      const after = await store.update(orgId, id, set);
      if (!after) throw notFound('Watch');
      if (input.interval !== undefined || input.status !== undefined) await schedule(after);
      return watchView(after);
    },

    async bulkUpdate(orgId: string, input: BulkUpdate) {
      const u = input.updates;
      const fields = Object.fromEntries(CREATE_FIELDS.filter((k) => u[k] !== undefined).map((k) => [k, u[k]]));
      // Other fields were stripped (engine-wide); what is left must change something.
      if (!Object.keys(fields).length) throw badRequest(`updates must hold at least one of ${CREATE_FIELDS.join(', ')}`);
      if (u.repositoryId) await mustBeConfig(orgId, u.repositoryId);
      const set = { ...fields, updatedAt: new Date() } as Partial<Watch>;
      const updated = await store.updateMany(orgId, input.ids, set);
      if (u.interval) for (const w of await store.some(orgId, input.ids)) await schedule(w);
      return { updated };
    },

    async snooze(orgId: string, id: string, input: { duration: SnoozeDuration; reason?: string }, now = new Date()) {
      await load(orgId, id);
      const snoozedUntil = new Date(now.getTime() + SNOOZE_MS[input.duration]);
      const after = await store.update(orgId, id, { status: 'snoozed', snoozedUntil, snoozeReason: input.reason ?? null, updatedAt: now });
      if (!after) throw notFound('Watch');
      // Runs go on while snoozed (a paused watch snoozed resumes running, silently).
      await schedule(after);
      await ctx.scheduler.at(snoozedUntil, SNOOZE_JOB, { orgId, watchId: id });
      return watchView(after);
    },
    async unsnooze(orgId: string, id: string, now = new Date()) {
      const w = await load(orgId, id);
      if (w.status !== 'snoozed') throw conflict(`Only a snoozed watch can be unsnoozed; this one is ${w.status}`);
      const after = await store.update(orgId, id, { status: 'active', snoozedUntil: null, snoozeReason: null, updatedAt: now });
      if (!after) throw notFound('Watch');
      return watchView(after);
    },

    /** The drifts open on the watch's repository become its accepted baseline (status unchanged). */
    async accept(orgId: string, id: string, userId: string) {
      const w = await load(orgId, id);
      const accepted = await d.drifts.acceptOpen(orgId, w.repositoryId, userId);
      await store.update(orgId, id, { driftCount: 0, updatedAt: new Date() });
      return { message: `${accepted} ${accepted === 1 ? 'drift' : 'drifts'} accepted as the baseline`, accepted, audit: { watchId: id, repositoryId: w.repositoryId, accepted } };
    },
  };
}
