// The payment provider's client: the `stripe` library for every call (issue 13). STRIPE_API_BASE
// points it elsewhere (tests: stripe-mock, or a loopback front answering as Stripe's API does).
import Stripe from 'stripe';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../core/config.ts';
import { AppError } from '../../core/errors.ts';
import type { Plan } from '../../core/plans.ts';

/** Stripe's documented default signature tolerance, and the spec's: five minutes. */
export const SIGNATURE_TOLERANCE_S = 300;

/** Client options for an API base such as http://127.0.0.1:12111 (host, port and protocol). */
export function clientOptions(apiBase: string | undefined): Stripe.StripeConfig {
  // No retries: a provider failure is answered at once (500), and the webhook's sender retries.
  const base: Stripe.StripeConfig = { maxNetworkRetries: 0, timeout: 10_000, telemetry: false, appInfo: { name: 'drift-service' } };
  if (!apiBase) return base;
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { ...base, host: url.hostname, port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443, protocol };
}

/** The price map of the configuration: price id -> plan. */
export function priceMap(cfg: Config): Map<string, Plan> {
  const map = new Map<string, Plan>();
  if (cfg.STRIPE_PRICE_PRO) map.set(cfg.STRIPE_PRICE_PRO, 'pro');
  if (cfg.STRIPE_PRICE_TEAM) map.set(cfg.STRIPE_PRICE_TEAM, 'team');
  if (cfg.STRIPE_PRICE_ENTERPRISE) map.set(cfg.STRIPE_PRICE_ENTERPRISE, 'enterprise');
  return map;
}

export interface Provider {
  /** The API client, or null without STRIPE_SECRET_KEY. */
  api: Stripe | null;
  /** Verifies and parses an event (throws on any failure); null without STRIPE_WEBHOOK_SECRET. */
  verify: ((rawBody: string, header: string) => Stripe.Event) | null;
}

export function createProvider(cfg: Config): Provider {
  const options = clientOptions(cfg.STRIPE_API_BASE);
  const api = cfg.STRIPE_SECRET_KEY ? new Stripe(cfg.STRIPE_SECRET_KEY, options) : null;
  // Signature checks need no key and make no call: a client without one still verifies.
  const verifier = api ?? new Stripe('sk_unconfigured', options);
  const secret = cfg.STRIPE_WEBHOOK_SECRET;
  return {
    api,
    verify: secret ? (raw, header) => verifier.webhooks.constructEvent(raw, header, secret, SIGNATURE_TOLERANCE_S) : null,
  };
}

export const notConfigured = () => new AppError('billing.not_configured');

/** A provider failure as the spec's 500, logged with the provider's request id. */
export function providerFailure(log: FastifyBaseLogger, message: string, err: unknown, facts: Record<string, unknown> = {}): AppError {
  const e = err as { requestId?: string; type?: string; statusCode?: number; code?: string; message?: string };
  log.error({ ...facts, providerRequestId: e.requestId ?? null, providerErrorType: e.type, providerStatus: e.statusCode, providerCode: e.code, providerMessage: e.message }, message);
  return new AppError('billing.provider_failed', { message });
}

/** The provider answered that the object does not exist (not a failure of the provider). */
export const isMissing = (err: unknown) => {
  const e = err as { type?: string; statusCode?: number; code?: string };
  return e.type === 'StripeInvalidRequestError' && (e.statusCode === 404 || e.code === 'resource_missing');
};

/** An id field that may be expanded into its object. */
export const idOf = (v: string | { id: string } | null | undefined): string | null => (typeof v === 'string' ? v : v?.id ?? null);
