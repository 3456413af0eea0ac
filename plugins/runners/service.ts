// Runner records, their `rn_` tokens and liveness. The token is the runner's only
// credential: stored as a hash, shown at creation and regeneration, and a regenerated or
// deleted runner's old token stops working at once in every process (cache invalidation).
import type { AppContext } from '../../core/context.ts';
import { newId, randomToken, sha256Hex } from '../../core/crypto.ts';
import { AppError, notFound } from '../../core/errors.ts';
import type { Page } from '../../core/schemas.ts';
import { pageWindow } from '../../core/schemas.ts';
import type { Principal } from '../../core/guards/principal.ts';
import type { Runner, RunnerStore } from './store.ts';
import { SYSTEM_INFO_MAX_BYTES, systemInfoOf, type CreateRunner, type Heartbeat, type UpdateRunner } from './schemas.ts';
import { namedChanges } from '../../core/db.ts';

export const SWEEP_JOB = 'runners.mark-stale-offline';
/** A heartbeat that changes nothing is written at most this often (heartbeats are a hot path). */
const HEARTBEAT_WRITE_EVERY_MS = 15_000;

export const runnerView = (r: Runner) => ({
  _id: r._id, name: r.name, labels: r.labels, status: r.status, version: r.version,
  lastHeartbeat: r.lastHeartbeat?.toISOString() ?? null, jobsCompleted: r.jobsCompleted,
  systemInfo: r.systemInfo, tokenPrefix: r.tokenPrefix, createdAt: r.createdAt.toISOString(), providerPlans: r.providerPlans ?? null,
});

/** What happens to the scans a runner holds when it goes offline or is deleted (jobs.ts failHeld: back to pending). */
export type FailHeld = (gone: Pick<Runner, '_id' | 'orgId' | 'name'>[], why: 'went offline' | 'was deleted') => Promise<number>;

/** Runners by token hash, cached in every process (a regenerated or deleted runner's entry is invalidated everywhere). */
export const createTokenCache = (ctx: AppContext, store: RunnerStore) =>
  ctx.caches.create<Runner>('runner-token', (hash) => store.byTokenHash(hash), { ttlMs: 30_000 });
export type TokenCache = ReturnType<typeof createTokenCache>;

const badToken = () => new AppError('invalid_token', { message: 'Invalid runner token' });
const principalOf = (runner: Runner): Principal => ({ kind: 'runner', runnerId: runner._id, orgId: runner.orgId, platformRole: 'user' });

/** The sealed copy names its runner, so a value copied onto another runner does not open. */
export const sealToken = (ctx: AppContext, runnerId: string, token: string) => ctx.sealer.seal(JSON.stringify({ runnerId, token }));
export function openToken(ctx: AppContext, runner: Runner): string | null {
  if (!runner.tokenSealed) return null;
  const { runnerId, token } = JSON.parse(ctx.sealer.open(runner.tokenSealed)) as { runnerId: string; token: string };
  return runnerId === runner._id ? token : null;
}

/**
 * The runner's credentials: X-Runner-Token on the agent's routes, and the same token in ?token=
 * on the install script and agent package links (curl).
 */
function provideRunnerCredentials(ctx: AppContext, store: RunnerStore, byToken: TokenCache) {
  ctx.provideCredential('runner', async (req) => {
    const token = req.headers['x-runner-token'];
    if (typeof token !== 'string' || !token) return undefined;
    const runner = token.startsWith('rn_') ? await byToken.get(sha256Hex(token)) : null;
    if (!runner) throw badToken();
    return principalOf(runner);
  });
  // The install script and agent package links (curl): the runner token in ?token=. The engine
  // checks that a link naming a :runnerId is opened with that runner's token.
  ctx.provideCredential('runner-link', async (req) => {
    const token = (req.query as { token?: unknown } | undefined)?.token;
    if (token === undefined || token === '') return undefined;
    const runner = typeof token === 'string' && token.startsWith('rn_') ? await store.byTokenHash(sha256Hex(token)) : null;
    if (!runner) throw badToken();
    return principalOf(runner);
  });
}

