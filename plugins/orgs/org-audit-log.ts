// An organization's audit log as the org route shows it (SPEC "Audit log entry (org route)"):
// pages of entries with the actor's name, and a CSV export that streams the same query.
// A page costs three commands whatever its size (entries, count, actor names); the export
// reads through a cursor in batches and resolves names per batch, so memory stays flat.
import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { AppContext } from '../../core/context.ts';
import type { AuditEntry, AuditFilter } from '../../core/audit.ts';
import { badRequest } from '../../core/errors.ts';
import { pageCount, type Page } from '../../core/schemas.ts';
import type { DirectoryUser, UserDirectory } from '../auth/service.ts';
import type { ExportQuery, OrgAuditEntry } from './schemas.ts';
import { usernameOf, usersById } from './rules.ts';

const EXPORT_BATCH = 500;
// Names remembered during one export; cleared when full so a long export stays bounded.
const NAME_CACHE_MAX = 5000;

export const CSV_COLUMNS = ['timestamp', 'action', 'actorUserId', 'actorUsername', 'targetType', 'targetId', 'ip', 'statusCode', 'metadata'] as const;

export function auditFilter(orgId: string, q: ExportQuery): AuditFilter {
  const from = q.from ? new Date(q.from) : undefined;
  const to = q.to ? new Date(q.to) : undefined;
  if (from && to && from > to) throw badRequest('from must not be after to');
  return { orgId, action: q.action, userId: q.actorId, from, to };
}

type Names = Map<string, DirectoryUser | null>;

function actorName(e: AuditEntry, users: Names): string | null {
  const known = e.userId ? users.get(e.userId) : undefined;
  if (known) return usernameOf(known);
  // The account is gone: the email recorded with the entry still names it.
  return e.actorName ? e.actorName.split('@')[0] : null;
}

export function entryView(e: AuditEntry, users: Names): OrgAuditEntry {
  const { target, ...details } = (e.details ?? {}) as { target?: Record<string, unknown> } & Record<string, unknown>;
  return {
    _id: e._id,
    action: e.action,
    actor: { userId: e.userId, username: actorName(e, users) },
    target: target ?? { type: e.resourceType, id: e.resourceId },
    metadata: {
      ...details, method: e.method, route: e.route, statusCode: e.statusCode,
      ...(e.body !== undefined && e.body !== null ? { body: e.body } : {}), userAgent: e.userAgent,
    },
    ip: e.ipAddress,
    timestamp: e.timestamp.toISOString(),
  };
}

// Spreadsheet formula injection: a cell starting with = + - @ (or a tab/CR) is prefixed.
const cell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : typeof v === 'string' ? v : JSON.stringify(v);
  return /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
};

function csvRow(v: OrgAuditEntry): string[] {
  const t = v.target as { type?: unknown; id?: unknown };
  return [v.timestamp, v.action, v.actor.userId, v.actor.username, t.type, t.id, v.ip, (v.metadata as { statusCode?: unknown }).statusCode, v.metadata].map(cell);
}

export function createOrgAudit(ctx: AppContext, directory: UserDirectory) {
  return {
    async list(orgId: string, q: ExportQuery, page: Page) {
      const { entries, total } = await ctx.audit.query(auditFilter(orgId, q), page);
      const users: Names = await usersById(directory, entries.flatMap((e) => (e.userId ? [e.userId] : [])));
      return { logs: entries.map((e) => entryView(e, users)), total, page: page.page, pages: pageCount(total, page.limit) };
    },

    /** CSV text of every matching entry, newest first, produced as the client reads it. */
    export(orgId: string, q: ExportQuery): Readable {
      const filter = auditFilter(orgId, q);
      const names: Names = new Map();
      async function* rows(): AsyncGenerator<string[]> {
        const cursor = ctx.audit.cursor(filter, EXPORT_BATCH);
        try {
          let batch: AuditEntry[] = [];
          const flush = async function* () {
            const unknown = [...new Set(batch.flatMap((e) => (e.userId && !names.has(e.userId) ? [e.userId] : [])))];
            if (unknown.length) {
              if (names.size + unknown.length > NAME_CACHE_MAX) names.clear();
              const found = await usersById(directory, unknown);
              for (const id of unknown) names.set(id, found.get(id) ?? null);
            }
            for (const e of batch) yield csvRow(entryView(e, names));
            batch = [];
          };
          for await (const e of cursor) {
            batch.push(e);
            if (batch.length >= EXPORT_BATCH) yield* flush();
          }
          yield* flush();
        } finally {
          await cursor.close();
        }
      }
      const csv = stringify({ header: true, columns: [...CSV_COLUMNS] });
      // pipeline, not pipe: a client that goes away destroys the source too, which closes
      // the cursor; a database error ends the download instead of leaving it hanging.
      pipeline(Readable.from(rows()), csv, (err) => {
        if (err) ctx.log.warn({ err, orgId }, 'audit export ended early');
      });
      return csv;
    },
  };
}
