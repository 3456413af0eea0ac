// An instance's termination protection turned on out of band is found (Terraform's
// refresh-only plan reports it; the engine missed it before it read DescribeInstanceAttribute):
// a real instance in moto, read clean, changed with ModifyInstanceAttribute, found, changed back.
import t from 'tap';
import { IGNORED_ATTRIBUTES } from '../../runner-agent/src/engine/catalogue.ts';
import { DescribeImagesCommand, ModifyInstanceAttributeCommand, RunInstancesCommand, TerminateInstancesCommand } from '@aws-sdk/client-ec2';
import { AwsContext } from '../../runner-agent/src/engine/cloud/aws/index.ts';
import { compareLive } from '../../runner-agent/src/engine/compare.ts';
import { buildIgnoreRules } from '../../runner-agent/src/engine/ignore.ts';
import type { StateInstance } from '../../runner-agent/src/engine/types.ts';
import { clients, CREDENTIALS, describeInstance, REGION } from './world.ts';

const c = clients();
const ami = (await c.ec2.send(new DescribeImagesCommand({}))).Images![0].ImageId!;
const id = (await c.ec2.send(new RunInstancesCommand({ ImageId: ami, MinCount: 1, MaxCount: 1, InstanceType: 't3.micro', DisableApiTermination: false }))).Instances![0].InstanceId!;
t.teardown(async () => {
  await c.ec2.send(new ModifyInstanceAttributeCommand({ InstanceId: id, DisableApiTermination: { Value: false } }));
  await c.ec2.send(new TerminateInstancesCommand({ InstanceIds: [id] }));
});

const live = await describeInstance(c, id);
const instance: StateInstance = {
  address: 'aws_instance.web', type: 'aws_instance', name: 'web',
  attributes: {
    id, arn: `arn:aws:ec2:${REGION}:123456789012:instance/${id}`, ami, instance_type: 't3.micro', availability_zone: live.Placement?.AvailabilityZone,
    subnet_id: live.SubnetId ?? '', vpc_security_group_ids: (live.SecurityGroups ?? []).map((g) => g.GroupId), disable_api_termination: false, tags: {},
  },
};

async function compare() {
  const aws = new AwsContext(CREDENTIALS, REGION, c.endpoint);
  try {
    const out = await compareLive([{ instance, region: REGION }], aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
    return { ...out, calls: aws.calls.ec2 };
  } finally {
    aws.destroy();
  }
}

t.test('termination protection changed out of band is found', async (t) => {
  const clean = await compare();
  t.same(clean.drifts, [], 'read clean');
  t.equal(clean.calls, 2, 'one DescribeInstances, one DescribeInstanceAttribute');
  await c.ec2.send(new ModifyInstanceAttributeCommand({ InstanceId: id, DisableApiTermination: { Value: true } }));
  const changed = await compare();
  t.match(changed.drifts, [{ resourceAddress: 'aws_instance.web', changeType: 'changed', diff: [{ attribute: 'disable_api_termination', before: false, after: true }] }]);
  await c.ec2.send(new ModifyInstanceAttributeCommand({ InstanceId: id, DisableApiTermination: { Value: false } }));
  t.same((await compare()).drifts, [], 'changed back: clean again');
});
