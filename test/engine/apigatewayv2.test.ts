// API Gateway v2 readers (HTTP APIs) against moto: an API with its authorizer, integration,
// route, stage, deployment, custom domain and mapping, created through the SDK with a state in
// the provider's shape, compares clean and replays clean; then out-of-band changes (a route
// opened without authorization, CORS opened to any origin, a stage deleted) give their drifts.
import t from 'tap';
import {
  ApiGatewayV2Client, CreateApiCommand, CreateApiMappingCommand, CreateAuthorizerCommand, CreateDomainNameCommand,
  CreateIntegrationCommand, CreateRouteCommand, CreateStageCommand, DeleteStageCommand, UpdateApiCommand, UpdateRouteCommand,
} from '@aws-sdk/client-apigatewayv2';
import { AwsContext } from '../../runner-agent/src/engine/cloud/aws/index.ts';
import { compareLive } from '../../runner-agent/src/engine/compare.ts';
import { IGNORED_ATTRIBUTES } from '../../runner-agent/src/engine/catalogue.ts';
import { buildIgnoreRules } from '../../runner-agent/src/engine/ignore.ts';
import { replayState } from '../../runner-agent/src/engine/replay.ts';
import type { DetectedDrift, StateInstance } from '../../runner-agent/src/engine/types.ts';
import { CREDENTIALS, motoUrl, REGION } from './world.ts';

const endpoint = motoUrl();
const suffix = `${Date.now().toString(36)}${process.pid}`;
const gw = new ApiGatewayV2Client({ endpoint, region: REGION, credentials: CREDENTIALS });
t.teardown(() => gw.destroy());

