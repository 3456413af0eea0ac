// API Gateway v2 (HTTP and WebSocket APIs): readers, the attributes never reported, and the
// severity rules of the family, spread into the AWS tables.
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { apiMappingReader, apiReader, domainNameReader } from './apis.ts';
import { authorizerReader, deploymentReader, integrationReader, routeReader, stageReader } from './children.ts';

export const APIGATEWAYV2_READERS: Record<string, TypeReader> = {
  aws_apigatewayv2_api: apiReader,
  aws_apigatewayv2_stage: stageReader,
  aws_apigatewayv2_route: routeReader,
  aws_apigatewayv2_integration: integrationReader,
  aws_apigatewayv2_deployment: deploymentReader,
  aws_apigatewayv2_authorizer: authorizerReader,
  aws_apigatewayv2_domain_name: domainNameReader,
  aws_apigatewayv2_api_mapping: apiMappingReader,
};

/** Computed by the API, or write-only inputs the API never answers. */
export const APIGATEWAYV2_IGNORED: Record<string, string[]> = {
  aws_apigatewayv2_api: ['api_endpoint', 'execution_arn', 'body', 'credentials_arn', 'route_key', 'target', 'fail_on_warnings'],
  aws_apigatewayv2_stage: ['invoke_url', 'execution_arn'],
  aws_apigatewayv2_integration: ['integration_response_selection_expression'],
  aws_apigatewayv2_deployment: ['triggers', 'auto_deployed'],
  aws_apigatewayv2_authorizer: ['authorizer_result_ttl_in_seconds'],
  aws_apigatewayv2_domain_name: ['api_mapping_selection_expression', 'domain_name_configuration.*.hosted_zone_id', 'domain_name_configuration.*.target_domain_name'],
};

export const APIGATEWAYV2_RULES: SeverityRule[] = [
  { id: 'apigwv2-route-open', severity: 'critical', description: 'HTTP/WebSocket API route opened without authorization',
    rationale: 'Anyone who can reach the API can now call this route.',
    types: ['aws_apigatewayv2_route'], attributes: ['authorization_type'], becomes: ['NONE'] },
  { id: 'apigwv2-route-access-changed', severity: 'high', description: 'HTTP/WebSocket API route authorizer, scopes or API key requirement changed',
    rationale: 'Who may call the route changed outside review.',
    types: ['aws_apigatewayv2_route'], attributes: ['authorization_type', 'authorizer_id', 'authorization_scopes', 'api_key_required'] },
  { id: 'apigwv2-authorizer-changed', severity: 'high', description: 'HTTP/WebSocket API authorizer changed (issuer, audience, identity sources, function)',
    rationale: 'Which tokens or callers the API accepts changed outside review.',
    types: ['aws_apigatewayv2_authorizer'], attributes: ['jwt_configuration*', 'identity_sources', 'authorizer_uri', 'authorizer_type'] },
  { id: 'apigwv2-cors-any-origin', severity: 'high', description: 'API CORS now allows any origin (*)',
    rationale: 'Any web page can now call the API from a browser with its users\' credentials.',
    types: ['aws_apigatewayv2_api'], attributes: ['cors_configuration*'], gains: ['*'] },
  { id: 'apigwv2-integration-target-changed', severity: 'high', description: 'API integration now sends requests elsewhere',
    rationale: 'Requests to the API reach another backend than the code declares.',
    types: ['aws_apigatewayv2_integration'], attributes: ['integration_uri', 'integration_type', 'connection_id', 'credentials_arn'] },
];
