// Audit retention (SPEC "Limits": Free 7 days, Pro 30, Team 90, Enterprise 1 year,
// configurable; older entries permanently deleted). The operator overrides any of these with
// AUDIT_RETENTION_DAYS, read once at startup, e.g. `free=14,enterprise=730`; `none` sets how
// long entries without an organization are kept (failed sign-ins, deleted organizations).
import { ConfigError } from '../../core/config.ts';
import type { RetentionPolicy } from '../../core/audit.ts';
import { PLANS, type Plan } from '../../core/plans.ts';
import { closest } from '../../core/text.ts';

export const DEFAULT_RETENTION: RetentionPolicy = {
  days: { free: 7, pro: 30, team: 90, enterprise: 365 },
  noOrgDays: 365,
};
export const RETENTION_JOB = 'audit-logs.retention';
export const RETENTION_EVERY = '1 hour';
const MAX_DAYS = 10 * 365;
const KEYS = [...PLANS, 'none'] as const;

/** The policy from AUDIT_RETENTION_DAYS over the defaults; a bad value stops the boot naming it. */
export function parseRetention(value: string | undefined): RetentionPolicy {
  const policy: RetentionPolicy = { days: { ...DEFAULT_RETENTION.days }, noOrgDays: DEFAULT_RETENTION.noOrgDays };
  if (value === undefined || value.trim() === '') return policy;
  for (const part of value.split(',').map((p) => p.trim()).filter(Boolean)) {
    const match = /^([a-z]+)\s*=\s*(\S+)$/i.exec(part);
    if (!match) throw new ConfigError(`Configuration error: AUDIT_RETENTION_DAYS entry "${part}" must look like plan=days (e.g. free=7,pro=30,team=90,enterprise=365,none=365)`);
    const key = match[1].toLowerCase();
    if (!(KEYS as readonly string[]).includes(key)) {
      const hint = closest(key, KEYS);
      throw new ConfigError(`Configuration error: AUDIT_RETENTION_DAYS names unknown plan "${key}"${hint ? `; did you mean "${hint}"?` : ''} (known: ${KEYS.join(', ')})`);
    }
    const days = Number(match[2]);
    if (!Number.isInteger(days) || days < 1 || days > MAX_DAYS) {
      throw new ConfigError(`Configuration error: AUDIT_RETENTION_DAYS ${key}=${match[2]} must be a whole number of days from 1 to ${MAX_DAYS}`);
    }
    if (key === 'none') policy.noOrgDays = days;
    else policy.days[key as Plan] = days;
  }
  return policy;
}
