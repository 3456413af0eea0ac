import t from 'tap';
import { buildTestApp } from '../helper.ts';

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
