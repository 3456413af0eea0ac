// The audit trail (SPEC "Events" > "Audit trail"): every authenticated POST/PUT/PATCH/DELETE
// is recorded after the response, body redacted. Entries are insert-only: this module
// offers no update, and deletion happens only through retention and organization deletion.
// It owns audit_logs, so the reads (pages, export cursors) and the deletions live here too.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Filter, FindCursor } from 'mongodb';
import { isDuplicateKey, isStoreDown, type CollectionSpec, type Database } from './db.ts';
import { redact } from './audit-body.ts';
import { createAuditSpool, type AuditSpoolStats } from './audit-spool.ts';
import type { Redis } from 'ioredis';
import { newId } from './crypto.ts';
import type { RouteSpec } from './manifest.ts';
import { PLANS, type Plan } from './plans.ts';
import { pageWindow, type Page } from './schemas.ts';

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
  // Lists filter on the organization (and action and/or actor), sort newest first with _id
  // breaking ties, so pages are stable: one index per filter combination the routes offer.
  // timestamp alone: retention's global cutoff.
  indexes: [
    { key: { orgId: 1, timestamp: -1, _id: -1 } },
    { key: { orgId: 1, action: 1, timestamp: -1, _id: -1 } },
    { key: { orgId: 1, userId: 1, timestamp: -1, _id: -1 } },
    { key: { orgId: 1, action: 1, userId: 1, timestamp: -1, _id: -1 } },
    { key: { timestamp: 1 } },
  ],
};

/** What the audit lists filter on; orgId null selects entries without an organization. */
export interface AuditFilter { orgId: string | null; action?: string; userId?: string; from?: Date; to?: Date }

/** Days kept per plan, and for entries without an organization (failed sign-ins, deleted organizations). */
export interface RetentionPolicy { days: Record<Plan, number>; noOrgDays: number }
export interface PurgeResult { deleted: number; statements: number }

const NEWEST_FIRST = { timestamp: -1, _id: -1 } as const;
const DAY_MS = 24 * 3600 * 1000;
// Organizations per deleteMany: keeps each statement's $in list a reasonable size.
const PURGE_CHUNK = 1000;

function toQuery(f: AuditFilter): Filter<AuditEntry> {
  const q: Filter<AuditEntry> = { orgId: f.orgId };
  if (f.action) q.action = f.action;
  if (f.userId) q.userId = f.userId;
  if (f.from || f.to) q.timestamp = { ...(f.from ? { $gte: f.from } : {}), ...(f.to ? { $lte: f.to } : {}) };
  return q;
}

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
export { redact };

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
  /** Waits for entries still being written (tests, shutdown), then writes those waiting in Redis. */
  flush(): Promise<void>;
  /** Entries the database did not take at first: kept in Redis, written again, lost. */
  failures(): AuditSpoolStats;
  stop(): void;
  /** One page of matching entries, newest first, and how many match: two commands whatever the page size. */
  query(filter: AuditFilter, page: Page): Promise<{ entries: AuditEntry[]; total: number }>;
  /** Every matching entry, newest first, fetched in batches (streamed exports). */
  cursor(filter: AuditFilter, batchSize?: number): FindCursor<AuditEntry>;
  /** Deletes every entry of an organization (organization deletion), after entries still being written. */
  removeOrg(orgId: string): Promise<number>;
  /**
   * Permanently deletes entries older than their organization's retention: one statement for
   * the longest retention, then one per plan with a shorter one (in chunks of organizations).
   * Idempotent; orgIdsOnPlan comes from tenancy, which this module does not know.
   */
  purge(policy: RetentionPolicy, orgIdsOnPlan: (plan: Plan) => Promise<string[]>, now?: Date): Promise<PurgeResult>;
}

/** What every recorded request contributes to its entry, whoever names the rest. */
function requestFacts(req: FastifyRequest, reply: FastifyReply) {
  return {
    method: req.method, route: req.routeOptions.url ?? req.url, statusCode: reply.statusCode,
    ipAddress: req.ip, userAgent: req.headers['user-agent'] ?? null,
  };
}

