// The test suite's guard on the OpenAPI document's error statuses: every answer whose status
// the operation does not document (its route schema's `response`, which the document shows:
// core/openapi-errors.ts for manifest routes) is appended to a log, one JSON line each; the
// tap `after` step (scripts/check-statuses.ts) fails naming every (operation, status) found.
// On only when the app is built by test/helper.ts, like core/db.ts's query log.
import { appendFileSync, mkdirSync, readdirSync, readFileSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { FastifyInstance } from 'fastify';

export interface UndocumentedStatus { operationId: string; method: string; url: string; status: number; code?: string }

/** Records, in `file`, each answer of an operation with a status its schema does not list. */
export function logUndocumentedStatuses(app: FastifyInstance, file: string): void {
  mkdirSync(dirname(file), { recursive: true });
  app.addHook('onSend', async (req, reply, payload) => {
    const schema = req.routeOptions.schema as { operationId?: string; response?: Record<string, unknown> } | undefined;
    // A path no route matches (the not-found handler) has no operation to hold to.
    if (!schema?.operationId) return payload;
    const status = reply.statusCode;
    if (schema.response ? String(status) in schema.response : status === 200) return payload;
    const code = errorCode(payload);
    // An unexpected error (500 internal) is a bug, documented by no operation: tests that inject
    // one on purpose assert it themselves, and the fuzz fails on any.
    if (status === 500 && code === 'internal') return payload;
    const row: UndocumentedStatus = { operationId: schema.operationId, method: req.method, url: req.routeOptions.url ?? req.url, status, code };
    appendFileSync(file, `${JSON.stringify(row)}\n`);
    return payload;
  });
}

/** The error code of a JSON error answer, when there is one (the log names it for the fixer). */
function errorCode(payload: unknown): string | undefined {
  if (typeof payload !== 'string') return undefined;
  try {
    const code = (JSON.parse(payload) as { error?: { code?: unknown } } | null)?.error?.code;
    return typeof code === 'string' ? code : undefined;
  } catch {
    return undefined;
  }
}

/** Every logged (operation, status), once, with the codes and the number of answers seen. */
export function readStatusLog(dir: string): { operationId: string; status: number; codes: string[]; count: number }[] {
  const found = new Map<string, { operationId: string; status: number; codes: Set<string>; count: number }>();
  for (const file of existsSync(dir) ? readdirSync(dir) : []) {
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      if (!line) continue;
      const row = JSON.parse(line) as UndocumentedStatus;
      const key = `${row.operationId} ${row.status}`;
      const entry = found.get(key) ?? { operationId: row.operationId, status: row.status, codes: new Set<string>(), count: 0 };
      if (row.code) entry.codes.add(row.code);
      entry.count++;
      found.set(key, entry);
    }
  }
  return [...found.values()].map((e) => ({ ...e, codes: [...e.codes].sort() })).sort((a, b) => a.operationId.localeCompare(b.operationId) || a.status - b.status);
}
