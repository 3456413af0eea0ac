// The embedded FerretDB, made to use indexes for equality reads (DESIGN.md, "Why it scans, and
// what helps"). FerretDB 1.24 turns a top-level scalar equality filter into
// `_jsonb->'f' @> value`, which the btree expression indexes `createIndexes` makes cannot serve:
// every read scans the collection's table. A GIN index `((_jsonb->'f') jsonb_path_ops)` per
// equality field can. This module derives those fields from the indexes the stores declare and
// creates the GIN indexes straight in PostgreSQL, idempotently (CREATE INDEX IF NOT EXISTS).
// Only on FerretDB (buildInfo answers `ferretdbVersion`), never on MongoDB, and only when the
// service knows FerretDB's PostgreSQL URL (FERRETDB_POSTGRES_URL).
import { createHash } from 'node:crypto';
import pg from 'pg';
import type { Db } from 'mongodb';
import type { CollectionSpec, IndexSpec } from './db.ts';
import { sortColumns } from './ferret-sql.ts';

/**
 * A collection whose pages core/ferret-reads.ts orders in PostgreSQL: each sort named here gets a
 * btree index on the same expressions as the pushed ORDER BY (ferret-sql.ts sortColumns), so a
 * page of the first matches in that order (or its exact reverse) walks the index and stops after
 * LIMIT rows, instead of sorting every match. Declared beside the collection's indexes.
 */
export type SortedSpec = CollectionSpec & {
  pgSorts?: Record<string, 1 | -1>[];
  /**
   * Keep documents uncompressed in their rows (toast_tuple_target 8160; new and rewritten rows):
   * PostgreSQL decompresses a compressed document once per field a pushed count or grouping
   * tests, which made counting 100,000 drifts take 3 s; an uncompressed one is read in place.
   */
  pgInline?: boolean;
};

/** True when the server behind the driver is FerretDB rather than MongoDB. */
export async function isFerretDb(db: Db): Promise<boolean> {
  const info = await db.admin().command({ buildInfo: 1 }).catch(() => ({} as Record<string, unknown>));
  return 'ferretdbVersion' in info || 'ferretdbFeatures' in info;
}

/**
 * The fields an index serves by equality: `_id` always; of a single-field index its field; of a
 * compound index the leading fields up to the first descending one, without its last field
 * (a compound key ends with the sort or range field; a unique key is looked up whole).
 */
export function equalityFields(indexes: IndexSpec[]): string[] {
  const fields = new Set<string>(['_id']);
  for (const i of indexes) {
    const entries = Object.entries(i.key);
    if (entries.length === 1) {
      fields.add(entries[0][0]);
      continue;
    }
    const run: string[] = [];
    for (const [field, dir] of entries) {
      if (dir !== 1) break;
      run.push(field);
    }
    const upTo = i.unique && run.length === entries.length ? run.length : Math.min(run.length, entries.length - 1);
    for (const f of run.slice(0, upTo)) fields.add(f);
  }
  // Dotted paths are not top-level fields: FerretDB does not push them down.
  return [...fields].filter((f) => !f.includes('.'));
}

export interface GinResult { created: string[]; existing: number; skipped: string[]; error?: string }

/** A PostgreSQL index name (at most 63 bytes) unique per table and field. */
const ginName = (table: string, field: string) =>
  `${table.slice(0, 36)}_${field.toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 12)}_${createHash('sha256').update(`${table}\0${field}`).digest('hex').slice(0, 8)}_gin`;
/** A sort index's name: the hash covers its columns, so a changed expression makes a new index. */
const sortName = (table: string, sort: Record<string, 1 | -1>, columns: string[]) =>
  `${table.slice(0, 36)}_${Object.keys(sort)[0].toLowerCase().replace(/[^a-z0-9]/g, '').slice(0, 12)}_${createHash('sha256').update(`${table}\0${columns.join(',')}`).digest('hex').slice(0, 8)}_sort`;

