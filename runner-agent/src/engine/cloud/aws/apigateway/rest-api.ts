// aws_api_gateway_rest_api: GetRestApis lists every REST API of a region with its settings,
// policy and tags (500 a page), memoised per region for the scan. aws_api_gateway_deployment:
// GetDeployments per API (500 a page), memoised per API.
import {
  GetDeployments$, GetDeploymentsCommand, GetRestApis$, GetRestApisCommand, type Deployment, type GetDeploymentsCommandOutput,
  type GetRestApisCommandOutput, type RestApi,
} from '@aws-sdk/client-api-gateway';
import { mapLimit } from '../../../limit.ts';
import { isObject } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { answer, once, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt, stateTags } from '../replay/kit.ts';
import { CHILD_TYPES } from './resources.ts';

export function restApis(ctx: AwsContext, region: string): Promise<Map<string, RestApi>> {
  return once(ctx, `apigateway:restapis:${region}`, async () => {
    const out = new Map<string, RestApi>();
    let position: string | undefined;
    do {
      const page = await ctx.send<GetRestApisCommandOutput>(ctx.apigateway(region), new GetRestApisCommand({ limit: 500, position }), 'apigateway:GetRestApis');
      for (const a of page.items ?? []) if (a.id) out.set(a.id, a);
      position = page.position;
    } while (position);
    return out;
  });
}

/** The service returns the policy with its quotes escaped (`{\"Version\"...`); the provider unescapes them. */
export const unescapePolicy = (p: string | undefined) => (p ? p.replace(/\\"/g, '"').replace(/\\\\/g, '\\') : '');
const escapePolicy = (p: unknown) => (opt(p) ? str(p).replace(/\\/g, '\\\\').replace(/"/g, '\\"') : undefined);

export function restApiAttributes(a: RestApi, state: Record<string, unknown>): Record<string, unknown> {
  const tags = a.tags ?? {};
  const size = a.minimumCompressionSize;
  return {
    name: a.name, description: a.description ?? '', api_key_source: a.apiKeySource ?? 'HEADER', binary_media_types: a.binaryMediaTypes ?? [],
    disable_execute_api_endpoint: a.disableExecuteApiEndpoint ?? false, policy: unescapePolicy(a.policy),
    endpoint_configuration: [{ types: a.endpointConfiguration?.types ?? [], vpc_endpoint_ids: a.endpointConfiguration?.vpcEndpointIds ?? [] }],
    // Provider 4.x stores -1 for "not set"; 5.x a string, "" for "not set".
    minimum_compression_size: typeof state.minimum_compression_size === 'string' ? (size === undefined ? '' : String(size)) : size ?? -1,
    tags, tags_all: tags,
  };
}

/** Whether the fake knows the API: its own instance, or any part of it, names it. */
export function apiKnown(world: FakeWorld, restApiId: string): boolean {
  return attrsOf(world, 'aws_api_gateway_rest_api').some((a) => str(a.id) === restApiId)
    || [...PART_TYPES, ...CHILD_TYPES].some((t) => attrsOf(world, t).some((a) => str(a.rest_api_id) === restApiId));
}
const PART_TYPES = ['aws_api_gateway_deployment', 'aws_api_gateway_rest_api_policy', 'aws_api_gateway_authorizer', 'aws_api_gateway_request_validator',
  'aws_api_gateway_model', 'aws_api_gateway_stage'];

const restApiAnswer = answer<{ position?: string; limit?: number }>('apigateway', GetRestApis$, (input, world) => {
  // An aws_api_gateway_rest_api_policy is the API's policy: it wins over the API's own copy, and stands for an API the state lacks.
  const policies = new Map(attrsOf(world, 'aws_api_gateway_rest_api_policy').map((p) => [str(p.rest_api_id), p.policy]));
  const apis = attrsOf(world, 'aws_api_gateway_rest_api');
  const listed = [...apis, ...[...policies.keys()].filter((id) => !apis.some((a) => str(a.id) === id)).map((id) => ({ id }))];
  const all = listed.map((a: Record<string, unknown>) => {
    const ep = block(a.endpoint_configuration);
    const size = num(a.minimum_compression_size);
    const tags = stateTags(a);
    return {
      id: str(a.id), name: opt(a.name), description: opt(a.description), apiKeySource: opt(a.api_key_source), binaryMediaTypes: list(a.binary_media_types),
      disableExecuteApiEndpoint: bool(a.disable_execute_api_endpoint), policy: escapePolicy(policies.get(str(a.id)) ?? a.policy), rootResourceId: opt(a.root_resource_id),
      endpointConfiguration: { types: list(ep.types), vpcEndpointIds: list(ep.vpc_endpoint_ids).length ? list(ep.vpc_endpoint_ids) : undefined },
      minimumCompressionSize: size !== undefined && size >= 0 ? size : undefined, createdDate: new Date(0), tags: isObject(tags) ? tags : undefined,
    };
  });
  const start = Number(input.position ?? 0);
  const limit = input.limit ?? 25;
  return { items: all.slice(start, start + limit), position: start + limit < all.length ? String(start + limit) : undefined };
});

export const restApiReader: TypeReader = {
  spec: { policies: ['policy'] },
  answers: [restApiAnswer],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const a = (await restApis(ctx, region)).get(str(instance.attributes.id));
    return a ? restApiAttributes(a, instance.attributes) : null;
  }),
};

function deployments(ctx: AwsContext, region: string, restApiId: string): Promise<Map<string, Deployment> | undefined> {
  return once(ctx, `apigateway:deployments:${region}:${restApiId}`, async () => {
    const out = new Map<string, Deployment>();
    let position: string | undefined;
    do {
      const page = await unlessAbsent(ctx.send<GetDeploymentsCommandOutput>(ctx.apigateway(region), new GetDeploymentsCommand({ restApiId, limit: 500, position }),
        'apigateway:GetDeployments'), ['NotFoundException']);
      if (!page) return undefined;
      for (const d of page.items ?? []) if (d.id) out.set(d.id, d);
      position = page.position;
    } while (position);
    return out;
  });
}

const deploymentAnswer = answer<{ restApiId: string; position?: string; limit?: number }>('apigateway', GetDeployments$, (input, world) => {
  if (!apiKnown(world, input.restApiId)) throw new FakeError('NotFoundException', 'Invalid API identifier specified', 404);
  const all = attrsOf(world, 'aws_api_gateway_deployment').filter((a) => str(a.rest_api_id) === input.restApiId)
    .map((a) => ({ id: str(a.id), description: opt(a.description), createdDate: new Date(0) }));
  const start = Number(input.position ?? 0);
  const limit = input.limit ?? 25;
  return { items: all.slice(start, start + limit), position: start + limit < all.length ? String(start + limit) : undefined };
});

export const deploymentReader: TypeReader = {
  spec: {},
  answers: [deploymentAnswer],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const d = (await deployments(ctx, region, str(instance.attributes.rest_api_id)))?.get(str(instance.attributes.id));
    return d ? { description: d.description ?? '' } : null;
  }),
};
