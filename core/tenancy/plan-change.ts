// The one way an organization's plan changes (issue 13): payment-provider events, the billing
// plugin's period-end job and `npm run ops -- set-plan` all call changePlan. It writes the plan
// through tenancy.setPlan, which drops the cached organization in every process, and records
// `billing.plan_changed` {from, to, cause} in the organization's audit trail.
import type { Audit } from '../audit.ts';
import type { Plan } from '../plans.ts';
import type { Tenancy } from './index.ts';

export const PLAN_CHANGED = 'billing.plan_changed';

export interface PlanChange {
  /** What caused it: an event type (`customer.subscription.updated`), `period_end`, `ops.set-plan`... */
  cause: string;
  /** Where it came from, for the trail's route field (the webhook route, a job, the ops CLI). */
  route: string;
  /** The subscription (or other record) behind the change, when there is one. */
  resourceId?: string | null;
}

export interface PlanChangeResult { from: Plan; to: Plan; changed: boolean }

/** Sets the plan; null when the organization does not exist. No change, no audit entry. */
export async function changePlan(deps: { tenancy: Tenancy; audit: Audit }, orgId: string, to: Plan, change: PlanChange): Promise<PlanChangeResult | null> {
  // The store, not the cache: the decision must see the newest plan another process wrote.
  const org = await deps.tenancy.findOrg(orgId);
  if (!org) return null;
  if (org.plan === to) return { from: org.plan, to, changed: false };
  if (!(await deps.tenancy.setPlan(orgId, to))) return null;
  await deps.audit.write({
    orgId, action: PLAN_CHANGED, userId: null, actorKind: 'system', method: 'POST', route: change.route,
    resourceType: 'billing', resourceId: change.resourceId ?? null, statusCode: 200,
    details: { from: org.plan, to, cause: change.cause }, ipAddress: '', userAgent: null,
  });
  return { from: org.plan, to, changed: true };
}
