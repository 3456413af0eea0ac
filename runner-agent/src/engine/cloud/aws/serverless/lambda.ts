// aws_lambda_function: one GetFunction per function (configuration, tags and reserved
// concurrency in one answer), at most PER_RESOURCE_CONCURRENCY at once; Lambda has no batch read.
import { GetFunction$, GetFunctionCommand, type GetFunctionCommandOutput } from '@aws-sdk/client-lambda';
import { mapLimit } from '../../../limit.ts';
import { isObject } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { attrsOf, block, FakeError, list, num, opt, stateTags } from '../replay/kit.ts';

const nameOf = (a: Record<string, unknown>) => str(a.function_name || a.id);

export const lambdaFunctionReader: TypeReader = {
  spec: {},
  answers: [answer<{ FunctionName: string }>('lambda', GetFunction$, (input, world) => {
    const a = attrsOf(world, 'aws_lambda_function').find((x) => nameOf(x) === input.FunctionName || str(x.arn) === input.FunctionName);
    if (!a) throw new FakeError('ResourceNotFoundException', `Function not found: ${input.FunctionName}`, 404);
    const env = block(a.environment).variables;
    const vpc = block(a.vpc_config);
    const concurrency = num(a.reserved_concurrent_executions);
    const tags = stateTags(a);
    return {
      Configuration: {
        FunctionName: nameOf(a), FunctionArn: opt(a.arn), Role: opt(a.role), Handler: opt(a.handler), Runtime: opt(a.runtime), MemorySize: num(a.memory_size),
        Timeout: num(a.timeout), Description: opt(a.description), Environment: isObject(env) ? { Variables: env } : undefined,
        Layers: list(a.layers).map((Arn) => ({ Arn })), Architectures: list(a.architectures), PackageType: opt(a.package_type), KMSKeyArn: opt(a.kms_key_arn),
        TracingConfig: opt(block(a.tracing_config).mode) ? { Mode: str(block(a.tracing_config).mode) } : undefined,
        VpcConfig: list(vpc.subnet_ids).length ? { SubnetIds: list(vpc.subnet_ids), SecurityGroupIds: list(vpc.security_group_ids), VpcId: opt(vpc.vpc_id) } : undefined,
        EphemeralStorage: num(block(a.ephemeral_storage).size) ? { Size: num(block(a.ephemeral_storage).size) } : undefined,
      },
      Code: opt(a.image_uri) ? { ImageUri: str(a.image_uri), RepositoryType: 'ECR' } : { RepositoryType: 'S3' },
      Tags: isObject(tags) && Object.keys(tags).length ? tags : undefined,
      Concurrency: concurrency !== undefined && concurrency >= 0 ? { ReservedConcurrentExecutions: concurrency } : undefined,
    };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const out = await unlessAbsent(ctx.send<GetFunctionCommandOutput>(ctx.lambda(region), new GetFunctionCommand({ FunctionName: nameOf(instance.attributes) }), 'lambda:GetFunction'), ['ResourceNotFoundException']);
    const f = out?.Configuration;
    if (!f) return null;
    const tags = out.Tags ?? {};
    // No VPC: providers store [] or one element of empty lists (and a false ipv6 flag); either is "none".
    const stateVpc = list(block(instance.attributes.vpc_config).subnet_ids).length > 0;
    const vpc = f.VpcConfig?.SubnetIds?.length ? [{ subnet_ids: f.VpcConfig.SubnetIds, security_group_ids: f.VpcConfig.SecurityGroupIds ?? [], vpc_id: f.VpcConfig.VpcId ?? '' }]
      : stateVpc ? [] : undefined;
    return {
      function_name: f.FunctionName, arn: f.FunctionArn, role: f.Role, handler: f.Handler ?? '', runtime: f.Runtime ?? '', memory_size: f.MemorySize, timeout: f.Timeout,
      description: f.Description ?? '', environment: f.Environment?.Variables && Object.keys(f.Environment.Variables).length ? [{ variables: f.Environment.Variables }] : [],
      layers: (f.Layers ?? []).map((l) => l.Arn), architectures: f.Architectures, package_type: f.PackageType, kms_key_arn: f.KMSKeyArn ?? '',
      tracing_config: f.TracingConfig?.Mode ? [{ mode: f.TracingConfig.Mode }] : undefined, vpc_config: vpc,
      ephemeral_storage: f.EphemeralStorage?.Size ? [{ size: f.EphemeralStorage.Size }] : undefined, image_uri: out.Code?.ImageUri ?? '',
      reserved_concurrent_executions: out.Concurrency?.ReservedConcurrentExecutions ?? -1, tags, tags_all: tags,
    };
  }),
};