const api = await gw.send(new CreateApiCommand({
  Name: `http-${suffix}`, ProtocolType: 'HTTP', Description: 'orders',
  CorsConfiguration: { AllowOrigins: ['https://app.example.com'], AllowMethods: ['GET', 'POST'], AllowHeaders: ['authorization'], MaxAge: 300 },
  Tags: { team: 'orders' },
}));
const ApiId = api.ApiId!;
const authorizer = await gw.send(new CreateAuthorizerCommand({
  ApiId, AuthorizerType: 'JWT', Name: 'cognito', IdentitySource: ['$request.header.Authorization'],
  JwtConfiguration: { Audience: ['client-1'], Issuer: 'https://issuer.example.com' },
}));
const integration = await gw.send(new CreateIntegrationCommand({
  ApiId, IntegrationType: 'HTTP_PROXY', IntegrationUri: 'https://backend.example.com/orders', IntegrationMethod: 'ANY', PayloadFormatVersion: '1.0', TimeoutInMillis: 29000,
}));
const route = await gw.send(new CreateRouteCommand({
  ApiId, RouteKey: 'GET /orders', Target: `integrations/${integration.IntegrationId}`, AuthorizationType: 'JWT', AuthorizerId: authorizer.AuthorizerId,
}));
// moto 5.2 answers no deployment call: the deployment is read in the replay test only.
const deployment = { DeploymentId: 'dep123' };
await gw.send(new CreateStageCommand({ ApiId, StageName: 'prod', StageVariables: { env: 'prod' }, Tags: { team: 'orders' } }));
const domain = `api-${suffix}.example.com`;
await gw.send(new CreateDomainNameCommand({
  DomainName: domain, DomainNameConfigurations: [{ CertificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc', EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
}));
const mapping = await gw.send(new CreateApiMappingCommand({ ApiId, DomainName: domain, Stage: 'prod' }));

/** The state as the AWS provider (5.x) writes these resources. */
const state: { type: string; name: string; attributes: Record<string, unknown> }[] = [
  { type: 'aws_apigatewayv2_api', name: 'http', attributes: {
    id: ApiId, name: `http-${suffix}`, protocol_type: 'HTTP', description: 'orders', api_endpoint: api.ApiEndpoint, api_key_selection_expression: '$request.header.x-api-key',
    route_selection_expression: '$request.method $request.path', disable_execute_api_endpoint: false, version: '', body: null, credentials_arn: null, route_key: null, target: null,
    cors_configuration: [{ allow_credentials: false, allow_headers: ['authorization'], allow_methods: ['GET', 'POST'], allow_origins: ['https://app.example.com'], expose_headers: [], max_age: 300 }],
    tags: { team: 'orders' }, tags_all: { team: 'orders' },
  } },
  { type: 'aws_apigatewayv2_authorizer', name: 'jwt', attributes: {
    id: authorizer.AuthorizerId, api_id: ApiId, authorizer_type: 'JWT', name: 'cognito', identity_sources: ['$request.header.Authorization'],
    jwt_configuration: [{ audience: ['client-1'], issuer: 'https://issuer.example.com' }], authorizer_uri: '', authorizer_credentials_arn: '',
    authorizer_payload_format_version: '', enable_simple_responses: false, authorizer_result_ttl_in_seconds: 0,
  } },
  { type: 'aws_apigatewayv2_integration', name: 'backend', attributes: {
    id: integration.IntegrationId, api_id: ApiId, integration_type: 'HTTP_PROXY', integration_uri: 'https://backend.example.com/orders', integration_method: 'ANY',
    payload_format_version: '1.0', timeout_milliseconds: 29000, connection_type: 'INTERNET', connection_id: '', description: '', credentials_arn: '',
    passthrough_behavior: '', request_parameters: {}, request_templates: {}, template_selection_expression: '', tls_config: [], integration_subtype: '',
  } },
  { type: 'aws_apigatewayv2_route', name: 'orders', attributes: {
    id: route.RouteId, api_id: ApiId, route_key: 'GET /orders', target: `integrations/${integration.IntegrationId}`, authorization_type: 'JWT',
    authorizer_id: authorizer.AuthorizerId, api_key_required: false, authorization_scopes: [], operation_name: '', model_selection_expression: '',
    route_response_selection_expression: '', request_models: {}, request_parameter: [],
  } },
  { type: 'aws_apigatewayv2_deployment', name: 'v1', attributes: { id: deployment.DeploymentId, api_id: ApiId, description: 'v1', auto_deployed: false, triggers: null } },
  { type: 'aws_apigatewayv2_stage', name: 'prod', attributes: {
    id: 'prod', api_id: ApiId, name: 'prod', auto_deploy: false, deployment_id: '', description: '', client_certificate_id: '',
    default_route_settings: [{ data_trace_enabled: false, detailed_metrics_enabled: false, logging_level: '', throttling_burst_limit: 0, throttling_rate_limit: 0 }],
    route_settings: [], stage_variables: { env: 'prod' }, access_log_settings: [], tags: { team: 'orders' }, tags_all: { team: 'orders' },
  } },
  { type: 'aws_apigatewayv2_domain_name', name: 'api', attributes: {
    id: domain, domain_name: domain, api_mapping_selection_expression: '$request.basepath',
    domain_name_configuration: [{ certificate_arn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc', endpoint_type: 'REGIONAL', security_policy: 'TLS_1_2',
      hosted_zone_id: 'Z2FDTNDATAQYW2', target_domain_name: 'd-abc.execute-api.us-east-1.amazonaws.com', ownership_verification_certificate_arn: '' }],
    mutual_tls_authentication: [], tags: {}, tags_all: {},
  } },
  { type: 'aws_apigatewayv2_api_mapping', name: 'prod', attributes: { id: mapping.ApiMappingId, api_id: ApiId, domain_name: domain, stage: 'prod', api_mapping_key: '' } },
];

const inMoto = state.filter((r) => r.type !== 'aws_apigatewayv2_deployment');

async function scan() {
  const aws = new AwsContext(CREDENTIALS, REGION, endpoint);
  try {
    const entries = inMoto.map((r) => ({ instance: { address: `${r.type}.${r.name}`, type: r.type, name: r.name, attributes: r.attributes } as StateInstance, region: REGION }));
    const out = await compareLive(entries, aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
    return { ...out, calls: { ...aws.calls } };
  } finally {
    aws.destroy();
  }
}
const byAddress = (drifts: DetectedDrift[]) => Object.fromEntries(drifts.map((d) => [d.resourceAddress, d]));

t.test('the estate compares clean against moto, in one list call per API and kind', async (t) => {
  const out = await scan();
  t.same(out.drifts, [], 'no drift');
  t.equal(out.compared, inMoto.length, 'every instance compared');
  t.ok(out.calls.apigatewayv2 <= 7, `${out.calls.apigatewayv2} API Gateway v2 calls for ${inMoto.length} instances`);
});

t.test('the same state replays clean against the replay fake', async (t) => {
  const doc = { version: 4, terraform_version: '1.9.8', serial: 1, lineage: 'v2', outputs: {}, resources: state.map((r) => ({
    mode: 'managed', type: r.type, name: r.name, provider: 'provider["registry.terraform.io/hashicorp/aws"]',
    instances: [{ schema_version: 0, attributes: r.attributes, sensitive_attributes: [] }],
  })) };
  const out = await replayState(JSON.stringify(doc), 'v2');
  t.equal(out.compared, state.length);
  t.same(out.drifts, [], 'no drift');
});

t.test('a route opened without authorization is critical; CORS opened to any origin is high; a deleted stage is deleted', async (t) => {
  await gw.send(new UpdateRouteCommand({ ApiId, RouteId: route.RouteId, AuthorizationType: 'NONE', AuthorizerId: '' }));
  await gw.send(new UpdateApiCommand({ ApiId, CorsConfiguration: { AllowOrigins: ['*'], AllowMethods: ['GET', 'POST'], AllowHeaders: ['authorization'], MaxAge: 300 } }));
  await gw.send(new DeleteStageCommand({ ApiId, StageName: 'prod' }));
  const drifts = byAddress((await scan()).drifts);
  const routeDrift = drifts['aws_apigatewayv2_route.orders'];
  t.equal(routeDrift?.severity, 'critical');
  t.equal(routeDrift?.ruleId, 'apigwv2-route-open');
  t.ok(routeDrift?.diff.some((e) => e.attribute === 'authorization_type' && e.after === 'NONE'), 'authorization_type JWT -> NONE');
  t.equal(drifts['aws_apigatewayv2_api.http']?.ruleId, 'apigwv2-cors-any-origin');
  t.equal(drifts['aws_apigatewayv2_api.http']?.severity, 'high');
  t.equal(drifts['aws_apigatewayv2_stage.prod']?.changeType, 'deleted');
  t.same(Object.keys(drifts).sort(), ['aws_apigatewayv2_api.http', 'aws_apigatewayv2_route.orders', 'aws_apigatewayv2_stage.prod'], 'nothing else drifts');
});
