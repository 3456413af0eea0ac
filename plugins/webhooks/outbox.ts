// The durable outbox of outbound webhooks and chat messages (docs/integrations.md).
//
//  1. When an event happens, one delivery record per subscribed active webhook (and one for
//     the chat settings, when they take the event) is inserted in one command, before anything
//     is sent: a process dying after the event loses nothing.
//  2. A job (`webhooks.deliver`, and an in-process drain started right after an insert) reads
//     the due deliveries and claims each one's next attempt by inserting `<id>:<attempt>` into
//     webhook_attempts (unique _id): of several processes exactly one sends a given attempt.
//  3. The outcome is written on the delivery: delivered, or a retry after 1, 5, 30 and 120
//     minutes (WEBHOOK_RETRY_SECONDS), or failed after the 4th failed retry.
//  4. After 10 consecutive failed deliveries (counted from the delivery records since the
//     webhook was last activated) the webhook is deactivated and the deactivation audited.
//  A process that dies after claiming an attempt and before recording it leaves the claim
//  without an outcome: after STALE_CLAIM_MS one process (unique key `<id>:<attempt>:abandoned`)
//  counts that attempt as failed, so the next attempt follows the schedule; no attempt is
//  ever sent twice.
import type { AppContext } from '../../core/context.ts';
import { newId, randomToken } from '../../core/crypto.ts';
import { WEBHOOK_EVENTS, type DomainEventData, type DomainEventName } from '../../core/event-catalog.ts';
import type { Outbound } from './outbound.ts';
import { CHAT_EVENT_OF, chatMessage } from './chat.ts';
import { createAttempts, poolBy, type Outcome } from './attempts.ts';
import { dayOf, type Delivery, type DeliveryStatus, type WebhookStore } from './store.ts';

export const DELIVER_JOB = 'webhooks.deliver';
export const CONSECUTIVE_FAILURES_TO_DEACTIVATE = 10;
/**
 * Attempts claimed and not yet recorded, at most, per worker: a killed worker leaves at most this
 * many in flight. Two pipelined batches of STEP (one being sent, the previous one being recorded).
 */
export const BATCH = 200;
const STEP = BATCH / 2;
/** Due deliveries read at once (claimed STEP at a time: a row read is not yet claimed). */
const READ = 4 * STEP;
/** Sends in flight per worker, and per receiver origin (a slow receiver holds no more than its share). */
const CONCURRENCY = 40;
const PER_RECEIVER = 2;
/** How often a long run writes the webhooks' lastDelivery (and at its end). */
const LAST_DELIVERY_EVERY_MS = 5000;

interface Last { orgId: string; status: DeliveryStatus; failedForGood: boolean }

export type WebhookEventName = (typeof WEBHOOK_EVENTS)[number];

export interface Envelope { id: string; event: string; timestamp: string; organization: { id: string; name: string }; data: unknown }

export { signatureOf } from './attempts.ts';

/** `ms`: wall time spent per step (the bench's profile of where a delivery's time goes); `record` overlaps the next batch's steps, `wait` is the time the loop waited for it. */
export interface RunStats { attempts: number; delivered: number; retried: number; failed: number; abandoned: number; ms: Record<'read' | 'claim' | 'send' | 'record' | 'wait' | 'hooks', number> }

