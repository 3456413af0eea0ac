// One page of SCIM users or groups in `_id` order and how many match (RFC 7644 §3.4.2.4: offset
// paging with totalResults). Through the driver, two commands that the store's indexes serve on
// MongoDB. On the embedded FerretDB those two read and sort every match in its own process (a
// page of 10,000 users: 5 to 10 s), so there, when the compiled filter has a form PostgreSQL can
// decide exactly (core/ferret-sql.ts: no filter, userName/externalId eq, active eq, ...), it
// answers the page's documents and the count (core/ferret-reads.ts), two statements and no
// FerretDB command (issue 36, point 5). Other filters (value filters, dates) read as before.
import type { Collection, Document, Filter } from 'mongodb';
import type { Database } from '../../core/db.ts';

type Row = Document & { _id: string; orgId: string };

export function pager<T extends Row>(db: Database, col: Collection<T>) {
  const BY_ID = { _id: 1 } as const;
  return async function page(orgId: string, query: Filter<T>, skip: number, limit: number): Promise<{ rows: T[]; total: number }> {
    const pushed = db.pushdown ? await db.pushdown.page(col.collectionName, { ...(query as Record<string, unknown>), orgId }, BY_ID, skip, limit) : null;
    if (pushed) return { rows: pushed.docs as unknown as T[], total: pushed.total };
    const q = { orgId, ...query } as Filter<T>;
    const [rows, total] = await Promise.all([
      limit > 0 ? col.find(q).sort(BY_ID).skip(skip).limit(limit).toArray() as Promise<T[]> : Promise.resolve([] as T[]),
      col.countDocuments(q),
    ]);
    return { rows, total };
  };
}
