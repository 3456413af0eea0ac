// More REST API parts, each listed whole per API (500 a page) and memoised for the scan:
// authorizers, request validators, models and stages; and aws_api_gateway_rest_api_policy, read
// from the same GetRestApis list as the API itself.
import {
  GetAuthorizers$, GetAuthorizersCommand, GetModels$, GetModelsCommand, GetRequestValidators$, GetRequestValidatorsCommand, GetStages$, GetStagesCommand,
} from '@aws-sdk/client-api-gateway';
import { mapLimit } from '../../../limit.ts';
import { isObject } from '../../../values.ts';
import { PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { answer, once, str, unlessAbsent, type FakeWorld, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt, stateTags } from '../replay/kit.ts';
import { apiKnown, restApiReader, restApis, unescapePolicy } from './rest-api.ts';

type Item = Record<string, any>;
interface Listed { items?: Item[]; item?: Item[]; position?: string }

/** Every item of one kind of one API by id (or stage name), or undefined when the API is gone. */
function perApi(ctx: AwsContext, region: string, restApiId: string, kind: string, command: (position?: string) => unknown, key = 'id'): Promise<Map<string, Item> | undefined> {
  return once(ctx, `apigateway:${kind}:${region}:${restApiId}`, async () => {
    const out = new Map<string, Item>();
    let position: string | undefined;
    do {
      const page = await unlessAbsent(ctx.send<Listed>(ctx.apigateway(region), command(position), `apigateway:Get${kind}`), ['NotFoundException']);
      if (!page) return undefined;
      for (const x of page.items ?? page.item ?? []) out.set(str(x[key]), x);
      position = page.position;
    } while (position);
    return out;
  });
}

/** A reader of one listed kind: the state's id (or `key` attribute) picked out of its API's list. */
function listed(kind: string, command: (restApiId: string, position?: string) => unknown, shape: (x: Item) => Record<string, unknown>, stateKey = 'id', apiKey = 'id'): Omit<TypeReader, 'answers' | 'spec'> {
  return {
    read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
      const api = str(instance.attributes.rest_api_id);
      const x = (await perApi(ctx, region, api, kind, (p) => command(api, p), apiKey))?.get(str(instance.attributes[stateKey]));
      return x ? shape(x) : null;
    }),
  };
}

/** The fake's paged list of one kind for an API, from the state's instances of `type`. */
function fakeList(type: string, toApi: (a: Record<string, unknown>) => Item, field: 'items' | 'item' = 'items') {
  return (input: { restApiId: string; position?: string; limit?: number }, world: FakeWorld) => {
    if (!apiKnown(world, input.restApiId)) throw new FakeError('NotFoundException', 'Invalid API identifier specified', 404);
    const all = attrsOf(world, type).filter((a) => str(a.rest_api_id) === input.restApiId).map(toApi);
    if (field === 'item') return { item: all };
    const start = Number(input.position ?? 0);
    const limit = input.limit ?? 25;
    return { items: all.slice(start, start + limit), position: start + limit < all.length ? String(start + limit) : undefined };
  };
}

export const authorizerReader: TypeReader = {
  spec: {},
  answers: [answer('apigateway', GetAuthorizers$, fakeList('aws_api_gateway_authorizer', (a) => ({
    id: str(a.id), name: opt(a.name), type: opt(a.type), providerARNs: list(a.provider_arns).length ? list(a.provider_arns) : undefined, authorizerUri: opt(a.authorizer_uri),
    authorizerCredentials: opt(a.authorizer_credentials), identitySource: opt(a.identity_source), identityValidationExpression: opt(a.identity_validation_expression),
    authorizerResultTtlInSeconds: num(a.authorizer_result_ttl_in_seconds),
  })))],
  ...listed('Authorizers', (restApiId, position) => new GetAuthorizersCommand({ restApiId, position, limit: 500 }), (x) => ({
    name: x.name, type: x.type ?? 'TOKEN', provider_arns: x.providerARNs ?? [], authorizer_uri: x.authorizerUri ?? '', authorizer_credentials: x.authorizerCredentials ?? '',
    identity_source: x.identitySource ?? '', identity_validation_expression: x.identityValidationExpression ?? '',
    authorizer_result_ttl_in_seconds: x.authorizerResultTtlInSeconds ?? 300,
  })),
};

