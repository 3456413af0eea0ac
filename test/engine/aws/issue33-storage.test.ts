// Issue 33, S3 configuration and object readers (cloud/aws/s3more), the fleet readers
// (cloud/aws/fleet) and EFS (cloud/aws/efs): the written state replays clean, and out-of-band
// changes in the fake cloud come back as drifts with the severity rules' verdicts.
import t from 'tap';
import { changed, corpusState, driftsAgainst } from './issue33-kit.ts';

const state = corpusState('written-aws-storage-fleet');
const ALL_USERS = 'http://acs.amazonaws.com/groups/global/AllUsers';

async function driftOf(cloud: ReturnType<typeof changed>, address: string) {
  const { drifts } = await driftsAgainst(cloud, state);
  t.ok(drifts.every((d) => d.resourceAddress === address), `only ${address} drifts (${drifts.map((d) => d.resourceAddress).join(', ')})`);
  return drifts.find((d) => d.resourceAddress === address);
}
type A = Record<string, unknown>;
const rules = (a: A) => a.rule as A[];

t.test('the written storage and fleet state replays clean', async (t) => {
  const { drifts, compared, calls } = await driftsAgainst(state, state);
  t.same(drifts, []);
  t.equal(compared, 16);
  t.same(calls.autoscaling, 2, 'one DescribeLaunchConfigurations, one DescribePolicies for the three policies of one group');
});

t.test('S3 bucket ACL granting AllUsers is critical; other grant changes high', async (t) => {
  const grant = (uri: string, permission: string) => (a: A) => {
    const p = (a.access_control_policy as A[])[0]!;
    (p.grant as A[]).push({ grantee: [{ display_name: '', email_address: '', id: '', type: 'Group', uri }], permission });
    return a;
  };
  t.match(await driftOf(changed(state, 'aws_s3_bucket_acl.site', grant(ALL_USERS, 'READ')), 'aws_s3_bucket_acl.site'),
    { severity: 'critical', ruleId: 's3-acl-public', diff: [{ attribute: 'access_control_policy.0.grant' }] });
  t.match(await driftOf(changed(state, 'aws_s3_bucket_acl.site', grant('http://acs.amazonaws.com/groups/global/AuthenticatedUsers', 'WRITE')), 'aws_s3_bucket_acl.site'),
    { severity: 'critical', ruleId: 's3-acl-public' });
  const owner = (a: A) => { ((a.access_control_policy as A[])[0]!.grant as A[]).splice(1, 1); return a; };
  t.match(await driftOf(changed(state, 'aws_s3_bucket_acl.site', owner), 'aws_s3_bucket_acl.site'), { severity: 'high', ruleId: 's3-acl-changed' });
});

t.test('S3 website changed or removed is high; ownership controls medium; CORS medium', async (t) => {
  t.match(await driftOf(changed(state, 'aws_s3_bucket_website_configuration.site', (a) => ({ ...a, index_document: [{ suffix: 'home.html' }] })), 'aws_s3_bucket_website_configuration.site'),
    { severity: 'high', ruleId: 's3-website-changed', diff: [{ attribute: 'index_document.0.suffix', after: 'home.html' }] });
  t.match(await driftOf(changed(state, 'aws_s3_bucket_website_configuration.site', null), 'aws_s3_bucket_website_configuration.site'),
    { changeType: 'deleted', severity: 'high', ruleId: 's3-website-changed' });
  t.match(await driftOf(changed(state, 'aws_s3_bucket_ownership_controls.site', (a) => ({ ...a, rule: [{ object_ownership: 'ObjectWriter' }] })), 'aws_s3_bucket_ownership_controls.site'),
    { severity: 'medium', ruleId: 's3-ownership-controls-changed' });
  t.match(await driftOf(changed(state, 'aws_s3_bucket_cors_configuration.site', (a) => {
    (a.cors_rule as A[])[0]!.allowed_origins = ['*'];
    return a;
  }), 'aws_s3_bucket_cors_configuration.site'), { severity: 'medium', ruleId: 'changed', diff: [{ attribute: 'cors_rule' }] });
});

t.test('S3 lifecycle deleted or its expiration changed is high; a transition change is not', async (t) => {
  t.match(await driftOf(changed(state, 'aws_s3_bucket_lifecycle_configuration.site', null), 'aws_s3_bucket_lifecycle_configuration.site'),
    { changeType: 'deleted', severity: 'high', ruleId: 's3-lifecycle-deleted' });
  t.match(await driftOf(changed(state, 'aws_s3_bucket_lifecycle_configuration.site', (a) => { (rules(a)[0]!.expiration as A[])[0]!.days = 1; return a; }),
    'aws_s3_bucket_lifecycle_configuration.site'), { severity: 'high', ruleId: 's3-lifecycle-expiration-changed', diff: [{ attribute: 'rule' }] });
  t.match(await driftOf(changed(state, 'aws_s3_bucket_lifecycle_configuration.site', (a) => { (rules(a)[1]!.noncurrent_version_expiration as A[])[0]!.noncurrent_days = 2; return a; }),
    'aws_s3_bucket_lifecycle_configuration.site'), { severity: 'high', ruleId: 's3-lifecycle-expiration-changed' }, 'noncurrent versions expire too');
  t.match(await driftOf(changed(state, 'aws_s3_bucket_lifecycle_configuration.site', (a) => { (rules(a)[0]!.transition as A[])[0]!.days = 60; return a; }),
    'aws_s3_bucket_lifecycle_configuration.site'), { severity: 'medium', ruleId: 'changed' });
});

