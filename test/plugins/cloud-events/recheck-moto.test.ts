// Issue #24 points 2 and 5 end to end against moto (test/engine/world.ts: real resources, their
// state in S3, the HCL in a git repository) through the built-in executor: a CloudTrail event on
// a managed security group queues one targeted re-check (debounced), which reads only that
// group's address, finds the rule the event's call added, and names the event's actor; other
// drifted or undone resources are neither read, detected nor resolved by it. Duplicate,
// read-only and unmanaged events queue nothing.
import t from 'tap';
import { AuthorizeSecurityGroupIngressCommand } from '@aws-sdk/client-ec2';
import { PutBucketVersioningCommand } from '@aws-sdk/client-s3';
import { bearer } from '../../helper.ts';
import { ALICE, trail } from './records.ts';
import { motoOrganization } from './moto-org.ts';

t.test('an event on a managed resource: one targeted re-check, its drift attributed', async (t) => {
  const { app, ctx, services, world, owner, api, config } = await motoOrganization(t, 'acme/events');
  const scans = services.scans!;
  const executor = services.executor!;
  const events = services['cloud-events']!;
  const scanNow = async (scanId: string) => {
    t.equal(await executor.execute(owner.orgId, scanId), 'ran', 'the built-in executor ran the scan');
    return (await api('GET', `/api/scans/${scanId}`)).data;
  };
  const open = async () => (await api('GET', '/api/drifts?status=detected&limit=100')).data as { resourceAddress: string; cause: { actor: string; eventName: string } | null; scan: string }[];
  const pending = () => ctx.db.db.collection('cloud_event_checks').countDocuments({ orgId: owner.orgId, repositoryConfig: config, pendingKey: 'pending' });

  // A full scan records what the config manages, and finds the bucket's versioning suspended.
  await world.c.s3.send(new PutBucketVersioningCommand({ Bucket: world.bucket, VersioningConfiguration: { Status: 'Suspended' } }));
  const full = await scanNow((await scans.trigger(owner.orgId, config, null))._id);
  t.equal(full.status, 'completed', full.error ?? 'full scan completed');
  t.same((await open()).map((d) => d.resourceAddress), ['aws_s3_bucket_versioning.data'], 'one drift open');
  const managed = await scans.managedBy(owner.orgId, [world.sgId]);
  t.same(managed.get(world.sgId)?.map((m) => m.address), ['aws_security_group.web'], 'the group is managed by the config (its inventory)');

  // Out of band: the bucket is put back (a full scan would resolve its drift), and someone opens the group.
  await world.c.s3.send(new PutBucketVersioningCommand({ Bucket: world.bucket, VersioningConfiguration: { Status: 'Enabled' } }));
  await world.c.ec2.send(new AuthorizeSecurityGroupIngressCommand({ GroupId: world.sgId, IpPermissions: [{ IpProtocol: 'tcp', FromPort: 8080, ToPort: 8080, IpRanges: [{ CidrIp: '0.0.0.0/0' }] }] }));

  const token = (await api('POST', '/api/cloud-events/tokens', { name: 'bridge' })).data.token as string;
  const ingest = async (payload: unknown) => (await app.inject({ method: 'POST', url: '/api/cloud-events', headers: bearer(token), payload: payload as object })).json();
  const opened = trail.authorizeIngress(world.sgId, 8080, '0.0.0.0/0', { arn: ALICE });
  t.same(await ingest(opened), { accepted: 1, duplicates: 0, readOnly: 0, ignored: 0 }, 'the event stored');
  t.equal(await pending(), 1, 'one targeted re-check queued');
  t.same(await ingest(opened), { accepted: 0, duplicates: 1, readOnly: 0, ignored: 0 }, 'the same eventID again: a duplicate');
  t.same(await ingest(trail.createTags(world.sgId, 'Reviewed', 'no')), { accepted: 1, duplicates: 0, readOnly: 0, ignored: 0 }, 'another call on the group within the window');
  t.equal(await pending(), 1, 'still one re-check (debounced)');
  t.equal((await ingest({ ...trail.describeInstances(world.instanceId) })).readOnly, 1, 'a read-only call: counted');
  t.equal((await ingest(trail.modifyInstanceAttribute('i-00000000unmanaged'))).accepted, 1, 'a call on a resource no config manages: stored');
  t.equal(await pending(), 1, 'neither queued anything');
  t.equal((await api('GET', '/api/scans?limit=100')).pagination.total, 1, 'no scan yet: the window is open');

  // The window closes: the check job's run (called directly; its job is planned at the due time).
  t.equal(await events.checks.run(owner.orgId, config, new Date()), null, 'before the window closes: nothing');
  const out = await events.checks.run(owner.orgId, config, new Date(Date.now() + 61_000));
  if (!out || !('scan' in out)) throw new Error(`no scan: ${JSON.stringify(out)}`);
  t.match(out.scan, { triggeredBy: 'event', trigger: { eventId: opened.eventID, resourceIds: [world.sgId], addresses: ['aws_security_group.web'] } }, 'one scan of the group only, naming the first event');
  t.equal(await events.checks.run(owner.orgId, config, new Date(Date.now() + 61_000)), null, 'the job again: nothing more');
  const targeted = await scanNow(out.scan._id);
  t.match(targeted, { status: 'completed', triggeredBy: 'event', driftCount: 1, newDrifts: 1, resolvedDrifts: 0 }, targeted.error ?? 'the targeted scan completed');

  const now = await open();
  const group = now.find((d) => d.resourceAddress === 'aws_security_group.web');
  t.match(group, { scan: out.scan._id, cause: { eventName: 'AuthorizeSecurityGroupIngress', actor: ALICE } }, 'the drift the call made, with its actor');
  t.ok(now.some((d) => d.resourceAddress === 'aws_s3_bucket_versioning.data'), 'the bucket drift it did not read stays open (a full scan would resolve it)');
  t.equal(now.length, 2, 'nothing else detected');
  const details = (await api('GET', `/api/scans/${out.scan._id}/details`)).data;
  t.same(details.drifts.map((d: { resourceAddress: string }) => d.resourceAddress), ['aws_security_group.web'], 'the scan recorded its one address');

  const again = await scanNow((await scans.trigger(owner.orgId, config, null))._id);
  t.match(again, { status: 'completed', resolvedDrifts: 1 }, 'a full scan then resolves the bucket drift');
});