export const requestValidatorReader: TypeReader = {
  spec: {},
  answers: [answer('apigateway', GetRequestValidators$, fakeList('aws_api_gateway_request_validator', (a) => ({
    id: str(a.id), name: opt(a.name), validateRequestBody: bool(a.validate_request_body) ?? false, validateRequestParameters: bool(a.validate_request_parameters) ?? false,
  })))],
  ...listed('RequestValidators', (restApiId, position) => new GetRequestValidatorsCommand({ restApiId, position, limit: 500 }), (x) => ({
    name: x.name, validate_request_body: x.validateRequestBody ?? false, validate_request_parameters: x.validateRequestParameters ?? false,
  })),
};

export const modelReader: TypeReader = {
  // The schema is JSON text: compared as a document, not as its spelling.
  spec: { policies: ['schema'] },
  answers: [answer('apigateway', GetModels$, fakeList('aws_api_gateway_model', (a) => ({
    id: str(a.id), name: opt(a.name), description: opt(a.description), schema: opt(a.schema), contentType: opt(a.content_type),
  })))],
  ...listed('Models', (restApiId, position) => new GetModelsCommand({ restApiId, position, limit: 500 }), (x) => ({
    name: x.name, description: x.description ?? '', schema: x.schema ?? '', content_type: x.contentType ?? '',
  })),
};

export const stageReader: TypeReader = {
  spec: {},
  answers: [answer('apigateway', GetStages$, fakeList('aws_api_gateway_stage', (a) => {
    const log = block(a.access_log_settings);
    const tags = stateTags(a);
    return {
      stageName: str(a.stage_name), deploymentId: opt(a.deployment_id), clientCertificateId: opt(a.client_certificate_id), description: opt(a.description),
      cacheClusterEnabled: bool(a.cache_cluster_enabled) ?? false, cacheClusterSize: opt(a.cache_cluster_size), documentationVersion: opt(a.documentation_version),
      variables: isObject(a.variables) ? a.variables : undefined, tracingEnabled: bool(a.xray_tracing_enabled) ?? false,
      accessLogSettings: Object.keys(log).length ? { destinationArn: opt(log.destination_arn), format: opt(log.format) } : undefined,
      tags: isObject(tags) ? tags : undefined,
    };
  }, 'item'))],
  // GetStages answers every stage of an API at once (no paging).
  ...listed('Stages', (restApiId) => new GetStagesCommand({ restApiId }), (x) => ({
    deployment_id: x.deploymentId ?? '', client_certificate_id: x.clientCertificateId ?? '', description: x.description ?? '',
    cache_cluster_enabled: x.cacheClusterEnabled ?? false, cache_cluster_size: x.cacheClusterEnabled ? x.cacheClusterSize ?? '' : undefined,
    documentation_version: x.documentationVersion ?? '', variables: x.variables ?? {}, xray_tracing_enabled: x.tracingEnabled ?? false,
    access_log_settings: x.accessLogSettings?.destinationArn ? [{ destination_arn: x.accessLogSettings.destinationArn, format: x.accessLogSettings.format ?? '' }] : [],
    tags: x.tags ?? {}, tags_all: x.tags ?? {},
  }), 'stage_name', 'stageName'),
};

/** aws_api_gateway_rest_api_policy: the policy of the API as GetRestApis lists it (the fake answers it from either type). */
export const restApiPolicyReader: TypeReader = {
  spec: { policies: ['policy'] },
  answers: restApiReader.answers,
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const a = (await restApis(ctx, region)).get(str(instance.attributes.rest_api_id));
    return a ? { policy: unescapePolicy(a.policy) } : null;
  }),
};
