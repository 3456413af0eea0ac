// aws_ebs_volume, aws_key_pair, aws_launch_template: batched Describe calls (ec2-describe.ts);
// a launch template's content (its latest version) costs one DescribeLaunchTemplateVersions.
import {
  DescribeKeyPairs$, DescribeKeyPairsCommand, DescribeLaunchTemplates$, DescribeLaunchTemplatesCommand, DescribeLaunchTemplateVersions$,
  DescribeLaunchTemplateVersionsCommand, DescribeVolumes$, DescribeVolumesCommand,
  type DescribeLaunchTemplateVersionsCommandOutput, type KeyPairInfo, type LaunchTemplate, type Volume,
} from '@aws-sdk/client-ec2';
import { tagMap } from '../../../values.ts';
import { ec2Reader } from '../ec2-describe.ts';
import { answer, str } from '../reader.ts';
import { attrsOf, bool, FakeError, list, num, opt, stateTags, tagList } from '../replay/kit.ts';

export const ebsVolumeReader = ec2Reader<Volume>({
  command: DescribeVolumesCommand, schema: DescribeVolumes$, what: 'DescribeVolumes', idsField: 'VolumeIds', filter: 'volume-id',
  listField: 'Volumes', notFound: 'InvalidVolume.NotFound', idOf: (v) => v.VolumeId ?? '',
}, {
  type: 'aws_ebs_volume',
  live: (v) => {
    if (v.State === 'deleted' || v.State === 'deleting') return null;
    const tags = tagMap(v.Tags);
    return {
      id: v.VolumeId, availability_zone: v.AvailabilityZone, size: v.Size, type: v.VolumeType, iops: v.Iops, throughput: v.Throughput,
      encrypted: v.Encrypted ?? false, kms_key_id: v.KmsKeyId ?? '', snapshot_id: v.SnapshotId ?? '', multi_attach_enabled: v.MultiAttachEnabled ?? false,
      outpost_arn: v.OutpostArn ?? '', tags, tags_all: tags,
    };
  },
  record: (a) => ({
    VolumeId: str(a.id), AvailabilityZone: opt(a.availability_zone), Size: num(a.size), VolumeType: opt(a.type), Iops: num(a.iops), Throughput: num(a.throughput),
    Encrypted: bool(a.encrypted), KmsKeyId: opt(a.kms_key_id), SnapshotId: opt(a.snapshot_id), MultiAttachEnabled: bool(a.multi_attach_enabled),
    OutpostArn: opt(a.outpost_arn), State: 'in-use', Tags: tagList(stateTags(a)),
  }),
});

export const keyPairReader = ec2Reader<KeyPairInfo>({
  command: DescribeKeyPairsCommand, schema: DescribeKeyPairs$, what: 'DescribeKeyPairs', idsField: 'KeyNames', filter: 'key-name',
  listField: 'KeyPairs', notFound: 'InvalidKeyPair.NotFound', idOf: (k) => k.KeyName ?? '',
  // The public key material, so Cloud Discovery's generated aws_key_pair carries public_key
  // (drift comparison ignores it: engine/ignore.ts).
  input: { IncludePublicKey: true },
}, {
  type: 'aws_key_pair',
  idOfState: (a) => str(a.key_name || a.id),
  live: (k) => {
    const tags = tagMap(k.Tags);
    return { id: k.KeyName, key_name: k.KeyName, key_pair_id: k.KeyPairId, fingerprint: k.KeyFingerprint, key_type: k.KeyType, public_key: k.PublicKey ?? null, tags, tags_all: tags };
  },
  record: (a) => ({
    KeyName: str(a.key_name || a.id), KeyPairId: opt(a.key_pair_id), KeyFingerprint: opt(a.fingerprint), KeyType: opt(a.key_type), PublicKey: opt(a.public_key), Tags: tagList(stateTags(a)),
  }),
});

type TemplateData = NonNullable<NonNullable<DescribeLaunchTemplateVersionsCommandOutput['LaunchTemplateVersions']>[number]>;

export const launchTemplateReader = ec2Reader<LaunchTemplate>({
  // DescribeLaunchTemplates has no id filter: a batch with an unknown id is retried id by id.
  command: DescribeLaunchTemplatesCommand, schema: DescribeLaunchTemplates$, what: 'DescribeLaunchTemplates', idsField: 'LaunchTemplateIds',
  listField: 'LaunchTemplates', notFound: 'InvalidLaunchTemplateId.NotFound', idOf: (t) => t.LaunchTemplateId ?? '',
}, {
  type: 'aws_launch_template',
  async live(t, _state, ctx, region) {
    const out = await ctx.send<DescribeLaunchTemplateVersionsCommandOutput>(ctx.ec2(region),
      new DescribeLaunchTemplateVersionsCommand({ LaunchTemplateId: t.LaunchTemplateId, Versions: ['$Latest'] }), 'ec2:DescribeLaunchTemplateVersions');
    const v: TemplateData | undefined = out.LaunchTemplateVersions?.[0];
    const d = v?.LaunchTemplateData;
    const tags = tagMap(t.Tags);
    return {
      id: t.LaunchTemplateId, name: t.LaunchTemplateName, default_version: t.DefaultVersionNumber, latest_version: t.LatestVersionNumber,
      description: v?.VersionDescription ?? '', image_id: d?.ImageId ?? '', instance_type: d?.InstanceType ?? '', key_name: d?.KeyName ?? '',
      user_data: d?.UserData ?? '', vpc_security_group_ids: d?.SecurityGroupIds ?? [], tags, tags_all: tags,
    };
  },
  record: (a) => ({
    LaunchTemplateId: str(a.id), LaunchTemplateName: opt(a.name), DefaultVersionNumber: num(a.default_version), LatestVersionNumber: num(a.latest_version),
    Tags: tagList(stateTags(a)),
  }),
  extraAnswers: [answer<{ LaunchTemplateId?: string }>('ec2', DescribeLaunchTemplateVersions$, (input, world) => {
    const a = attrsOf(world, 'aws_launch_template').find((x) => str(x.id) === input.LaunchTemplateId);
    if (!a) throw new FakeError('InvalidLaunchTemplateId.NotFound', `The specified launch template, with template ID ${input.LaunchTemplateId}, does not exist.`);
    return { LaunchTemplateVersions: [{
      LaunchTemplateId: str(a.id), VersionNumber: num(a.latest_version), VersionDescription: opt(a.description),
      LaunchTemplateData: { ImageId: opt(a.image_id), InstanceType: opt(a.instance_type), KeyName: opt(a.key_name), UserData: opt(a.user_data), SecurityGroupIds: list(a.vpc_security_group_ids) },
    }] };
  })],
});
