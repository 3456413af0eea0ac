// AI-provider settings and bring-your-own keys (SPEC "AI providers, chat, credentials", base
// /api/auth, B on all), per organization (x-org-id or the default). Keys are sealed at rest,
// never returned (GET shows hasKey and a masked keyPrefix), and redacted in the audit trail.
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { AiProviderView, KeyStatus, KeyVerify, SaveKey, SetAiProvider } from '../plugins/ai-providers/schemas.ts';

const read = { auth: 'bearer', orgContext: true, permission: 'integrations:read' } as const satisfies Partial<RouteSpec>;
const write = { auth: 'bearer', orgContext: true, permission: 'integrations:write' } as const satisfies Partial<RouteSpec>;

function keyRoutes<const L extends 'a' | 'b', const U extends 'A' | 'B'>(l: L, U: U, api: string) {
  const url = `/provider-${l}-api-key` as const;
  return [
    { id: `getProvider${U}ApiKey`, method: 'GET', url, ...read, summary: `Whether a provider ${l.toUpperCase()} key is saved, masked`, response: { 200: KeyStatus }, handler: `getKey${U}` },
    { id: `saveProvider${U}ApiKey`, method: 'POST', url, ...write, audit: `ai_key.provider_${l}_saved`, summary: `Saves (replaces) the organization's provider ${l.toUpperCase()} key, encrypted`, body: SaveKey, response: { 200: KeyStatus }, handler: `saveKey${U}` },
    { id: `deleteProvider${U}ApiKey`, method: 'DELETE', url, ...write, audit: `ai_key.provider_${l}_deleted`, summary: `Deletes the provider ${l.toUpperCase()} key`, response: { 200: KeyStatus }, handler: `deleteKey${U}` },
    { id: `verifyProvider${U}ApiKey`, method: 'POST', url: `${url}/verify`, ...write, audit: `ai_key.provider_${l}_verified`,
      summary: `Calls provider ${l.toUpperCase()} (${api}) with the saved key; a refused key is valid:false`, response: { 200: KeyVerify }, handler: `verifyKey${U}` },
  ] as const satisfies readonly RouteSpec[];
}

export default defineManifest({
  plugin: 'ai-providers',
  prefix: '/api/auth',
  reply: 'named',
  description: "The organization's AI provider, model and bring-your-own keys",
  routes: [
    { id: 'getAiProvider', method: 'GET', url: '/ai-provider', ...read, summary: 'The chosen provider and model, and whether it has a key', response: { 200: AiProviderView }, handler: 'get' },
    { id: 'setAiProvider', method: 'PUT', url: '/ai-provider', ...write, audit: 'ai_provider.updated',
      summary: 'Chooses the provider (provider_a, provider_b) and model (default per provider)', body: SetAiProvider, response: { 200: AiProviderView }, handler: 'set' },
    ...keyRoutes('a', 'A', 'chat completions'),
    ...keyRoutes('b', 'B', 'messages'),
  ],
});
