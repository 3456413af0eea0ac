// The resource tree of one REST API: GetResources with embed=methods answers every resource with
// its methods, integrations, method responses and integration responses in one paged list
// (500 a page), memoised per API for the scan; five resource types read from it.
import {
  GetResources$, GetResourcesCommand, type GetResourcesCommandOutput, type Integration, type IntegrationResponse, type Method, type Resource,
} from '@aws-sdk/client-api-gateway';
import { isObject } from '../../../values.ts';
import type { AwsContext } from '../context.ts';
import { answer, once, str, unlessAbsent, type FakeWorld } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt } from '../replay/kit.ts';

export const CHILD_TYPES = [
  'aws_api_gateway_resource', 'aws_api_gateway_method', 'aws_api_gateway_integration', 'aws_api_gateway_method_response', 'aws_api_gateway_integration_response',
];

/** Every resource of the API by id, or undefined when the API is gone. */
export function apiResources(ctx: AwsContext, region: string, restApiId: string): Promise<Map<string, Resource> | undefined> {
  return once(ctx, `apigateway:resources:${region}:${restApiId}`, async () => {
    const out = new Map<string, Resource>();
    let position: string | undefined;
    do {
      const page = await unlessAbsent(ctx.send<GetResourcesCommandOutput>(ctx.apigateway(region),
        new GetResourcesCommand({ restApiId, embed: ['methods'], limit: 500, position }), 'apigateway:GetResources'), ['NotFoundException']);
      if (!page) return undefined;
      for (const r of page.items ?? []) if (r.id) out.set(r.id, r);
      position = page.position;
    } while (position);
    return out;
  });
}

/** The method a child instance names (rest_api_id, resource_id, http_method), or undefined when it (or its API) is gone. */
export async function methodOf(ctx: AwsContext, region: string, a: Record<string, unknown>): Promise<Method | undefined> {
  const resources = await apiResources(ctx, region, str(a.rest_api_id));
  return resources?.get(str(a.resource_id))?.resourceMethods?.[str(a.http_method)];
}

const boolMap = (v: unknown): Record<string, boolean> | undefined =>
  (isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, x === true || x === 'true'])) : undefined);
const strMap = (v: unknown): Record<string, string> | undefined =>
  (isObject(v) ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, str(x)])) : undefined);

/** The replay fake's resource tree of one API, from every child instance the state holds for it. */
function fakeTree(world: FakeWorld, restApiId: string): Resource[] | undefined {
  const api = attrsOf(world, 'aws_api_gateway_rest_api').find((a) => str(a.id) === restApiId);
  const kids = Object.fromEntries(CHILD_TYPES.map((t) => [t, attrsOf(world, t).filter((a) => str(a.rest_api_id) === restApiId)]));
  if (!api && !Object.values(kids).some((l) => l.length)) return undefined;
  const tree = new Map<string, Resource>();
  const res = (id: string): Resource => { let r = tree.get(id); if (!r) { r = { id, resourceMethods: {} }; tree.set(id, r); } return r; };
  if (api && opt(api.root_resource_id)) Object.assign(res(str(api.root_resource_id)), { path: '/' });
  for (const a of kids.aws_api_gateway_resource) Object.assign(res(str(a.id)), { parentId: opt(a.parent_id), pathPart: opt(a.path_part), path: opt(a.path) });
  const method = (a: Record<string, unknown>): Method => {
    const r = res(str(a.resource_id));
    const verb = str(a.http_method);
    r.resourceMethods![verb] ??= { httpMethod: verb };
    return r.resourceMethods![verb];
  };
  const integration = (a: Record<string, unknown>): Integration => (method(a).methodIntegration ??= {});
  for (const a of kids.aws_api_gateway_method) Object.assign(method(a), {
    authorizationType: opt(a.authorization), authorizerId: opt(a.authorizer_id), apiKeyRequired: bool(a.api_key_required) ?? false,
    authorizationScopes: list(a.authorization_scopes).length ? list(a.authorization_scopes) : undefined, operationName: opt(a.operation_name),
    requestModels: strMap(a.request_models), requestParameters: boolMap(a.request_parameters), requestValidatorId: opt(a.request_validator_id),
  });
  for (const a of kids.aws_api_gateway_integration) Object.assign(integration(a), {
    type: opt(a.type), httpMethod: opt(a.integration_http_method), uri: opt(a.uri), connectionType: opt(a.connection_type), connectionId: opt(a.connection_id),
    credentials: opt(a.credentials), requestParameters: strMap(a.request_parameters), requestTemplates: strMap(a.request_templates),
    passthroughBehavior: opt(a.passthrough_behavior), contentHandling: opt(a.content_handling), timeoutInMillis: num(a.timeout_milliseconds),
    cacheNamespace: opt(a.cache_namespace), cacheKeyParameters: list(a.cache_key_parameters),
    tlsConfig: Object.keys(block(a.tls_config)).length ? { insecureSkipVerification: bool(block(a.tls_config).insecure_skip_verification) } : undefined,
  });
  for (const a of kids.aws_api_gateway_method_response) {
    const m = method(a);
    (m.methodResponses ??= {})[str(a.status_code)] = { statusCode: str(a.status_code), responseModels: strMap(a.response_models), responseParameters: boolMap(a.response_parameters) };
  }
  for (const a of kids.aws_api_gateway_integration_response) {
    const i = integration(a);
    (i.integrationResponses ??= {})[str(a.status_code)] = {
      statusCode: str(a.status_code), selectionPattern: opt(a.selection_pattern), responseParameters: strMap(a.response_parameters),
      responseTemplates: strMap(a.response_templates), contentHandling: opt(a.content_handling) as IntegrationResponse['contentHandling'],
    };
  }
  return [...tree.values()];
}

export const resourcesAnswer = answer<{ restApiId: string; position?: string; limit?: number }>('apigateway', GetResources$, (input, world) => {
  const all = fakeTree(world, input.restApiId);
  if (!all) throw new FakeError('NotFoundException', 'Invalid API identifier specified', 404);
  // Pages as the service does: `limit` items, then a position token to carry on from.
  const start = Number(input.position ?? 0);
  const limit = input.limit ?? 25;
  const next = start + limit < all.length ? String(start + limit) : undefined;
  return { items: all.slice(start, start + limit), position: next };
});
