// aws_lambda_permission: one GetPolicy per function and qualifier, memoised for the scan (every
// permission of a function is a statement of that one policy); the statement is found by its Sid.
import { GetPolicy$, GetPolicyCommand, type GetPolicyCommandOutput } from '@aws-sdk/client-lambda';
import { mapLimit } from '../../../limit.ts';
import { isObject } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { answer, once, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { attrsOf, FakeError, opt } from '../replay/kit.ts';

/** The function's name or ARN as configured, and the qualifier (an ARN with a version or alias carries it). */
const fnOf = (a: Record<string, unknown>) => ({ fn: str(a.function_name), qualifier: str(a.qualifier) });
const unprefixed = (fn: string) => fn.replace(/^arn:[^:]+:lambda:[^:]+:[^:]+:function:/, '');
const bare = (fn: string) => unprefixed(fn).split(':')[0];

type Statement = Record<string, unknown>;

/** A statement's condition value under an operator, whichever case the key is written in. */
function condition(s: Statement, op: string, key: string): string {
  const block = isObject(s.Condition) ? s.Condition[op] : undefined;
  if (!isObject(block)) return '';
  const hit = Object.entries(block).find(([k]) => k.toLowerCase() === key.toLowerCase());
  return hit ? str(hit[1]) : '';
}

/** The principal as the provider writes it: a service name, an account id for an account root, or the ARN. */
function principalOf(p: unknown): string {
  if (typeof p === 'string') return p;
  if (!isObject(p)) return '';
  if (p.AWS !== undefined) {
    const v = str(p.AWS);
    const m = /^arn:[^:]+:iam::(\d{12}):root$/.exec(v);
    return m ? m[1] : v;
  }
  return str(p.Service ?? p.Federated ?? '');
}

export function permissionAttributes(s: Statement): Record<string, unknown> {
  return {
    statement_id: s.Sid, action: Array.isArray(s.Action) ? str(s.Action[0]) : str(s.Action), principal: principalOf(s.Principal),
    source_arn: condition(s, 'ArnLike', 'AWS:SourceArn'), source_account: condition(s, 'StringEquals', 'AWS:SourceAccount'),
    event_source_token: condition(s, 'StringEquals', 'lambda:EventSourceToken'), principal_org_id: condition(s, 'StringEquals', 'aws:PrincipalOrgID'),
    function_url_auth_type: condition(s, 'StringEquals', 'lambda:FunctionUrlAuthType'),
  };
}

/** The policy's statements, or undefined when the function (or its policy) is gone. */
function statements(ctx: AwsContext, region: string, fn: string, qualifier: string): Promise<Statement[] | undefined> {
  // Keyed by the name with any qualifier an ARN carries: a name and its ARN share one read.
  return once(ctx, `lambda:policy:${region}:${unprefixed(fn)}:${qualifier}`, async () => {
    const out = await unlessAbsent(ctx.send<GetPolicyCommandOutput>(ctx.lambda(region), new GetPolicyCommand({ FunctionName: fn, Qualifier: qualifier || undefined }),
      'lambda:GetPolicy'), ['ResourceNotFoundException']);
    if (!out?.Policy) return undefined;
    const doc = JSON.parse(out.Policy) as { Statement?: Statement | Statement[] };
    return Array.isArray(doc.Statement) ? doc.Statement : doc.Statement ? [doc.Statement] : [];
  });
}

/** A statement as Lambda writes it from the permission's arguments. */
function fakeStatement(a: Record<string, unknown>, region: string): Statement {
  const p = str(a.principal);
  const principal = p === '*' ? '*' : /^\d{12}$/.test(p) ? { AWS: `arn:aws:iam::${p}:root` } : p.startsWith('arn:') ? { AWS: p } : { Service: p };
  const equals: Record<string, string> = {};
  if (opt(a.source_account)) equals['AWS:SourceAccount'] = str(a.source_account);
  if (opt(a.event_source_token)) equals['lambda:EventSourceToken'] = str(a.event_source_token);
  if (opt(a.principal_org_id)) equals['aws:PrincipalOrgID'] = str(a.principal_org_id);
  if (opt(a.function_url_auth_type)) equals['lambda:FunctionUrlAuthType'] = str(a.function_url_auth_type);
  const cond: Record<string, unknown> = {};
  if (Object.keys(equals).length) cond.StringEquals = equals;
  if (opt(a.source_arn)) cond.ArnLike = { 'AWS:SourceArn': str(a.source_arn) };
  return {
    Sid: str(a.statement_id), Effect: 'Allow', Principal: principal, Action: str(a.action),
    Resource: `arn:aws:lambda:${region}:123456789012:function:${bare(fnOf(a).fn)}`, ...(Object.keys(cond).length ? { Condition: cond } : {}),
  };
}

export const lambdaPermissionReader: TypeReader = {
  spec: {},
  answers: [answer<{ FunctionName: string; Qualifier?: string }>('lambda', GetPolicy$, (input, world) => {
    const mine = attrsOf(world, 'aws_lambda_permission').filter((a) => bare(fnOf(a).fn) === bare(input.FunctionName) && fnOf(a).qualifier === (input.Qualifier ?? ''));
    const known = mine.length || attrsOf(world, 'aws_lambda_function').some((f) => str(f.function_name) === bare(input.FunctionName));
    // A function without permissions answers as Lambda does: no policy.
    if (!known || !mine.length) throw new FakeError('ResourceNotFoundException', 'The resource you requested does not exist.', 404);
    return { Policy: JSON.stringify({ Version: '2012-10-17', Id: 'default', Statement: mine.map((a) => fakeStatement(a, 'us-east-1')) }), RevisionId: 'replay' };
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const { fn, qualifier } = fnOf(instance.attributes);
    const found = (await statements(ctx, region, fn, qualifier))?.find((s) => s.Sid === str(instance.attributes.statement_id));
    return found ? permissionAttributes(found) : null;
  }),
};
