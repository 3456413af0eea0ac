// Billing (SPEC "Billing"): owner-only routes on the organization `x-org-id` selects, and the
// payment provider's webhook, which carries no bearer token and is verified by its signature
// (header `payment-signature`, Stripe's format). Plan changes are audited by the service as
// billing.plan_changed, so the webhook itself is not (an unauthenticated call has no actor).
import { defineManifest, type RouteSpec } from '../core/manifest.ts';
import { CheckoutBody, SubscriptionView, UrlView, VerifyBody, VerifyView, WebhookAck } from '../plugins/billing/schemas.ts';

const owner = { auth: 'bearer', ownerOnly: true } as const satisfies Partial<RouteSpec>;

export default defineManifest({
  plugin: 'billing',
  prefix: '/api/billing',
  reply: 'named',
  errors: { 503: 'Billing is not configured (billing.not_configured)' },
  description: 'Plans through the payment provider (Stripe): checkout, portal, verification and its events',
  routes: [
    { id: 'createCheckoutSession', method: 'POST', url: '/checkout-session', ...owner, audit: 'billing.checkout_started',
      summary: 'A Checkout Session in subscription mode for the organization; 400 Invalid price ID, 503 without STRIPE_SECRET_KEY',
      body: CheckoutBody, response: { 200: UrlView }, raises: ['billing.invalid_price', 'billing.provider_failed'], handler: 'checkout' },
    { id: 'createPortalSession', method: 'POST', url: '/portal-session', ...owner, audit: 'billing.portal_opened',
      summary: "The billing portal of the organization's customer", response: { 200: UrlView }, raises: ['billing.provider_failed'], handler: 'portal' },
    { id: 'verifySession', method: 'POST', url: '/verify-session', ...owner, audit: 'billing.session_verified',
      summary: "Checks a completed Checkout Session of this organization and syncs its plan (as the provider's event would)",
      body: VerifyBody, response: { 200: VerifyView }, raises: ['billing.invalid_session', 'billing.provider_failed', 'billing.session_not_completed', 'billing.session_required'], handler: 'verify' },
    { id: 'getSubscription', method: 'GET', url: '/subscription', ...owner,
      summary: 'The plan, the subscription status (past_due after a failed payment) and a change pending at period end',
      response: { 200: SubscriptionView }, handler: 'subscription' },
    { id: 'billingWebhook', method: 'POST', url: '/webhook', auth: 'none', audit: false, rawBody: true,
      summary: "The payment provider's events; raw JSON body signed in header payment-signature (t=<unix s>,v1=<hex HMAC-SHA256>), 5-minute tolerance; 400 Invalid signature",
      response: { 200: WebhookAck }, raises: ['billing.invalid_session', 'billing.invalid_signature', 'billing.provider_failed', 'billing.session_not_completed', 'billing.session_required'], handler: 'webhook' },
  ],
});
