// Page reads the embedded FerretDB cannot serve in bounded time, asked of its PostgreSQL instead
// (issue 36, point 5). FerretDB 1.24 pushes only top-level equality down; it sorts, skips and
// counts in its own Go process, decoding every document the equality matches: a page of one
// organization's 10,000 SCIM users read and sorted 10,000 documents twice (page and count),
// 5 to 10 s here. PostgreSQL answers the same page's ids and the count from the collection's
// table in milliseconds (`_jsonb->'f' @> value`, GIN-served: core/ferret-gin.ts), and the page's
// documents with them, decoded from FerretDB's stored form (core/ferret-pjson.ts): no command
// through FerretDB at all.
//
// Why not a different shape: SCIM pages by offset (startIndex, RFC 7644 §3.4.2.4) and answers
// totalResults; an offset over an equality bucket needs exact per-bucket counts, which FerretDB
// cannot keep under concurrent writes (its updates are not atomic, DESIGN.md).
//
// Only on FerretDB and only with its PostgreSQL URL; on MongoDB this is null and the stores read
// through the driver, where their declared indexes serve the same page.
import pg from 'pg';
import type { Db } from 'mongodb';
import { ferretTables, isFerretDb } from './ferret-gin.ts';
import { fromPjson } from './ferret-pjson.ts';
import { Args, groupValue, orderOf, whereOf } from './ferret-sql.ts';

/** A page's documents (as the driver reads them) in order, and how many match. */
export interface DocPage { docs: Record<string, unknown>[]; total: number }

export interface FerretReads {
  /**
   * The filter's matches at positions skip..skip+limit in the sort's order, read from FerretDB's
   * table and decoded (core/ferret-pjson.ts), and how many match. Null when it cannot answer:
   * not FerretDB, no table yet, a filter or sort outside core/ferret-sql.ts's subset, or a
   * stored type the decoder does not know.
   */
  page(collection: string, filter: Record<string, unknown>, sort: Record<string, 1 | -1>, skip: number, limit: number): Promise<DocPage | null>;
  /** `$group` by top-level fields (`{ key: '$field' }`) with a count `n`, over the filter's matches; null as above. */
  group(collection: string, filter: Record<string, unknown>, by: Record<string, string>): Promise<{ _id: Record<string, unknown>; n: number }[] | null>;
  /**
   * Every match of the filter in the sort's order, as the driver would read the documents, in
   * batches read from a PostgreSQL cursor (its own connection) as the consumer asks: the first
   * batch comes off the sort's index (core/ferret-gin.ts) before the rest is read. Null as above.
   */
  rows(collection: string, filter: Record<string, unknown>, sort: Record<string, 1 | -1>, batch: number): Promise<AsyncGenerator<Record<string, unknown>[]> | null>;
  /** SQL statements sent so far (benches count them beside the driver's commands). */
  statements(): number;
  close(): Promise<void>;
}

