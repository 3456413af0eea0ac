// Plan tiers in ascending order and what each allows (SPEC "Limits": plan limits).
export const PLANS = ['free', 'pro', 'team', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export const planRank = (plan: Plan): number => PLANS.indexOf(plan);
export const planAtLeast = (plan: Plan, required: Plan): boolean => planRank(plan) >= planRank(required);
export const isPlan = (value: unknown): value is Plan => PLANS.includes(value as Plan);

const UNLIMITED = null;
export interface PlanLimits { repositories: number | null; scansPerDay: number | null; cloudAccounts: number | null }

export const PLAN_LIMITS: Record<Plan, PlanLimits> = {
  free: { repositories: 1, scansPerDay: 3, cloudAccounts: 0 },
  pro: { repositories: 5, scansPerDay: UNLIMITED, cloudAccounts: 1 },
  team: { repositories: UNLIMITED, scansPerDay: UNLIMITED, cloudAccounts: UNLIMITED },
  enterprise: { repositories: UNLIMITED, scansPerDay: UNLIMITED, cloudAccounts: UNLIMITED },
};

export const planLabel = (plan: Plan) => plan[0].toUpperCase() + plan.slice(1);
