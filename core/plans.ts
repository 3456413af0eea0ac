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

/** The plan limits, as manifest entries name them (`limit: 'repositories'`). */
export type LimitName = keyof PlanLimits;
export const LIMIT_NAMES = Object.keys(PLAN_LIMITS.free) as LimitName[];
export const isLimitName = (value: unknown): value is LimitName => LIMIT_NAMES.includes(value as LimitName);

/** How the one refusal message names each limit, and what the caller can do about it. */
export const LIMIT_WORDS: Record<LimitName, { one: string; many: string; advice: string }> = {
  repositories: { one: 'repository config', many: 'repository configs', advice: 'delete one or upgrade' },
  scansPerDay: { one: 'scan per day', many: 'scans per day', advice: 'try again tomorrow (UTC) or upgrade' },
  cloudAccounts: { one: 'cloud account', many: 'cloud accounts', advice: 'delete one or upgrade' },
};

/** `The Free plan allows 1 repository config; delete one or upgrade` (nothing to delete when none is allowed). */
export function limitMessage(name: LimitName, plan: Plan, allowed: number): string {
  const words = LIMIT_WORDS[name];
  const advice = allowed === 0 ? 'upgrade to add one' : words.advice;
  return `The ${planLabel(plan)} plan allows ${allowed} ${allowed === 1 ? words.one : words.many}; ${advice}`;
}
