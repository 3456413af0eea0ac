// Where a drift lives and is declared, and the rule that rated it (issue #26): stored from an
// executor's report, shown on every drift view, null from a runner that sends none of it;
// the resourceId, location and ruleId filters on the lists, /query and the export; the CSV
// columns; and the severity rule table the engine classifies with.
import t from 'tap';
import { world, drift } from '../../fixtures/world.ts';
import { SEVERITY_RULES } from '../../../runner-agent/src/engine/catalogue.ts';
import type { ReportedDrift } from '../../../plugins/scans/schemas.ts';

const COMMIT = 'a'.repeat(40);
const placed = (address: string, over: Partial<ReportedDrift>): ReportedDrift => ({
  ...drift(address, 'high'), provider: 'cloud_a', account: '123456789012', module: '', commit: COMMIT, ...over,
});
const sg = placed('aws_security_group.web', {
  resourceType: 'aws_security_group', severity: 'critical', ruleId: 'sg-ingress-open-to-world', resourceId: 'sg-0abc',
  location: 'eu-west-1', declaredIn: { file: 'infra/main.tf', line: 12 },
});
const bucket = placed('module.store["a"].aws_s3_bucket.data', {
  resourceType: 'aws_s3_bucket', ruleId: 's3-bucket-policy-changed', resourceId: 'data-bucket', location: 'us-east-1',
  module: 'module.store', declaredIn: { file: 'infra/modules/store/main.tf', line: 3 }, account: null,
});
const fromRegistry = placed('module.vpc.aws_vpc.this[0]', {
  resourceType: 'aws_vpc', ruleId: 'changed', severity: 'medium', resourceId: 'vpc-1', location: 'eu-west-1', module: 'module.vpc', declaredIn: null,
});

type View = Record<string, unknown> & { _id: string; resourceAddress: string };
const addrs = (rows: View[]) => rows.map((r) => r.resourceAddress).sort();

t.test('stored and shown on every view; older records and older reports read as null', async (t) => {
  const w = await world(t);
  const a = await w.config('acme/a');
  const scanId = await w.scanWith(a, [sg, bucket, fromRegistry, drift('aws_instance.old', 'low', 'aws_instance')]);
  const byScan = (await w.api('GET', `/api/drifts/scan/${scanId}`)).body.data as View[];
  const web = byScan.find((d) => d.resourceAddress === 'aws_security_group.web')!;
  const expected = {
    ruleId: 'sg-ingress-open-to-world', resourceId: 'sg-0abc', provider: 'cloud_a', location: 'eu-west-1', account: '123456789012',
    module: '', declaredIn: { file: 'infra/main.tf', line: 12 }, commit: COMMIT,
  };
  t.match(web, expected, '/scan/:scanId shows every field');
  t.match((await w.api('GET', `/api/drifts/${web._id}`)).body.data, expected, 'GET /:id');
  t.match((await w.api('GET', '/api/drifts?limit=100')).body.data.find((d: View) => d._id === web._id), expected, 'the list');
  t.match((await w.api('GET', '/api/drifts/query?limit=100')).body.data.find((d: View) => d._id === web._id), expected, '/query');
  t.match((await w.api('GET', `/api/drifts/repository/${a}`)).body.data.find((d: View) => d._id === web._id), expected, '/repository/:id');
  t.match(byScan.find((d) => d.resourceAddress === 'module.vpc.aws_vpc.this[0]'), { module: 'module.vpc', declaredIn: null }, 'a registry module: declaredIn null');
  const old = byScan.find((d) => d.resourceAddress === 'aws_instance.old')!;
  t.match(old, { ruleId: null, resourceId: null, provider: null, location: null, account: null, module: null, declaredIn: null, commit: null },
    'a report without the fields: each null');

  // A record stored before the fields existed has none of them at all.
  await w.ctx.db.db.collection('drifts').updateOne({ _id: old._id as never },
    { $unset: { ruleId: '', resourceId: '', provider: '', location: '', account: '', module: '', declaredIn: '', commit: '' } });
  t.match((await w.api('GET', `/api/drifts/${old._id}`)).body.data, { ruleId: null, resourceId: null, declaredIn: null, commit: null }, 'an older record: null');

  // Found again one line lower (a block added above it) and at a new commit: the record follows.
  const moved = { ...sg, declaredIn: { file: 'infra/main.tf', line: 20 }, commit: 'b'.repeat(40) };
  await w.scanWith(a, [moved, bucket, fromRegistry]);
  t.match((await w.api('GET', `/api/drifts/${web._id}`)).body.data, { declaredIn: { line: 20 }, commit: 'b'.repeat(40) }, 'the same record, its declaration updated');
  const again = (await w.api('GET', '/api/drifts?limit=100')).body.data as View[];
  t.match(again.find((d) => d.resourceAddress === 'module.store["a"].aws_s3_bucket.data'), { commit: COMMIT, declaredIn: { line: 3 } },
    'an unchanged drift found again keeps its fields (this report named its old commit)');
});

