// aws_lambda_function_url: one GetFunctionUrlConfig per URL (one per function and qualifier;
// Lambda has no batch read), at most PER_RESOURCE_CONCURRENCY at once.
import { GetFunctionUrlConfig$, GetFunctionUrlConfigCommand, type GetFunctionUrlConfigCommandOutput } from '@aws-sdk/client-lambda';
import { mapLimit } from '../../../limit.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { answer, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt } from '../replay/kit.ts';

/** The state's id is `name` or `name/qualifier`; the attributes hold both. */
function urlOf(a: Record<string, unknown>): { fn: string; qualifier: string } {
  const [name, q] = str(a.id).split('/');
  return { fn: str(a.function_name) || name || '', qualifier: str(a.qualifier) || q || '' };
}
const bare = (fn: string) => fn.replace(/^arn:[^:]+:lambda:[^:]+:[^:]+:function:/, '').split(':')[0];

export const lambdaFunctionUrlReader: TypeReader = {
  spec: {},
  answers: [answer<{ FunctionName: string; Qualifier?: string }>('lambda', GetFunctionUrlConfig$, (input, world) => {
    const a = attrsOf(world, 'aws_lambda_function_url').find((x) => { const u = urlOf(x); return bare(u.fn) === bare(input.FunctionName) && u.qualifier === (input.Qualifier ?? ''); });
    if (!a) throw new FakeError('ResourceNotFoundException', 'The resource you requested does not exist.', 404);
    const c = block(a.cors);
    return {
      FunctionUrl: opt(a.function_url) ?? 'https://replay.lambda-url.us-east-1.on.aws/', FunctionArn: opt(a.function_arn) ?? 'arn:aws:lambda:us-east-1:123456789012:function:replay',
      AuthType: opt(a.authorization_type), InvokeMode: opt(a.invoke_mode), CreationTime: '2024-01-01T00:00:00Z', LastModifiedTime: '2024-01-01T00:00:00Z',
      Cors: Object.keys(c).length ? {
        AllowCredentials: bool(c.allow_credentials), AllowHeaders: list(c.allow_headers), AllowMethods: list(c.allow_methods), AllowOrigins: list(c.allow_origins),
        ExposeHeaders: list(c.expose_headers), MaxAge: num(c.max_age),
      } : undefined,
    };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const { fn, qualifier } = urlOf(instance.attributes);
    const out = await unlessAbsent(ctx.send<GetFunctionUrlConfigCommandOutput>(ctx.lambda(region), new GetFunctionUrlConfigCommand({ FunctionName: fn, Qualifier: qualifier || undefined }),
      'lambda:GetFunctionUrlConfig'), ['ResourceNotFoundException']);
    if (!out) return null;
    const c = out.Cors;
    return {
      authorization_type: out.AuthType, invoke_mode: out.InvokeMode ?? 'BUFFERED',
      cors: c ? [{
        allow_credentials: c.AllowCredentials ?? false, allow_headers: c.AllowHeaders ?? [], allow_methods: c.AllowMethods ?? [], allow_origins: c.AllowOrigins ?? [],
        expose_headers: c.ExposeHeaders ?? [], max_age: c.MaxAge ?? 0,
      }] : [],
    };
  }),
};
