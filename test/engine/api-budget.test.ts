// The API budget's buckets: the math (takeStep / throttleStep), and the Redis store shared by
// two engine instances (two stores on two connections, as two service processes have): what one
// takes, the other waits for; what one halves, the other sees halved. Plus the REST client's
// budget: a Google 403 rateLimitExceeded from a loopback server halves and is retried.
import t from 'tap';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { takeStep, throttleStep, factorAt, MemoryBucketStore, type BucketState } from '../../runner-agent/src/engine/budget/bucket.ts';
import { RedisBucketStore } from '../../runner-agent/src/engine/budget/redis.ts';
import { ScanBudget, bucketKey } from '../../runner-agent/src/engine/budget/index.ts';
import { apiRatesProblem, rateFor } from '../../runner-agent/src/engine/budget/rates.ts';
import { RestApi } from '../../runner-agent/src/engine/cloud/rest/api.ts';
import { restBucket } from '../../runner-agent/src/engine/cloud/rest/bucket-of.ts';
import { serviceUrls } from '../service-urls.ts';

const RATE = { perSecond: 10, burst: 5 };

t.test('bucket math: burst, then one token per 1/rate; a throttle halves, quiet minutes recover 10% each', async (t) => {
  let s: BucketState | undefined;
  const waits: number[] = [];
  for (let i = 0; i < 8; i++) { const r = takeStep(s, RATE, 1000); s = r.state; waits.push(r.waitMs); }
  t.same(waits, [0, 0, 0, 0, 0, 100, 200, 300], 'five from the burst, then reservations 100 ms apart at 10/s');
  const later = takeStep(s, RATE, 1300);
  t.equal(later.waitMs, 100, '300 ms later three tokens came back: the next waits behind the two still queued');

  const halved = throttleStep(undefined, RATE, 5000);
  t.equal(halved.factor, 0.5, 'a throttle halves the rate');
  t.equal(halved.tokens, 0, 'and empties the bucket');
  const a = takeStep(halved, RATE, 5000);
  const b = takeStep(a.state, RATE, 5000);
  t.equal(b.waitMs - a.waitMs, 200, 'tokens now come 200 ms apart (5/s)');
  t.equal(throttleStep(halved, RATE, 5500).factor, 0.5, 'a second throttle within a second is the same signal: no second halving');
  t.equal(throttleStep(halved, RATE, 6500).factor, 0.25, 'a throttle after it halves again');
  t.equal(factorAt(halved, 5000 + 59_000), 0.5, 'no recovery within the first minute');
  t.equal(factorAt(halved, 5000 + 60_000), 0.55, '+10% after one quiet minute');
  t.equal(factorAt(halved, 5000 + 8 * 60_000), 1, 'back to the configured rate after about 7 minutes');
});

t.test('rates: defaults below the documented limits, the organization overrides per service', async (t) => {
  t.same(rateFor('aws', 'ec2'), { perSecond: 10, burst: 50 }, 'EC2 Describe: half the documented 20/s refill, half the 100 burst');
  t.same(rateFor('azure', 'Microsoft.Network'), { perSecond: 3, burst: 30 }, 'ARM: under 12,000 reads an hour');
  t.same(rateFor('aws', 'ec2', { 'aws:ec2': 2 }), { perSecond: 2, burst: 10 }, 'an override keeps the burst ratio');
  t.same(rateFor('azure', 'microsoft.network', { 'azure:Microsoft.Network': 1 }), { perSecond: 1, burst: 10 }, 'namespaces compare without case');
  t.same(rateFor('google', 'storage', { 'google:*': 4 }), { perSecond: 4, burst: 8 }, 'a cloud-wide override');
  t.equal(rateFor('aws', 'iam', undefined, false), undefined, 'no defaults (an endpoint override): unlimited');
  t.equal(apiRatesProblem({ 'aws:ec2': 5 }), undefined);
  t.match(apiRatesProblem({ 'gcp:compute': 5 }), /is not "<aws\|azure\|google>:<service>"/);
  t.match(apiRatesProblem({ 'aws:ec2': 0 }), /between 0.1 and 1000/);
  t.match(apiRatesProblem([]), /must be an object/);
});