t.test('filters resourceId, location, ruleId on the list, /query and the export; the CSV columns', async (t) => {
  const w = await world(t);
  const a = await w.config('acme/a');
  const b = await w.config('acme/b');
  await w.scanWith(a, [sg, bucket, fromRegistry]);
  await w.scanWith(b, [placed('aws_security_group.web', { ...sg, resourceId: 'sg-0other', location: 'us-east-1' })]);
  const get = async (url: string) => (await w.api('GET', url)).body.data as View[];

  t.same(addrs(await get('/api/drifts?resourceId=sg-0abc')), ['aws_security_group.web'], 'list: resourceId');
  t.equal((await get('/api/drifts?resourceId=sg-0abc'))[0].resourceId, 'sg-0abc', 'the one with that id');
  t.same(addrs(await get('/api/drifts?location=eu-west-1')), ['aws_security_group.web', 'module.vpc.aws_vpc.this[0]'], 'list: location');
  t.same(addrs(await get('/api/drifts/query?ruleId=s3-bucket-policy-changed')), ['module.store["a"].aws_s3_bucket.data'], '/query: ruleId');
  t.same(addrs(await get(`/api/drifts/query?location=us-east-1&repositoryConfigId=${b}`)), ['aws_security_group.web'], '/query: location with a repository');
  t.equal((await get(`/api/drifts/query?location=us-east-1&repositoryConfigId=${b}`))[0].resourceId, 'sg-0other', 'of that repository');
  t.same(addrs(await get('/api/drifts/query?ruleId=sg-ingress-open-to-world&sort=resourceAddress')), ['aws_security_group.web', 'aws_security_group.web'], 'both repositories, sorted');
  t.same(await get('/api/drifts/query?resourceId=nope'), [], 'no match: empty');
  t.equal((await w.api('GET', `/api/drifts/query?ruleId=${'x'.repeat(101)}`)).status, 400, 'a ruleId longer than 100: 400');

  const csv = String((await w.api('GET', '/api/drifts/export?ruleId=sg-ingress-open-to-world&location=eu-west-1')).body).trim().split('\n');
  const header = csv[0].split(',');
  t.same(header.slice(-9, -4), ['rule_id', 'resource_id', 'location', 'account', 'declared_in'], 'the new columns');
  t.same(header.slice(-4), ['cause_actor', 'cause_event', 'cause_time', 'suppressed'], 'then the cause columns (plugins/cloud-events)');
  t.equal(csv.length, 2, 'the export filtered to one drift');
  t.same(csv[1].split(',').slice(-9, -4), ['sg-ingress-open-to-world', 'sg-0abc', 'eu-west-1', '123456789012', 'infra/main.tf:12'], 'their values');
  const registry = String((await w.api('GET', '/api/drifts/export?resourceId=vpc-1')).body).trim().split('\n');
  t.same(registry[1].split(',').slice(-9, -4), ['changed', 'vpc-1', 'eu-west-1', '123456789012', ''], 'no declaration: an empty cell');
});

