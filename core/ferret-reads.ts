// Page reads the embedded FerretDB cannot serve in bounded time, asked of its PostgreSQL instead
// (issue 36, point 5). FerretDB 1.24 pushes only top-level equality down; it sorts, skips and
// counts in its own Go process, decoding every document the equality matches: a page of one
// organization's 10,000 SCIM users read and sorted 10,000 documents twice (page and count),
// 5 to 10 s here. PostgreSQL answers the same page's ids and the count from the collection's
// table in milliseconds (`_jsonb->'f' @> value`, GIN-served: core/ferret-gin.ts); the documents
// are then read through FerretDB by `_id`, one bounded lookup each.
//
// Why not a different shape: SCIM pages by offset (startIndex, RFC 7644 §3.4.2.4) and answers
// totalResults; an offset over an equality bucket needs exact per-bucket counts, which FerretDB
// cannot keep under concurrent writes (its updates are not atomic, DESIGN.md).
//
// Only on FerretDB and only with its PostgreSQL URL; on MongoDB this is null and the stores read
// through the driver, where their declared indexes serve the same page.
import pg from 'pg';
import type { Db } from 'mongodb';
import { isFerretDb } from './ferret-gin.ts';

export interface IdPage { ids: string[]; total: number }

export interface FerretReads {
  /**
   * Of the documents whose top-level fields equal the strings of `eq` (as MongoDB's equality: the
   * field is that string or an array holding it), the `_id`s of positions skip..skip+limit in `_id` order (binary, as MongoDB
   * orders strings) and how many there are. Null when it cannot answer (not FerretDB, no table).
   */
  idPage(collection: string, eq: Record<string, string>, skip: number, limit: number): Promise<IdPage | null>;
  close(): Promise<void>;
}

const FIELD = /^[A-Za-z][A-Za-z0-9_]*$/;

export function createFerretReads(postgresUrl: string, db: Db): FerretReads {
  let pool: pg.Pool | null = null;
  let ferret: Promise<boolean> | null = null;
  const tables = new Map<string, string>();
  const open = () => (pool ??= new pg.Pool({ connectionString: postgresUrl, max: 4, idleTimeoutMillis: 10_000, allowExitOnIdle: true, statement_timeout: 30_000 }));

  async function tableOf(collection: string): Promise<string | null> {
    const known = tables.get(collection);
    if (known) return known;
    const schema = db.databaseName;
    const found = await open().query<{ to_regclass: string | null }>('SELECT to_regclass($1)', [`${pg.escapeIdentifier(schema)}._ferretdb_database_metadata`]);
    if (!found.rows[0]?.to_regclass) return null;
    const meta = await open().query<{ tbl: string }>(`SELECT _jsonb->>'table' AS tbl FROM ${pg.escapeIdentifier(schema)}._ferretdb_database_metadata WHERE _jsonb->>'_id' = $1`, [collection]);
    const table = meta.rows[0]?.tbl;
    if (!table) return null;
    const qualified = `${pg.escapeIdentifier(schema)}.${pg.escapeIdentifier(table)}`;
    tables.set(collection, qualified);
    return qualified;
  }

  return {
    async idPage(collection, eq, skip, limit) {
      ferret ??= isFerretDb(db);
      if (!(await ferret)) return null;
      const table = await tableOf(collection);
      if (!table) return null;
      const where: string[] = [];
      const args: unknown[] = [];
      for (const [field, value] of Object.entries(eq)) {
        if (!FIELD.test(field)) throw new Error(`ferret-reads: not a top-level field name: ${field}`);
        // FerretDB's own pushdown (`@>`, which its GIN index serves): MongoDB's equality with a
        // string, an array holding it included. It would also take an ObjectId or date stored as
        // the same text: the fields asked here (orgId, userNameLower, ...) only ever hold strings.
        args.push(field, JSON.stringify(value));
        where.push(`_jsonb->$${args.length - 1}::text @> $${args.length}::jsonb`);
      }
      const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
      const n = args.length;
      const [page, count] = await Promise.all([
        limit > 0
          ? open().query<{ id: string }>(`SELECT _jsonb->>'_id' AS id FROM ${table} ${filter} ORDER BY _jsonb->>'_id' COLLATE "C" OFFSET $${n + 1} LIMIT $${n + 2}`, [...args, skip, limit])
          : Promise.resolve({ rows: [] as { id: string }[] }),
        open().query<{ n: string }>(`SELECT count(*) AS n FROM ${table} ${filter}`, args),
      ]);
      return { ids: page.rows.map((r) => r.id), total: Number(count.rows[0].n) };
    },
    async close() {
      const p = pool;
      pool = null;
      await p?.end().catch(() => undefined);
    },
  };
}
