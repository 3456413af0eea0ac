// Cloud Discovery against a private moto (discovery lists whole regions): an estate over three
// regions, a repository config whose state (read by the real engine) manages part of it,
// classification, coverage, costs, buckets, codify + validate + re-import, one scan per account
// at a time, the timeout job, plan gates, and throttling answered with backoff.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { request } from 'undici';
import { parse } from '@cdktf/hcl2json';
import { ROOT } from '../../../core/loader.ts';
import { buildTestApp, register, bearer } from '../../helper.ts';
import { startMoto } from '../../../scripts/bench/private-moto.ts';
import { detectDrift } from '../../../runner-agent/src/engine/index.ts';
import { discoverAccount } from '../../../runner-agent/src/engine/discover.ts';
import { AWS_READERS, AwsContext } from '../../../runner-agent/src/engine/cloud/aws/index.ts';
import { readerIdOf } from '../../../runner-agent/src/engine/inventory.ts';
import { buildEstate, CREDS, REGIONS } from './moto-estate.ts';

const moto = await startMoto(ROOT, join(ROOT, '.data'), `moto-test-discovery-${process.pid}.log`, () => undefined);
t.teardown(() => moto.stop());
const suffix = `${Date.now().toString(36)}${process.pid}`;
const estate = await buildEstate(moto.endpoint, suffix);

const { app, ctx, services } = await buildTestApp(t, { env: { DRIFT_CLOUD_A_ENDPOINT: moto.endpoint } });
const discovery = services.discovery!;
const owner = await register(app);
await ctx.tenancy.setPlan(owner.orgId, 'pro');
const api = async (method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown, token = owner.token) => {
  const res = await app.inject({ method, url, headers: bearer(token), ...(payload !== undefined ? { payload: payload as object } : {}) });
  return { status: res.statusCode, body: res.json() };
};

t.test('plans: Free has no Cloud Discovery and no cloud account; Pro has one', async (t) => {
  const free = await register(app);
  t.equal((await api('GET', '/api/cloud-discovery/dashboard', undefined, free.token)).status, 403, 'Free: the plan gate');
  t.match((await api('POST', '/api/auth/cloud-a-credentials', CREDS, free.token)), { status: 403, body: { error: { code: 'plan_limit' } } }, "Free's 0 cloud accounts");
  t.match(await api('POST', '/api/cloud-discovery/scan', {}), { status: 400, body: { error: { message: /POST \/api\/auth\/cloud-a-credentials/ } } }, 'no credentials: 400 saying what to set');
  t.equal((await api('POST', '/api/auth/cloud-a-credentials', CREDS)).status, 200, "Pro: the organization's credentials are its one account");
  const project = (await api('POST', '/api/projects', { name: `p-${suffix}`, provider: 'cloud_a' })).body.data;
  t.match(await api('PUT', `/api/projects/${project._id}/credentials`, CREDS), { status: 403, body: { error: { code: 'plan_limit' } } }, "Pro's second account is refused");
  t.match(await api('POST', '/api/cloud-discovery/scan', { cloudAccountId: project._id }), { status: 400, body: { error: { message: /has no credentials: set them with PUT/ } } }, 'a project without credentials: 400');
  t.equal((await api('POST', '/api/cloud-discovery/scan', { cloudAccountId: 'f'.repeat(24) })).status, 404, 'an unknown project: 404');
});

