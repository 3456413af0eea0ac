// `ops set-plan`: changes an organization's plan through the same function as the payment
// provider's events and the billing period-end job (core/tenancy/plan-change.ts): the cache
// invalidation reaches running servers at once and the change is audited as billing.plan_changed.
import { isPlan, PLANS } from '../../core/plans.ts';
import { changePlan } from '../../core/tenancy/plan-change.ts';
import { ScriptError, withApp } from '../app-for-scripts.ts';

export async function setPlan([orgId, plan]: string[]): Promise<number> {
  // Checked before connecting: a typo should not wait for the database.
  if (!isPlan(plan)) throw new ScriptError(`unknown plan "${plan}"; valid plans: ${PLANS.join(', ')}`, 2);
  return withApp(async ({ ctx }) => {
    const org = await ctx.tenancy.findOrg(orgId);
    const result = org && await changePlan(ctx, orgId, plan, { cause: 'ops.set-plan', route: 'ops set-plan' });
    if (!org || !result) throw new ScriptError(`organization ${orgId} not found`, 1);
    await ctx.audit.flush();
    console.log(result.changed
      ? `Organization ${orgId} (${org.name}): plan ${result.from} -> ${plan}`
      : `Organization ${orgId} (${org.name}) is already on plan ${plan}`);
    return 0;
  });
}
