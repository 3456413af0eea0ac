// The embedded FerretDB holds a PostgreSQL connection per update statement until a command
// ends, and hangs for good when one command needs more than its pool (core/db.ts
// BULK_STATEMENTS). Many statements go through bulkWriteInChunks; this proves 250 do.
import t from 'tap';
import { BULK_STATEMENTS, bulkWriteInChunks } from '../../core/db.ts';
import { ONCE_KEYS } from '../../core/once.ts';
import { buildTestApp } from '../helper.ts';

t.test('bulkWriteInChunks: 250 updates in commands of BULK_STATEMENTS, all applied', async (t) => {
  const { ctx } = await buildTestApp(t);
  // A declared collection (the index check covers every query of the run): the exactly-once keys.
  const col = ctx.db.collection<{ _id: string; at: Date; orgId: string }>(ONCE_KEYS);
  const orgId = 'bulk-probe';
  await col.insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: `bulk:${i}`, at: new Date(0), orgId })));
  const before = ctx.db.commandCount();
  await bulkWriteInChunks(col, Array.from({ length: 250 }, (_, i) => ({ updateOne: { filter: { _id: `bulk:${i}` }, update: { $set: { at: new Date(i) } } } })));
  t.equal(ctx.db.commandCount() - before, Math.ceil(250 / BULK_STATEMENTS), `one command per ${BULK_STATEMENTS} statements`);
  const rows = await col.find({ orgId }).toArray();
  t.equal(rows.filter((r) => r.at.getTime() === Number(r._id.slice(5))).length, 250, 'every update applied');
  const idle = ctx.db.commandCount();
  await bulkWriteInChunks(col, []);
  t.equal(ctx.db.commandCount(), idle, 'nothing to write sends nothing');
});