t.test('a runner result with and without the fields', async (t) => {
  const w = await world(t);
  await w.api('POST', '/api/auth/cloud-a-credentials', { accessKeyId: 'AKIAEXAMPLEEXAMPLE00', secretAccessKey: 'secret-secret-secret-secret', region: 'eu-west-1' });
  const id = await w.config('acme/infra');
  await w.api('PUT', `/api/repo-configs/${id}`, { runnerLabels: ['linux'], repositoryUrl: 'https://git.example.com/acme/infra.git' });
  const runner = (await w.api('POST', '/api/runners', { name: 'r', labels: ['linux'] })).body.data as { token: string };
  const agent = async (url: string, payload: unknown = {}) =>
    (await w.app.inject({ method: 'POST', url, headers: { 'x-runner-token': runner.token }, payload: payload as object })).json();
  const scan = await w.scans.trigger(w.owner.orgId, id, null);
  t.equal((await agent('/api/runners/jobs')).data.job._id, scan._id, 'claimed');
  const older = { resourceType: 'aws_instance', resourceAddress: 'aws_instance.web', changeType: 'deleted', severity: 'high', diff: [{ attribute: 'id', before: 'i-1', after: null }] };
  const newer = {
    resourceType: 'aws_security_group', resourceAddress: 'aws_security_group.web', changeType: 'changed', severity: 'critical', ruleId: 'sg-ingress-open-to-world',
    diff: [{ attribute: 'ingress', before: [], after: [] }], resourceId: 'sg-1', provider: 'cloud_a', location: 'eu-west-1', account: '123456789012',
    module: '', declaredIn: { file: 'main.tf', line: 3 }, commit: COMMIT, futureField: 'stripped',
  };
  const done = await agent('/api/runners/jobs/status', { jobId: scan._id, status: 'completed', result: { drifts: [older, newer] } });
  t.equal(done.data.status, 'completed', 'a result mixing an older drift and a newer one is accepted');
  const rows = (await w.api('GET', `/api/drifts/scan/${scan._id}`)).body.data as View[];
  t.match(rows.find((d) => d.resourceAddress === 'aws_instance.web'), { ruleId: null, resourceId: null, location: null, declaredIn: null, commit: null }, 'older: stored, fields null');
  t.match(rows.find((d) => d.resourceAddress === 'aws_security_group.web'), {
    ruleId: 'sg-ingress-open-to-world', resourceId: 'sg-1', provider: 'cloud_a', location: 'eu-west-1', account: '123456789012', module: '', declaredIn: { file: 'main.tf', line: 3 }, commit: COMMIT,
  }, 'newer: every field stored');
  const sgId = rows.find((d) => d.resourceAddress === 'aws_security_group.web')!._id;
  const stored = await w.ctx.db.db.collection('drifts').findOne({ _id: sgId as never });
  t.notOk(stored && 'futureField' in stored, 'an unknown field is not stored');
});

t.test('GET /api/drifts/rules: the table the engine classifies with', async (t) => {
  const w = await world(t);
  const res = await w.api('GET', '/api/drifts/rules');
  t.equal(res.status, 200);
  const rules = res.body.data as { id: string; severity: string; resourceTypes: string[]; attributes: string[]; condition: string; rationale: string }[];
  t.same(rules.map((r) => r.id), SEVERITY_RULES.map((r) => r.id), 'every engine rule, in the order classify() tries them');
  t.same(rules.map((r) => r.severity), SEVERITY_RULES.map((r) => r.severity), 'with its severity');
  t.match(rules[0], {
    id: 'sg-ingress-open-to-world', severity: 'critical', resourceTypes: ['aws_security_group', 'aws_default_security_group'], attributes: ['ingress'],
    condition: /aws_security_group.*ingress newly holds 0\.0\.0\.0\/0 or ::\/0/, rationale: /internet/,
  }, 'the first rule: types, attributes, condition in words, rationale');
  t.ok(rules.every((r) => r.condition.length > 10 && r.rationale.length > 10), 'each has a condition and a rationale');
  t.match(rules.find((r) => r.id === 'deleted'), { resourceTypes: [], condition: 'a resource of any type was deleted outside IaC' }, 'the catch-all');
});