t.test('S3 object: content (etag), headers, metadata and tags; a deletion', async (t) => {
  t.match(await driftOf(changed(state, 'aws_s3_object.index', (a) => ({ ...a, etag: '0cc175b9c0f1b6a831c399e269772661', content_type: 'text/plain', metadata: { build: '43' } })), 'aws_s3_object.index'),
    { severity: 'medium', diff: [{ attribute: 'content_type', after: 'text/plain' }, { attribute: 'etag', after: '0cc175b9c0f1b6a831c399e269772661' }, { attribute: 'metadata.build', after: '43' }] });
  t.match(await driftOf(changed(state, 'aws_s3_object.index', (a) => ({ ...a, tags: { Owner: 'x' }, tags_all: { Owner: 'x' } })), 'aws_s3_object.index'),
    { severity: 'low', ruleId: 'tags-only' });
  t.match(await driftOf(changed(state, 'aws_s3_object.index', null), 'aws_s3_object.index'), { changeType: 'deleted' });
});

t.test('EFS: encryption key or lifecycle policy high; mount target security groups high; tags low', async (t) => {
  t.match(await driftOf(changed(state, 'aws_efs_file_system.shared', (a) => ({ ...a, kms_key_id: 'arn:aws:kms:eu-west-1:123456789012:key/other' })), 'aws_efs_file_system.shared'),
    { severity: 'high', ruleId: 'efs-encryption-or-policy-changed' });
  t.match(await driftOf(changed(state, 'aws_efs_file_system.shared', (a) => ({ ...a, lifecycle_policy: [] })), 'aws_efs_file_system.shared'),
    { severity: 'high', ruleId: 'efs-encryption-or-policy-changed', diff: [{ attribute: 'lifecycle_policy' }] });
  t.match(await driftOf(changed(state, 'aws_efs_file_system.shared', (a) => ({ ...a, tags: { Name: 'x' }, tags_all: { Name: 'x' } })), 'aws_efs_file_system.shared'),
    { severity: 'low', ruleId: 'tags-only' });
  t.match(await driftOf(changed(state, 'aws_efs_mount_target.shared_a', (a) => ({ ...a, security_groups: ['sg-0open'] })), 'aws_efs_mount_target.shared_a'),
    { severity: 'high', ruleId: 'efs-mount-target-access-changed' });
  const { drifts } = await driftsAgainst(changed(changed(state, 'aws_efs_file_system.shared', null), 'aws_efs_mount_target.shared_a', null), state);
  t.same(drifts.map((d) => [d.resourceAddress, d.changeType]).sort(), [['aws_efs_file_system.shared', 'deleted'], ['aws_efs_mount_target.shared_a', 'deleted']]);
});

t.test('fleet: launch configuration, scaling policies, AMI, volume and target group attachments', async (t) => {
  t.match(await driftOf(changed(state, 'aws_launch_configuration.web', null), 'aws_launch_configuration.web'), { changeType: 'deleted' });
  t.match(await driftOf(changed(state, 'aws_launch_configuration.web', (a) => ({ ...a, security_groups: ['sg-0other'] })), 'aws_launch_configuration.web'),
    { severity: 'high', ruleId: 'launch-configuration-access-changed' });
  t.match(await driftOf(changed(state, 'aws_autoscaling_policy.steps', (a) => { (a.step_adjustment as A[])[1]!.scaling_adjustment = 50; return a; }), 'aws_autoscaling_policy.steps'),
    { severity: 'medium', diff: [{ attribute: 'step_adjustment' }] });
  t.match(await driftOf(changed(state, 'aws_autoscaling_policy.cpu', (a) => { (a.target_tracking_configuration as A[])[0]!.target_value = 90; return a; }), 'aws_autoscaling_policy.cpu'),
    { diff: [{ attribute: 'target_tracking_configuration.0.target_value', after: 90 }] });
  t.match(await driftOf(changed(state, 'aws_ami_from_instance.golden', (a) => ({ ...a, public: true })), 'aws_ami_from_instance.golden'),
    { severity: 'critical', ruleId: 'ami-made-public' });
  t.match(await driftOf(changed(state, 'aws_volume_attachment.data', (a) => ({ ...a, instance_id: 'i-0other' })), 'aws_volume_attachment.data'),
    { changeType: 'deleted' }, 'detached from the instance (attached elsewhere)');
  t.match(await driftOf(changed(state, 'aws_lb_target_group_attachment.web_a', (a) => ({ ...a, port: 9090 })), 'aws_lb_target_group_attachment.web_a'),
    { changeType: 'deleted', severity: 'medium', ruleId: 'target-group-attachment-removed' });
});
