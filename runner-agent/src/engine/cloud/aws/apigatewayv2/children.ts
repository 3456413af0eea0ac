// The children of an HTTP or WebSocket API: stages, routes, integrations, deployments and
// authorizers, each read from its API's one list call (kit.ts), in the provider's attribute names.
import {
  GetAuthorizer$, GetAuthorizerCommand, GetDeployments$, GetDeploymentsCommand, GetIntegrations$, GetIntegrationsCommand,
  GetRoutes$, GetRoutesCommand, GetStages$, GetStagesCommand,
  type Authorizer, type Deployment, type GetAuthorizerCommandOutput, type Integration, type Route, type RouteSettings, type Stage,
} from '@aws-sdk/client-apigatewayv2';
import { genericKey } from '../../../diff.ts';
import { isObject } from '../../../values.ts';
import { mapLimit } from '../../../limit.ts';
import { PER_RESOURCE_CONCURRENCY, type AwsContext } from '../context.ts';
import { answer, str, unlessAbsent, type TypeReader } from '../reader.ts';
import { attrsOf, block, bool, FakeError, list, num, opt, stateTags } from '../replay/kit.ts';
import { childReader, NOT_FOUND, stringMap, strMap, type Page } from './kit.ts';

const send = <O>(ctx: AwsContext, region: string, command: unknown, what: string) => ctx.send<O>(ctx.apigatewayv2(region), command, what);

const routeSettings = (s: RouteSettings | undefined) => ({
  data_trace_enabled: s?.DataTraceEnabled ?? false, detailed_metrics_enabled: s?.DetailedMetricsEnabled ?? false, logging_level: s?.LoggingLevel ?? '',
  throttling_burst_limit: s?.ThrottlingBurstLimit ?? 0, throttling_rate_limit: s?.ThrottlingRateLimit ?? 0,
});
const fakeRouteSettings = (b: Record<string, unknown>): RouteSettings => ({
  DataTraceEnabled: bool(b.data_trace_enabled), DetailedMetricsEnabled: bool(b.detailed_metrics_enabled),
  LoggingLevel: opt(b.logging_level) as RouteSettings['LoggingLevel'], ThrottlingBurstLimit: num(b.throttling_burst_limit), ThrottlingRateLimit: num(b.throttling_rate_limit),
});

export const stageReader = childReader<Stage>({
  type: 'aws_apigatewayv2_stage', op: GetStages$,
  list: (ctx, region, ApiId, NextToken) => send<Page<Stage>>(ctx, region, new GetStagesCommand({ ApiId, NextToken }), 'apigateway:GET'),
  idOf: (s) => s.StageName,
  spec: { sets: { route_settings: genericKey } },
  live: (s, state) => ({
    name: s.StageName, auto_deploy: s.AutoDeploy ?? false, description: s.Description ?? '',
    // An auto-deploying stage moves to each new deployment by itself: its deployment id is no drift.
    deployment_id: s.AutoDeploy || bool(state.auto_deploy) ? undefined : s.DeploymentId ?? '',
    default_route_settings: [routeSettings(s.DefaultRouteSettings)],
    route_settings: Object.entries(s.RouteSettings ?? {}).map(([route_key, r]) => ({ route_key, ...routeSettings(r) })),
    stage_variables: stringMap(s.StageVariables),
    access_log_settings: s.AccessLogSettings?.DestinationArn ? [{ destination_arn: s.AccessLogSettings.DestinationArn, format: s.AccessLogSettings.Format ?? '' }] : [],
    client_certificate_id: s.ClientCertificateId ?? '', tags: stringMap(s.Tags), tags_all: stringMap(s.Tags),
  }),
  fake: (a) => ({
    StageName: str(a.name || a.id), AutoDeploy: bool(a.auto_deploy), Description: opt(a.description), DeploymentId: opt(a.deployment_id),
    DefaultRouteSettings: fakeRouteSettings(block(a.default_route_settings)),
    RouteSettings: Object.fromEntries((Array.isArray(a.route_settings) ? a.route_settings : []).filter(isObject).map((r) => [str(r.route_key), fakeRouteSettings(r)])),
    StageVariables: strMap(a.stage_variables),
    AccessLogSettings: opt(block(a.access_log_settings).destination_arn) ? { DestinationArn: str(block(a.access_log_settings).destination_arn), Format: opt(block(a.access_log_settings).format) } : undefined,
    ClientCertificateId: opt(a.client_certificate_id), Tags: strMap(stateTags(a)),
  }),
});

