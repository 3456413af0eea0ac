// End to end, nothing faked: real resources in moto (created through the AWS SDK) with a state
// object in S3 and the HCL in a git repository (test/engine/world.ts); the service as its own
// process with its job loop; runner-agent as its own process. Resources are changed out of
// band; one scan runs on the runner agent, one on the built-in executor; drifts, severities and
// diffs are read through the API; the changes are undone and both scans find them resolved.
// Then the service dies while the agent holds a scan: the agent keeps the result, is itself
// restarted before the service is back, and delivers once it is.
import t, { type Test } from 'tap';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { AuthorizeSecurityGroupIngressCommand, RevokeSecurityGroupIngressCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { PutBucketVersioningCommand } from '@aws-sdk/client-s3';
import { buildState, CREDENTIALS, createWorld, launchInstance, putState, type World } from '../engine/world.ts';
import { controlApp, http, startAgent, startService, until } from './lib.ts';

const w: World = await createWorld();
t.teardown(() => w.cleanup());
const control = await controlApp(t);
const serviceEnv = { E2E_DB: control.db, E2E_PREFIX: control.prefix, DRIFT_CLOUD_A_ENDPOINT: w.c.endpoint, EXECUTOR_CONCURRENCY: '2' };
let service = await startService(t, serviceEnv);
const base = service.url;

const owner = (await http(base, 'POST', '/api/auth/register', undefined, { email: `e2e-${Date.now()}@example.com`, password: 'correct horse battery' })).body;
const orgId = (await http(base, 'GET', '/api/auth/me', owner.token)).body.defaultOrgId;
await control.ctx.tenancy.setPlan(orgId, 'enterprise');
const api = (method: string, p: string, body?: unknown) => http(base, method, p, owner.token, body);
if ((await api('POST', '/api/auth/cloud-a-credentials', CREDENTIALS)).status !== 200) throw new Error('could not store the cloud_a credentials');

async function config(name: string, fields: Record<string, unknown>): Promise<string> {
  const res = await api('POST', '/api/repo-configs', { repositoryName: name, branch: 'main', provider: 'cloud_a', iacPaths: ['infra'], repositoryUrl: w.repoUrl, ...fields });
  if (res.status !== 201) throw new Error(`could not create the repository config: ${JSON.stringify(res.body)}`);
  return res.body.data._id;
}
const viaRunner = await config('acme/infra-runner', { runnerLabels: ['e2e'] });
const viaExecutor = await config('acme/infra-builtin', {});

const runner = (await api('POST', '/api/runners', { name: 'e2e-runner', labels: ['e2e', 'linux'] })).body.data;
const stateDir = mkdtempSync(path.join(tmpdir(), 'drift-agent-'));
t.teardown(() => rmSync(stateDir, { recursive: true, force: true }));
const agentArgs = ['--url', base, '--token', runner.token, '--state-dir', stateDir, '--poll-interval', '1', '--heartbeat-interval', '5'];
let agent = startAgent(t, agentArgs);

async function scan(configId: string): Promise<{ _id: string; status: string; error: string | null; driftCount: number; resolvedDrifts: number }> {
  const trig = await api('POST', `/api/scans/trigger/${configId}`);
  if (trig.status !== 201) throw new Error(`trigger: ${JSON.stringify(trig.body)}`);
  return until(`scan ${trig.body.data._id} to finish`, async () => {
    const s = (await api('GET', `/api/scans/${trig.body.data._id}`)).body.data;
    return s.status === 'completed' || s.status === 'failed' ? s : undefined;
  });
}

type Change = { attribute: string; before: unknown; after: unknown };
type Drift = { resourceAddress: string; severity: string; changeType: string; status: string; diff: { changes: Change[] } };
const driftsOf = async (scanId: string) => Object.fromEntries(((await api('GET', `/api/drifts/scan/${scanId}`)).body.data as Drift[]).map((d) => [d.resourceAddress, d]));

function assertDrifts(t: Test, d: Record<string, Drift>) {
  t.same(Object.keys(d).sort(), ['aws_instance.web', 'aws_s3_bucket_versioning.data', 'aws_security_group.web'], 'exactly the three changed resources');
  const sg = d['aws_security_group.web'];
  t.match(sg, { severity: 'critical', changeType: 'changed', status: 'detected' }, 'security group open to the world: critical');
  t.same(sg.diff.changes.map((c) => c.attribute), ['ingress'], 'one attribute differs: ingress');
  t.notOk(JSON.stringify(sg.diff.changes[0].before).includes('0.0.0.0/0'), 'ingress before: not open');
  t.ok((sg.diff.changes[0].after as { cidr_blocks: string[]; from_port: number }[]).some((r) => r.cidr_blocks.includes('0.0.0.0/0') && r.from_port === 22), 'ingress after: port 22 to the world');
  t.match(d['aws_s3_bucket_versioning.data'], { severity: 'medium', changeType: 'changed' }, 'versioning off: medium');
  t.same(d['aws_s3_bucket_versioning.data'].diff, { changes: [{ attribute: 'versioning_configuration.0.status', before: 'Enabled', after: 'Suspended' }] }, 'Enabled -> Suspended');
  t.match(d['aws_instance.web'], { severity: 'high', changeType: 'removed' }, 'terminated instance: high, removed');
  t.same(d['aws_instance.web'].diff, { changes: [{ attribute: 'id', before: w.instanceId, after: null }] }, 'its id is gone');
}

t.test('out-of-band changes, scanned by runner-agent and by the built-in executor', async (t) => {
  await w.c.ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: w.sgId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
  await w.c.s3.send(new PutBucketVersioningCommand({ Bucket: w.bucket, VersioningConfiguration: { Status: 'Suspended' } }));
  await w.c.ec2.send(new TerminateInstancesCommand({ InstanceIds: [w.instanceId] }));

  const byRunner = await scan(viaRunner);
  t.match(byRunner, { status: 'completed', driftCount: 3 }, `the runner's scan completed (${byRunner.error ?? 'no error'})`);
  assertDrifts(t, await driftsOf(byRunner._id));
  const held = await control.ctx.db.db.collection('runner_jobs').findOne({ _id: byRunner._id as never });
  t.equal(held?.runnerId, runner._id, 'it ran on the runner');
  t.match((await api('GET', `/api/runners/${runner._id}`)).body.data, { jobsCompleted: 1, version: '0.1.0' }, 'the runner counted it');

  const byExecutor = await scan(viaExecutor);
  t.match(byExecutor, { status: 'completed', driftCount: 3 }, `the built-in executor's scan completed (${byExecutor.error ?? 'no error'})`);
  assertDrifts(t, await driftsOf(byExecutor._id));
  t.notOk(await control.ctx.db.db.collection('runner_jobs').findOne({ _id: byExecutor._id as never }), 'no runner took it');
});

t.test('undone changes are resolved on the next scans', async (t) => {
  await w.c.ec2.send(new RevokeSecurityGroupIngressCommand({ GroupId: w.sgId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 22, ToPort: 22, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));
  await w.c.s3.send(new PutBucketVersioningCommand({ Bucket: w.bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  // A terminated instance cannot come back: re-create it and record it in the state, as an apply would.
  w.instanceId = await launchInstance(w.c, w.ami, w.sgId, w.suffix);
  await putState(w, await buildState(w, 2));
  for (const [who, id] of [['runner', viaRunner], ['executor', viaExecutor]] as const) {
    const s = await scan(id);
    t.match(s, { status: 'completed', driftCount: 0, resolvedDrifts: 3 }, `${who}: no drift left, three resolved`);
    const all = (await api('GET', `/api/drifts/repository/${id}`)).body.data as Drift[];
    t.same(all.map((d) => d.status), ['resolved', 'resolved', 'resolved'], `${who}: the config's drifts are resolved`);
  }
});

t.test('the agent keeps a finished result while the service is down and delivers it later', async (t) => {
  const outbox = path.join(stateDir, 'outbox');
  const trig = await api('POST', `/api/scans/trigger/${viaRunner}`);
  const scanId = trig.body.data._id as string;
  // The agent's own log line: the claim's answer reached it (a lost answer is redelivered, tested in jobs.test.ts).
  await until('the agent to start the scan', async () => agent.output().includes(`job ${scanId}: scanning`), 60_000, 10);
  // Freeze the agent mid-scan, kill the service (a crash, not a shutdown), then let the scan finish.
  agent.child.kill('SIGSTOP');
  service.child.kill('SIGKILL');
  await service.exited;
  agent.child.kill('SIGCONT');
  await until('the completed report in the outbox', async () => existsSync(outbox) && readdirSync(outbox).some((f) => f.includes(`${scanId}-completed`)), 120_000);
  t.pass('the result is on disk while the service is down');

  agent.child.kill('SIGTERM');
  t.equal(await agent.exited, 0, 'SIGTERM: the agent exits 0 with the service unreachable');
  t.ok(readdirSync(outbox).some((f) => f.includes(`${scanId}-completed`)), 'the report survived the agent stopping');

  agent = startAgent(t, agentArgs);
  await until('the restarted agent to try the dead service', async () => /unreachable/.test(agent.output()), 30_000);
  t.equal(agent.child.exitCode, null, 'the agent started before the service exists and keeps retrying');
  service = await startService(t, { ...serviceEnv, E2E_PORT: String(service.port) });
  const done = await until('the scan to complete', async () => {
    const s = (await api('GET', `/api/scans/${scanId}`)).body.data;
    return s.status === 'completed' ? s : undefined;
  }, 180_000);
  t.match(done, { status: 'completed', driftCount: 0 }, 'delivered once the service is back');
  await until('the outbox to empty', async () => readdirSync(outbox).length === 0, 30_000);
  t.pass('nothing left in the outbox');
  agent.child.kill('SIGTERM');
  t.equal(await agent.exited, 0);
  service.child.kill('SIGTERM');
  await service.exited;
});