export function createAudit(db: Database, redis: Redis, log: { error(obj: object, msg: string): void; warn(obj: object, msg: string): void }): Audit {
  const logs = db.collection<AuditEntry>(AUDIT_LOGS);
  const pending = new Set<Promise<unknown>>();

  /**
   * Writes the entry; a duplicate _id means it was written already. An entry the database
   * refuses for its content is written again with the body replaced by the reason, so the
   * mutation stays in the trail; only an unreachable database throws.
   */
  async function insert(entry: AuditEntry): Promise<void> {
    try {
      await logs.insertOne(entry);
    } catch (err) {
      if (isDuplicateKey(err)) return;
      if (isStoreDown(err)) throw err;
      log.error({ err, action: entry.action }, 'audit entry refused by the database; kept without its body');
      await logs.insertOne({ ...entry, body: { '[unstorable]': String((err as Error).message).slice(0, 200) }, details: undefined })
        .catch((again) => { if (!isDuplicateKey(again)) throw again; });
    }
  }
  const spool = createAuditSpool(redis, (e) => insert(e as AuditEntry), log);

  const write: Audit['write'] = async (input) => {
    const entry: AuditEntry = { _id: newId(), timestamp: new Date(), ...input };
    const p = insert(entry).catch((err) => spool.keep(entry, err));
    pending.add(p);
    try { await p; } finally { pending.delete(p); }
  };

  return {
    record(req, reply, spec) {
      // An entry the outcome names in full (a browser callback, whatever its method).
      if (typeof spec.audit === 'object' && spec.audit.event) {
        const event = reply.statusCode < 400 && req.routeResult !== undefined ? spec.audit.event(req.routeResult) : undefined;
        if (event) {
          void write({
            ...requestFacts(req, reply),
            orgId: event.orgId, action: event.action, userId: event.actor.userId, actorName: event.actor.email, actorKind: event.actor.kind,
            resourceType: event.resourceType, resourceId: event.resourceId,
            details: event.details && (redact(event.details) as Record<string, unknown>),
          });
        }
        return;
      }
      // Reads are never recorded: decided before anything is computed (every GET passes here).
      if (!MUTATING.has(req.method)) return;
      // The manifest decides (RouteSpec.audit): false never reaches here.
      const rule = typeof spec.audit === 'object' ? spec.audit : { action: spec.audit || undefined };
      const failed = reply.statusCode >= 400;
      if (!failed && rule.skip?.(req.routeResult)) return;
      // What the handler returned, when it succeeded and returned something: all the rule's other functions read.
      const result = failed ? undefined : req.routeResult;
      const route = req.routeOptions.url ?? req.url;
      // Unauthenticated routes are audited only where the manifest names an action (signup, login).
      const actor = req.principal ?? (result !== undefined ? rule.actor?.(result) : undefined);
      if (!actor && !rule.action) return;
      const { resourceType, resourceId } = resourceOf(route, req.params as Record<string, string>);
      const details = result !== undefined ? rule.details?.(result, req.body) : undefined;
      void write({
        ...requestFacts(req, reply),
        orgId: rule.org && result !== undefined ? rule.org(result) : req.org?.id ?? actor?.orgId ?? (actor as { defaultOrgId?: string })?.defaultOrgId ?? null,
        action: (failed && rule.failure) || rule.action || autoAction(req.method, route),
        userId: actor?.userId ?? null,
        actorName: actor?.email,
        actorKind: actor?.kind,
        resourceType,
        resourceId,
        body: redact(rule.body && req.body !== undefined ? rule.body(req.body) : req.body),
        details: details && (redact(details) as Record<string, unknown>),
      });
    },
    write,
    async flush() {
      await Promise.all([...pending]);
      await spool.drain();
    },
    failures: () => spool.stats(),
    stop: () => spool.stop(),
    async query(filter, page) {
      const q = toQuery(filter);
      const { skip, limit } = pageWindow(page);
      const [entries, total] = await Promise.all([
        logs.find(q).sort(NEWEST_FIRST).skip(skip).limit(limit).toArray(),
        logs.countDocuments(q),
      ]);
      return { entries, total };
    },
    cursor(filter, batchSize = 500) {
      return logs.find(toQuery(filter)).sort(NEWEST_FIRST).batchSize(batchSize);
    },
    async removeOrg(orgId) {
      await Promise.all([...pending]);
      const res = await logs.deleteMany({ orgId });
      return res.deletedCount;
    },
    async purge(policy, orgIdsOnPlan, now = new Date()) {
      const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS);
      const result: PurgeResult = { deleted: 0, statements: 0 };
      const remove = async (filter: Filter<AuditEntry>) => {
        const res = await logs.deleteMany(filter);
        result.deleted += res.deletedCount;
        result.statements += 1;
      };
      const longest = Math.max(policy.noOrgDays, ...PLANS.map((p) => policy.days[p]));
      // Whatever its organization (including organizations that no longer exist).
      await remove({ timestamp: { $lt: cutoff(longest) } });
      for (const plan of PLANS) {
        if (policy.days[plan] >= longest) continue;
        const ids = await orgIdsOnPlan(plan);
        for (let i = 0; i < ids.length; i += PURGE_CHUNK) {
          await remove({ orgId: { $in: ids.slice(i, i + PURGE_CHUNK) }, timestamp: { $lt: cutoff(policy.days[plan]) } });
        }
      }
      if (policy.noOrgDays < longest) await remove({ orgId: null, timestamp: { $lt: cutoff(policy.noOrgDays) } });
      return result;
    },
  };
}

