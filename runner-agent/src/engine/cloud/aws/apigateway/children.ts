// aws_api_gateway_{resource, method, integration, method_response, integration_response}: all
// read from their API's memoised resource tree (resources.ts), so a scan costs one GetResources
// page per 500 resources of each API, whatever the number of methods and responses.
import { mapLimit } from '../../../limit.ts';
import { PER_RESOURCE_CONCURRENCY } from '../context.ts';
import { str, type ReadItem, type TypeReader } from '../reader.ts';
import type { AwsContext } from '../context.ts';
import type { Integration, IntegrationResponse, Method, MethodResponse, Resource } from '@aws-sdk/client-api-gateway';
import { apiResources, methodOf, resourcesAnswer } from './resources.ts';
import type { LiveAttributes } from '../../../types.ts';

type Read = (a: Record<string, unknown>, ctx: AwsContext, region: string) => Promise<LiveAttributes | null>;
const reader = (read: Read): TypeReader => ({
  spec: {},
  answers: [resourcesAnswer],
  read: (items: ReadItem[], ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, ({ instance, region }) => read(instance.attributes, ctx, region)),
});

export const resourceAttributes = (r: Resource) => ({ parent_id: r.parentId ?? '', path_part: r.pathPart ?? '', path: r.path ?? '' });

export const methodAttributes = (m: Method) => ({
  authorization: m.authorizationType ?? 'NONE', authorizer_id: m.authorizerId ?? '', api_key_required: m.apiKeyRequired ?? false,
  authorization_scopes: m.authorizationScopes ?? [], operation_name: m.operationName ?? '', request_models: m.requestModels ?? {},
  request_parameters: m.requestParameters ?? {}, request_validator_id: m.requestValidatorId ?? '',
});

export const integrationAttributes = (i: Integration) => ({
  type: i.type, integration_http_method: i.httpMethod ?? '', uri: i.uri ?? '', connection_type: i.connectionType ?? 'INTERNET', connection_id: i.connectionId ?? '',
  credentials: i.credentials ?? '', request_parameters: i.requestParameters ?? {}, request_templates: i.requestTemplates ?? {},
  passthrough_behavior: i.passthroughBehavior ?? '', content_handling: i.contentHandling ?? '', timeout_milliseconds: i.timeoutInMillis ?? 29000,
  cache_namespace: i.cacheNamespace ?? '', cache_key_parameters: i.cacheKeyParameters ?? [],
  tls_config: i.tlsConfig ? [{ insecure_skip_verification: i.tlsConfig.insecureSkipVerification ?? false }] : [],
});

export const methodResponseAttributes = (r: MethodResponse) => ({ status_code: r.statusCode, response_models: r.responseModels ?? {}, response_parameters: r.responseParameters ?? {} });

export const integrationResponseAttributes = (r: IntegrationResponse) => ({
  status_code: r.statusCode, selection_pattern: r.selectionPattern ?? '', response_parameters: r.responseParameters ?? {},
  response_templates: r.responseTemplates ?? {}, content_handling: r.contentHandling ?? '',
});

export const apiResourceReader = reader(async (a, ctx, region) => {
  const r = (await apiResources(ctx, region, str(a.rest_api_id)))?.get(str(a.id));
  return r ? resourceAttributes(r) : null;
});

export const apiMethodReader = reader(async (a, ctx, region) => {
  const m = await methodOf(ctx, region, a);
  return m ? methodAttributes(m) : null;
});

export const apiIntegrationReader = reader(async (a, ctx, region) => {
  const i = (await methodOf(ctx, region, a))?.methodIntegration;
  return i ? integrationAttributes(i) : null;
});

export const apiMethodResponseReader = reader(async (a, ctx, region) => {
  const r = (await methodOf(ctx, region, a))?.methodResponses?.[str(a.status_code)];
  return r ? methodResponseAttributes(r) : null;
});

export const apiIntegrationResponseReader = reader(async (a, ctx, region) => {
  const r = (await methodOf(ctx, region, a))?.methodIntegration?.integrationResponses?.[str(a.status_code)];
  return r ? integrationResponseAttributes(r) : null;
});
