import t from 'tap';
import { buildTestApp } from '../helper.ts';
import { onceKeepMs } from '../../core/once.ts';

t.test('exactly-once: 50 concurrent callers, one winner, on the embedded database', async (t) => {
  const { ctx } = await buildTestApp(t);
  for (let round = 0; round < 3; round++) {
    const results = await Promise.all(Array.from({ length: 50 }, () => ctx.once.claim(`race-${round}`, 'org1')));
    t.equal(results.filter(Boolean).length, 1, `round ${round}: exactly one caller wins`);
  }
  t.equal(await ctx.once.claim('race-0'), false, 'a key once claimed stays claimed');
  await ctx.once.forgetOrg('org1');
  t.equal(await ctx.once.claim('race-0'), true, 'forgetting an organization releases its keys');
});

t.test('exactly-once within a window: Redis SET NX', async (t) => {
  const { ctx } = await buildTestApp(t);
  const results = await Promise.all(Array.from({ length: 50 }, () => ctx.once.claimFor('nonce-x', 60_000)));
  t.equal(results.filter(Boolean).length, 1, 'exactly one caller wins');
  ctx.redis.main.disconnect();
  const err = await ctx.once.claimFor('nonce-y', 1000).then(() => null, (e: { statusCode?: number }) => e);
  t.equal(err?.statusCode, 503, 'Redis down: 503, never a silent pass');
});

t.test('claims are kept past anything they guard, then purged; released and stale claims', async (t) => {
  const { ctx } = await buildTestApp(t);
  const day = 86_400_000;
  t.equal(onceKeepMs(ctx.config), 32 * day, 'defaults: 30-day refresh tokens plus two days');
  t.equal(onceKeepMs({ REFRESH_TOKEN_TTL: 3600, DELETION_GRACE_DAYS: 14 }), 16 * day, 'the longest guarded life decides (a 14-day deletion grace)');
  t.equal(onceKeepMs({ REFRESH_TOKEN_TTL: 3600, DELETION_GRACE_DAYS: 0 }), 9 * day, 'a week at least');
  const keys = ctx.db.db.collection<{ _id: string; at: Date; orgId?: string }>('once_keys');
  await ctx.once.claim('fresh', 'o');
  await keys.insertOne({ _id: 'old', at: new Date(Date.now() - 40 * day), orgId: 'o' });
  t.equal(await ctx.once.purgeBefore(new Date(Date.now() - 32 * day)), 1, 'one claim past its keep time');
  t.same((await keys.find({ orgId: 'o' }).toArray()).map((k) => k._id), ['fresh'], 'the fresh one stays');

  await ctx.once.release('fresh');
  t.equal(await ctx.once.claim('fresh', 'o'), true, 'a released claim can be claimed again');
  t.equal(await ctx.once.claim('fresh', 'o', { staleAfterMs: 60_000 }), false, 'a fresh claim is not taken over');
  // Several rounds: each round's winner's claim is made stale again and raced for once more.
  for (let round = 1; round <= 5; round++) {
    await keys.updateOne({ _id: 'fresh' }, { $set: { at: new Date(Date.now() - 120_000 - round) } });
    const takers = await Promise.all(Array.from({ length: 20 }, () => ctx.once.claim('fresh', 'o', { staleAfterMs: 60_000 })));
    t.equal(takers.filter(Boolean).length, 1, `round ${round}: a stale one is taken over by one of 20 concurrent callers`);
    t.equal(await ctx.once.claim('fresh', 'o', { staleAfterMs: 60_000 }), false, `round ${round}: the new claim is fresh`);
  }
});
