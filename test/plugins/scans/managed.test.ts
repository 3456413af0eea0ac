// The managed-resource inventory: the engine lists every managed instance of the states it read
// with the id its reader uses; both paths (built-in executor, runner report) carry it; the scans
// plugin replaces a config's rows at each completed scan carrying one, in a fixed number of
// database commands, and answers managedBy / managedIds (Cloud Discovery's classification).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { world } from '../../fixtures/world.ts';
import { createExecutor } from '../../../plugins/executor/service.ts';
import { detectDrift, type InventoryItem } from '../../../runner-agent/src/engine/index.ts';
import { CREDENTIALS, motoUrl } from '../../engine/world.ts';

const P = 'provider["registry.terraform.io/hashicorp/aws"]';
const res = (type: string, name: string, attributes: Record<string, unknown>, module?: string) =>
  ({ mode: 'managed', type, name, provider: P, ...(module ? { module } : {}), instances: [{ attributes }] });

t.test('the engine inventories every managed instance with its reader id, region and account', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'inv-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const suffix = `${Date.now().toString(36)}${process.pid}`;
  writeFileSync(join(dir, 'main.tf'), 'provider "aws" {\n  region = "eu-west-1"\n}\n');
  writeFileSync(join(dir, 'terraform.tfstate'), JSON.stringify({ version: 4, serial: 1, lineage: 'l', resources: [
    res('aws_db_instance', 'db', { id: 'db-ABCDEF', identifier: `inv-db-${suffix}`, arn: `arn:aws:rds:eu-west-1:123456789012:db:inv-db-${suffix}` }),
    res('aws_iam_role', 'r', { id: `inv-role-${suffix}`, name: `inv-role-${suffix}`, arn: `arn:aws:iam::123456789012:role/inv-role-${suffix}` }),
    res('aws_iam_policy', 'p', { id: `arn:aws:iam::123456789012:policy/inv-${suffix}`, arn: `arn:aws:iam::123456789012:policy/inv-${suffix}`, name: `inv-${suffix}` }),
    res('aws_vpc', 'v', { id: 'vpc-0inv', owner_id: '123456789012' }, 'module.net'),
    res('aws_cloudfront_distribution', 'cdn', { id: 'E2INV' }),
    { mode: 'data', type: 'aws_caller_identity', name: 'me', provider: P, instances: [{ attributes: { id: '123456789012' } }] },
  ] }));
  const out = await detectDrift({ source: { kind: 'path', path: dir }, iacPaths: [], provider: 'cloud_a', credentials: CREDENTIALS, endpoint: motoUrl() });
  const by = Object.fromEntries(out.inventory.map((i) => [i.address, i]));
  t.equal(out.inventory.length, 5, 'every managed instance, data sources left out, unsupported types kept');
  t.same(by['aws_db_instance.db'], { address: 'aws_db_instance.db', type: 'aws_db_instance', resourceId: `inv-db-${suffix}`, region: 'eu-west-1', account: '123456789012' },
    "a DB instance by its identifier (the reader's and import's id), not the state's DBI resource id");
  t.match(by['aws_iam_role.r'], { resourceId: `inv-role-${suffix}`, region: 'eu-west-1' }, 'a role by name (region: its provider block)');
  t.match(by['aws_iam_policy.p'], { resourceId: `arn:aws:iam::123456789012:policy/inv-${suffix}` }, 'a policy by ARN');
  t.match(by['module.net.aws_vpc.v'], { type: 'aws_vpc', resourceId: 'vpc-0inv', account: '123456789012' }, 'module instances by full address');
  t.match(by['aws_cloudfront_distribution.cdn'], { resourceId: 'E2INV' }, 'a type without reader is still inventoried');
});

const item = (address: string, resourceId: string | null, region = 'us-east-1'): InventoryItem =>
  ({ address, type: address.split('.')[0], resourceId, region, account: null });

