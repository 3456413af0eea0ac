// FerretDB's GIN indexes (core/ferret-gin.ts): made for the equality fields of the declared
// indexes when FERRETDB_POSTGRES_URL is set, idempotent across boots, used by PostgreSQL for an
// equality read, and absent without the URL.
import t from 'tap';
import pg from 'pg';
import { buildTestApp, serviceUrls } from '../helper.ts';
import { equalityFields, ensureGinIndexes, isFerretDb } from '../../core/ferret-gin.ts';
import { orderOf } from '../../core/ferret-sql.ts';

const { postgresUrl } = serviceUrls();

t.test('equality fields of declared indexes', async (t) => {
  t.same(equalityFields([]), ['_id']);
  t.same(equalityFields([{ key: { email: 1 }, unique: true }]), ['_id', 'email']);
  // Compound: the leading ascending fields without the last (the sort or range field).
  t.same(equalityFields([{ key: { orgId: 1, status: 1, severityRank: 1, detectedAt: -1, _id: -1 } }]), ['_id', 'orgId', 'status', 'severityRank']);
  t.same(equalityFields([{ key: { orgId: 1, createdAt: 1 } }]), ['_id', 'orgId']);
  // A unique compound key is looked up whole.
  t.same(equalityFields([{ key: { orgId: 1, repositoryConfig: 1, openKey: 1, resourceAddress: 1 }, unique: true }]), ['_id', 'orgId', 'repositoryConfig', 'openKey', 'resourceAddress']);
  t.same(equalityFields([{ key: { 'a.b': 1 } }]), ['_id']);
});

t.test('on FerretDB with its PostgreSQL URL: GIN indexes, idempotent, used', { skip: postgresUrl ? false : 'no FerretDB PostgreSQL URL in services.json' }, async (t) => {
  const { ctx } = await buildTestApp(t, { env: { FERRETDB_POSTGRES_URL: postgresUrl }, fresh: true });
  t.ok(await isFerretDb(ctx.db.db), 'the embedded database is detected as FerretDB');
  const first = ctx.db.ginIndexes();
  t.ok(first, 'ensureIndexes reported its GIN work');
  t.notOk(first!.error, 'no error');
  t.ok(first!.created.includes('users._id') && first!.created.includes('users.email'), 'users: _id and email');
  t.ok(first!.created.includes('drifts.orgId') && first!.created.includes('scans.status'), 'drifts.orgId, scans.status');
  // A second run (another boot) creates nothing and finds every one.
  const again = await ensureGinIndexes(postgresUrl!, ctx.db.db.databaseName, ctx.db.specs());
  t.same(again.created, [], 'a second run creates nothing');
  t.equal(again.existing, first!.created.length + first!.existing, 'and finds every index');

  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  t.teardown(() => client.end());
  const schema = client.escapeIdentifier(ctx.db.db.databaseName);
  const table = (await client.query(`SELECT _jsonb->>'table' AS t FROM ${schema}._ferretdb_database_metadata WHERE _jsonb->>'_id' = 'users'`)).rows[0].t as string;
  const defs = (await client.query('SELECT indexdef FROM pg_indexes WHERE schemaname = $1 AND tablename = $2', [ctx.db.db.databaseName, table])).rows.map((r) => r.indexdef as string);
  t.ok(defs.some((d) => /USING gin .*_jsonb -> 'email'::text.* jsonb_path_ops/.test(d)), 'a GIN jsonb_path_ops index on users.email', { defs });
  // The query FerretDB sends for findOne({email}) is served by it (planner forced off scans).
  await client.query('SET enable_seqscan = off');
  const plan = (await client.query(`EXPLAIN SELECT _jsonb FROM ${schema}.${client.escapeIdentifier(table)} WHERE _jsonb->'email' @> '"a@example.com"'`)).rows.map((r) => r['QUERY PLAN']).join('\n');
  t.match(plan, /Bitmap Index Scan on \S+_gin/, 'the equality read uses the GIN index');

  // The drift list's order has a btree index on the pushed ORDER BY's own expressions (issue 36,
  // point 5): a page walks it, forward for the list order and backward for its reverse.
  t.ok(first!.created.includes('drifts.sort(detectedAt:-1,_id:-1)'), 'drifts: an index in the list order', { created: first!.created });
  t.ok(first!.created.includes('drifts.inline'), 'drifts: documents kept uncompressed in their rows');
  const drifts = (await client.query(`SELECT _jsonb->>'table' AS t FROM ${schema}._ferretdb_database_metadata WHERE _jsonb->>'_id' = 'drifts'`)).rows[0].t as string;
  await client.query('SET enable_sort = off');
  const ordered = async (sort: Record<string, 1 | -1>) => (await client.query(`EXPLAIN SELECT _jsonb FROM ${schema}.${client.escapeIdentifier(drifts)} WHERE _jsonb->'orgId' @> '"o"' ORDER BY ${orderOf(sort)} LIMIT 20`)).rows.map((r) => r['QUERY PLAN']).join('\n');
  t.match(await ordered({ detectedAt: -1, _id: -1 }), /Index Scan using \S+_sort/, 'the list order walks the sort index');
  t.match(await ordered({ detectedAt: 1, _id: 1 }), /Index Scan Backward using \S+_sort/, 'its reverse walks it backward');
});

t.test('without FERRETDB_POSTGRES_URL: no GIN work', async (t) => {
  const { ctx } = await buildTestApp(t);
  t.equal(ctx.db.ginIndexes(), null);
});