t.test('a scan over three regions: managed / orphan from the state inventory, coverage, costs, buckets, codify', async (t) => {
  // A repository config whose state manages the us-east-1 VPC and instance, the role and one bucket, read by the engine.
  const dir = mkdtempSync(join(tmpdir(), 'disc-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const P = 'provider["registry.terraform.io/hashicorp/aws"]';
  const res = (type: string, name: string, attributes: Record<string, unknown>) => ({ mode: 'managed', type, name, provider: P, instances: [{ attributes }] });
  writeFileSync(join(dir, 'main.tf'), 'provider "aws" {\n  region = "us-east-1"\n}\n');
  writeFileSync(join(dir, 'terraform.tfstate'), JSON.stringify({ version: 4, serial: 1, lineage: 'l', resources: [
    res('aws_vpc', 'main', { id: estate.vpcs['us-east-1'], cidr_block: '10.10.0.0/16' }),
    res('aws_instance', 'web', { id: estate.instances['us-east-1'], instance_type: 't3.micro' }),
    res('aws_iam_role', 'app', { id: estate.role, name: estate.role }),
    res('aws_s3_bucket', 'locked', { id: estate.buckets[1], bucket: estate.buckets[1], arn: `arn:aws:s3:::${estate.buckets[1]}` }),
  ] }));
  const outcome = await detectDrift({ source: { kind: 'path', path: dir }, iacPaths: [], provider: 'cloud_a', credentials: CREDS, endpoint: moto.endpoint });
  const configId = (await api('POST', '/api/repo-configs', { repositoryName: `acme/${suffix}`, branch: 'main', provider: 'cloud_a' })).body.data._id;
  const scanRec = await services.scans!.trigger(owner.orgId, configId, null);
  await services.scans!.recordScanResult(owner.orgId, scanRec._id, { status: 'running' });
  await services.scans!.recordScanResult(owner.orgId, scanRec._id, { status: 'completed', drifts: [], inventory: outcome.inventory });

  // The types this estate is built of (list-modes.test.ts covers the rest, whose moto defaults would shift these counts).
  const resourceTypes = ['aws_instance', 'aws_security_group', 'aws_vpc', 'aws_subnet', 'aws_ebs_volume', 'aws_eip', 'aws_s3_bucket', 'aws_iam_role', 'aws_iam_policy',
    'aws_iam_user', 'aws_db_instance', 'aws_lambda_function', 'aws_dynamodb_table'];
  const started = await api('POST', '/api/cloud-discovery/scan', { regions: REGIONS, resourceTypes });
  t.equal(started.status, 202);
  t.match(started.body, { status: 'running', cloudAccountId: 'org', regions: REGIONS, startedAt: String }, 'the spec fields');
  const again = await api('POST', '/api/cloud-discovery/scan', { regions: ['us-east-1'] });
  t.match(again, { status: 409, body: { error: { message: /already running/ } } }, 'a second scan of the account while the first runs: 409');
  t.equal((await api('GET', `/api/cloud-discovery/scans/${started.body.scanId}`)).body.progress.regionsTotal, 3);

  t.ok(await discovery.run(owner.orgId, started.body.scanId), 'the job runs the scan');
  t.notOk(await discovery.run(owner.orgId, started.body.scanId), 'a second run of the job does nothing');
  const scan = (await api('GET', `/api/cloud-discovery/scans/${started.body.scanId}`)).body;
  t.match(scan, { status: 'completed', progress: { regionsDone: 3, regionsTotal: 3 }, error: null, duration: Number, completedAt: String }, `completed (${scan.resourcesFound} resources, ${scan.sdkCalls} SDK calls)`);
  // Per region: moto's default VPC, its subnets and group, plus ours; a private moto holds nothing else.
  t.ok(scan.resourcesFound >= 3 * 6 + 2 + 3 + 2, `resourcesFound ${scan.resourcesFound}`);
  t.equal(scan.orphansFound, scan.resourcesFound - 4, 'everything but the four managed resources is an orphan');
  t.same((await api('GET', '/api/cloud-discovery/scans?status=completed')).body, { scans: [scan], total: 1, page: 1, pages: 1 });

  const dash = (await api('GET', '/api/cloud-discovery/dashboard')).body;
  t.match(dash, { totalResources: scan.resourcesFound, managed: 4, orphan: scan.resourcesFound - 4, ignored: 0 });
  t.equal(dash.iacCoverage, Math.round((4 / scan.resourcesFound) * 1000) / 10, 'coverage: managed of all');
  t.same(Object.keys(dash.byRegion).sort(), [...REGIONS].sort(), 'three regions');
  t.match(dash.byService, { ec2: Number, s3: 2, iam: 3, rds: 1, dynamodb: 1 });

  const rows = await ctx.db.db.collection('discovered_resources').find({ orgId: owner.orgId }).toArray();
  const find = (type: string, id: string) => rows.find((r) => r.resourceType === type && r.resourceId === id)!;
  t.match(find('aws_instance', estate.instances['us-east-1']), { iacStatus: 'managed', estimatedMonthlyCost: 7.59 });
  t.match((await api('GET', `/api/cloud-discovery/resources/${find('aws_instance', estate.instances['us-east-1'])._id}`)).body,
    { resourceType: 'aws_instance', iacStatus: 'managed', managedBy: [{ repositoryConfigId: configId, address: 'aws_instance.web' }], attributes: { instance_type: 't3.micro' } }, 'GET resources/:id: every attribute, and who manages it');
  t.match(find('aws_instance', estate.instances['eu-west-1']), { iacStatus: 'orphan', region: 'eu-west-1' });
  t.match(find('aws_iam_role', estate.role), { iacStatus: 'managed' });
  t.match(find('aws_db_instance', estate.db), { iacStatus: 'orphan', estimatedMonthlyCost: 14.71 }, 'db.t3.micro 730 h + 20 GB');
  t.match(find('aws_eip', estate.eips['ap-southeast-2']), { estimatedMonthlyCost: 3.65 }, 'an idle Elastic IP');

  const costs = (await api('GET', '/api/cloud-discovery/costs')).body;
  // 3 × t3.micro 7.59 + 3 × 100 GB gp3 8 + 3 × the instances' 8 GB gp2 root volumes 0.8 + 3 idle EIPs 3.65 + RDS 14.71.
  const round = (n: number) => Math.round(n * 100) / 100;
  t.equal(costs.totalEstimatedMonthlyCost, round(3 * 7.59 + 3 * 8 + 3 * 0.8 + 3 * 3.65 + 14.71), 'total from the price table');
  t.equal(costs.orphanCost, round(2 * 7.59 + 3 * 8 + 3 * 0.8 + 3 * 3.65 + 14.71), 'all but the managed instance');
  t.match(costs, { currency: 'USD', pricesAsOf: null, priceSource: 'list prices (built-in table)', byService: { rds: 14.71 } }, 'list prices of the built-in table, no claimed source or date');
  t.equal((await api('GET', '/api/cloud-discovery/costs?iacStatus=managed')).body.totalEstimatedMonthlyCost, 7.59, 'iacStatus filter');
  t.equal((await api('GET', `/api/cloud-discovery/costs?accountId=${'a'.repeat(24)}`)).body.totalEstimatedMonthlyCost, 0, 'accountId filter');

  const buckets = (await api('GET', '/api/cloud-discovery/object-storage/buckets')).body.buckets;
  t.same(buckets.sort((a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name)), [
    { name: estate.buckets[1], region: 'eu-west-1', iacStatus: 'managed', publicAccess: false, encryption: 'aws:kms', versioning: true },
    { name: estate.buckets[0], region: 'us-east-1', iacStatus: 'orphan', publicAccess: true, encryption: 'none', versioning: false },
  ].sort((a, b) => a.name.localeCompare(b.name)), 'buckets with public access, encryption, versioning');

  // Codify the orphan eu-west-1 instance: references to its discovered subnet and group.
  const orphan = find('aws_instance', estate.instances['eu-west-1']);
  const gen = await api('POST', `/api/cloud-discovery/resources/${orphan._id}/generate-iac`);
  t.equal(gen.status, 200);
  t.match(gen.body, { resourceId: estate.instances['eu-west-1'], resourceType: 'aws_instance', importCommand: `terraform import aws_instance.${estate.instances['eu-west-1'].replace(/-/g, '_')} '${estate.instances['eu-west-1']}'` });
  t.match(gen.body.iac, /instance_type = "t3.micro"/);
  t.match(gen.body.iac, new RegExp(`subnet_id = aws_subnet\\.${estate.subnets['eu-west-1'].replace(/-/g, '_')}\\.id`), 'the subnet as a reference');
  t.match(gen.body.iac, new RegExp(`vpc_security_group_ids = \\[aws_security_group\\.${estate.groups['eu-west-1'].replace(/-/g, '_')}\\.id\\]`), 'the group as a reference');
  t.notMatch(gen.body.iac, /\barn\b|private_dns|instance_state/, 'computed attributes left out');
  const parsed = await parse('main.tf', gen.body.iac) as { resource: Record<string, Record<string, unknown>>; import: { id: string; to: string }[] };
  t.ok(parsed.resource.aws_instance, 'the HCL parses');
  t.equal(parsed.import[0].id, estate.instances['eu-west-1'], 'the import block names the id');

  // Every orphan's generated HCL parses, and its import id is the one the drift reader finds it by.
  const aws = new AwsContext(CREDS, 'us-east-1', moto.endpoint);
  t.teardown(() => aws.destroy());
  for (const r of rows.filter((x) => x.iacStatus === 'orphan' && ['aws_db_instance', 'aws_iam_policy', 'aws_dynamodb_table', 'aws_s3_bucket', 'aws_ebs_volume', 'aws_security_group'].includes(x.resourceType)).slice(0, 5)) {
    const g = (await api('POST', `/api/cloud-discovery/resources/${r._id}/generate-iac`)).body;
    const v = await api('POST', `/api/cloud-discovery/resources/${r._id}/validate`);
    // Here terraform is on PATH but cannot initialise (no provider registry, no mirror configured):
    // only the parser ran, and the answer says so instead of claiming valid.
    t.match(v.body, { resourceId: r.resourceId, lastValidated: String, validator: String }, `${r.resourceType} ${r.resourceId}: answered`);
    if (v.body.validator === 'hcl2json') t.match(v.body, { valid: null, message: /^Not validated: the HCL parses \(hcl2json\), but / }, `${r.resourceType}: not validated, and why`);
    else t.equal(v.body.valid, true, `${r.resourceType}: valid by ${v.body.validator}`);
    const importId = /id = "([^"]+)"/.exec(g.iac)![1];
    const own = { aws_db_instance: 'identifier', aws_iam_policy: 'arn', aws_dynamodb_table: 'name', aws_s3_bucket: 'bucket' }[r.resourceType as string];
    const attributes = { id: importId, ...(own ? { [own]: importId } : {}) };
    t.equal(readerIdOf(r.resourceType, attributes), importId);
    const [live] = await AWS_READERS[r.resourceType].read([{ instance: { address: 'x.y', type: r.resourceType, name: 'y', attributes }, region: r.region }], aws);
    t.ok(live, `${r.resourceType}: re-imported by its import id, the drift reader finds it`);
  }

  // Ignore, then undo; a managed resource goes back to managed.
  const ignored = await api('PATCH', `/api/cloud-discovery/resources/${orphan._id}`, { iacStatus: 'ignored' });
  t.match(ignored, { status: 200, body: { iacStatus: 'ignored' } });
  t.match((await api('GET', '/api/cloud-discovery/dashboard')).body, { ignored: 1, orphan: scan.resourcesFound - 5 });
  const managedRow = find('aws_vpc', estate.vpcs['us-east-1']);
  await api('PATCH', `/api/cloud-discovery/resources/${managedRow._id}`, { iacStatus: 'ignored' });
  t.match((await api('PATCH', `/api/cloud-discovery/resources/${managedRow._id}`, { iacStatus: 'orphan' })).body, { iacStatus: 'managed' }, 'un-ignoring a managed resource shows it managed');
  t.equal((await api('PATCH', `/api/cloud-discovery/resources/${orphan._id}`, { iacStatus: 'managed' })).status, 400, 'managed is not settable');

  // A re-scan updates in place, keeps the user's ignore, marks what disappeared.
  await ctx.db.db.collection('discovered_resources').updateOne({ _id: find('aws_iam_user', estate.user)._id }, { $set: { resourceId: 'gone-user' } });
  const second = (await api('POST', '/api/cloud-discovery/scan', { regions: REGIONS, resourceTypes })).body;
  await discovery.run(owner.orgId, second.scanId);
  const after = await ctx.db.db.collection('discovered_resources').find({ orgId: owner.orgId }).toArray();
  t.equal(after.find((r) => r._id === orphan._id)?.iacStatus, 'ignored', 'same record, still ignored');
  t.match(after.find((r) => r.resourceId === 'gone-user'), { missing: true }, 'a resource no longer found is marked missing');
  t.equal(after.filter((r) => !r.missing).length, scan.resourcesFound, 'no duplicates');

  // A drift scan that no longer manages the instance: it becomes an orphan (scan.completed reclassifies).
  const s2 = await services.scans!.trigger(owner.orgId, configId, null);
  await services.scans!.recordScanResult(owner.orgId, s2._id, { status: 'running' });
  await services.scans!.recordScanResult(owner.orgId, s2._id, { status: 'completed', drifts: [], inventory: outcome.inventory.filter((i) => i.type !== 'aws_instance') });
  t.equal((await api('GET', `/api/cloud-discovery/resources/${find('aws_instance', estate.instances['us-east-1'])._id}`)).body.iacStatus, 'orphan', 'reclassified after the drift scan');

  const other = await register(app);
  await ctx.tenancy.setPlan(other.orgId, 'pro');
  t.equal((await api('GET', `/api/cloud-discovery/resources/${orphan._id}`, undefined, other.token)).status, 404, "another organization's resource: 404");
  t.equal((await api('GET', `/api/cloud-discovery/scans/${second.scanId}`, undefined, other.token)).status, 404);
});

