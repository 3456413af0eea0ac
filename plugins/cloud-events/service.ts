// Cloud events: `ce_` tokens, ingestion of CloudTrail records, the event list, the noise rules
// and the retention purge. No HTTP here. The cause and noise notes on a scan's drifts are in
// annotate.ts, the targeted re-checks in checks.ts.
import type { AppContext } from '../../core/context.ts';
import { newId, randomToken, sha256Hex } from '../../core/crypto.ts';
import { AppError, notFound } from '../../core/errors.ts';
import { bearerToken, type Principal } from '../../core/guards/principal.ts';
import { pageOf } from '../../core/schemas.ts';
import { PLANS, type Plan } from '../../core/plans.ts';
import { classify, MAX_RECORDS, recordsOf, type ParsedEvent } from './cloudtrail.ts';
import type { Checks } from './checks.ts';
import type { CloudEvent, CloudEventStore, EventToken, NoiseRule } from './store.ts';
import type { EventQuery } from './schemas.ts';

const TOUCH_EVERY_MS = 60_000;
const DAY_MS = 86_400_000;
export const RETENTION_JOB = 'cloud-events.retention';
export const TOKEN_PREFIX = 'ce_';

const tokenView = (t: EventToken) => ({ id: t._id, name: t.name, prefix: t.prefix, createdAt: t.createdAt, lastUsedAt: t.lastUsedAt ?? null });
const eventView = (e: CloudEvent) => ({
  id: e._id, eventId: e.eventId, eventTime: e.eventTime, eventName: e.eventName, eventSource: e.eventSource, awsRegion: e.awsRegion,
  recipientAccountId: e.recipientAccountId, userIdentity: e.userIdentity, sourceIPAddress: e.sourceIPAddress, userAgent: e.userAgent,
  errorCode: e.errorCode, resourceIds: e.resourceIds, receivedAt: e.receivedAt,
});
const ruleView = (r: NoiseRule) => ({ id: r._id, resourceType: r.resourceType, attribute: r.attribute, observations: r.observations, learnedAt: r.learnedAt, enabled: r.enabled });

interface Deps {
  store: CloudEventStore;
  checks: Checks | null;
  /** Days kept per plan: the audit trail's (plugins/audit-logs), so one setting governs both. */
  retentionDays: Record<Plan, number>;
}

