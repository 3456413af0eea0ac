// aws_secretsmanager_secret: DescribeSecret and GetResourcePolicy per secret (no batch read
// answers the policy). aws_secretsmanager_secret_version: one GetSecretValue by version id; the
// value is hashed here (sensitive.ts `digest`) and only the hash leaves the reader, compared with
// the hash of the state's value and shown, when it differs, as "(sensitive value changed)".
import {
  DescribeSecret$, DescribeSecretCommand, GetResourcePolicy$, GetResourcePolicyCommand, GetSecretValue$, GetSecretValueCommand,
  type DescribeSecretCommandOutput, type GetResourcePolicyCommandOutput, type GetSecretValueCommandOutput,
} from '@aws-sdk/client-secrets-manager';
import { mapLimit } from '../../../limit.ts';
import { digest } from '../../../sensitive.ts';
import { tagMap } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt, stateTags, tagList } from '../replay/kit.ts';

const GONE = ['ResourceNotFoundException'];
/** A secret scheduled for deletion refuses value reads with InvalidRequestException: gone for the provider too. */
const VALUE_GONE = [...GONE, 'InvalidRequestException'];
const secretIdOf = (a: Record<string, unknown>) => str(a.arn || a.id || a.name);
/** aws_secretsmanager_secret_version ids are `secret arn|version id`. */
const versionKey = (a: Record<string, unknown>) => {
  const [idSecret, idVersion] = str(a.id).split('|');
  return { secret: str(a.secret_id) || idSecret, version: str(a.version_id) || idVersion };
};

function fakeSecret(world: FakeWorld, id: string): Record<string, unknown> {
  const a = attrsOf(world, 'aws_secretsmanager_secret').find((x) => [str(x.arn), str(x.id), str(x.name)].includes(id))
    ?? attrsOf(world, 'aws_secretsmanager_secret_version').map((x) => ({ arn: versionKey(x).secret })).find((x) => x.arn === id);
  if (!a) throw new FakeError('ResourceNotFoundException', "Secrets Manager can't find the specified secret.");
  return a;
}

export const secretReader: TypeReader = {
  spec: { policies: ['policy'] },
  answers: [
    answer<{ SecretId: string }>('secretsmanager', DescribeSecret$, (input, world) => {
      const a = fakeSecret(world, input.SecretId);
      const r = block(a.rotation_rules);
      return {
        ARN: opt(a.arn), Name: opt(a.name), Description: opt(a.description), KmsKeyId: opt(a.kms_key_id), RotationEnabled: bool(a.rotation_enabled),
        RotationLambdaARN: opt(a.rotation_lambda_arn), Tags: tagList(stateTags(a)),
        RotationRules: Object.keys(r).length ? { AutomaticallyAfterDays: num(r.automatically_after_days) || undefined, Duration: opt(r.duration), ScheduleExpression: opt(r.schedule_expression) } : undefined,
      };
    }),
    answer<{ SecretId: string }>('secretsmanager', GetResourcePolicy$, (input, world) => {
      const a = fakeSecret(world, input.SecretId);
      return { ARN: opt(a.arn), Name: opt(a.name), ResourcePolicy: opt(a.policy) };
    }),
  ],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const sm = ctx.secretsmanager(region);
    const id = secretIdOf(instance.attributes);
    const s = await unlessAbsent(ctx.send<DescribeSecretCommandOutput>(sm, new DescribeSecretCommand({ SecretId: id }), 'secretsmanager:DescribeSecret'), GONE);
    // Scheduled for deletion: the provider reads it as gone.
    if (!s || s.DeletedDate) return null;
    const policy = (await unlessAbsent(ctx.send<GetResourcePolicyCommandOutput>(sm, new GetResourcePolicyCommand({ SecretId: id }), 'secretsmanager:GetResourcePolicy'), GONE))?.ResourcePolicy;
    const tags = tagMap(s.Tags);
    const r = s.RotationRules;
    return {
      arn: s.ARN, name: s.Name, description: s.Description ?? '', kms_key_id: s.KmsKeyId ?? '', policy: policy ?? '', rotation_enabled: s.RotationEnabled ?? false,
      rotation_lambda_arn: s.RotationLambdaARN ?? '',
      rotation_rules: r ? [{ automatically_after_days: r.AutomaticallyAfterDays ?? 0, duration: r.Duration ?? '', schedule_expression: r.ScheduleExpression ?? '' }] : [],
      tags, tags_all: tags,
    };
  }),
};

export const secretVersionReader: TypeReader = {
  spec: { sensitive: ['secret_string', 'secret_binary'] },
  answers: [answer<{ SecretId: string; VersionId?: string }>('secretsmanager', GetSecretValue$, (input, world) => {
    const a = attrsOf(world, 'aws_secretsmanager_secret_version').find((x) => versionKey(x).secret === input.SecretId && versionKey(x).version === input.VersionId);
    if (!a) throw new FakeError('ResourceNotFoundException', "Secrets Manager can't find the specified secret value for VersionId");
    return {
      ARN: input.SecretId, VersionId: input.VersionId, SecretString: opt(a.secret_string),
      SecretBinary: opt(a.secret_binary) ? Buffer.from(str(a.secret_binary), 'base64') : undefined, VersionStages: list(a.version_stages), CreatedDate: new Date(0),
    };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const { secret, version } = versionKey(instance.attributes);
    const v = await unlessAbsent(ctx.send<GetSecretValueCommandOutput>(ctx.secretsmanager(region), new GetSecretValueCommand({ SecretId: secret, VersionId: version }), 'secretsmanager:GetSecretValue'), VALUE_GONE);
    if (!v) return null;
    const { secret_string: text, secret_binary: binary } = instance.attributes;
    // A value written through the write-only secret_string_wo is in no state: then only the stages compare.
    const stated = [text, binary].some((x) => x !== null && x !== undefined && x !== '');
    return {
      version_id: v.VersionId,
      // Hashed before leaving the reader: the value itself is never returned.
      ...(stated ? { secret_string: digest(v.SecretString ?? ''), secret_binary: digest(v.SecretBinary ? Buffer.from(v.SecretBinary).toString('base64') : '') } : {}),
      // A version with no stage left is deprecated (and soon deleted by the service): this shows it.
      version_stages: v.VersionStages ?? [],
    };
  }),
};
