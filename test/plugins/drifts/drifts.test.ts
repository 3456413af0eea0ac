import t, { type Test } from 'tap';
import { world, drift } from '../../fixtures/world.ts';
import { CSV_COLUMNS } from '../../../plugins/drifts/export.ts';

async function seeded(t: Test) {
  const w = await world(t);
  const a = await w.config('acme/a');
  const b = await w.config('acme/b');
  const sa = await w.scanWith(a, [
    drift('aws_s3_bucket.logs', 'critical', 'aws_s3_bucket'), drift('aws_s3_bucket.data', 'low', 'aws_s3_bucket'),
    drift('aws_iam_role.admin', 'high', 'aws_iam_role'), drift('aws_instance.web', 'medium', 'aws_instance'),
  ]);
  const sb = await w.scanWith(b, [drift('aws_s3_bucket.backup', 'high', 'aws_s3_bucket'), drift('=cmd|calc.exe', 'low', 'aws_lambda')]);
  return { ...w, a, b, sa, sb };
}
const addrs = (rows: { resourceAddress: string }[]) => rows.map((r) => r.resourceAddress);

t.test('list and /query: filters, sort, pagination', async (t) => {
  const w = await seeded(t);
  const list = await w.api('GET', '/api/drifts?limit=2');
  t.equal(list.body.success, true);
  t.equal(list.body.data.length, 2, 'limit');
  t.same(list.body.pagination, { page: 1, limit: 2, total: 6, pages: 3 }, 'pagination');
  const page3 = await w.api('GET', '/api/drifts?limit=2&page=3');
  t.equal(page3.body.data.length, 2, 'the last page');
  const all = await w.api('GET', '/api/drifts?limit=100');
  t.equal(new Set([...addrs(list.body.data), ...addrs(page3.body.data)]).size, 4, 'pages do not overlap');
  t.same(addrs((await w.api('GET', '/api/drifts?severity=critical,high')).body.data).sort(), ['aws_iam_role.admin', 'aws_s3_bucket.backup', 'aws_s3_bucket.logs'], 'severity list filter');
  t.equal((await w.api('GET', '/api/drifts?status=resolved')).body.data.length, 0, 'status filter');
  t.equal((await w.api('GET', '/api/drifts?status=bogus')).status, 400, 'unknown status: 400');
  t.equal(all.body.data.length, 6);

  const q = async (qs: string) => (await w.api('GET', `/api/drifts/query?${qs}`)).body;
  t.same(addrs((await q('q=S3_BUCKET')).data).sort(), ['aws_s3_bucket.backup', 'aws_s3_bucket.data', 'aws_s3_bucket.logs'], 'q matches address and type, case-insensitive');
  t.same(addrs((await q('q=instance')).data), ['aws_instance.web'], 'q over the type');
  t.same(addrs((await q(`repositoryConfigId=${w.b}`)).data).sort(), ['=cmd|calc.exe', 'aws_s3_bucket.backup'], 'repositoryConfigId');
  t.same(addrs((await q('resourceType=aws_s3_bucket&severity=high')).data), ['aws_s3_bucket.backup'], 'resourceType and severity together');
  t.same((await q('sort=-severity')).data.map((d: { severity: string }) => d.severity), ['critical', 'high', 'high', 'medium', 'low', 'low'], 'sort -severity by rank');
  t.same((await q('sort=severity&limit=1')).data[0].severity, 'low', 'sort severity ascending');
  const byAddr = addrs((await q('sort=resourceAddress')).data);
  t.same(byAddr, [...byAddr].sort(), 'sort by resourceAddress');
  t.same(addrs((await q('sort=-resourceAddress')).data), [...byAddr].reverse(), 'descending');
  const bad = await w.api('GET', '/api/drifts/query?sort=diff');
  t.equal(bad.status, 400, 'sort outside the allow-list: 400');
  t.match((await q('q=.*&limit=1')).pagination, { total: 0 }, 'q is literal text, not a regular expression');
});