export const routeReader = childReader<Route>({
  type: 'aws_apigatewayv2_route', op: GetRoutes$,
  list: (ctx, region, ApiId, NextToken) => send<Page<Route>>(ctx, region, new GetRoutesCommand({ ApiId, NextToken }), 'apigateway:GET'),
  idOf: (r) => r.RouteId,
  live: (r) => ({
    route_key: r.RouteKey, target: r.Target ?? '', authorization_type: r.AuthorizationType ?? 'NONE', authorizer_id: r.AuthorizerId ?? '',
    api_key_required: r.ApiKeyRequired ?? false, operation_name: r.OperationName ?? '', authorization_scopes: r.AuthorizationScopes ?? [],
    model_selection_expression: r.ModelSelectionExpression ?? '', route_response_selection_expression: r.RouteResponseSelectionExpression ?? '',
    request_models: stringMap(r.RequestModels),
  }),
  fake: (a) => ({
    RouteId: str(a.id), RouteKey: str(a.route_key), Target: opt(a.target), AuthorizationType: (opt(a.authorization_type) ?? 'NONE') as Route['AuthorizationType'],
    AuthorizerId: opt(a.authorizer_id), ApiKeyRequired: bool(a.api_key_required), OperationName: opt(a.operation_name), AuthorizationScopes: list(a.authorization_scopes),
    ModelSelectionExpression: opt(a.model_selection_expression), RouteResponseSelectionExpression: opt(a.route_response_selection_expression), RequestModels: strMap(a.request_models),
  }),
});

export const integrationReader = childReader<Integration>({
  type: 'aws_apigatewayv2_integration', op: GetIntegrations$,
  list: (ctx, region, ApiId, NextToken) => send<Page<Integration>>(ctx, region, new GetIntegrationsCommand({ ApiId, NextToken }), 'apigateway:GET'),
  idOf: (i) => i.IntegrationId,
  live: (i) => ({
    integration_type: i.IntegrationType, integration_uri: i.IntegrationUri ?? '', integration_method: i.IntegrationMethod ?? '',
    integration_subtype: i.IntegrationSubtype ?? '', connection_type: i.ConnectionType ?? 'INTERNET', connection_id: i.ConnectionId ?? '',
    payload_format_version: i.PayloadFormatVersion ?? '1.0', timeout_milliseconds: i.TimeoutInMillis, description: i.Description ?? '',
    credentials_arn: i.CredentialsArn ?? '', passthrough_behavior: i.PassthroughBehavior ?? '', template_selection_expression: i.TemplateSelectionExpression ?? '',
    request_parameters: stringMap(i.RequestParameters), request_templates: stringMap(i.RequestTemplates),
    tls_config: i.TlsConfig?.ServerNameToVerify ? [{ server_name_to_verify: i.TlsConfig.ServerNameToVerify }] : [],
  }),
  fake: (a) => ({
    IntegrationId: str(a.id), IntegrationType: opt(a.integration_type) as Integration['IntegrationType'], IntegrationUri: opt(a.integration_uri),
    IntegrationMethod: opt(a.integration_method), IntegrationSubtype: opt(a.integration_subtype), ConnectionType: opt(a.connection_type) as Integration['ConnectionType'],
    ConnectionId: opt(a.connection_id), PayloadFormatVersion: opt(a.payload_format_version), TimeoutInMillis: num(a.timeout_milliseconds), Description: opt(a.description),
    CredentialsArn: opt(a.credentials_arn), PassthroughBehavior: opt(a.passthrough_behavior) as Integration['PassthroughBehavior'],
    TemplateSelectionExpression: opt(a.template_selection_expression), RequestParameters: strMap(a.request_parameters), RequestTemplates: strMap(a.request_templates),
    TlsConfig: opt(block(a.tls_config).server_name_to_verify) ? { ServerNameToVerify: str(block(a.tls_config).server_name_to_verify) } : undefined,
  }),
});

