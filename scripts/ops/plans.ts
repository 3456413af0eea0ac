// `ops set-plan`: changes an organization's plan through the engine's tenancy, which
// publishes the cache invalidation so running servers apply the new plan at once.
import { isPlan, PLANS } from '../../core/plans.ts';
import { ScriptError, withApp } from '../app-for-scripts.ts';

export async function setPlan([orgId, plan]: string[]): Promise<number> {
  // Checked before connecting: a typo should not wait for the database.
  if (!isPlan(plan)) throw new ScriptError(`unknown plan "${plan}"; valid plans: ${PLANS.join(', ')}`, 2);
  return withApp(async ({ ctx }) => {
    const org = await ctx.tenancy.store.findOrg(orgId);
    if (!org || !(await ctx.tenancy.setPlan(orgId, plan))) throw new ScriptError(`organization ${orgId} not found`, 1);
    console.log(org.plan === plan
      ? `Organization ${orgId} (${org.name}) is already on plan ${plan}`
      : `Organization ${orgId} (${org.name}): plan ${org.plan} -> ${plan}`);
    return 0;
  });
}
