// SCIM Bulk (RFC 7644 §3.7): operations in order, `bulkId:<id>` references resolved (also to
// later operations: an operation waits for the one it references), failOnErrors honoured.
import { AppError } from '../../core/errors.ts';
import type { PatchOp } from './scim-protocol.ts';
import { MAX_BULK, SCHEMA, scimError, type Json } from './scim-resources.ts';
import type { ScimActor } from './scim-roles.ts';
import type { BulkBody } from './schemas.ts';

interface Resource {
  create(orgId: string, body: Json, actor: ScimActor): Promise<Json>;
  replace(orgId: string, id: string, body: Json, actor: ScimActor): Promise<Json>;
  patch(orgId: string, id: string, ops: PatchOp[], actor: ScimActor): Promise<Json>;
  remove(orgId: string, id: string, actor: ScimActor): Promise<void>;
}

export function createBulk(resources: { users: Resource; groups: Resource }, location: (kind: 'Users' | 'Groups', id: string) => string) {
  /** Runs a BulkRequest; each result carries `status` as a string and, on error, the SCIM error as `response`. */
  async function bulk(orgId: string, body: BulkBody, actor: ScimActor) {
    if (body.Operations.length > MAX_BULK) {
      throw new AppError('payload_too_large', { message: `A bulk request carries at most ${MAX_BULK} operations`, details: { scimType: 'tooMany' } });
    }
    const resolved = new Map<string, string>();
    const results: Json[] = new Array(body.Operations.length);
    let errors = 0;
    const BULK_REF = /bulkId:([A-Za-z0-9._~-]+)/g;
    const refsOf = (v: unknown, out: Set<string>) => {
      if (typeof v === 'string') for (const m of v.matchAll(BULK_REF)) out.add(m[1]);
      else if (Array.isArray(v)) v.forEach((x) => refsOf(x, out));
      else if (v && typeof v === 'object') Object.values(v).forEach((x) => refsOf(x, out));
      return out;
    };
    const substitute = (v: unknown): unknown => {
      if (typeof v === 'string') return v.replace(BULK_REF, (all, id: string) => resolved.get(id) ?? all);
      if (Array.isArray(v)) return v.map(substitute);
      if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, substitute(x)]));
      return v;
    };
    const declared = new Set(body.Operations.map((o) => o.bulkId).filter(Boolean) as string[]);
    let pending = body.Operations.map((op, index) => ({ op, index }));
    // Passes until nothing moves: an operation waits for the bulkIds it references.
    while (pending.length) {
      const waiting: typeof pending = [];
      let progressed = false;
      for (const { op, index } of pending) {
        if (body.failOnErrors && errors >= body.failOnErrors) break;
        const refs = [...refsOf(op.path, refsOf(op.data, new Set()))];
        if (refs.some((r) => !resolved.has(r) && declared.has(r) && pending.some((p) => p.op.bulkId === r && p.index !== index))) {
          waiting.push({ op, index });
          continue;
        }
        progressed = true;
        const method = op.method.toUpperCase();
        const out: Json = { method, ...(op.bulkId ? { bulkId: op.bulkId } : {}) };
        try {
          const unresolved = refs.find((r) => !resolved.has(r));
          if (unresolved) throw scimError('conflict', `bulkId ${unresolved} is not defined by a successful operation`, 'invalidValue');
          const path = substitute(op.path) as string;
          const data = substitute(op.data) as Json;
          const m = /^\/(Users|Groups)(?:\/([a-f0-9]{24}))?$/.exec(path);
          if (!m) throw scimError('bad_request', `Unknown path ${path}`, 'invalidPath');
          const [, kind, id] = m;
          const svc = kind === 'Users' ? resources.users : resources.groups;
          if (method === 'POST' && !id) {
            if (!data || typeof data !== 'object') throw scimError('bad_request', 'POST needs data', 'invalidSyntax');
            const created = await svc.create(orgId, data, actor);
            if (op.bulkId) resolved.set(op.bulkId, created.id as string);
            Object.assign(out, { location: location(kind as 'Users', created.id as string), status: '201' });
          } else if (id && method === 'PUT') {
            const r = await svc.replace(orgId, id, data ?? {}, actor);
            Object.assign(out, { location: location(kind as 'Users', id), status: '200', version: (r.meta as Json).version });
          } else if (id && method === 'PATCH') {
            const ops = (data?.Operations ?? []) as PatchOp[];
            if (!Array.isArray(ops) || !ops.length || ops.some((o) => !o || typeof o.op !== 'string')) throw scimError('bad_request', 'PATCH needs Operations', 'invalidSyntax');
            const r = await svc.patch(orgId, id, ops, actor);
            Object.assign(out, { location: location(kind as 'Users', id), status: '200', version: (r.meta as Json).version });
          } else if (id && method === 'DELETE') {
            await svc.remove(orgId, id, actor);
            Object.assign(out, { location: location(kind as 'Users', id), status: '204' });
          } else {
            throw scimError('bad_request', `${method} ${path} is not a bulk operation`, 'invalidSyntax');
          }
        } catch (err) {
          if (!(err instanceof AppError)) throw err;
          errors++;
          const scimType = (err.details as { scimType?: string } | undefined)?.scimType;
          Object.assign(out, { status: String(err.statusCode), response: { schemas: [SCHEMA.error], status: String(err.statusCode), ...(scimType ? { scimType } : {}), detail: err.message } });
        }
        results[index] = out;
      }
      if (body.failOnErrors && errors >= body.failOnErrors) break;
      if (!progressed) {
        // A circle of references: each waiting operation fails.
        for (const { op, index } of waiting) {
          errors++;
          results[index] = { method: op.method.toUpperCase(), ...(op.bulkId ? { bulkId: op.bulkId } : {}), status: '409', response: { schemas: [SCHEMA.error], status: '409', scimType: 'invalidValue', detail: 'Circular bulkId reference' } };
        }
        break;
      }
      pending = waiting;
    }
    return { schemas: [SCHEMA.bulkResponse], Operations: results.filter(Boolean) };
  }
  return bulk;
}