t.test('aggregations, suggestions, autocomplete, statistics', async (t) => {
  const w = await seeded(t);
  const agg = (await w.api('GET', '/api/drifts/aggregations')).body.data;
  t.same(agg.bySeverity, { critical: 1, high: 2, medium: 1, low: 2 }, 'bySeverity');
  t.same(agg.byResourceType, { aws_s3_bucket: 3, aws_iam_role: 1, aws_instance: 1, aws_lambda: 1 }, 'byResourceType');
  t.equal(agg.total, 6);
  t.equal(agg.trend.length, 30, 'trend per day');
  t.match(agg.trend.at(-1), { date: new Date().toISOString().slice(0, 10), detected: 6, resolved: 0 });
  const filtered = (await w.api('GET', `/api/drifts/aggregations?repositoryConfigId=${w.a}`)).body.data;
  t.equal(filtered.total, 4, 'aggregations take the /query filters');

  const sug = (await w.api('GET', '/api/drifts/suggestions')).body.data;
  t.same(sug.resourceTypes[0], { value: 'aws_s3_bucket', count: 3 }, 'suggestions: most frequent type first');
  t.ok(sug.sortFields.includes('-detectedAt'), 'and the sort fields');
  const ac = await w.api('GET', '/api/drifts/autocomplete?field=resourceAddress&prefix=aws_s3');
  t.same(ac.body.data.sort(), ['aws_s3_bucket.backup', 'aws_s3_bucket.data', 'aws_s3_bucket.logs'], 'autocomplete by prefix');
  t.equal((await w.api('GET', '/api/drifts/autocomplete?field=diff')).status, 400, 'fields outside the allow-list: 400');
  t.equal((await w.api('GET', '/api/drifts/autocomplete')).status, 400, 'field is required');

  const one = (await w.api('GET', `/api/drifts/query?q=aws_instance.web`)).body.data[0];
  await w.api('PATCH', `/api/drifts/${one._id}/status`, { status: 'resolved' });
  const stats = (await w.api('GET', `/api/drifts/repository/${w.a}/statistics`)).body.data;
  t.match(stats, { total: 4, open: 3, resolved: 1, resolvedByUser: 1, resolvedByScan: 0, resolutionRate: 0.25 }, 'repository statistics');
  t.same(stats.bySeverity, { critical: 1, high: 1, medium: 1, low: 1 });
  t.equal(stats.resolutionRateBySeverity.medium, 1, 'resolution rate per severity');
  t.equal((await w.api('GET', `/api/drifts/repository/${w.a}`)).body.data.length, 4, 'drifts by repository');
  t.equal((await w.api('GET', `/api/drifts/scan/${w.sb}`)).body.data.length, 2, 'drifts by scan');
});

t.test('detail, status moves with their source states, feedback', async (t) => {
  const w = await seeded(t);
  const id = (await w.api('GET', '/api/drifts/query?q=aws_iam_role.admin')).body.data[0]._id;
  const detail = (await w.api('GET', `/api/drifts/${id}`)).body.data;
  t.match(detail, { _id: id, status: 'detected', changeType: 'changed', diff: { expected: 'a', actual: 'b' }, aiAnalysis: null, scan: w.sa, repositoryConfig: w.a }, 'detail with diff and aiAnalysis');
  const move = (status: string) => w.api('PATCH', `/api/drifts/${id}/status`, { status });
  t.equal((await move('acknowledged')).body.data.status, 'acknowledged', 'detected -> acknowledged');
  t.equal((await move('acknowledged')).status, 200, 'the same status again changes nothing');
  t.equal((await move('ignored')).body.data.status, 'ignored', 'acknowledged -> ignored');
  const back = await move('acknowledged');
  t.equal(back.status, 409, 'ignored -> acknowledged is refused');
  t.match(back.body.error.message, /cannot move from ignored to acknowledged/);
  const resolved = (await move('resolved')).body.data;
  t.match(resolved, { status: 'resolved', resolvedBy: 'user' }, 'ignored -> resolved');
  t.equal((await move('ignored')).status, 409, 'resolved is final');
  t.equal((await move('detected')).status, 400, 'detected is not a target');

  t.equal((await w.api('POST', `/api/drifts/${id}/feedback`, { rating: 5, comment: 'useful' })).status, 200, 'feedback');
  t.match((await w.api('GET', `/api/drifts/${id}`)).body.data.feedback, { rating: 5, comment: 'useful' }, 'stored on the drift');
  for (const rating of [0, 6, 2.5]) t.equal((await w.api('POST', `/api/drifts/${id}/feedback`, { rating })).status, 400, `rating ${rating}: 400`);
});

