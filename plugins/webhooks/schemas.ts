// TypeBox schemas of the webhook and chat routes (SPEC "Webhooks", "AI providers, chat,
// credentials"), with their Static types beside them.
import { Type, type Static } from 'typebox';
import { WEBHOOK_EVENTS } from '../../core/event-catalog.ts';
import { Nullable, Timestamp } from '../../core/schemas.ts';

export const CHAT_EVENTS = ['scan_completed', 'drift_detected', 'drift_resolved'] as const;

const HttpsUrl = Type.String({ maxLength: 2048, pattern: '^https://', description: 'An https URL whose host resolves to public addresses only' });
const EventName = Type.Unsafe<(typeof WEBHOOK_EVENTS)[number]>(Type.Union(WEBHOOK_EVENTS.map((e) => Type.Literal(e))));
const Events = Type.Array(EventName, { minItems: 1, maxItems: WEBHOOK_EVENTS.length, uniqueItems: true, description: 'Events of the spec\'s list this webhook receives' });
const Secret = Type.String({ minLength: 8, maxLength: 256, description: 'Signs each delivery (X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>)' });

export const CreateWebhook = Type.Object({
  url: HttpsUrl,
  events: Events,
  secret: Type.Optional(Secret),
  active: Type.Optional(Type.Boolean({ default: true })),
});
export type CreateWebhook = Static<typeof CreateWebhook>;

export const UpdateWebhook = Type.Object({
  url: Type.Optional(HttpsUrl),
  events: Type.Optional(Events),
  secret: Type.Optional(Nullable(Secret)),
  active: Type.Optional(Type.Boolean()),
});
export type UpdateWebhook = Static<typeof UpdateWebhook>;

export const DeliveryStatus = Type.Union([Type.Literal('pending'), Type.Literal('delivered'), Type.Literal('failed')]);

export const WebhookView = Type.Object({
  _id: Type.String(),
  url: Type.String(),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  secret: Nullable(Type.String({ description: 'Masked: ******** and the last 4 characters' })),
  lastDelivery: Nullable(Type.Object({ status: DeliveryStatus, timestamp: Timestamp })),
  createdAt: Timestamp,
});
export type WebhookView = Static<typeof WebhookView>;
export const WebhookList = Type.Object({ webhooks: Type.Array(WebhookView) });

export const SendResult = Type.Object({
  success: Type.Boolean(),
  statusCode: Nullable(Type.Integer()),
  responseTime: Nullable(Type.Integer({ description: 'Milliseconds' })),
  message: Type.String(),
  error: Type.Optional(Type.String({ description: 'Why the send failed: unreachable, timeout, refused by the SSRF guard, or the answer status' })),
});
export type SendResult = Static<typeof SendResult>;

export const ChatBody = Type.Object({
  webhookUrl: HttpsUrl,
  channel: Type.Optional(Type.String({ maxLength: 80 })),
  events: Type.Optional(Type.Array(Type.Unsafe<(typeof CHAT_EVENTS)[number]>(Type.Union(CHAT_EVENTS.map((e) => Type.Literal(e)))), { uniqueItems: true, maxItems: CHAT_EVENTS.length })),
  enabled: Type.Optional(Type.Boolean({ default: true })),
});
export type ChatBody = Static<typeof ChatBody>;

export const ChatView = Type.Object({
  enabled: Type.Boolean(),
  webhookUrl: Nullable(Type.String({ description: 'Masked' })),
  channel: Nullable(Type.String()),
  events: Type.Array(Type.String()),
});
export type ChatView = Static<typeof ChatView>;
export const Message = Type.Object({ message: Type.String() });