/** Sends one SQL statement (a pg client's or pool's `query`). */
export type SqlQuery = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/**
 * The PostgreSQL table FerretDB keeps each collection of database `dbName` in (read from its
 * metadata table), or null before FerretDB has made the database's schema.
 */
export async function ferretTables(query: SqlQuery, dbName: string): Promise<Map<string, string> | null> {
  const schema = pg.escapeIdentifier(dbName);
  const found = await query('SELECT to_regclass($1) AS reg', [`${schema}._ferretdb_database_metadata`]);
  if (!found.rows[0]?.reg) return null;
  const meta = await query(`SELECT _jsonb->>'_id' AS name, _jsonb->>'table' AS tbl FROM ${schema}._ferretdb_database_metadata`);
  return new Map(meta.rows.map((r) => [String(r.name), String(r.tbl)]));
}

/**
 * Creates the GIN indexes of every declared collection of database `dbName` (a PostgreSQL schema
 * of the same name). A collection FerretDB has not made a table for yet is skipped (named in
 * `skipped`): it is empty, and the next boot indexes it.
 */
export async function ensureGinIndexes(postgresUrl: string, dbName: string, specs: CollectionSpec[]): Promise<GinResult> {
  const client = new pg.Client({ connectionString: postgresUrl, connectionTimeoutMillis: 5000, statement_timeout: 120_000 });
  await client.connect();
  const result: GinResult = { created: [], existing: 0, skipped: [] };
  try {
    const schema = client.escapeIdentifier(dbName);
    const tables = await ferretTables((text, values) => client.query(text, values), dbName);
    if (!tables) return { ...result, skipped: specs.map((s) => s.name) };
    const present = new Set((await client.query<{ indexname: string }>('SELECT indexname FROM pg_indexes WHERE schemaname = $1', [dbName])).rows.map((r) => r.indexname));
    for (const spec of specs) {
      const table = tables.get(spec.name);
      if (!table) {
        result.skipped.push(spec.name);
        continue;
      }
      if ((spec as SortedSpec).pgInline) {
        const qualified = `${schema}.${client.escapeIdentifier(table)}`;
        const options = (await client.query('SELECT reloptions FROM pg_class WHERE oid = to_regclass($1)', [qualified])).rows[0]?.reloptions as string[] | null;
        if (options?.includes('toast_tuple_target=8160')) result.existing++;
        else {
          await client.query(`ALTER TABLE ${qualified} SET (toast_tuple_target = 8160)`);
          result.created.push(`${spec.name}.inline`);
        }
      }
      const wanted: [string, string, string][] = equalityFields(spec.indexes).map((field) => [ginName(table, field), `${spec.name}.${field}`,
        `USING gin ((_jsonb->${client.escapeLiteral(field)}) jsonb_path_ops)`]);
      for (const sort of (spec as SortedSpec).pgSorts ?? []) {
        const columns = sortColumns(sort);
        if (columns) wanted.push([sortName(table, sort, columns), `${spec.name}.sort(${Object.entries(sort).map(([f, d]) => `${f}:${d}`).join(',')})`, `(${columns.join(', ')})`]);
      }
      for (const [name, label, body] of wanted) {
        if (present.has(name)) {
          result.existing++;
          continue;
        }
        try {
          await client.query(`CREATE INDEX IF NOT EXISTS ${client.escapeIdentifier(name)} ON ${schema}.${client.escapeIdentifier(table)} ${body}`);
          result.created.push(label);
        } catch (err) {
          // Another process booting at the same moment made it first (IF NOT EXISTS is not atomic
          // against a concurrent CREATE INDEX): 23505 on pg_class, or 42P07.
          const code = (err as { code?: string }).code;
          if (code !== '23505' && code !== '42P07') throw err;
          result.existing++;
        }
      }
    }
    return result;
  } finally {
    await client.end().catch(() => undefined);
  }
}
