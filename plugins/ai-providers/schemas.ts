// TypeBox schemas of the AI-provider routes (SPEC "AI providers, chat, credentials").
import { Type, type Static } from 'typebox';
import { Nullable } from '../../core/schemas.ts';

export const AI_PROVIDERS = ['provider_a', 'provider_b'] as const;
export type AiProvider = (typeof AI_PROVIDERS)[number];
const Provider = Type.Union([Type.Literal('provider_a'), Type.Literal('provider_b')]);

export const SetAiProvider = Type.Object({
  provider: Provider,
  model: Type.Optional(Type.String({ minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9._:/-]+$' })),
});
export type SetAiProvider = Static<typeof SetAiProvider>;
export const AiProviderView = Type.Object({ provider: Provider, model: Type.String(), hasCustomKey: Type.Boolean() });
export type AiProviderView = Static<typeof AiProviderView>;

export const SaveKey = Type.Object({ apiKey: Type.String({ minLength: 8, maxLength: 500, pattern: '^[\\x21-\\x7E]+$' }) });
export type SaveKey = Static<typeof SaveKey>;
export const KeyStatus = Type.Object({ hasKey: Type.Boolean(), keyPrefix: Nullable(Type.String({ description: 'Masked: the first characters and the last 4' })) });
export type KeyStatus = Static<typeof KeyStatus>;
export const KeyVerify = Type.Object({
  valid: Type.Boolean(),
  model: Type.String(),
  error: Type.Optional(Type.String({ description: 'Why the key was not accepted (no key, refused by the provider, provider unreachable)' })),
});
export type KeyVerify = Static<typeof KeyVerify>;
