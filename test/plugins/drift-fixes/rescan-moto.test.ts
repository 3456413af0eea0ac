// Issue 37 point 2: an approval is bound to the diff it was given for, proven through real scans.
// Real resources in moto, their state in S3 and the HCL in a git repository (test/engine/world.ts),
// scanned by the built-in executor: the security group is opened out of band, scanned, its fix
// generated and approved; a second out-of-band change (another port opened) and a re-scan change
// the drift's diff, and the approval no longer holds (409 "older diff") until the fix is generated
// again. Nothing is written to the database by hand.
import t from 'tap';
import { AuthorizeSecurityGroupIngressCommand } from '@aws-sdk/client-ec2';
import { createWorld, CREDENTIALS } from '../../engine/world.ts';
import { buildTestApp, register, bearer } from '../../helper.ts';

type Rule = { cidr_blocks?: string[]; from_port?: number };
type Drift = { _id: string; resourceAddress: string; status: string; scan: string; lastScan: string; diff: { changes: { attribute: string; after: unknown }[] } };

t.test('a re-scan that changes the diff: the approval of the older diff no longer holds', async (t) => {
  const world = await createWorld();
  t.teardown(() => world.cleanup());
  const { app, ctx, services } = await buildTestApp(t, { env: { DRIFT_CLOUD_A_ENDPOINT: world.c.endpoint } });
  const owner = await register(app);
  await ctx.tenancy.setPlan(owner.orgId, 'enterprise');
  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await app.inject({ method, url, headers: bearer(owner.token), ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() };
  };
  t.equal((await api('POST', '/api/auth/cloud-a-credentials', CREDENTIALS)).status, 200);
  const config = (await api('POST', '/api/repo-configs', { repositoryName: 'acme/fixes', branch: 'main', provider: 'cloud_a', iacPaths: ['infra'], repositoryUrl: world.repoUrl })).body.data._id;
  const scan = async (label: string) => {
    const created = await services.scans!.trigger(owner.orgId, config, null);
    t.equal(await services.executor!.execute(owner.orgId, created._id), 'ran', `${label}: the built-in executor ran the scan`);
    const done = (await api('GET', `/api/scans/${created._id}`)).body.data;
    t.equal(done.status, 'completed', `${label}: ${done.error ?? 'completed'}`);
    return created._id as string;
  };
  const group = async () => ((await api('GET', '/api/drifts?status=detected&limit=100')).body.data as Drift[]).find((d) => d.resourceAddress === 'aws_security_group.web');
  const open = (port: number) => world.c.ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: world.sgId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: port, ToPort: port, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
  const worldPorts = (d: Drift) => ((d.diff.changes.find((c) => c.attribute === 'ingress')?.after ?? []) as Rule[])
    .filter((r) => r.cidr_blocks?.includes('0.0.0.0/0')).map((r) => r.from_port).sort();

  await open(3389);
  const first = await scan('first scan');
  const before = await group();
  if (!before) throw new Error('the opened group was not detected');
  t.equal(before.scan, first);
  t.same(worldPorts(before), [3389], 'the first scan sees one port open to the world');
  const fix = await api('POST', `/api/drifts/${before._id}/generate-fix`);
  t.equal(fix.status, 200, JSON.stringify(fix.body));
  t.equal(fix.body.data.strategy, 'revert', 'critical: revert');
  t.equal((await api('POST', `/api/drifts/${before._id}/approve-fix`)).status, 200, 'approved for the diff the first scan found');

  // A second change out of band, and a re-scan finds the same drift with another diff.
  await open(5432);
  const second = await scan('re-scan');
  const after = await group();
  t.equal(after?._id, before._id, 'the same drift');
  t.equal(after?.lastScan, second, 'seen by the re-scan');
  t.same(after && worldPorts(after), [3389, 5432], 'whose diff now has both ports');

  const stale = await api('POST', `/api/drifts/${before._id}/approve-fix`);
  t.equal(stale.status, 409, 'approve-fix on the older diff: 409');
  t.match(stale.body.error?.message, /older diff/);
  const pr = await api('POST', `/api/drifts/${before._id}/create-pr`);
  t.equal(pr.status, 409, 'create-pr on the older diff: 409');
  t.match(pr.body.error?.message, /older diff/);

  // Generated again for the new diff, the approval holds again.
  t.equal((await api('POST', `/api/drifts/${before._id}/generate-fix`)).status, 200);
  t.equal((await api('POST', `/api/drifts/${before._id}/approve-fix`)).status, 200, 'a fix for the current diff can be approved');
});
