// Issue 37 point 4: noise learning end to end through moto scans (test/engine/world.ts: real
// resources, their state in S3, the HCL in git; the built-in executor). A tag of the managed
// security group is set and removed out of band with no write event, three times across full
// scans: the observations teach the noise rule (tags of aws_security_group), and the drift of
// the third change is suppressed (left out of the default list, shown under suppressed=true).
// Then the same change made by a caller whose CloudTrail event is posted: the event queues a
// targeted re-check, whose drift has the event as its cause and is not suppressed.
import t from 'tap';
import { CreateTagsCommand, DeleteTagsCommand } from '@aws-sdk/client-ec2';
import { bearer } from '../../helper.ts';
import { ALICE, trail } from './records.ts';
import { motoOrganization } from './moto-org.ts';

type Drift = { resourceAddress: string; status: string; suppressed: boolean; suppressedReason: string | null; cause: { actor: string; eventName: string } | null; diff: { changes: { attribute: string }[] } };

t.test('flips with no event are learned as noise and suppressed; the same change with an event is not', async (t) => {
  const { app, ctx, services, world, owner, api, config } = await motoOrganization(t, 'acme/noise');
  const run = async (scanId: string, label: string) => {
    t.equal(await services.executor!.execute(owner.orgId, scanId), 'ran', `${label}: the built-in executor ran the scan`);
    const s = (await api('GET', `/api/scans/${scanId}`)).data;
    t.equal(s.status, 'completed', `${label}: ${s.error ?? 'completed'}`);
  };
  const fullScan = async (label: string) => run((await services.scans!.trigger(owner.orgId, config, null))._id, label);
  const group = async (suppressed = false) => ((await api('GET', `/api/drifts?status=detected&limit=100${suppressed ? '&suppressed=true' : ''}`)).data as Drift[])
    .find((d) => d.resourceAddress === 'aws_security_group.web');
  const tag = () => world.c.ec2.send(new CreateTagsCommand({ Resources: [world.sgId], Tags: [{ Key: 'Reviewed', Value: 'no' }] }));
  const untag = () => world.c.ec2.send(new DeleteTagsCommand({ Resources: [world.sgId], Tags: [{ Key: 'Reviewed' }] }));

  await tag();
  await fullScan('1: tag set, no event');
  const first = await group();
  t.ok(first, 'the tag change is a drift');
  t.equal(first?.suppressed, false, 'not yet noise');
  const attributes = first!.diff.changes.map((c) => c.attribute);
  t.ok(attributes.length > 0 && attributes.every((a) => a.startsWith('tags')), `a tag drift (${attributes.join(', ')})`);

  await untag();
  await fullScan('2: tag removed, no event');
  t.notOk(await group(), 'resolved');
  t.same((await api('GET', '/api/drifts/noise-rules')).data.filter((r: { learnedAt: string | null }) => r.learnedAt), [], 'two observations: nothing learned yet');

  await tag();
  await fullScan('3: tag set again, no event');
  const rules = (await api('GET', '/api/drifts/noise-rules')).data as { resourceType: string; attribute: string; learnedAt: string | null; observations: number }[];
  const learned = rules.filter((r) => r.learnedAt);
  t.same(learned.map((r) => `${r.resourceType}|${r.attribute}`).sort(), attributes.map((a) => `aws_security_group|${a}`).sort(), 'the tag attribute(s) of security groups learned as noise');
  t.notOk(await group(), 'the third change is left out of the default list');
  const hidden = await group(true);
  t.match(hidden, { suppressed: true, suppressedReason: new RegExp(`^noise:aws_security_group:${attributes[0].replace(/\./g, '\\.')}`) }, 'and shown under suppressed=true');

  // The same change with a write event: posted, queued, re-checked; its drift has a cause.
  await untag();
  await fullScan('4: tag removed, no event');
  await tag();
  const token = (await api('POST', '/api/cloud-events/tokens', { name: 'bridge' })).data.token as string;
  const event = trail.createTags(world.sgId, 'Reviewed', 'no', { arn: ALICE });
  const ingested = (await app.inject({ method: 'POST', url: '/api/cloud-events', headers: bearer(token), payload: event as object })).json();
  t.match(ingested, { accepted: 1 }, 'the event stored');
  const out = await services['cloud-events']!.checks.run(owner.orgId, config, new Date(Date.now() + 3_600_000));
  if (!out || !('scan' in out)) throw new Error(`no re-check: ${JSON.stringify(out)}`);
  await run(out.scan._id, '5: the targeted re-check');
  const caused = await group();
  t.match(caused, { suppressed: false, cause: { eventName: 'CreateTags', actor: ALICE } }, 'a change with its event is not noise: shown, with its cause');
});