t.test('the timeout job fails a scan whose process died; the account can be scanned again', async (t) => {
  const s = (await api('POST', '/api/cloud-discovery/scan', { regions: ['us-east-1'], resourceTypes: ['aws_vpc'] })).body;
  t.notOk(await discovery.expire(owner.orgId, s.scanId), 'not due yet');
  t.ok(await discovery.expire(owner.orgId, s.scanId, new Date(Date.now() + 61 * 60_000)), 'past the timeout: failed');
  t.match((await api('GET', `/api/cloud-discovery/scans/${s.scanId}`)).body, { status: 'failed', error: /did not finish within 60 minutes/ });
  t.notOk(await discovery.run(owner.orgId, s.scanId), 'a late job run of it does nothing');
  t.equal((await api('POST', '/api/cloud-discovery/scan', { regions: ['us-east-1'], resourceTypes: ['aws_vpc'] })).status, 202, 'a new scan of the account starts');
  t.equal((await api('POST', '/api/cloud-discovery/scan', { resourceTypes: ['aws_cloudfront_distribution'] })).status, 400, 'an unsupported type: 400');
});

t.test('throttling backs off (adaptive retry); access denied names the permission', async (t) => {
  let throttle = 8;
  let served = 0;
  let deny = '';
  const proxy: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    if (throttle > 0) {
      throttle--; served++;
      res.writeHead(429, { 'content-type': 'text/xml' }).end('<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>Request limit exceeded.</Message></Error></Errors><RequestID>x</RequestID></Response>');
      return;
    }
    if (deny && body.toString().includes(`Action=${deny}`)) {
      res.writeHead(403, { 'content-type': 'text/xml' }).end(`<Response><Errors><Error><Code>UnauthorizedOperation</Code><Message>You are not authorized to perform this operation.</Message></Error></Errors><RequestID>x</RequestID></Response>`);
      return;
    }
    const headers = { ...req.headers } as Record<string, string>;
    delete headers['content-length'];
    const up = await request(`${moto.endpoint}${req.url}`, { method: req.method as 'POST', headers, body: body.length ? body : undefined });
    const out = Buffer.from(await up.body.arrayBuffer());
    const h = Object.fromEntries(Object.entries(up.headers).filter(([k]) => !['transfer-encoding', 'content-length', 'connection'].includes(k)));
    res.writeHead(up.statusCode, h).end(out);
  });
  await new Promise<void>((r) => proxy.listen(0, '127.0.0.1', r));
  t.teardown(() => proxy.close());
  const endpoint = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  const out = await discoverAccount({ credentials: CREDS, endpoint, regions: ['us-east-1', 'eu-west-1'], types: ['aws_vpc', 'aws_subnet', 'aws_ebs_volume'], concurrency: 6 });
  t.equal(served, 8, 'eight calls were throttled');
  t.ok(out.resources.filter((r) => r.type === 'aws_vpc').length >= 4, 'and the scan completed with every VPC');
  t.ok(out.stats.sdkCalls >= 8 + 6, `retries counted (${out.stats.sdkCalls} calls)`);
  deny = 'DescribeVolumes';
  await t.rejects(discoverAccount({ credentials: CREDS, endpoint, regions: ['us-east-1'], types: ['aws_vpc', 'aws_ebs_volume'] }),
    { message: /cloud_a denied ec2:DescribeVolumes \(UnauthorizedOperation\): check that the credentials are valid and allow ec2:DescribeVolumes/ }, 'access denied names the permission');
});
