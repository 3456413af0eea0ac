// The general audit trail (GET /api/audit-logs) of the caller's organization, and the
// retention job that permanently deletes entries older than each plan keeps them. This
// plugin is required: retention is a promise of the spec, not an option.
import { definePlugin } from '../../core/plugin.ts';
import type { AuditEntry } from '../../core/audit.ts';
import { badRequest } from '../../core/errors.ts';
import { pageCount } from '../../core/schemas.ts';
import manifest from '../../manifests/audit-logs.ts';
import { parseRetention, RETENTION_EVERY, RETENTION_JOB } from './retention.ts';
import { createAuditRetention } from './service.ts';
import type { TrailEntry } from './schemas.ts';

const view = (e: AuditEntry): TrailEntry => ({
  _id: e._id,
  timestamp: e.timestamp.toISOString(),
  userId: e.userId,
  action: e.action,
  resourceType: e.resourceType,
  resourceId: e.resourceId,
  details: {
    ...(e.details ?? {}), method: e.method, route: e.route, statusCode: e.statusCode,
    ...(e.body !== undefined && e.body !== null ? { body: e.body } : {}),
  },
  ipAddress: e.ipAddress,
  userAgent: e.userAgent,
});

export default definePlugin({
  manifest,
  needs: [],
  build(ctx) {
    // Read once at startup: a bad value stops the boot with a message naming the variable.
    const retention = createAuditRetention(ctx, parseRetention(process.env.AUDIT_RETENTION_DAYS));
    // Idempotent: a second run (two processes on the embedded database) finds nothing older.
    ctx.scheduler.define(RETENTION_JOB, async () => {
      const result = await retention.purge();
      if (result.deleted) ctx.log.info({ ...result }, 'audit retention: old entries deleted');
    });

    return {
      provides: retention,
      async start() {
        await ctx.scheduler.every(RETENTION_EVERY, RETENTION_JOB, {});
      },
      handlers: {
        async list({ org, query: q }) {
          const from = q.from ? new Date(q.from) : undefined;
          const to = q.to ? new Date(q.to) : undefined;
          if (from && to && from > to) throw badRequest('from must not be after to');
          const { entries, total } = await ctx.audit.query({ orgId: org.id, action: q.action, userId: q.userId, from, to }, q);
          return { logs: entries.map(view), total, page: q.page, pages: pageCount(total, q.limit) };
        },
      },
    };
  },
});
