// Drift reads on the embedded FerretDB: the list and /query pages (ids and total), the
// aggregations, the trend, suggestions and a config's statistics are asked of its PostgreSQL
// (core/ferret-reads.ts) and answer exactly as the driver does, with another organization's
// drifts left out (issue 36, point 5).
import t from 'tap';
import { randomBytes } from 'node:crypto';
import { buildTestApp, register, bearer, serviceUrls, commandLog } from '../../helper.ts';

const TYPES = ['aws_s3_bucket', 'aws_iam_role', 'aws_instance', 'Aws_vpc', 'aws_subnet'];
const SEVERITIES = ['critical', 'high', 'medium', 'low'] as const;
const RANK = { critical: 4, high: 3, medium: 2, low: 1 };
const STATUSES = ['detected', 'detected', 'acknowledged', 'resolved', 'ignored'] as const;

const { postgresUrl } = serviceUrls();
// Without FerretDB's PostgreSQL there is no pushdown to compare: skipped, said so, never passed.
t.test('drift reads: PostgreSQL answers as the driver does', { skip: postgresUrl ? false : 'no FerretDB PostgreSQL URL (FERRETDB_POSTGRES_URL or services.json): nothing is pushed down' }, async (t) => {
  const { app, ctx } = await buildTestApp(t, { env: { FERRETDB_POSTGRES_URL: postgresUrl! } });
  const owner = await register(app);
  const other = await register(app);
  const configs = [0, 1, 2].map(() => randomBytes(12).toString('hex'));
  const day0 = Date.now() - 20 * 86_400_000;
  const drift = (orgId: string, i: number) => {
    const severity = SEVERITIES[i % 4];
    const status = STATUSES[i % STATUSES.length];
    // Ties on detectedAt (every 7th shares its neighbour's) exercise the _id tie-break.
    const detectedAt = new Date(day0 + Math.floor(i / 7) * 3_600_000 * 5);
    const resolved = status === 'resolved';
    const type = TYPES[i % TYPES.length];
    return {
      _id: randomBytes(12).toString('hex'), orgId, repositoryConfig: configs[i % 3], repositoryName: `acme/repo${i % 3}`, scan: 'scan-1', lastScan: 'scan-1',
      resourceType: type, resourceAddress: `${type}.r${i}`, severity, severityRank: RANK[severity], status, changeType: 'changed', diff: {}, aiAnalysis: null,
      openKey: resolved ? `resolved:${i}` : 'open', detectedAt, day: detectedAt.toISOString().slice(0, 10), lastSeenAt: detectedAt,
      resolvedAt: resolved ? detectedAt : null, resolvedDay: resolved ? detectedAt.toISOString().slice(0, 10) : null, resolvedBy: resolved ? (i % 2 ? 'scan' : 'user') : null,
      statusChangedAt: null, feedback: null, updatedAt: detectedAt, ...(i % 11 === 0 ? { suppressed: true } : {}), ...(i % 13 === 0 ? { ruleId: 'r-13' } : {}), ...(i % 9 === 0 ? { cause: { eventId: `ev-${i}`, eventName: 'PutBucketTagging', eventTime: detectedAt, actor: `arn:aws:iam::1:user/Alice${i % 2}`, actorType: 'IAMUser', sourceIPAddress: null, userAgent: null } } : {}),
    };
  };
  const drifts = ctx.db.db.collection('drifts');
  await drifts.insertMany([...Array.from({ length: 400 }, (_, i) => drift(owner.orgId, i)), ...Array.from({ length: 60 }, (_, i) => drift(other.orgId, i))] as never[]);

  const pushdown = ctx.db.pushdown;
  // With the URL the reads must be pushed: a null answer here is a failure, not a pass.
  if (!t.ok(pushdown && await pushdown.page('drifts', { orgId: owner.orgId }, { _id: 1 }, 0, 1), 'FerretDB\'s PostgreSQL answers a page') || !pushdown) return;
  const commands = commandLog(t, ctx.db.client);
  const get = async (url: string) => {
    const res = await app.inject({ method: 'GET', url, headers: bearer(owner.token) });
    t.equal(res.statusCode, 200, `${url}: ${res.statusCode}`);
    return res.json();
  };
  const urls = [
    '/api/drifts', '/api/drifts?page=3&limit=50', '/api/drifts?status=resolved&severity=low,high', '/api/drifts?ruleId=r-13&suppressed=true', '/api/drifts?actor=ALICE1', '/api/drifts?actor=user/alice&status=detected',
    '/api/drifts/query?status=detected,acknowledged&severity=critical,high&sort=-detectedAt&limit=20',
    '/api/drifts/query?sort=detectedAt&page=2&limit=30', '/api/drifts/query?sort=-severity&limit=40', '/api/drifts/query?sort=status&page=4&limit=25',
    '/api/drifts/query?sort=resourceType&limit=60', '/api/drifts/query?sort=-resourceAddress&page=2&limit=15',
    `/api/drifts/query?resourceType=aws_instance&repositoryConfigId=${configs[1]}&sort=-detectedAt`, '/api/drifts/query?q=VPC&limit=10', '/api/drifts/query?q=r1&sort=-severity&limit=10', '/api/drifts/query?q=.r(&limit=10',
    '/api/drifts/aggregations', `/api/drifts/aggregations?status=detected&repositoryConfigId=${configs[0]}`,
    '/api/drifts/suggestions', '/api/drifts/autocomplete?field=resourceType&prefix=aws_', '/api/drifts/autocomplete?field=resourceType&prefix=AWS_V',
  ];
  for (const url of urls) {
    commands.clear();
    const sent = pushdown.statements();
    const fast = await get(url);
    t.ok(pushdown.statements() > sent, `${url}: asked of PostgreSQL`);
    const counted = commands.names.filter((n) => n === 'aggregate drifts' || n === 'count drifts').length;
    (ctx.db as { pushdown: typeof pushdown | null }).pushdown = null;
    const viaDriver = await get(url).finally(() => { (ctx.db as { pushdown: typeof pushdown | null }).pushdown = pushdown; });
    t.same(fast, viaDriver, `${url}: the same answer as the driver's`);
    // q (a case-insensitive substring) and a prefix too: regexes of escaped literals are pushed.
    t.equal(counted, 0, `${url}: nothing counted or grouped through FerretDB`);
  }
  // The CSV export streams from a PostgreSQL cursor: the same bytes as the driver's cursor gives.
  for (const url of ['/api/drifts/export', '/api/drifts/export?sort=-severity&status=detected,resolved', '/api/drifts/export?q=vpc&sort=resourceAddress', '/api/drifts/export?actor=alice']) {
    const csv = async () => {
      const res = await app.inject({ method: 'GET', url, headers: bearer(owner.token) });
      t.equal(res.statusCode, 200, `${url}: ${res.statusCode}`);
      return res.body;
    };
    const sent = pushdown.statements();
    const fast = await csv();
    t.ok(pushdown.statements() > sent, `${url}: read from PostgreSQL`);
    (ctx.db as { pushdown: typeof pushdown | null }).pushdown = null;
    const viaDriver = await csv().finally(() => { (ctx.db as { pushdown: typeof pushdown | null }).pushdown = pushdown; });
    t.equal(fast, viaDriver, `${url}: the same CSV as the driver's cursor (${fast.split('\n').length - 2} rows)`);
  }

  const all = await get('/api/drifts?limit=100');
  t.equal(all.pagination.total, 400 - Math.ceil(400 / 11), "the organization's unsuppressed drifts, none of the other's");

  // Commands and statements per request do not grow with the organization's drifts.
  const cost = async () => {
    const out: string[] = [];
    for (const url of ['/api/drifts?limit=20', '/api/drifts/query?status=detected,acknowledged&severity=critical,high&sort=-detectedAt&limit=20', '/api/drifts/aggregations']) {
      await get(url); // warm the caches
      commands.clear();
      const before = pushdown.statements();
      await get(url);
      out.push(`${url}: ${commands.names.filter((n) => n.endsWith(' drifts')).length} drifts commands + ${pushdown.statements() - before} SQL`);
    }
    return out;
  };
  const small = await cost();
  await drifts.insertMany(Array.from({ length: 800 }, (_, i) => drift(owner.orgId, 400 + i)) as never[]);
  const big = await cost();
  t.same(big, small, `at 400 and 1,200 drifts: ${small.join('; ')}`);
});