t.test('REST buckets: Azure per subscription and resource provider, Google per project and API', async (t) => {
  t.same(restBucket('azure', 'management', 'https://management.azure.com/subscriptions/SUB-1/resourceGroups/rg/providers/Microsoft.Network/virtualNetworks/v?api-version=1', 'x'),
    { account: 'sub-1', service: 'Microsoft.Network' });
  t.same(restBucket('azure', 'management', 'https://management.azure.com/subscriptions/s2/resourcegroups?api-version=1', 'x'), { account: 's2', service: 'Microsoft.Resources' });
  t.same(restBucket('azure', 'kv.vault.azure.net', 'https://kv.vault.azure.net/secrets/a', 'sub'), { account: 'sub', service: 'kv.vault.azure.net' });
  t.same(restBucket('google', 'compute', 'https://compute.googleapis.com/compute/v1/projects/p-9/zones/z/instances/i', 'own'), { account: 'p-9', service: 'compute' });
  t.equal(bucketKey('aws', '123', 'us-east-1', 'ec2'), 'aws:123:us-east-1:ec2');
});

t.test('Redis: two stores on two connections share one bucket, and a halving by one is seen by the other', async (t) => {
  const { redisUrl } = serviceUrls();
  const prefix = `test-budget-${randomBytes(4).toString('hex')}:`;
  const one = new Redis(redisUrl, { keyPrefix: prefix });
  const two = new Redis(redisUrl, { keyPrefix: prefix });
  const raw = new Redis(redisUrl);
  t.teardown(async () => { await raw.del(...(await raw.keys(`${prefix}*`))).catch(() => 0); one.disconnect(); two.disconnect(); raw.disconnect(); });
  const a = new RedisBucketStore(one);
  const b = new RedisBucketStore(two, { onError: (e) => { throw e; } });
  const key = 'aws:123456789012:us-east-1:ec2';

  const first = [];
  for (let i = 0; i < 5; i++) first.push(await a.take(key, RATE));
  t.same(first, [0, 0, 0, 0, 0], 'process A spends the burst');
  const w1 = await b.take(key, RATE);
  const w2 = await b.take(key, RATE);
  t.ok(w1 >= 70 && w1 <= 100, `process B waits for the next token (${w1} ms): the burst A spent is gone for B too`);
  t.ok(Math.abs(w2 - w1 - 100) <= 20, `and B's next is ${w2 - w1} ms later: 10/s`);

  await a.throttled(key, RATE);
  t.equal(await raw.hget(`${prefix}apibudget:${key}`, 'factor'), '0.5', 'A halved the rate in Redis');
  const h1 = await b.take(key, RATE);
  const h2 = await b.take(key, RATE);
  t.ok(Math.abs(h2 - h1 - 200) <= 20, `B's tokens now come ${h2 - h1} ms apart: 5/s, A's halving`);
  t.ok(h1 >= 150, `and B waits ${h1} ms for the first: the bucket was emptied`);
  await b.throttled(key, RATE);
  t.equal(await raw.hget(`${prefix}apibudget:${key}`, 'factor'), '0.5', "B's throttle within a second of A's does not halve again");
  t.ok(Number(await raw.pttl(`${prefix}apibudget:${key}`)) > 3_500_000, 'an idle bucket is forgotten after an hour');

  const broken = new RedisBucketStore({ eval: async () => { throw new Error('down'); } });
  t.equal(await broken.take(key, RATE), 0, 'Redis down: the process budgets alone (its own burst), never fails the call');
});

t.test('REST: a Google 403 rateLimitExceeded halves the bucket, waits and retries; the stats count it', async (t) => {
  let calls = 0;
  const server = createServer((req, res) => {
    calls++;
    if (calls === 1) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 403, message: 'Rate Limit Exceeded', errors: [{ reason: 'rateLimitExceeded' }] } }));
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ name: 'n1' }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  t.teardown(() => new Promise<void>((r) => server.close(() => r())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const store = new MemoryBucketStore();
  const budget = new ScanBudget({ store, rates: { 'google:compute': 50 } });
  const api = new RestApi({
    cloud: 'cloud_c', baseUrl: () => base, tokens: { describe: 'sa', token: async () => 't' }, grantHint: 'roles/viewer', backoffMs: 10,
    budget: { budget, account: 'proj-1' },
  });
  const out = await api.get('compute', '/compute/v1/projects/proj-1/global/networks/n1', 'read network');
  t.same(out, { name: 'n1' }, 'the read succeeded on the retry');
  t.equal(calls, 2, 'one throttled answer, one retry');
  t.equal(budget.throttledCalls, 1, 'throttledCalls counts it');
  t.ok(budget.waitedMs > 0, `waitedMs counts the backoff (${budget.waitedMs} ms)`);
  t.equal(store.factor('google:proj-1:global:compute'), 0.5, "the project's compute bucket runs at half its rate");
  await api.destroy();
});
