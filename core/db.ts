// MongoDB access for every store. A store declares its collections with their indexes
// here; the engine creates them at boot and the index check (scripts/check-indexes.ts)
// proves every query the stores send is covered by one (DESIGN.md: FerretDB scans,
// production MongoDB must not).
import { appendFileSync, mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { watchHeartbeats } from './db-watchdog.ts';
import { ensureGinIndexes, isFerretDb, type GinResult } from './ferret-gin.ts';
import { createFerretReads, type FerretReads } from './ferret-reads.ts';
import { MongoClient, MongoServerError, MongoNetworkError, MongoServerSelectionError, MongoNotConnectedError, MongoTopologyClosedError, type AnyBulkWriteOperation, type Collection, type OptionalUnlessRequiredId, type Db, type Document, type IndexDirection } from 'mongodb';

export interface IndexSpec {
  key: Record<string, IndexDirection>;
  unique?: boolean;
  name?: string;
}
export interface CollectionSpec {
  name: string;
  /** The plugin (or core module) that owns the collection; named in index-check failures. */
  owner: string;
  indexes: IndexSpec[];
  /** Collections whose queries a third-party library writes (Agenda) are not checked. */
  unchecked?: boolean;
}

export interface Database {
  client: MongoClient;
  db: Db;
  collection<T extends Document>(spec: CollectionSpec): Collection<T>;
  specs(): CollectionSpec[];
  ensureIndexes(): Promise<void>;
  /** What the last ensureIndexes did about FerretDB's GIN indexes (core/ferret-gin.ts); null when it did nothing. */
  ginIndexes(): GinResult | null;
  /** On FerretDB with its PostgreSQL URL: page reads it cannot bound, asked of PostgreSQL (core/ferret-reads.ts); else null. */
  pushdown: FerretReads | null;
  /** Count of database commands sent since the app started (bench: commands per request). */
  commandCount(): number;
  ping(): Promise<number>;
  close(): Promise<void>;
}

const QUERY_COMMANDS = new Set(['find', 'update', 'delete', 'findAndModify', 'count', 'aggregate', 'distinct']);

export interface DatabaseOptions {
  queryLog?: string;
  /** FerretDB's PostgreSQL URL: on FerretDB, ensureIndexes adds GIN indexes for equality reads (core/ferret-gin.ts). */
  postgresUrl?: string;
  /** Where the heartbeat watchdog (core/db-watchdog.ts) reports what it did. */
  log?: (msg: string, details: Record<string, unknown>) => void;
}

const CONNECT_TIMEOUT_MS = 5000;

export async function connectDatabase(uri: string, dbName: string, opts: DatabaseOptions = {}): Promise<Database> {
  const client = new MongoClient(uri, {
    monitorCommands: true,
    serverSelectionTimeoutMS: 5000,
    // Bounds each connection attempt and the monitor's heartbeat (whose socket timeout it is): with
    // the default 30 s, a database that stopped mid-request was seen again up to a minute later.
    connectTimeoutMS: CONNECT_TIMEOUT_MS,
    maxPoolSize: 20,
    ignoreUndefined: true,
  });
  const stopWatchdog = watchHeartbeats(client, { heartbeatTimeoutMs: CONNECT_TIMEOUT_MS, log: opts.log });
  await client.connect();
  const db = client.db(dbName);
  const specs = new Map<string, CollectionSpec>();
  let commands = 0;
  let gin: GinResult | null = null;
  const pushdown = opts.postgresUrl ? createFerretReads(opts.postgresUrl, db) : null;

  client.on('commandStarted', (event) => {
    commands++;
    if (opts.queryLog && QUERY_COMMANDS.has(event.commandName)) recordQuery(opts.queryLog, event.commandName, event.command);
  });
  if (opts.queryLog) mkdirSync(dirname(opts.queryLog), { recursive: true });

  return {
    client,
    db,
    collection<T extends Document>(spec: CollectionSpec) {
      const known = specs.get(spec.name);
      if (known && known !== spec) throw new Error(`Collection ${spec.name} declared twice (${known.owner}, ${spec.owner})`);
      specs.set(spec.name, spec);
      return db.collection<T>(spec.name);
    },
    specs: () => [...specs.values()],
    async ensureIndexes() {
      for (const spec of specs.values()) {
        if (opts.queryLog) appendLine(opts.queryLog, { spec });
        if (!spec.indexes.length) continue;
        // Only the missing ones, one per call: FerretDB 1.24 drops the connection when one
        // createIndexes call lists several indexes that already exist (a second boot).
        const existing = new Set((await db.collection(spec.name).listIndexes().toArray().catch(() => [])).map((i) => i.name as string));
        for (const i of spec.indexes) {
          const name = i.name ?? indexName(i.key);
          if (!existing.has(name)) await db.collection(spec.name).createIndex(i.key, { unique: i.unique, name });
        }
      }
      if (opts.postgresUrl && await isFerretDb(db)) {
        // A collection without declared indexes has no table until its first insert: make it, so
        // its `_id` gets its GIN index now rather than at the next boot.
        const have = new Set((await db.listCollections({}, { nameOnly: true }).toArray()).map((c) => c.name));
        for (const spec of specs.values()) {
          if (!have.has(spec.name)) await db.createCollection(spec.name).catch((err: unknown) => { if (!(err instanceof MongoServerError && err.code === 48)) throw err; });
        }
        // Without them the service is slower, not wrong: a PostgreSQL it cannot reach is reported, not fatal.
        gin = await ensureGinIndexes(opts.postgresUrl, dbName, [...specs.values()])
          .catch((err: unknown) => ({ created: [], existing: 0, skipped: [], error: err instanceof Error ? err.message : String(err) }));
      }
    },
    ginIndexes: () => gin,
    pushdown,
    commandCount: () => commands,
    async ping() {
      const started = performance.now();
      await db.command({ ping: 1 });
      return performance.now() - started;
    },
    async close() {
      stopWatchdog();
      await pushdown?.close();
      await client.close();
    },
  };
}

export const indexName = (key: Record<string, unknown>) => Object.entries(key).map(([k, v]) => `${k}_${v}`).join('_');

/** A unique index refused the write: 11000 on inserts; FerretDB reports updates as code 1 with PostgreSQL's SQLSTATE 23505. */
export const isDuplicateKey = (err: unknown) =>
  err instanceof MongoServerError && (err.code === 11000 || /SQLSTATE 23505|duplicate key/.test(err.message));

/** The database could not be reached (as opposed to refusing a command). */
export const isStoreDown = (err: unknown) =>
  err instanceof MongoServerSelectionError || err instanceof MongoNetworkError
  || err instanceof MongoNotConnectedError || err instanceof MongoTopologyClosedError;

/** Inserts the document; false when a unique index refused it (the exactly-once building block of DESIGN.md). */
export async function insertUnlessDuplicate<T extends Document>(col: Collection<T>, doc: OptionalUnlessRequiredId<T>): Promise<boolean> {
  try {
    await col.insertOne(doc);
    return true;
  } catch (err) {
    if (isDuplicateKey(err)) return false;
    throw err;
  }
}

/** Appends the shape of one query (collection, filter, sort) as a JSON line for the index check. */
function recordQuery(file: string, command: string, body: Document) {
  const collection = String(body[command]);
  // The driver hands a cursor's sort over as a Map, which JSON would write as {}.
  const sortOf = (s: unknown) => (s instanceof Map ? Object.fromEntries(s) : s) as Document | undefined;
  const shapes: { filter: Document; sort?: Document }[] = [];
  if (command === 'find') shapes.push({ filter: body.filter ?? {}, sort: sortOf(body.sort) });
  else if (command === 'count' || command === 'distinct') shapes.push({ filter: body.query ?? {} });
  else if (command === 'findAndModify') shapes.push({ filter: body.query ?? {}, sort: sortOf(body.sort) });
  else if (command === 'update') for (const u of body.updates ?? []) shapes.push({ filter: u.q ?? {} });
  else if (command === 'delete') for (const d of body.deletes ?? []) shapes.push({ filter: d.q ?? {} });
  else if (command === 'aggregate') {
    const pipeline: Document[] = body.pipeline ?? [];
    const match = pipeline[0]?.$match;
    // Only a $sort right after the leading $match sorts the collection's documents; a later one
    // (after $group, $project…) sorts what the pipeline made, which no index serves.
    shapes.push({ filter: match ?? {}, sort: sortOf(pipeline[match ? 1 : 0]?.$sort) });
  }
  for (const shape of shapes) appendLine(file, { collection, command, filter: shape.filter, sort: shape.sort ?? null });
}

function appendLine(file: string, row: unknown) {
  const line = JSON.stringify(row) + '\n';
  try {
    appendFileSync(file, line);
  } catch {
    // The folder is cleared at the start of each test run; recreate it.
    mkdirSync(dirname(file), { recursive: true });
    appendFileSync(file, line);
  }
}

/**
 * Object keys the database refuses (FerretDB rejects any key containing "." or starting with
 * "$"; MongoDB restricts them too), as in a tag such as `kubernetes.io/role` inside a drift's
 * diff or a request body kept in the audit trail: the dot and the leading dollar are written
 * as their full-width forms (U+FF0E, U+FF04), the usual MongoDB escape. Only keys change.
 */
export const escapeKey = (key: string) => key.replace(/\./g, '\uFF0E').replace(/^\$/, '\uFF04');

export function storableKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(storableKeys);
  if (!value || typeof value !== 'object' || value instanceof Date) return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [escapeKey(k), storableKeys(v)]));
}

/**
 * Statements per bulk write command. The embedded FerretDB holds one PostgreSQL connection per
 * update statement until the whole command ends, and hangs for good (every client with it) when
 * one command, or a few at once, need more than its pool of 90: a reorder of 120 widgets in one
 * command was enough. Small commands keep any number of statements safe; MongoDB does not mind.
 */
export const BULK_STATEMENTS = 10;

/** bulkWrite in commands of at most BULK_STATEMENTS statements, one after the other. */
export async function bulkWriteInChunks<T extends Document>(col: Collection<T>, ops: AnyBulkWriteOperation<T>[], ordered = false): Promise<void> {
  for (let i = 0; i < ops.length; i += BULK_STATEMENTS) await col.bulkWrite(ops.slice(i, i + BULK_STATEMENTS), { ordered });
}

/** What a store's update may change: never a record's identity, organization or creation time. */
export type Changes<T> = Partial<Omit<T, '_id' | 'orgId' | 'createdAt'>>;

/**
 * The named fields a caller means to change, without the ones it left undefined. Services
 * build an update from named input fields through this, never by spreading a request body.
 */
export const namedChanges = <T extends Record<string, unknown>>(fields: T): Partial<T> =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Partial<T>;
