// Outbound webhooks (SPEC "Webhooks": /api/webhooks, Enterprise, named keys) and the chat
// incoming webhook (SPEC "AI providers, chat, credentials": /api/auth/chat). One plugin,
// because both send through the same SSRF guard, outbox and retries (docs/integrations.md).
// Reads need integrations:read; changes and test sends need integrations:write.
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { IdParams } from '../core/schemas.ts';
import { ChatBody, ChatView, CreateWebhook, Message, SendResult, UpdateWebhook, WebhookList, WebhookView } from '../plugins/webhooks/schemas.ts';

const read = { auth: 'bearer', orgContext: true, permission: 'integrations:read' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', orgContext: true, permission: 'integrations:write' } as const satisfies Partial<RouteSpec>;
const hooks = { plan: 'enterprise' } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'webhooks',
  prefix: '/api',
  reply: 'named',
  description: 'Signed outbound webhooks and chat notifications, delivered through a durable outbox with retries',
  routes: [
    { id: 'listWebhooks', method: 'GET', url: '/webhooks', ...read, ...hooks,
      summary: "The organization's webhooks (secrets masked)", response: { 200: WebhookList }, handler: 'list' },
    { id: 'createWebhook', method: 'POST', url: '/webhooks', ...write, ...hooks, audit: 'webhook.created',
      summary: 'A webhook: an https URL whose host resolves to public addresses only, and the events it receives',
      body: CreateWebhook, response: { 201: WebhookView }, handler: 'create' },
    { id: 'updateWebhook', method: 'PUT', url: '/webhooks/:id', ...write, ...hooks, audit: 'webhook.updated',
      summary: 'Changes url, events, secret (null removes it) or active', params: IdParams, body: UpdateWebhook, response: { 200: WebhookView }, handler: 'update' },
    { id: 'deleteWebhook', method: 'DELETE', url: '/webhooks/:id', ...write, ...hooks, audit: 'webhook.deleted',
      summary: 'Deletes the webhook and its pending deliveries', params: IdParams, response: { 204: null }, handler: 'remove' },
    { id: 'testWebhook', method: 'POST', url: '/webhooks/:id/test', ...write, ...hooks, audit: 'webhook.tested',
      summary: 'Sends a test event at once; success false with error when unreachable, timed out, refused by the SSRF guard or answered non-2xx',
      params: IdParams, response: { 200: SendResult }, handler: 'test' },
    { id: 'getChatSettings', method: 'GET', url: '/auth/chat', ...read,
      summary: 'Chat notification settings (URL masked)', response: { 200: ChatView }, handler: 'getChat' },
    { id: 'putChatSettings', method: 'PUT', url: '/auth/chat', ...write, audit: 'chat.updated',
      summary: 'Saves the chat incoming-webhook URL (https, SSRF guard), channel and events', body: ChatBody, response: { 200: ChatView }, handler: 'putChat' },
    { id: 'deleteChatSettings', method: 'DELETE', url: '/auth/chat', ...write, audit: 'chat.deleted',
      summary: 'Removes the chat settings', response: { 200: Message }, handler: 'removeChat' },
    { id: 'testChat', method: 'POST', url: '/auth/chat/test', ...write, audit: 'chat.tested',
      summary: 'Sends one test message and reports the answer', response: { 200: SendResult }, handler: 'testChat' },
  ],
});
