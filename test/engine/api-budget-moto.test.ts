// The API budget against a real throttling proxy in front of moto (throttle-proxy.ts: AWS's own
// token bucket, 20 tokens refilled 10 per second per service): two concurrent scans of one
// account draw from one budget and stay under the proxy's rate, neither fails; without a budget
// worth the name the same two scans hit the proxy's throttle (the proof the proxy bites).
import t from 'tap';
import { detectDrift, MemoryBucketStore, type ScanInput, type ScanOutcome } from '../../runner-agent/src/engine/index.ts';
import { CREDENTIALS } from './world.ts';
import { budgetWorld } from './budget-world.ts';

const ROLES = 15;
const PROXY = { perSecond: 10, capacity: 20 };
const w = await budgetWorld(ROLES, PROXY);
t.teardown(() => w.cleanup());
const { proxy, dir } = w;

const input = (apiBudget: ScanInput['apiBudget']): ScanInput => ({
  source: { kind: 'path', path: dir }, iacPaths: [], provider: 'cloud_a', credentials: CREDENTIALS, endpoint: proxy.url, comparison: 'native', apiBudget,
});

/** Two scans of the account at once; what the proxy saw of IAM. */
async function twoScans(apiBudget: ScanInput['apiBudget']) {
  proxy.reset();
  const started = performance.now();
  const outcomes = await Promise.allSettled([detectDrift(input(apiBudget)), detectDrift(input(apiBudget))]);
  const seconds = (performance.now() - started) / 1000;
  const iam = proxy.log.filter((l) => l.service === 'iam');
  return {
    outcomes, seconds, calls: iam.length, rejected: iam.filter((l) => l.throttled).length,
    peak: proxy.peakPerSecond('iam'), mean: Math.round((iam.length / seconds) * 10) / 10,
  };
}
const ok = (o: PromiseSettledResult<ScanOutcome>) => (o.status === 'fulfilled' ? o.value : undefined);

t.test('without a real budget the two scans exceed the proxy rate and are throttled', async (t) => {
  // A rate far above the proxy's: what the scans did before the budget (halving still acts on throttles).
  const r = await twoScans({ store: new MemoryBucketStore(), rates: { 'aws:*': 1000 } });
  t.comment(`no budget: ${r.calls} IAM calls in ${r.seconds.toFixed(1)} s, peak ${r.peak}/s, mean ${r.mean}/s, ${r.rejected} throttled by the proxy`);
  t.ok(r.rejected > 0, `the proxy throttled ${r.rejected} calls`);
  t.ok(r.peak > PROXY.capacity, `the scans sent ${r.peak} calls within one second`);
  const throttled = r.outcomes.map((o) => ok(o)?.stats.throttledCalls ?? 0).reduce((a, b) => a + b, 0);
  t.ok(throttled > 0, `the scans' stats count the throttled calls (${throttled})`);
});

t.test('two concurrent scans of one account share the budget and stay under the proxy rate', async (t) => {
  // 8 per second, burst 16 (the default IAM ratio): under the proxy's 10/s and 20 tokens, for both scans together.
  const store = new MemoryBucketStore();
  const r = await twoScans({ store, rates: { 'aws:iam': 8 } });
  t.comment(`budget 8/s: ${r.calls} IAM calls in ${r.seconds.toFixed(1)} s, peak ${r.peak}/s, mean ${r.mean}/s, ${r.rejected} throttled by the proxy`);
  t.same(r.outcomes.map((o) => o.status), ['fulfilled', 'fulfilled'], 'neither scan failed');
  t.equal(r.rejected, 0, 'the proxy throttled no call');
  // A token bucket admits its burst plus one second of refill within a second: 16 + 8 here, the proxy's own 20 + 10.
  t.ok(r.peak <= 16 + 8, `at most ${r.peak} calls within any second: the budget's burst and refill (the proxy admits ${PROXY.capacity + PROXY.perSecond})`);
  t.ok(r.mean <= PROXY.perSecond, `mean ${r.mean}/s, under the proxy's refill of ${PROXY.perSecond}/s`);
  const outs = r.outcomes.map((o) => ok(o)!);
  for (const out of outs) {
    t.equal(out.resourcesScanned, ROLES, 'every role was compared');
    t.equal(out.stats.throttledCalls, 0, 'stats: no throttled call');
    t.ok(out.stats.sdkCallsByService.iam === ROLES * 3, `stats: ${out.stats.sdkCallsByService.iam} IAM calls`);
  }
  const stalest = Math.max(...proxy.log.map((l) => l.signedAgoMs));
  t.ok(stalest < 2500, `every request was signed once its token was due (oldest signature ${stalest} ms at arrival, waits ran to seconds)`);
  const waited = outs.map((o) => o.stats.waitedMs ?? 0);
  t.comment(`waitedMs per scan: ${waited.join(', ')}`);
  // 90 calls at 8/s after a burst of 16: the pair waits, not one scan alone.
  t.ok(waited.every((w) => w > 0), 'both scans waited for tokens: they drew from one bucket');
  t.ok(r.seconds >= (2 * ROLES * 3 - 16) / 8 - 1, `the pair took ${r.seconds.toFixed(1)} s: the shared rate, not twice it`);
});

t.test('a throttle halves the shared rate and the scans still complete', async (t) => {
  // 16 per second, burst 32: over the proxy; the first throttles halve the bucket (to 8, then 4 if needed).
  const store = new MemoryBucketStore();
  const r = await twoScans({ store, rates: { 'aws:iam': 16 } });
  const throttled = r.outcomes.map((o) => ok(o)?.stats.throttledCalls ?? 0);
  t.comment(`budget 16/s, halving: ${r.calls} IAM calls in ${r.seconds.toFixed(1)} s, peak ${r.peak}/s, ${r.rejected} throttled by the proxy, stats ${throttled.join(' + ')}`);
  t.same(r.outcomes.map((o) => o.status), ['fulfilled', 'fulfilled'], 'neither scan failed');
  t.ok(r.rejected > 0 && r.rejected <= 20, `only the first few calls were throttled (${r.rejected}) before the halved rate settled`);
  t.equal(throttled.reduce((a, b) => a + b, 0), r.rejected, "the scans' throttledCalls add up to what the proxy refused");
  t.ok(store.factor(`aws:123456789012:us-east-1:iam`) < 1, 'the bucket runs below its configured rate afterwards');
});
