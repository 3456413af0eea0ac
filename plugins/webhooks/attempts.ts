// One attempt of a delivery (docs/integrations.md): where it goes (read once per batch), the
// signed POST, and the delivery's next state (delivered, a retry on the schedule, or failed).
import type { AppContext } from '../../core/context.ts';
import { hmacHex } from '../../core/crypto.ts';
import type { Outbound } from './outbound.ts';
import { failureReason } from './outbound.ts';
import type { Delivery, WebhookStore } from './store.ts';

export const signatureOf = (secret: string, body: string) => `sha256=${hmacHex(secret, body)}`;

export interface Target { url: string; secret: string | null }
export interface Outcome { d: Delivery; statusCode: number | null; error: string | null; response: string | null; responseTime: number | null }

/**
 * Runs fn over the items, at most `total` at a time and at most `perKey` of one key (a
 * receiver's origin) at a time; answers in the items' order.
 */
export async function poolBy<T, R>(items: T[], total: number, perKey: number, keyOf: (item: T) => string, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  const queues = new Map<string, number[]>();
  items.forEach((item, i) => {
    const k = keyOf(item);
    const q = queues.get(k);
    if (q) q.push(i); else queues.set(k, [i]);
  });
  let free = total;
  const waiting: (() => void)[] = [];
  const acquire = async () => { while (free <= 0) await new Promise<void>((r) => waiting.push(r)); free -= 1; };
  const release = () => { free += 1; waiting.shift()?.(); };
  await Promise.all([...queues.values()].flatMap((q) => Array.from({ length: Math.min(perKey, q.length) }, async () => {
    while (q.length) {
      const i = q.shift()!;
      await acquire();
      try {
        results[i] = await fn(items[i]);
      } finally {
        release();
      }
    }
  })));
  return results;
}

/** `delays`: the retry schedule (WEBHOOK_RETRY_SECONDS), in milliseconds. */
export function createAttempts(ctx: AppContext, store: WebhookStore, outbound: Outbound, delays: number[]) {
  const headersFor = (d: Pick<Delivery, '_id' | 'event' | 'eventId' | 'attempts'>, body: string, secret: string | null): Record<string, string> => ({
    'x-service-event': d.event,
    // The envelope's id, the same on every attempt of every delivery of the event: receivers deduplicate by it.
    'x-service-event-id': d.eventId,
    'x-service-delivery': d._id,
    'x-service-attempt': String(d.attempts),
    ...(secret ? { 'x-service-signature': signatureOf(secret, body) } : {}),
  });


  async function send(d: Delivery, target: Target | string): Promise<Outcome> {
    if (typeof target === 'string') return { d, statusCode: null, error: target, response: null, responseTime: null };
    try {
      const res = await outbound.post(target.url, d.body, d.target === 'webhook' ? headersFor(d, d.body, target.secret) : {});
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return { d, statusCode: res.statusCode, error: ok ? null : `The receiver answered ${res.statusCode}`, response: res.body, responseTime: res.responseTime };
    } catch (err) {
      return { d, statusCode: null, error: failureReason(err, ctx.config.WEBHOOK_TIMEOUT_MS), response: null, responseTime: null };
    }
  }

  function nextState(o: Outcome, now: Date): Partial<Delivery> {
    const attempt = o.d.attempts;
    const common = { attempts: attempt + 1, lastStatusCode: o.statusCode, lastError: o.error, lastResponse: o.response, lastResponseTime: o.responseTime };
    if (!o.error) return { ...common, status: 'delivered', completedAt: now };
    if (attempt >= delays.length) return { ...common, status: 'failed', completedAt: now };
    return { ...common, status: 'pending', nextAt: new Date(now.getTime() + delays[attempt]) };
  }

  /**
   * Where each delivery goes, read once per batch (one read of each organization's webhooks, each
   * secret opened once): a URL and secret, or why it cannot be sent.
   */
  async function targets(rows: Delivery[]): Promise<Map<string, Target | string>> {
    const out = new Map<string, Target | string>();
    const hooks = new Map<string, Map<string, Target | string>>();
    const chats = new Map<string, Target | string>();
    for (const d of rows) {
      if (d.target === 'webhook') {
        let of = hooks.get(d.orgId);
        if (!of) {
          of = new Map((await store.all(d.orgId)).map((h) => [h._id, h.active ? { url: h.url, secret: h.secret ? ctx.sealer.open(h.secret) : null } : 'The webhook is inactive']));
          hooks.set(d.orgId, of);
        }
        out.set(d._id, of.get(d.targetId) ?? 'The webhook no longer exists');
      } else {
        if (!chats.has(d.orgId)) {
          const c = await store.chat(d.orgId);
          chats.set(d.orgId, !c || !c.enabled ? 'Chat notifications are not configured' : { url: ctx.sealer.open(c.webhookUrl), secret: null });
        }
        out.set(d._id, chats.get(d.orgId)!);
      }
    }
    return out;
  }

  return { send, nextState, targets, headersFor };
}
