// One attempt of a delivery (docs/integrations.md): where it goes (read once per batch), the
// signed POST, and the delivery's next state (delivered, a retry on the schedule, or failed).
import type { AppContext } from '../../core/context.ts';
import { hmacHex } from '../../core/crypto.ts';
import type { Outbound } from './outbound.ts';
import { failureReason } from './outbound.ts';
import type { ChatSettings, Delivery, Webhook, WebhookStore } from './store.ts';

export const signatureOf = (secret: string, body: string) => `sha256=${hmacHex(secret, body)}`;

export interface Outcome { d: Delivery; statusCode: number | null; error: string | null; response: string | null; responseTime: number | null }

/** Runs fn over the items, at most n at a time, answers in the items' order. */
export async function pool<T, R>(items: T[], n: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: Math.min(n, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  }));
  return results;
}

/** `delays`: the retry schedule (WEBHOOK_RETRY_SECONDS), in milliseconds. */
export function createAttempts(ctx: AppContext, store: WebhookStore, outbound: Outbound, delays: number[]) {
  const headersFor = (d: Pick<Delivery, '_id' | 'event' | 'attempts'>, body: string, secret: string | null): Record<string, string> => ({
    'x-service-event': d.event,
    'x-service-delivery': d._id,
    'x-service-attempt': String(d.attempts),
    ...(secret ? { 'x-service-signature': signatureOf(secret, body) } : {}),
  });


  async function send(d: Delivery, target: { url: string; secret: string | null } | string): Promise<Outcome> {
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

  /** Where each delivery goes, read once per batch: a URL and secret, or why it cannot be sent. */
  async function targets(rows: Delivery[]): Promise<Map<string, { url: string; secret: string | null } | string>> {
    const out = new Map<string, { url: string; secret: string | null } | string>();
    const hooks = new Map<string, Webhook | null>();
    const chats = new Map<string, ChatSettings | null>();
    for (const d of rows) {
      if (d.target === 'webhook') {
        if (!hooks.has(d.targetId)) hooks.set(d.targetId, await store.get(d.orgId, d.targetId));
        const h = hooks.get(d.targetId);
        if (!h) out.set(d._id, 'The webhook no longer exists');
        else if (!h.active) out.set(d._id, 'The webhook is inactive');
        else out.set(d._id, { url: h.url, secret: h.secret ? ctx.sealer.open(h.secret) : null });
      } else {
        if (!chats.has(d.orgId)) chats.set(d.orgId, await store.chat(d.orgId));
        const c = chats.get(d.orgId);
        if (!c || !c.enabled) out.set(d._id, 'Chat notifications are not configured');
        else out.set(d._id, { url: ctx.sealer.open(c.webhookUrl), secret: null });
      }
    }
    return out;
  }

  return { send, nextState, targets, headersFor };
}