export function createFerretReads(postgresUrl: string, db: Db): FerretReads {
  let pool: pg.Pool | null = null;
  let ferret: Promise<boolean> | null = null;
  const tables = new Map<string, string>();
  let statements = 0;
  const pgPool = () => (pool ??= new pg.Pool({ connectionString: postgresUrl, max: 4, connectionTimeoutMillis: 2000, idleTimeoutMillis: 10_000, allowExitOnIdle: true, statement_timeout: 30_000 }));
  const open = () => { statements++; return pgPool(); };

  async function tableOf(collection: string): Promise<string | null> {
    const known = tables.get(collection);
    if (known) return known;
    const table = (await ferretTables((text, values) => open().query(text, values), db.databaseName))?.get(collection);
    if (!table) return null;
    const qualified = `${pg.escapeIdentifier(db.databaseName)}.${pg.escapeIdentifier(table)}`;
    tables.set(collection, qualified);
    return qualified;
  }

  async function ready(collection: string) {
    ferret ??= isFerretDb(db);
    return (await ferret) ? tableOf(collection) : null;
  }
  /** A failed statement (the table dropped and made again, PostgreSQL gone) falls back to the driver. */
  const orNull = async <T>(collection: string, fn: () => Promise<T | null>): Promise<T | null> => {
    try { return await fn(); } catch { tables.delete(collection); return null; }
  };

  /** A read-only transaction's cursor on a connection of its own (a long export holds no pool slot). */
  async function* cursor(text: string, values: unknown[], batch: number): AsyncGenerator<Record<string, unknown>[]> {
    const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 2000, statement_timeout: 30_000 });
    await client.connect();
    try {
      statements += 2;
      await client.query('BEGIN READ ONLY');
      await client.query(`DECLARE rows NO SCROLL CURSOR FOR ${text}`, values);
      for (;;) {
        statements++;
        const { rows } = await client.query<{ _jsonb: Record<string, unknown> }>(`FETCH ${Math.max(1, Math.floor(batch))} FROM rows`);
        if (rows.length) yield rows.map((r) => fromPjson(r._jsonb));
        if (rows.length < batch) return;
      }
    } finally {
      // Also when the consumer stops early (a download cancelled): the transaction ends with the connection.
      await client.end().catch(() => undefined);
    }
  }

  /** The table, conditions and order of an ordered read; null when any of them cannot be pushed. */
  async function ordered(collection: string, filter: Record<string, unknown>, sort: Record<string, 1 | -1>) {
    const table = await ready(collection);
    if (!table) return null;
    const a = new Args();
    const where = whereOf(filter, a);
    const order = where && orderOf(sort);
    return where && order ? { table, a, where, order } : null;
  }

  return {
    page: (collection, filter, sort, skip, limit) => orNull(collection, async () => {
      const read = await ordered(collection, filter, sort);
      if (!read) return null;
      const { table, a, where, order } = read;
      const n = a.values.length;
      const [page, count] = await Promise.all([
        limit > 0
          ? open().query<{ _jsonb: Record<string, unknown> }>(`SELECT _jsonb FROM ${table} WHERE ${where} ORDER BY ${order} OFFSET $${n + 1} LIMIT $${n + 2}`, [...a.values, skip, limit])
          : Promise.resolve({ rows: [] as { _jsonb: Record<string, unknown> }[] }),
        // The count's own arguments: the same conditions, numbered from $1 again.
        (() => { const c = new Args(); return open().query<{ n: string }>(`SELECT count(*) AS n FROM ${table} WHERE ${whereOf(filter, c)}`, c.values); })(),
      ]);
      return { docs: page.rows.map((r) => fromPjson(r._jsonb)), total: Number(count.rows[0].n) };
    }),
    group: (collection, filter, by) => orNull(collection, async () => {
      const table = await ready(collection);
      if (!table) return null;
      const a = new Args();
      const where = whereOf(filter, a);
      const keys = Object.entries(by);
      if (!where || !keys.every(([, v]) => /^\$[A-Za-z_][A-Za-z0-9_]*$/.test(v))) return null;
      const select = keys.map(([, v], i) => `_jsonb->${a.add(v.slice(1))}::text AS k${i}`);
      const rows = await open().query<Record<string, unknown>>(
        `SELECT ${select.join(', ')}, count(*) AS n FROM ${table} WHERE ${where} GROUP BY ${keys.map((_, i) => i + 1).join(', ')}`, a.values);
      return rows.rows.map((r) => ({ _id: Object.fromEntries(keys.map(([k], i) => [k, groupValue(r[`k${i}`])])), n: Number(r.n) }));
    }),
    rows: (collection, filter, sort, batch) => orNull(collection, async () => {
      const read = await ordered(collection, filter, sort);
      return read && cursor(`SELECT _jsonb FROM ${read.table} WHERE ${read.where} ORDER BY ${read.order}`, read.a.values, batch);
    }),
    statements: () => statements,
    async close() {
      const p = pool;
      pool = null;
      await p?.end().catch(() => undefined);
    },
  };
}
