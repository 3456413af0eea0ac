// Outbound webhooks (list, create, update, delete, test) and the chat settings (get, put,
// delete, test). Each URL passes the SSRF guard when saved and again at every send
// (outbound.ts); deliveries go through the outbox (outbox.ts).
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { badRequest, notFound } from '../../core/errors.ts';
import { namedChanges, type Changes } from '../../core/db.ts';
import { OutboundRefused, failureReason, type Outbound } from './outbound.ts';
import type { Outbox } from './outbox.ts';
import { testMessage } from './chat.ts';
import type { ChatSettings, Webhook, WebhookStore } from './store.ts';
import type { ChatBody, ChatView, CreateWebhook, SendResult, UpdateWebhook, WebhookView } from './schemas.ts';

/** At most this many webhooks per organization. */
export const MAX_WEBHOOKS = 20;

const maskSecret = (s: string) => `********${s.length >= 12 ? s.slice(-4) : ''}`;
/** A chat URL shows its origin and the last 4 characters of its path: the path is the secret. */
function maskUrl(raw: string): string {
  try {
    const u = new URL(raw);
    return `${u.origin}/****${u.pathname.length > 12 ? u.pathname.slice(-4) : ''}`;
  } catch {
    return '****';
  }
}

export const webhookView = (w: Webhook): WebhookView => ({
  _id: w._id, url: w.url, events: w.events, active: w.active, secret: w.secretMask,
  lastDelivery: w.lastDelivery ? { status: w.lastDelivery.status, timestamp: w.lastDelivery.timestamp.toISOString() } : null,
  createdAt: w.createdAt.toISOString(),
});

const chatView = (c: ChatSettings | null): ChatView => (c
  ? { enabled: c.enabled, webhookUrl: c.urlMask, channel: c.channel, events: c.events }
  : { enabled: false, webhookUrl: null, channel: null, events: [] });

export function createWebhookService(ctx: AppContext, store: WebhookStore, outbound: Outbound, outbox: Outbox) {
  async function guard(url: string): Promise<void> {
    try {
      await outbound.check(url);
    } catch (err) {
      if (err instanceof OutboundRefused) throw badRequest(err.message);
      throw err;
    }
  }
  async function load(orgId: string, id: string) {
    const w = await store.get(orgId, id);
    if (!w) throw notFound('Webhook');
    return w;
  }
  async function sendNow(url: string, body: string, headers: Record<string, string>, what: string): Promise<SendResult> {
    try {
      const res = await outbound.post(url, body, headers);
      const ok = res.statusCode >= 200 && res.statusCode < 300;
      return ok
        ? { success: true, statusCode: res.statusCode, responseTime: res.responseTime, message: `${what} delivered` }
        : { success: false, statusCode: res.statusCode, responseTime: res.responseTime, message: `${what} not delivered`, error: `The receiver answered ${res.statusCode}` };
    } catch (err) {
      return { success: false, statusCode: null, responseTime: null, message: `${what} not delivered`, error: failureReason(err, ctx.config.WEBHOOK_TIMEOUT_MS) };
    }
  }

  return {
    list: async (orgId: string) => ({ webhooks: (await store.list(orgId)).map(webhookView) }),
    async create(orgId: string, input: CreateWebhook) {
      await guard(input.url);
      if ((await store.count(orgId)) >= MAX_WEBHOOKS) throw badRequest(`An organization can have at most ${MAX_WEBHOOKS} webhooks`);
      const now = new Date();
      const w: Webhook = {
        _id: newId(), orgId, url: input.url, events: input.events, active: input.active ?? true,
        secret: input.secret ? ctx.sealer.seal(input.secret) : null, secretMask: input.secret ? maskSecret(input.secret) : null,
        lastDelivery: null, activatedAt: now, createdAt: now, updatedAt: now,
      };
      await store.insert(w);
      return webhookView(w);
    },
    async update(orgId: string, id: string, input: UpdateWebhook) {
      const w = await load(orgId, id);
      if (input.url !== undefined) await guard(input.url);
      const now = new Date();
      const set: Changes<Webhook> = namedChanges({ url: input.url, events: input.events, active: input.active, updatedAt: now });
      if (input.secret !== undefined) Object.assign(set, { secret: input.secret ? ctx.sealer.seal(input.secret) : null, secretMask: input.secret ? maskSecret(input.secret) : null });
      // Re-activation starts a new run: failures before it no longer count.
      if (input.active === true && !w.active) set.activatedAt = now;
      await store.update(orgId, id, set);
      return webhookView({ ...w, ...set });
    },
    async remove(orgId: string, id: string): Promise<void> {
      if (!(await store.remove(orgId, id))) throw notFound('Webhook');
      await store.removeWebhookData(orgId, id);
    },
    /** Sends a test event at once (not through the outbox) and reports the answer; never a 5xx. */
    async test(orgId: string, id: string): Promise<SendResult> {
      const w = await load(orgId, id);
      const org = await ctx.tenancy.org(orgId);
      const env = outbox.envelope('webhook.test', { id: orgId, name: org?.name ?? '' }, { webhookId: w._id, message: 'This is a test event' }, new Date());
      const body = JSON.stringify(env);
      const headers = outbox.headersFor({ _id: `test_${env.id}`, event: 'webhook.test', eventId: env.id, attempts: 0 }, body, w.secret ? ctx.sealer.open(w.secret) : null);
      return sendNow(w.url, body, headers, 'Test event');
    },

    getChat: async (orgId: string) => chatView(await store.chat(orgId)),
    async putChat(orgId: string, input: ChatBody) {
      await guard(input.webhookUrl);
      const saved = await store.putChat(orgId, {
        enabled: input.enabled ?? true, webhookUrl: ctx.sealer.seal(input.webhookUrl), urlMask: maskUrl(input.webhookUrl),
        channel: input.channel ?? null, events: input.events ?? ['scan_completed', 'drift_detected', 'drift_resolved'],
      });
      return chatView(saved);
    },
    async removeChat(orgId: string) {
      await store.removeChat(orgId);
      return { message: 'Chat settings removed' };
    },
    async testChat(orgId: string): Promise<SendResult> {
      const c = await store.chat(orgId);
      if (!c) throw notFound('Chat settings');
      const org = await ctx.tenancy.org(orgId);
      return sendNow(ctx.sealer.open(c.webhookUrl), JSON.stringify(testMessage(org?.name ?? '', c.channel)), {}, 'Test message');
    },
    /** Delivery history of one webhook (newest first): the outbox as its owner sees it. */
    async deliveries(orgId: string, id: string, limit = 20) {
      await load(orgId, id);
      return store.recent(orgId, id, limit);
    },
    removeOrg: (orgId: string) => store.removeOrg(orgId),
  };
}
export type WebhookService = ReturnType<typeof createWebhookService>;
