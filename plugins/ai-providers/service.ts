// AI-provider settings and bring-your-own keys per organization (SPEC "AI providers, chat,
// credentials"). Keys are sealed at rest and never returned; verify calls the provider:
// provider_a speaks OpenAI's chat-completions API, provider_b Anthropic's messages API, at
// AI_PROVIDER_A_URL / AI_PROVIDER_B_URL. A key the provider refuses is `valid:false`, never a 5xx.
import { readFileSync } from 'node:fs';
import { rootCertificates } from 'node:tls';
import { Agent, request } from 'undici';
import type { AppContext } from '../../core/context.ts';
import type { AiStore } from './store.ts';
import type { AiProvider, AiProviderView, KeyStatus, KeyVerify } from './schemas.ts';

export const DEFAULT_MODELS: Record<AiProvider, string> = { provider_a: 'gpt-4o-mini', provider_b: 'claude-3-5-haiku-latest' };
const VERIFY_TIMEOUT_MS = 15_000;

const maskKey = (key: string) => (key.length >= 20 ? `${key.slice(0, 7)}...${key.slice(-4)}` : '********');

/** What another plugin (AI fixes) reads: the organization's provider, model and key. */
export interface AiSettingsForOrg { provider: AiProvider; model: string; apiKey: string | null; baseUrl: string }

export function createAiService(ctx: AppContext, store: AiStore) {
  const ca = ctx.config.OUTBOUND_EXTRA_CA_FILE ? [...rootCertificates, readFileSync(ctx.config.OUTBOUND_EXTRA_CA_FILE, 'utf8')] : undefined;
  const agent = new Agent({ connect: ca ? { ca } : {} });
  const baseUrl = (p: AiProvider) => (p === 'provider_a' ? ctx.config.AI_PROVIDER_A_URL : ctx.config.AI_PROVIDER_B_URL).replace(/\/+$/, '');

  async function settings(orgId: string) {
    const s = await store.get(orgId);
    const provider = s?.provider ?? 'provider_a';
    return { s, provider, model: s?.model ?? DEFAULT_MODELS[provider] };
  }
  const view = async (orgId: string): Promise<AiProviderView> => {
    const { s, provider, model } = await settings(orgId);
    return { provider, model, hasCustomKey: !!s?.keys?.[provider] };
  };
  const status = async (orgId: string, provider: AiProvider): Promise<KeyStatus> => {
    const k = (await store.get(orgId))?.keys?.[provider];
    return { hasKey: !!k, keyPrefix: k?.prefix ?? null };
  };
  async function keyOf(orgId: string, provider: AiProvider): Promise<string | null> {
    const k = (await store.get(orgId))?.keys?.[provider];
    return k ? ctx.sealer.open(k.sealed) : null;
  }

  /** One minimal call with the key: 2xx valid; 401/403 (the provider refused the key) not. */
  async function callProvider(provider: AiProvider, apiKey: string, model: string): Promise<{ ok: boolean; model?: string; error?: string }> {
    const base = baseUrl(provider);
    const [url, headers, body] = provider === 'provider_a'
      ? [`${base}/v1/chat/completions`, { authorization: `Bearer ${apiKey}` }, { model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] }]
      : [`${base}/v1/messages`, { 'x-api-key': apiKey, 'anthropic-version': '2023-06-01' }, { model, max_tokens: 1, messages: [{ role: 'user', content: 'ping' }] }];
    try {
      const res = await request(url, {
        method: 'POST', dispatcher: agent, body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...headers }, signal: AbortSignal.timeout(VERIFY_TIMEOUT_MS),
      });
      const text = await res.body.text();
      let json: { model?: string; error?: { message?: string } } = {};
      try { json = JSON.parse(text); } catch { /* not JSON */ }
      if (res.statusCode >= 200 && res.statusCode < 300) return { ok: true, model: json.model };
      const reason = json.error?.message ?? `HTTP ${res.statusCode}`;
      if (res.statusCode === 401 || res.statusCode === 403) return { ok: false, error: `The provider refused the key: ${reason}` };
      return { ok: false, error: `The provider answered ${res.statusCode}: ${reason}` };
    } catch (err) {
      return { ok: false, error: `The provider is unreachable: ${(err as Error).name === 'TimeoutError' ? 'timed out' : ((err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message)}` };
    }
  }

  return {
    get: view,
    async set(orgId: string, provider: AiProvider, model: string | undefined) {
      await store.setProvider(orgId, provider, model ?? DEFAULT_MODELS[provider]);
      return view(orgId);
    },
    keyStatus: status,
    async saveKey(orgId: string, provider: AiProvider, apiKey: string) {
      await store.setKey(orgId, provider, { sealed: ctx.sealer.seal(apiKey), prefix: maskKey(apiKey), updatedAt: new Date() });
      return status(orgId, provider);
    },
    async deleteKey(orgId: string, provider: AiProvider) {
      await store.setKey(orgId, provider, null);
      return status(orgId, provider);
    },
    async verify(orgId: string, provider: AiProvider): Promise<KeyVerify> {
      const { provider: chosen, model: chosenModel } = await settings(orgId);
      const model = chosen === provider ? chosenModel : DEFAULT_MODELS[provider];
      const key = await keyOf(orgId, provider);
      if (!key) return { valid: false, model, error: 'No API key is saved for this provider' };
      const r = await callProvider(provider, key, model);
      return r.ok ? { valid: true, model: r.model ?? model } : { valid: false, model, error: r.error };
    },
    /** For other plugins (AI fixes): the organization's chosen provider, model, key (null: none) and API base. */
    async settingsFor(orgId: string): Promise<AiSettingsForOrg> {
      const { provider, model } = await settings(orgId);
      return { provider, model, apiKey: await keyOf(orgId, provider), baseUrl: baseUrl(provider) };
    },
    removeOrg: (orgId: string) => store.removeOrg(orgId),
    close: () => agent.close(),
  };
}
export type AiProviderService = ReturnType<typeof createAiService>;

declare module '../../core/plugin.ts' {
  interface PluginServices { 'ai-providers': AiProviderService }
}