t.test('executor and runner paths store the inventory; each completed scan replaces it; managedBy / managedIds', async (t) => {
  const w = await world(t);
  const org = w.owner.orgId;
  let inventory: InventoryItem[] = [];
  const executor = createExecutor(w.ctx, w.services.scans!, {
    concurrency: 1, endpoint: undefined, localSources: true, timeoutMs: 60_000, providerPlans: false, allowPlanPrograms: false,
    detect: async () => ({ drifts: [], resourcesScanned: inventory.length, stats: { durationMs: 1 } as never, inventory }),
  });
  t.equal((await w.api('POST', '/api/auth/cloud-a-credentials', { ...CREDENTIALS, accessKeyId: 'AKIAEXAMPLEEXAMPLE00', secretAccessKey: 'secret-secret-secret-secret' })).status, 200);
  const a = await w.config('acme/a');
  await w.ctx.db.db.collection('repo_configs').updateOne({ _id: a as never }, { $set: { repositoryUrl: 'file:///nowhere' } });
  const run = async (items: InventoryItem[]) => {
    inventory = items;
    const scan = await w.scans.trigger(org, a, null);
    t.equal(await executor.execute(org, scan._id), 'ran');
    return scan._id;
  };
  const N = 60;
  const big = Array.from({ length: N }, (_, i) => item(`aws_instance.n[${i}]`, `i-${i}`));
  const before = w.ctx.db.commandCount();
  const first = await run([...big, item('aws_vpc.main', 'vpc-1'), item('aws_iam_role.r', 'role-r'), item('aws_s3_bucket.noid', null)]);
  const rows = () => w.ctx.db.db.collection('managed_resources').find({ orgId: org, repositoryConfigId: a }).toArray();
  t.equal((await rows()).length, N + 3, 'the whole inventory is stored');
  t.ok(w.ctx.db.commandCount() - before < 60, `a scan with ${N + 3} instances took ${w.ctx.db.commandCount() - before} commands in all (not one per instance)`);
  t.match((await rows()).find((r) => r.address === 'aws_vpc.main'), { orgId: org, repositoryConfigId: a, type: 'aws_vpc', resourceId: 'vpc-1', region: 'us-east-1', scanId: first });

  // Second scan: vpc replaced (new id), the role gone, one instance moved region, a bucket added.
  const changed = [...big.slice(0, N - 1), item(`aws_instance.n[${N - 1}]`, `i-${N - 1}`, 'eu-west-1'), item('aws_vpc.main', 'vpc-2'), item('aws_s3_bucket.new', 'bkt-new')];
  const cmds = w.ctx.db.commandCount();
  const second = await run(changed);
  const replaceCost = w.ctx.db.commandCount() - cmds;
  t.ok(replaceCost < 60, `the re-scan took ${replaceCost} commands`);
  const now = await rows();
  t.equal(now.length, N + 2, 'instances no longer in the state are removed');
  t.notOk(now.some((r) => r.address === 'aws_iam_role.r' || r.address === 'aws_s3_bucket.noid'), 'the role and the id-less bucket are gone');
  const rewritten = new Set([`aws_instance.n[${N - 1}]`, 'aws_vpc.main', 'aws_s3_bucket.new']);
  t.ok(now.every((r) => r.scanId === (rewritten.has(r.address) ? second : first)), 'new and changed rows carry the second scan; unchanged rows are not rewritten');
  t.match(now.find((r) => r.address === `aws_instance.n[${N - 1}]`), { region: 'eu-west-1' }, 'a changed row is rewritten');

  // A second config managing the same VPC; another organization managing one id too.
  const b = await w.config('acme/b');
  const bScan = await w.scans.trigger(org, b, null);
  await w.scans.recordScanResult(org, bScan._id, { status: 'running' });
  await w.scans.recordScanResult(org, bScan._id, { status: 'completed', drifts: [], inventory: [item('module.x.aws_vpc.shared', 'vpc-2')] });
  const other = await w.register();
  await w.ctx.tenancy.setPlan(other.orgId, 'enterprise');
  const oc = await w.config('other/infra', {}, other);
  const oScan = await w.scans.trigger(other.orgId, oc, null);
  await w.scans.recordScanResult(other.orgId, oScan._id, { status: 'running' });
  await w.scans.recordScanResult(other.orgId, oScan._id, { status: 'completed', drifts: [], inventory: [item('aws_iam_role.theirs', 'role-r')] });

  const by = await w.scans.managedBy(org, ['vpc-2', 'vpc-1', 'role-r', 'i-7', 'bkt-new']);
  t.same([...by.keys()].sort(), ['bkt-new', 'i-7', 'vpc-2'], "managed ids only, this organization's only");
  t.same(by.get('vpc-2')!.map((m) => [m.repositoryConfigId, m.address]).sort(), [[a, 'aws_vpc.main'], [b, 'module.x.aws_vpc.shared']].sort(), 'every config managing it');
  t.same(by.get('i-7'), [{ repositoryConfigId: a, address: 'aws_instance.n[7]', type: 'aws_instance', region: 'us-east-1' }]);
  const ids = await w.scans.managedIds(org);
  t.equal(ids.size, N + 2, 'managedIds: the distinct ids of every config');
  t.ok(ids.has('vpc-2') && !ids.has('role-r') && !ids.has('vpc-1'));
  t.same([...(await w.scans.managedIds(other.orgId))], ['role-r']);

  // A completed report without an inventory (a runner older than it) keeps the stored one.
  const old = await w.scans.trigger(org, b, null);
  await w.scans.recordScanResult(org, old._id, { status: 'running' });
  await w.scans.recordScanResult(org, old._id, { status: 'completed', drifts: [] });
  t.ok((await w.scans.managedBy(org, ['vpc-2'])).get('vpc-2')!.some((m) => m.repositoryConfigId === b), 'kept');
  // An empty inventory (the state emptied) empties it.
  await run([]);
  t.equal((await rows()).length, 0, 'an empty state leaves nothing managed');
  // Deleting a config takes its rows.
  t.equal((await w.api('DELETE', `/api/repo-configs/${b}`)).status, 200);
  t.equal((await w.scans.managedIds(org)).size, 0, 'a deleted config manages nothing');
});