export function createRunnerService(ctx: AppContext, store: RunnerStore, byToken: TokenCache, failHeld: FailHeld) {
  const offlineAfterMs = ctx.config.RUNNER_OFFLINE_AFTER * 1000;

  provideRunnerCredentials(ctx, store, byToken);

  async function mustGet(orgId: string, id: string) {
    const runner = await store.get(orgId, id);
    if (!runner) throw notFound('Runner');
    return runner;
  }

  const newToken = (runnerId: string) => {
    const token = randomToken('rn_');
    return { token, tokenHash: sha256Hex(token), tokenPrefix: token.slice(0, 10), tokenSealed: sealToken(ctx, runnerId, token) };
  };

  return {
    byToken,
    /** Runners online or busy, every organization (admin dashboard). */
    countActive: () => store.countWithStatus(['online', 'busy']),
    async create(orgId: string, userId: string | null, input: CreateRunner) {
      const _id = newId();
      const { token, tokenHash, tokenPrefix, tokenSealed } = newToken(_id);
      const runner: Runner = {
        _id, orgId, name: input.name, labels: input.labels, status: 'offline', version: null, lastHeartbeat: null,
        jobsCompleted: 0, systemInfo: null, tokenHash, tokenPrefix, tokenSealed, createdAt: new Date(), createdBy: userId,
      };
      await store.insert(runner);
      return { ...runnerView(runner), token };
    },
    async list(orgId: string, page: Page) {
      const { skip, limit } = pageWindow(page);
      const [rows, total] = await Promise.all([store.list(orgId, skip, limit), store.count(orgId)]);
      return { runners: rows.map(runnerView), total };
    },
    get: async (orgId: string, id: string) => runnerView(await mustGet(orgId, id)),
    async update(orgId: string, id: string, input: UpdateRunner) {
      const runner = await store.update(orgId, id, namedChanges({ name: input.name, labels: input.labels }));
      if (!runner) throw notFound('Runner');
      await byToken.invalidate(runner.tokenHash);
      return runnerView(runner);
    },
    async remove(orgId: string, id: string) {
      const runner = await store.remove(orgId, id);
      if (!runner) throw notFound('Runner');
      await byToken.invalidate(runner.tokenHash);
      await failHeld([runner], 'was deleted');
    },
    async regenerateToken(orgId: string, id: string) {
      const old = await mustGet(orgId, id);
      const { token, tokenHash, tokenPrefix, tokenSealed } = newToken(id);
      await store.update(orgId, id, { tokenHash, tokenPrefix, tokenSealed });
      await byToken.invalidate(old.tokenHash);
      return { _id: id, token, tokenPrefix };
    },
    async markOffline(orgId: string, id: string) {
      const runner = await store.update(orgId, id, { status: 'offline' });
      if (!runner) throw notFound('Runner');
      await byToken.invalidate(runner.tokenHash);
      await failHeld([runner], 'went offline');
      return runnerView(runner);
    },
    /**
     * Writes when the status, version or plan binary changed, or the last write is older than the throttle
     * window. systemInfo changes on every beat (load, free memory), so it alone does not force a
     * write: it is refreshed with the next one, at most every HEARTBEAT_WRITE_EVERY_MS.
     */
    async heartbeat(orgId: string, tokenRunnerId: string, tokenHash: string, beat: Heartbeat) {
      if (beat.systemInfo !== undefined && JSON.stringify(beat.systemInfo).length > SYSTEM_INFO_MAX_BYTES) {
        throw new AppError('validation_failed', {
          message: `body/systemInfo must be at most ${SYSTEM_INFO_MAX_BYTES} bytes as JSON`,
          details: [{ path: 'body/systemInfo', message: `must be at most ${SYSTEM_INFO_MAX_BYTES} bytes as JSON` }],
        });
      }
      const cached = await byToken.get(tokenHash);
      const now = new Date();
      // Each heartbeat states the plan binary anew: absent (an agent older than it) is none.
      const providerPlans = beat.providerPlans ? { binary: beat.providerPlans.binary, version: beat.providerPlans.version } : null;
      const unchanged = cached && cached._id === tokenRunnerId && cached.status === beat.status
        && (beat.version === undefined || cached.version === beat.version)
        && JSON.stringify(cached.providerPlans ?? null) === JSON.stringify(providerPlans)
        && cached.lastHeartbeat && now.getTime() - cached.lastHeartbeat.getTime() < HEARTBEAT_WRITE_EVERY_MS;
      if (unchanged) return { changed: false, status: beat.status, lastHeartbeat: cached.lastHeartbeat!.toISOString() };
      const set: Pick<Runner, 'status' | 'lastHeartbeat'> & Partial<Pick<Runner, 'version' | 'systemInfo' | 'providerPlans'>> = { status: beat.status, lastHeartbeat: now, providerPlans };
      if (beat.version !== undefined) set.version = beat.version;
      if (beat.systemInfo !== undefined) set.systemInfo = systemInfoOf(beat.systemInfo as Record<string, unknown>);
      await store.recordHeartbeat(orgId, tokenRunnerId, set);
      // Drop the local copy so the next beat sees this write (other processes keep theirs
      // until it expires: they only decide whether to write, never what a read shows).
      byToken.clearLocal(tokenHash);
      return { changed: cached?.status !== beat.status, status: beat.status, lastHeartbeat: now.toISOString() };
    },
    /**
     * Online or busy runners silent for RUNNER_OFFLINE_AFTER go offline, and the scans they
     * held go back to pending for another runner (their leases ended with the heartbeats:
     * plugins/scans/lease.ts). Idempotent: a second sweep finds neither the runners nor their jobs.
     */
    async sweep(now = new Date()) {
      const stale = await store.stale(new Date(now.getTime() - offlineAfterMs));
      if (!stale.length) return [];
      const byOrg = new Map<string, string[]>();
      for (const r of stale) byOrg.set(r.orgId, [...(byOrg.get(r.orgId) ?? []), r._id]);
      for (const [orgId, runnerIds] of byOrg) await store.markOffline(orgId, runnerIds);
      for (const r of stale) await byToken.invalidate(r.tokenHash);
      await failHeld(stale, 'went offline');
      for (const [orgId, runnerIds] of byOrg) await ctx.bus.emit('runner.offline', orgId, { runnerIds });
      return stale;
    },
  };
}
export type RunnerService = ReturnType<typeof createRunnerService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { runners: RunnerService }
}