export function createCloudEventService(ctx: AppContext, d: Deps) {
  const { store } = d;
  const tokenCache = ctx.caches.create<EventToken>('cloud-events-token', (hash) => store.tokenByHash(hash), { ttlMs: 30_000 });
  const touched = new Map<string, number>();

  // `ce_` tokens: read only on routes whose manifest says auth 'cloud-events' (the ingestion
  // route); every other route's kinds (JWT, CLI) refuse them as an invalid token.
  ctx.provideCredential('cloud-events', async (req) => {
    const token = bearerToken(req);
    if (!token?.startsWith(TOKEN_PREFIX)) return undefined;
    const record = await tokenCache.get(sha256Hex(token));
    if (!record) throw new AppError('invalid_token', { message: 'Invalid or revoked cloud events token' });
    const now = Date.now();
    if ((touched.get(record._id) ?? 0) < now - TOUCH_EVERY_MS) {
      touched.set(record._id, now);
      void ctx.once.claimFor(`cloud-events-touch:${record._id}`, TOUCH_EVERY_MS)
        .then((won) => (won ? store.touchToken(record._id, new Date(now)) : undefined))
        .catch((err: unknown) => ctx.log.warn({ err }, 'cloud events token lastUsedAt not written'));
    }
    const principal: Principal = { kind: 'cloud-events', platformRole: 'user', orgId: record.orgId, tokenId: record._id };
    return principal;
  });

  return {
    async createToken(orgId: string, name: string, userId: string | null) {
      const token = randomToken(TOKEN_PREFIX);
      const record: EventToken = { _id: newId(), orgId, name, prefix: token.slice(0, 10), hash: sha256Hex(token), createdBy: userId, createdAt: new Date(), lastUsedAt: null };
      await store.insertToken(record);
      return { id: record._id, name, prefix: record.prefix, token, createdAt: record.createdAt };
    },
    listTokens: async (orgId: string) => (await store.listTokens(orgId)).map(tokenView),
    async revokeToken(orgId: string, id: string) {
      const removed = await store.removeToken(orgId, id);
      if (!removed) throw notFound('Cloud events token');
      // Every process drops its cached copy at once (core/cache.ts invalidation over Redis).
      await tokenCache.invalidate(removed.hash);
    },

    /**
     * One batch: every record is read before anything is stored, so a batch with one bad record
     * stores nothing (400 naming the record and the problem). Read-only calls are counted and
     * dropped; write calls are inserted unordered, a duplicate eventID refused by the unique index.
     */
    async ingest(orgId: string, body: unknown) {
      const records = recordsOf(body);
      if (records.length > MAX_RECORDS) {
        throw new AppError('payload_too_large', { message: `At most ${MAX_RECORDS} records per request; this one has ${records.length}`, details: { max: MAX_RECORDS, received: records.length } });
      }
      let readOnly = 0; let ignored = 0;
      const writes = new Map<string, ParsedEvent>();
      let repeated = 0;
      records.forEach((item, i) => {
        const c = classify(item, i);
        if (c.kind === 'readOnly') readOnly += 1;
        else if (c.kind === 'ignored') ignored += 1;
        else if (writes.has(c.event.eventId)) repeated += 1; // the same eventID twice in one batch
        else writes.set(c.event.eventId, c.event);
      });
      const receivedAt = new Date();
      const docs: CloudEvent[] = [...writes.values()].map((e) => ({ ...e, _id: newId(), orgId, receivedAt }));
      const duplicate = await store.insertEvents(orgId, docs);
      const stored = docs.filter((e) => !duplicate.has(e.eventId));
      // The events are stored: a failure to queue their re-checks is logged, not the batch's
      // (a retry would find them duplicates); the config's next scan reads the resources anyway.
      if (d.checks && stored.length) {
        await d.checks.queue(orgId, stored, receivedAt).catch((err: unknown) => ctx.log.error({ err, orgId }, 'cloud events: targeted re-checks not queued'));
      }
      return { accepted: stored.length, duplicates: duplicate.size + repeated, readOnly, ignored };
    },

    async list(orgId: string, q: EventQuery) {
      const { rows, total } = await store.page(orgId, {
        resourceId: q.resourceId, actor: q.actor, eventName: q.eventName,
        from: q.from ? new Date(q.from) : undefined, to: q.to ? new Date(q.to) : undefined,
      }, (q.page - 1) * q.limit, q.limit);
      return pageOf(rows.map(eventView), q, total);
    },

    /** Learned rules only (candidates still counting observations are not listed). */
    noiseRules: async (orgId: string) => (await store.rulesOf(orgId)).filter((r) => r.learnedAt).map(ruleView),
    async setNoiseRule(orgId: string, id: string, enabled: boolean) {
      const rule = await store.ruleOf(orgId, id);
      if (!rule || !rule.learnedAt) throw notFound('Noise rule');
      const after = await store.setRuleEnabled(orgId, id, enabled, new Date());
      if (!after) throw notFound('Noise rule');
      return ruleView(after);
    },

    /** Retention like the audit trail's: events received longer ago than the organization's plan keeps them. */
    async purge(now = new Date()) {
      const longest = Math.max(...PLANS.map((p) => d.retentionDays[p]));
      let deleted = await store.purge(null, new Date(now.getTime() - longest * DAY_MS));
      for (const plan of PLANS) {
        if (d.retentionDays[plan] >= longest) continue;
        const ids = await ctx.tenancy.orgIdsOnPlan(plan);
        for (let i = 0; i < ids.length; i += 500) deleted += await store.purge(ids.slice(i, i + 500), new Date(now.getTime() - d.retentionDays[plan] * DAY_MS));
      }
      await store.purgeChecks(new Date(now.getTime() - DAY_MS));
      return deleted;
    },
    removeOrg: (orgId: string) => store.removeOrg(orgId),
  };
}
export type CloudEventService = ReturnType<typeof createCloudEventService>;