t.test('CSV export: content, filters, download token, streaming headers', async (t) => {
  const w = await seeded(t);
  const res = await w.api('GET', '/api/drifts/export?sort=resourceAddress');
  t.equal(res.status, 200);
  t.match(res.res.headers['content-type'], /^text\/csv/, 'text/csv');
  t.match(res.res.headers['content-disposition'], /attachment; filename="drifts-\d{4}-\d{2}-\d{2}\.csv"/);
  const lines = String(res.body).trim().split('\n');
  t.equal(lines[0], CSV_COLUMNS.join(','), 'a header row');
  t.equal(lines.length, 7, 'one row per drift');
  t.match(lines[1], /^[a-f0-9]{24},aws_lambda,'=cmd\|calc\.exe,low,detected,changed,acme\/b,/, 'a formula-like value is neutralized');
  const filtered = await w.api('GET', `/api/drifts/export?severity=critical&repositoryConfigId=${w.a}`);
  t.equal(String(filtered.body).trim().split('\n').length, 2, 'the /query filters apply');

  const dl = await w.api('POST', '/api/auth/download-token');
  const viaToken = await w.app.inject({ method: 'GET', url: `/api/drifts/export?token=${encodeURIComponent(dl.body.token)}` });
  t.equal(viaToken.statusCode, 200, 'a download token works without a bearer header');
  t.equal(viaToken.body.trim().split('\n').length, 7);
  t.equal((await w.app.inject({ method: 'GET', url: '/api/drifts/export?token=nope' })).statusCode, 401, 'a bad download token: 401');
});

t.test('CLI tokens limited to some repositories see and touch only those drifts', async (t) => {
  const w = await seeded(t);
  const token = await w.cli(['drifts:read', 'drifts:write'], [w.b]);
  const list = await w.api('GET', '/api/drifts?limit=100', undefined, token);
  t.same(addrs(list.body.data).sort(), ['=cmd|calc.exe', 'aws_s3_bucket.backup'], 'the list holds only its repository');
  t.equal(list.body.pagination.total, 2);
  t.equal((await w.api('GET', `/api/drifts/query?repositoryConfigId=${w.a}`, undefined, token)).body.data.length, 0, 'filtering on another repository finds nothing');
  t.equal((await w.api('GET', '/api/drifts/aggregations', undefined, token)).body.data.total, 2, 'aggregations are limited');
  t.equal(String((await w.api('GET', '/api/drifts/export', undefined, token)).body).trim().split('\n').length, 3, 'the export is limited');
  t.same((await w.api('GET', '/api/drifts/autocomplete?field=repositoryName', undefined, token)).body.data, ['acme/b'], 'autocomplete is limited');
  const foreign = (await w.api('GET', '/api/drifts/query?q=aws_iam_role')).body.data[0]._id;
  for (const [m, u, p] of [['GET', `/api/drifts/${foreign}`], ['PATCH', `/api/drifts/${foreign}/status`, { status: 'ignored' }], ['POST', `/api/drifts/${foreign}/feedback`, { rating: 3 }],
    ['GET', `/api/drifts/scan/${w.sa}`], ['GET', `/api/drifts/repository/${w.a}`], ['GET', `/api/drifts/repository/${w.a}/statistics`]] as const) {
    const r = await w.api(m, u, p, token);
    t.equal(r.status, 403, `${m} ${u.replace(/[a-f0-9]{24}/, ':id')}: 403 repository_denied`);
  }
  const own = list.body.data[0]._id;
  t.equal((await w.api('PATCH', `/api/drifts/${own}/status`, { status: 'acknowledged' }, token)).status, 200, 'its own drift can be moved');
  // Widgets count the whole organization's drifts: a limited token is refused, an unlimited one is not.
  for (const [m, u, p] of [['GET', '/api/drift-widgets'], ['POST', '/api/drift-widgets', { title: 'All', type: 'count', filters: { repositoryConfigId: w.a } }], ['POST', '/api/drift-widgets/refresh']] as const) {
    const r = await w.api(m, u, p, token);
    t.match(r, { status: 403, body: { error: { code: 'repository_denied' } } }, `widgets, ${m} ${u}: 403 repository_denied`);
  }
  t.equal((await w.api('GET', '/api/drift-widgets', undefined, await w.cli(['drifts:read']))).status, 200, 'a token for all repositories reads widgets');
});
