// SCIM list answers (RFC 7644 §3.4.2): paging (startIndex, count), attribute projection, and a
// filter decided in the database when it has an exact form there, else widened and decided in
// memory on the resources (lib/scim through scim-protocol.ts).
import { compileFilter, matches, parseFilter, type Attrs } from './scim-protocol.ts';
import { DEFAULT_COUNT, MAX_COUNT, project, SCHEMA, type Json } from './scim-resources.ts';
import type { ListQuery } from './schemas.ts';

export const page = (q: ListQuery) => ({
  startIndex: Math.max(1, q.startIndex ?? 1),
  count: Math.min(MAX_COUNT, Math.max(0, q.count ?? DEFAULT_COUNT)),
});
const listResponse = (resources: Json[], total: number, startIndex: number, q: ListQuery) => ({
  schemas: [SCHEMA.list], totalResults: total, itemsPerPage: resources.length, startIndex,
  Resources: resources.map((r) => project(r, q.attributes, q.excludedAttributes)),
});
/** Whether the query leaves `attr` out of the answer. */
export const excludes = (q: ListQuery, attr: string) => Boolean(q.excludedAttributes?.split(',').some((a) => a.trim().toLowerCase() === attr))
  || Boolean(q.attributes && !q.attributes.split(',').some((a) => a.trim().toLowerCase() === attr));

export async function list<T extends { _id: string }>(attrs: Attrs, q: ListQuery, views: (rows: T[]) => Promise<Json[]>,
  pageRows: (query: Json, skip: number, limit: number) => Promise<{ rows: T[]; total: number }>, all: (query: Json) => Promise<T[]>) {
  const { startIndex, count } = page(q);
  if (!q.filter) {
    const { rows, total } = await pageRows({}, startIndex - 1, count);
    return listResponse(await views(rows), total, startIndex, q);
  }
  const filter = parseFilter(q.filter);
  const compiled = compileFilter(attrs, filter);
  if (!compiled.residual) {
    const { rows, total } = await pageRows(compiled.query, startIndex - 1, count);
    return listResponse(await views(rows), total, startIndex, q);
  }
  // Part of the filter has no exact database form: widen, evaluate in memory, page here.
  const hits = (await views(await all(compiled.query))).filter((r) => matches(attrs, filter, r));
  return listResponse(hits.slice(startIndex - 1, startIndex - 1 + count), hits.length, startIndex, q);
}
