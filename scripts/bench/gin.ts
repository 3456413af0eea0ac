// `npm run bench -- gin`: FerretDB's equality reads and writes without and with the GIN indexes
// of core/ferret-gin.ts, back to back in one process on one collection of BENCH_GIN_DOCS
// (default 30,000) documents. Needs the embedded FerretDB (started with
// plan_cache_mode=force_custom_plan) and its PostgreSQL URL (services.json or FERRETDB_POSTGRES_URL).
import os from 'node:os';
import { randomBytes } from 'node:crypto';
import { connectDatabase, type CollectionSpec } from '../../core/db.ts';
import { serviceUrls } from '../../test/helper.ts';
import { fmt, table } from './lib.ts';

const DOCS = Number(process.env.BENCH_GIN_DOCS ?? 30_000);
const SAMPLES = 15;
const SPEC: CollectionSpec = { name: 'items', owner: 'bench', indexes: [{ key: { hash: 1 }, unique: true }, { key: { orgId: 1, status: 1, createdAt: -1 } }] };
const { mongoUri, postgresUrl } = serviceUrls();
if (!postgresUrl) throw new Error('no FerretDB PostgreSQL URL: set FERRETDB_POSTGRES_URL');
const name = `bench_gin_${Date.now()}`;
const plain = await connectDatabase(mongoUri, name);
const col = plain.collection(SPEC);
await plain.ensureIndexes();
const ids: string[] = [];
for (let i = 0; i < DOCS; i += 1000) {
  const docs = Array.from({ length: Math.min(1000, DOCS - i) }, (_, k) => {
    const _id = randomBytes(12).toString('hex');
    ids.push(_id);
    return { _id, hash: `h${i + k}`, orgId: `org${(i + k) % 50}`, status: (i + k) % 3 ? 'done' : 'open', createdAt: new Date(), n: 0 };
  });
  await col.insertMany(docs as never[]);
}
process.stderr.write(`seeded ${DOCS} documents\n`);
const median = async (fn: (i: number) => Promise<unknown>) => {
  const xs: number[] = [];
  for (let i = 0; i < SAMPLES; i++) { const t0 = performance.now(); await fn(i); xs.push(performance.now() - t0); }
  return xs.sort((a, b) => a - b)[Math.floor(SAMPLES / 2)];
};
const pick = (i: number) => ids[(i * 7919) % ids.length];
const measure = async () => ({
  byId: await median((i) => col.findOne({ _id: pick(i) as never })),
  byHash: await median((i) => col.findOne({ hash: `h${(i * 7919) % DOCS}` })),
  update: await median((i) => col.updateOne({ _id: pick(i) as never }, { $inc: { n: 1 } })),
  orgStatus: await median((i) => col.find({ orgId: `org${i % 50}`, status: 'open' }).sort({ createdAt: -1 }).limit(20).toArray()),
});
try {
  const before = await measure();
  const withGin = await connectDatabase(mongoUri, name, { postgresUrl });
  withGin.collection(SPEC);
  const t0 = performance.now();
  await withGin.ensureIndexes();
  const built = performance.now() - t0;
  await withGin.close();
  const after = await measure();
  const rows = (['byId', 'byHash', 'update', 'orgStatus'] as const).map((k) => [
    { byId: 'findOne by _id', byHash: 'findOne by a unique field', update: 'updateOne by _id', orgStatus: 'find orgId+status, sort, limit 20' }[k],
    before[k], after[k], before[k] / after[k]]);
  console.log([
    `FerretDB GIN indexes: ${DOCS} documents, medians of ${SAMPLES}, node ${process.version}, ${os.cpus().length} CPUs, load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`,
    table(['operation', 'btree only ms', 'with GIN ms', 'speed-up'], rows),
    `GIN indexes built in ${fmt(built)} ms (${SPEC.indexes.length} declared indexes -> _id, hash, orgId, status)`,
  ].join('\n'));
} finally {
  await plain.db.dropDatabase().catch(() => undefined);
  await plain.close();
}