export function createOutbox(ctx: AppContext, store: WebhookStore, outbound: Outbound) {
  const delays = ctx.config.WEBHOOK_RETRY_SECONDS.split(',').map((s) => Number(s) * 1000);
  // Longer than any attempt can take (the timeout), so a claim this old has no live holder.
  const staleClaimMs = ctx.config.WEBHOOK_TIMEOUT_MS * 3 + 5000;

  const envelope = (event: string, org: { id: string; name: string }, data: unknown, at: Date): Envelope =>
    ({ id: randomToken('evt_', 16), event, timestamp: at.toISOString(), organization: org, data });

  const { send, nextState, targets, headersFor } = createAttempts(ctx, store, outbound, delays);

  /** Writes the deliveries of one event (step 1); answers how many. */
  async function enqueue<K extends WebhookEventName>(event: K, orgId: string, data: DomainEventData<K>, at = new Date()): Promise<number> {
    const hooks = await store.subscribed(orgId, event);
    const chatEvent = (CHAT_EVENT_OF as Record<string, string>)[event];
    const chat = chatEvent ? await store.chat(orgId) : null;
    const chatWants = !!chat && chat.enabled && chat.events.includes(chatEvent);
    if (!hooks.length && !chatWants) return 0;
    const org = await ctx.tenancy.org(orgId);
    const env = envelope(event, { id: orgId, name: org?.name ?? '' }, data, at);
    const body = JSON.stringify(env);
    const base = { orgId, eventId: env.id, event, status: 'pending' as const, attempts: 0, nextAt: at, lastStatusCode: null, lastError: null, lastResponse: null, lastResponseTime: null, createdAt: at, completedAt: null };
    const rows: Delivery[] = hooks.map((h) => ({ _id: newId(), target: 'webhook', targetId: h._id, body, ...base }));
    const message = chatWants ? chatMessage(event, data, ctx.config.FRONTEND_URL, chat!.channel) : null;
    if (message) rows.push({ _id: newId(), target: 'chat', targetId: orgId, body: JSON.stringify(message), ...base });
    await store.enqueue(rows);
    return rows.length;
  }

  /** Step 4, for the webhooks that just had a delivery fail for good. */
  async function deactivateAfterFailures(orgId: string, webhookId: string, now: Date): Promise<void> {
    const hook = await store.get(orgId, webhookId);
    if (!hook || !hook.active) return;
    const last = await store.lastCompleted(orgId, webhookId, hook.activatedAt ?? hook.createdAt, CONSECUTIVE_FAILURES_TO_DEACTIVATE);
    if (last.length < CONSECUTIVE_FAILURES_TO_DEACTIVATE || last.some((d) => d.status !== 'failed')) return;
    // One deactivation (and one audit entry) per run of failures, whichever process sees it.
    if (!(await ctx.once.claim(`webhook-deactivated:${webhookId}:${last[0]._id}`, orgId))) return;
    await store.update(orgId, webhookId, { active: false, updatedAt: now });
    await ctx.audit.write({
      orgId, action: 'webhook.deactivated', userId: null, actorName: 'system', actorKind: 'system',
      method: 'JOB', route: DELIVER_JOB, resourceType: 'webhooks', resourceId: webhookId, statusCode: 200,
      details: { reason: `${CONSECUTIVE_FAILURES_TO_DEACTIVATE} consecutive failed deliveries`, url: hook.url, lastDeliveryIds: last.map((d) => d._id) },
      ipAddress: '', userAgent: null,
    });
    ctx.log.warn({ orgId, webhookId }, 'webhook deactivated after consecutive failed deliveries');
  }

  /** Writes the webhooks' lastDelivery (one update per webhook), and deactivates after failures. */
  async function writeLast(lastOf: Map<string, Last>, now: Date): Promise<void> {
    for (const [id, l] of lastOf) {
      await store.setLastDelivery(l.orgId, id, { status: l.status, timestamp: now });
      if (l.failedForGood) await deactivateAfterFailures(l.orgId, id, now);
    }
    lastOf.clear();
  }

  /**
   * Steps 2 to 4 for every delivery due at `now`; tests pass a moved clock. Due deliveries are
   * read READ at a time (first attempts by equality, and at the run's start or while they fill a
   * read, due retries), the next read running while a batch is claimed and sent. Per batch of
   * STEP: one claim insert, side by side with one read of each organization's webhooks, the sends
   * (keep-alive connections, CONCURRENCY in flight, at most PER_RECEIVER per receiver), then the
   * outcomes: ended ones as an insert and a delete per event, retries as updates. The outcomes of
   * batch N are written while batch N+1 is claimed and sent (a two-stage pipeline): at most two
   * batches, BATCH attempts, are claimed and not yet recorded, which is what a killed worker
   * sends again. lastDelivery is written every LAST_DELIVERY_EVERY_MS of a run and at its end.
   */
  async function runDue(now = new Date()): Promise<RunStats> {
    const stats: RunStats = { attempts: 0, delivered: 0, retried: 0, failed: 0, abandoned: 0, ms: { read: 0, claim: 0, send: 0, record: 0, wait: 0, hooks: 0 } };
    let mark = performance.now();
    const lap = (k: keyof RunStats['ms']) => { const t = performance.now(); stats.ms[k] += t - mark; mark = t; };
    const seen = new Set<string>();
    const key = (d: Delivery) => `${d._id}:${d.attempts}`;
    const lastOf = new Map<string, Last>();
    let lastWritten = performance.now();
    let readRetries = true;
    // The previous batch's outcomes being written (stage 2 of the pipeline).
    let recording: Promise<void> = Promise.resolve();
    let inRecord = 0;
    // Rows read and not yet claimed: one read serves several batches (a read costs per row
    // returned, and every read also returns the batch being recorded).
    const queue: Delivery[] = [];
    let reading: Promise<Delivery[]> | null = null;
    /** Due deliveries; `unrecorded`: this worker's claimed rows still pending, which the read returns too (`seen`). */
    async function readDue(unrecorded: number): Promise<Delivery[]> {
      const retries: Delivery[] = readRetries ? await store.retries(now, delays.length, READ) : [];
      readRetries = retries.length === READ;
      return retries.length < READ ? [...retries, ...(await store.firsts(READ + unrecorded))] : retries;
    }

    /** Writes one batch's outcomes; then (only then) they count for lastDelivery and deactivation. */
    async function record(outcomes: Outcome[]): Promise<void> {
      const started = performance.now();
      const states = outcomes.map((o) => ({ o, set: nextState(o, now) }));
      const retry = states.filter(({ set }) => set.status === 'pending');
      await Promise.all([
        store.recordRetries(retry.map(({ o, set }) => ({ id: o.d._id, attempt: o.d.attempts, set }))),
        store.recordEnded(states.filter(({ set }) => set.status !== 'pending').map(({ o, set }) => ({ ...o.d, ...set, completedDay: dayOf(now) }))),
      ]);
      for (const { o, set } of states) {
        if (set.status === 'delivered') stats.delivered += 1;
        else if (set.status === 'failed') stats.failed += 1;
        else stats.retried += 1;
        if (o.d.target !== 'webhook') continue;
        const prev = lastOf.get(o.d.targetId);
        lastOf.set(o.d.targetId, { orgId: o.d.orgId, status: o.error ? 'failed' : 'delivered', failedForGood: (prev?.failedForGood ?? false) || set.status === 'failed' });
      }
      stats.ms.record += performance.now() - started;
    }

    try {
      for (;;) {
        if (queue.length < STEP) {
          for (const d of await (reading ?? readDue(inRecord + queue.length))) {
            if (d.nextAt > now || seen.has(key(d))) continue;
            seen.add(key(d));
            queue.push(d);
          }
          reading = null;
        }
        const rows = queue.splice(0, STEP);
        lap('read');
        if (!rows.length) break;
        // The next read runs while this batch (and the one left queued) is claimed and sent (a read
        // is not a claim: it holds nothing). It also returns every row of ours still pending.
        if (!reading && queue.length <= STEP) {
          reading = readDue(inRecord + rows.length + queue.length);
          reading.catch(() => undefined);
        }
        // Where they go is read while they are claimed (for every row read; the ones lost are not sent).
        const [won, where] = await Promise.all([store.claim(rows.map((d) => ({ orgId: d.orgId, deliveryId: d._id, attempt: d.attempts })), now), targets(rows)]);
        lap('claim');
        const mine = rows.filter((d) => won.has(d._id));
        const outcomes: Outcome[] = [];
        // Claims held by another process: given up only when their holder is presumed dead.
        for (const d of rows.filter((r) => !won.has(r._id))) {
          // The delivery still shows this attempt as not made, so no outcome of it was recorded.
          const a = await store.attempt(d._id, d.attempts);
          if (a && a.claimedAt.getTime() < now.getTime() - staleClaimMs && (await store.claimAbandoned(d.orgId, d._id, d.attempts, now))) {
            outcomes.push({ d, statusCode: null, error: 'The sending process stopped during this attempt', response: null, responseTime: null });
            stats.abandoned += 1;
          }
        }
        const originOf = (d: Delivery) => { const w = where.get(d._id)!; return typeof w === 'string' ? '' : new URL(w.url).origin; };
        outcomes.push(...(await poolBy(mine, CONCURRENCY, PER_RECEIVER, originOf, (d) => send(d, where.get(d._id)!))));
        lap('send');
        stats.attempts += mine.length;
        // The previous batch is recorded before this one starts recording (and before the next claim).
        await recording;
        lap('wait');
        if (performance.now() - lastWritten >= LAST_DELIVERY_EVERY_MS) {
          await writeLast(lastOf, now);
          lastWritten = performance.now();
          lap('hooks');
        }
        inRecord = outcomes.length;
        recording = outcomes.length ? record(outcomes) : Promise.resolve();
        // Awaited at the next batch or the end; marked handled so a failure meanwhile is not an unhandled rejection.
        recording.catch(() => undefined);
      }
    } finally {
      await recording;
    }
    lap('wait');
    await writeLast(lastOf, now);
    lap('hooks');
    return stats;
  }

  // The in-process drain after an insert (when this process is a delivery worker).
  let draining: Promise<void> | null = null;
  let again = false;
  function kick(): void {
    if (!ctx.config.WEBHOOK_WORKER) return;
    if (draining) { again = true; return; }
    draining = (async () => {
      do {
        again = false;
        await runDue(new Date());
      } while (again);
    })().catch((err: unknown) => ctx.log.error({ err }, 'webhook delivery run failed')).finally(() => { draining = null; });
  }

  return {
    enqueue, runDue, kick, headersFor,
    envelope,
    /** Waits for the in-process drain (shutdown). */
    idle: async () => { while (draining) await draining; },
  };
}
export type Outbox = ReturnType<typeof createOutbox>;
export type { DomainEventName };
