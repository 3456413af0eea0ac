// Audit retention as a service (PluginServices['audit-logs']): the policy read at startup
// and the purge the hourly job runs (tests and operators may run it at once).
import type { AppContext } from '../../core/context.ts';
import type { PurgeResult, RetentionPolicy } from '../../core/audit.ts';

export interface AuditRetention {
  policy: RetentionPolicy;
  purge(): Promise<PurgeResult>;
}

export function createAuditRetention(ctx: AppContext, policy: RetentionPolicy): AuditRetention {
  return { policy, purge: () => ctx.audit.purge(policy, (plan) => ctx.tenancy.orgIdsOnPlan(plan)) };
}

declare module '../../core/plugin.ts' {
  interface PluginServices { 'audit-logs': AuditRetention }
}
