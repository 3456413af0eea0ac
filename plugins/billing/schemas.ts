// TypeBox schemas of the billing routes (SPEC "Billing"), with their Static types beside them.
import { Type, type Static } from 'typebox';
import { Nullable, Timestamp } from '../../core/schemas.ts';

export const PlanName = Type.Union([Type.Literal('free'), Type.Literal('pro'), Type.Literal('team'), Type.Literal('enterprise')]);

export const CheckoutBody = Type.Object({
  priceId: Type.String({ minLength: 1, maxLength: 255, description: 'A price of STRIPE_PRICE_PRO, STRIPE_PRICE_TEAM or STRIPE_PRICE_ENTERPRISE' }),
});
export type CheckoutBody = Static<typeof CheckoutBody>;

// Optional in the schema so a missing or empty one answers the spec's `Session ID is required`.
export const VerifyBody = Type.Object({
  sessionId: Type.Optional(Type.String({ maxLength: 255, description: 'The Checkout Session id (cs_...) the provider sent the browser back with' })),
});
export type VerifyBody = Static<typeof VerifyBody>;

export const UrlView = Type.Object({ url: Type.String({ description: "The provider's hosted page" }) });
export const VerifyView = Type.Object({ success: Type.Boolean(), plan: PlanName });
export const WebhookAck = Type.Object({ received: Type.Literal(true) });

export const SubscriptionStatus = Type.String({ description: "The provider's subscription status (active, past_due, canceled, ...)" });
export const SubscriptionView = Type.Object({
  plan: PlanName,
  subscriptionId: Nullable(Type.String()),
  status: Nullable(SubscriptionStatus),
  /** A downgrade or cancellation waiting for the end of the paid period. */
  pendingPlan: Nullable(PlanName),
  pendingAt: Nullable(Timestamp),
  cancelAtPeriodEnd: Type.Boolean(),
  currentPeriodEnd: Nullable(Timestamp),
});
export type SubscriptionView = Static<typeof SubscriptionView>;
