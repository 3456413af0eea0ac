// aws_kms_key: KMS has no batch read, so each key costs DescribeKey, GetKeyPolicy,
// GetKeyRotationStatus and ListResourceTags (at most PER_RESOURCE_CONCURRENCY keys at once).
// A key scheduled for deletion still answers; its key_state shows it (CompareSpec.implied).
import {
  DescribeKey$, DescribeKeyCommand, GetKeyPolicy$, GetKeyPolicyCommand, GetKeyRotationStatus$, GetKeyRotationStatusCommand, ListResourceTags$,
  ListResourceTagsCommand, type DescribeKeyCommandOutput, type GetKeyPolicyCommandOutput, type GetKeyRotationStatusCommandOutput,
  type ListResourceTagsCommandOutput,
} from '@aws-sdk/client-kms';
import { mapLimit } from '../../../limit.ts';
import { tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, bool, FakeError, opt, stateTags, tagList } from '../replay/kit.ts';

const keyIdOf = (a: Record<string, unknown>) => str(a.key_id || a.id || a.arn);

function fakeKey(world: FakeWorld, id: string): Record<string, unknown> {
  const a = attrsOf(world, 'aws_kms_key').find((x) => [str(x.key_id), str(x.id), str(x.arn)].includes(id));
  if (!a) throw new FakeError('NotFoundException', `Key '${id}' does not exist`);
  return a;
}

const answers = [
  answer<{ KeyId: string }>('kms', DescribeKey$, (input, world) => {
    const a = fakeKey(world, input.KeyId);
    const enabled = bool(a.is_enabled) !== false;
    return { KeyMetadata: {
      KeyId: keyIdOf(a), Arn: opt(a.arn), Description: opt(a.description), KeyUsage: opt(a.key_usage), KeySpec: opt(a.customer_master_key_spec),
      CustomerMasterKeySpec: opt(a.customer_master_key_spec), Enabled: enabled, KeyState: enabled ? 'Enabled' : 'Disabled', MultiRegion: bool(a.multi_region),
      KeyManager: 'CUSTOMER', CreationDate: new Date(0),
    } };
  }),
  answer<{ KeyId: string }>('kms', GetKeyPolicy$, (input, world) => ({ Policy: opt(fakeKey(world, input.KeyId).policy), PolicyName: 'default' })),
  answer<{ KeyId: string }>('kms', GetKeyRotationStatus$, (input, world) => ({ KeyRotationEnabled: bool(fakeKey(world, input.KeyId).enable_key_rotation) ?? false })),
  answer<{ KeyId: string }>('kms', ListResourceTags$, (input, world) =>
    ({ Tags: tagList(stateTags(fakeKey(world, input.KeyId))).map((t) => ({ TagKey: t.Key, TagValue: t.Value })), Truncated: false })),
];

const NOT_FOUND = ['NotFoundException'];

export const kmsKeyReader: TypeReader = {
  spec: { policies: ['policy'], implied: (s) => ({ key_state: bool(s.is_enabled) === false ? 'Disabled' : 'Enabled' }) },
  answers,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const id = keyIdOf(instance.attributes);
    const kms = ctx.kms(region);
    const meta = (await unlessAbsent(ctx.send<DescribeKeyCommandOutput>(kms, new DescribeKeyCommand({ KeyId: id }), 'kms:DescribeKey'), NOT_FOUND))?.KeyMetadata;
    if (!meta) return null;
    const pending = meta.KeyState === 'PendingDeletion' || meta.KeyState === 'PendingReplicaDeletion';
    // A key pending deletion refuses the rotation read (KMSInvalidStateException): its state is the news.
    const [policy, rotation, tags] = await Promise.all([
      unlessAbsent(ctx.send<GetKeyPolicyCommandOutput>(kms, new GetKeyPolicyCommand({ KeyId: id, PolicyName: 'default' }), 'kms:GetKeyPolicy'), [...NOT_FOUND, 'KMSInvalidStateException']),
      pending ? undefined : unlessAbsent(ctx.send<GetKeyRotationStatusCommandOutput>(kms, new GetKeyRotationStatusCommand({ KeyId: id }), 'kms:GetKeyRotationStatus'), [...NOT_FOUND, 'UnsupportedOperationException']),
      unlessAbsent(ctx.send<ListResourceTagsCommandOutput>(kms, new ListResourceTagsCommand({ KeyId: id }), 'kms:ListResourceTags'), NOT_FOUND),
    ]);
    const tagSet = tagMap(tags?.Tags?.map((t) => ({ Key: t.TagKey, Value: t.TagValue })));
    return {
      key_id: meta.KeyId, arn: meta.Arn, description: meta.Description ?? '', key_usage: meta.KeyUsage, customer_master_key_spec: meta.KeySpec ?? meta.CustomerMasterKeySpec,
      is_enabled: meta.Enabled, key_state: meta.KeyState, multi_region: meta.MultiRegion ?? false, policy: policy?.Policy,
      enable_key_rotation: rotation?.KeyRotationEnabled, tags: tagSet, tags_all: tagSet,
    };
  }),
};