export const deploymentReader = childReader<Deployment>({
  type: 'aws_apigatewayv2_deployment', op: GetDeployments$,
  list: (ctx, region, ApiId, NextToken) => send<Page<Deployment>>(ctx, region, new GetDeploymentsCommand({ ApiId, NextToken }), 'apigateway:GET'),
  idOf: (d) => d.DeploymentId,
  live: (d) => ({ description: d.Description ?? '' }),
  fake: (a) => ({ DeploymentId: str(a.id), Description: opt(a.description), AutoDeployed: bool(a.auto_deployed) }),
});

const authorizerLive = (z: Partial<Authorizer>) => ({
  name: z.Name, authorizer_type: z.AuthorizerType, identity_sources: z.IdentitySource ?? [],
  jwt_configuration: z.JwtConfiguration ? [{ audience: z.JwtConfiguration.Audience ?? [], issuer: z.JwtConfiguration.Issuer ?? '' }] : [],
  authorizer_uri: z.AuthorizerUri ?? '', authorizer_credentials_arn: z.AuthorizerCredentialsArn ?? '',
  authorizer_payload_format_version: z.AuthorizerPayloadFormatVersion ?? '', enable_simple_responses: z.EnableSimpleResponses ?? false,
});

function fakeAuthorizer(a: Record<string, unknown>): Authorizer {
  const jwt = block(a.jwt_configuration);
  return {
    AuthorizerId: str(a.id), Name: opt(a.name), AuthorizerType: opt(a.authorizer_type) as Authorizer['AuthorizerType'], IdentitySource: list(a.identity_sources),
    JwtConfiguration: Object.keys(jwt).length ? { Audience: list(jwt.audience), Issuer: opt(jwt.issuer) } : undefined,
    AuthorizerUri: opt(a.authorizer_uri), AuthorizerCredentialsArn: opt(a.authorizer_credentials_arn),
    AuthorizerPayloadFormatVersion: opt(a.authorizer_payload_format_version), EnableSimpleResponses: bool(a.enable_simple_responses),
    AuthorizerResultTtlInSeconds: num(a.authorizer_result_ttl_in_seconds),
  };
}

// Authorizers are few per API (one or two): one GetAuthorizer each, which moto also answers
// (its GetAuthorizers list fails), rather than one list per API.
export const authorizerReader: TypeReader = {
  spec: {},
  answers: [answer<{ ApiId: string; AuthorizerId: string }>('apigatewayv2', GetAuthorizer$, (input, world) => {
    const a = attrsOf(world, 'aws_apigatewayv2_authorizer').find((x) => str(x.api_id) === input.ApiId && str(x.id) === input.AuthorizerId);
    if (!a) throw new FakeError('NotFoundException', 'Invalid Authorizer identifier specified', 404);
    return fakeAuthorizer(a);
  })],
  read: (items, ctx) => mapLimit(items, PER_RESOURCE_CONCURRENCY, async ({ instance, region }) => {
    const input = { ApiId: str(instance.attributes.api_id), AuthorizerId: str(instance.attributes.id) };
    const z = await unlessAbsent(ctx.send<GetAuthorizerCommandOutput>(ctx.apigatewayv2(region), new GetAuthorizerCommand(input), 'apigateway:GET'), NOT_FOUND);
    return z ? authorizerLive(z) : null;
  }),
};