t.test("a runner's report carries the inventory; a malformed one is refused", async (t) => {
  const w = await world(t);
  t.equal((await w.api('POST', '/api/auth/cloud-a-credentials', { accessKeyId: 'AKIAEXAMPLEEXAMPLE00', secretAccessKey: 'secret-secret-secret-secret', region: 'eu-west-1' })).status, 200);
  const c = await w.config('acme/r');
  t.equal((await w.api('PUT', `/api/repo-configs/${c}`, { runnerLabels: ['linux'], repositoryUrl: 'https://git.example.com/acme/r.git' })).status, 200);
  const runner = (await w.api('POST', '/api/runners', { name: 'r', labels: ['linux'] })).body.data as { token: string };
  const agent = async (url: string, payload: unknown = {}) => {
    const res = await w.app.inject({ method: 'POST', url, headers: { 'x-runner-token': runner.token }, payload: payload as object });
    return { status: res.statusCode, body: res.json() };
  };
  const scan = await w.scans.trigger(w.owner.orgId, c, null);
  t.equal((await agent('/api/runners/jobs')).body.data.job._id, scan._id);
  
  t.equal((await agent('/api/runners/jobs/status', { jobId: scan._id, status: 'completed', result: { drifts: [], inventory: [{ ...item("aws_vpc.v", "vpc-1"), address: 7 }] } })).status, 400, 'a malformed inventory: 400');
  const ok = await agent('/api/runners/jobs/status', { jobId: scan._id, status: 'completed', result: { drifts: [], inventory: [item('aws_vpc.main', 'vpc-9', 'eu-west-1')] } });
  t.equal(ok.status, 200);
  t.same([...(await w.scans.managedBy(w.owner.orgId, ['vpc-9'])).get('vpc-9')!], [{ repositoryConfigId: c, address: 'aws_vpc.main', type: 'aws_vpc', region: 'eu-west-1' }], 'stored from the runner path');
});
