// The embedded FerretDB holds a PostgreSQL connection per update statement until a command
// ends, and hangs for good when one command needs more than its pool (core/db.ts
// BULK_STATEMENTS). Many statements go through bulkWriteInChunks; this proves 250 do.
import t from 'tap';
import { BULK_STATEMENTS, bulkWriteInChunks } from '../../core/db.ts';
import { buildTestApp } from '../helper.ts';

t.test('bulkWriteInChunks: 250 updates in commands of BULK_STATEMENTS, all applied', async (t) => {
  const { ctx } = await buildTestApp(t);
  const col = ctx.db.db.collection<{ _id: string; v: number }>('bulk_probe');
  await col.insertMany(Array.from({ length: 250 }, (_, i) => ({ _id: `k${i}`, v: 0 })));
  const before = ctx.db.commandCount();
  await bulkWriteInChunks(col, Array.from({ length: 250 }, (_, i) => ({ updateOne: { filter: { _id: `k${i}` }, update: { $set: { v: i } } } })));
  t.equal(ctx.db.commandCount() - before, Math.ceil(250 / BULK_STATEMENTS), `one command per ${BULK_STATEMENTS} statements`);
  t.equal(await col.countDocuments({ v: { $gt: 0 } }), 249, 'every update applied');
  const idle = ctx.db.commandCount();
  await bulkWriteInChunks(col, []);
  t.equal(ctx.db.commandCount(), idle, 'nothing to write sends nothing');
});
