// The audit trail (SPEC "Events" > "Audit trail"): every authenticated POST/PUT/PATCH/DELETE
// is recorded after the response, body redacted. Entries are insert-only: this module
// offers no update, and deletion happens only through retention.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CollectionSpec, Database } from './db.ts';
import { newId } from './crypto.ts';
import type { RouteSpec } from './manifest.ts';

export interface AuditEntry {
  _id: string;
  orgId: string | null;
  action: string;
  userId: string | null;
  actorName?: string;
  actorKind?: string;
  method: string;
  route: string;
  resourceType: string;
  resourceId: string | null;
  statusCode: number;
  body?: unknown;
  details?: Record<string, unknown>;
  ipAddress: string;
  userAgent: string | null;
  timestamp: Date;
}

export const AUDIT_LOGS: CollectionSpec = {
  name: 'audit_logs', owner: 'core/audit',
  indexes: [
    { key: { orgId: 1, timestamp: -1 } },
    { key: { orgId: 1, action: 1, timestamp: -1 } },
    { key: { orgId: 1, userId: 1, timestamp: -1 } },
    { key: { timestamp: 1 } },
  ],
};

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const NOT_LOGGED = [/^\/api\/csrf-token$/, /^\/api\/stats\//, /^\/api\/analytics\//, /^\/api\/status\//, /^\/health$/, /^\/api\/auth\/me$/, /^\/api\/notifications\/ping/];
const REDACT = ['password', 'token', 'secret', 'key', 'authorization', 'webhookurl', 'cookie', 'csrf'];

/** Replaces values of sensitive keys (case-insensitive substring) with [REDACTED], recursively. */
export function redact(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redact);
  if (value && typeof value === 'object' && !(value instanceof Date) && !Buffer.isBuffer(value)) {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => {
      const lower = k.toLowerCase();
      return [k, REDACT.some((r) => lower.includes(r)) ? '[REDACTED]' : redact(v)];
    }));
  }
  return value;
}

/** `/api/orgs/:orgId/members` + PUT -> `http.put.orgs.orgId.members`. */
export function autoAction(method: string, routeUrl: string): string {
  const parts = routeUrl.replace(/^\/api\//, '').split('/').filter(Boolean).map((s) => s.replace(/^:/, ''));
  return ['http', method.toLowerCase(), ...parts].join('.');
}

/** The resource a route acts on: its first segment after /api, and the last id parameter. */
function resourceOf(routeUrl: string, params: Record<string, string> | undefined) {
  const segments = routeUrl.replace(/^\/api\//, '').split('/').filter(Boolean);
  const idParams = segments.filter((s) => s.startsWith(':')).map((s) => s.slice(1));
  const last = idParams[idParams.length - 1];
  return { resourceType: segments[0] ?? 'unknown', resourceId: last ? params?.[last] ?? null : null };
}

export interface Audit {
  /** onResponse hook body: decides whether the request is audited and writes the entry. */
  record(req: FastifyRequest, reply: FastifyReply, spec: RouteSpec): void;
  /** Explicit entries from services (logins, login failures, job outcomes). */
  write(entry: Omit<AuditEntry, '_id' | 'timestamp'> & { timestamp?: Date }): Promise<void>;
  /** Waits for entries still being written (tests, shutdown). */
  flush(): Promise<void>;
}

export function createAudit(db: Database, log: { error(obj: object, msg: string): void }): Audit {
  const logs = db.collection<AuditEntry>(AUDIT_LOGS);
  const pending = new Set<Promise<unknown>>();

  const write: Audit['write'] = async (entry) => {
    const p = logs.insertOne({ _id: newId(), timestamp: new Date(), ...entry })
      .catch((err) => log.error({ err, action: entry.action }, 'audit write failed'));
    pending.add(p);
    try { await p; } finally { pending.delete(p); }
  };

  return {
    record(req, reply, spec) {
      if (!MUTATING.has(req.method)) return;
      const route = req.routeOptions.url ?? req.url;
      if (NOT_LOGGED.some((re) => re.test(route))) return;
      // Unauthenticated routes are audited only where the manifest names an action (signup, login).
      const actor = req.principal ?? req.auditActor;
      if (!actor && !spec.audit) return;
      const { resourceType, resourceId } = resourceOf(route, req.params as Record<string, string>);
      void write({
        orgId: req.org?.id ?? actor?.orgId ?? actor?.defaultOrgId ?? null,
        action: req.auditAction ?? spec.audit ?? autoAction(req.method, route),
        userId: actor?.userId ?? null,
        actorName: actor?.email,
        actorKind: actor?.kind,
        method: req.method,
        route,
        resourceType,
        resourceId,
        statusCode: reply.statusCode,
        body: redact(req.body),
        details: req.auditDetails,
        ipAddress: req.ip,
        userAgent: req.headers['user-agent'] ?? null,
      });
    },
    write,
    async flush() { await Promise.all([...pending]); },
  };
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by handlers of unauthenticated routes once they know who acted (login, signup). */
    auditActor?: import('./guards/principal.ts').Principal;
    /** Overrides the action for this request (e.g. auth.login_failed). */
    auditAction?: string;
    auditDetails?: Record<string, unknown>;
  }
}
