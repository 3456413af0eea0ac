// API Gateway (REST, v1): APIs, their resource tree, methods, integrations, responses and
// deployments; their computed and write-only attributes and severity rules.
import type { SeverityRule } from '../../../rules.ts';
import type { TypeReader } from '../reader.ts';
import { apiIntegrationReader, apiIntegrationResponseReader, apiMethodReader, apiMethodResponseReader, apiResourceReader } from './children.ts';
import { authorizerReader, modelReader, requestValidatorReader, restApiPolicyReader, stageReader } from './extras.ts';
import { deploymentReader, restApiReader } from './rest-api.ts';

export const APIGATEWAY_READERS: Record<string, TypeReader> = {
  aws_api_gateway_rest_api: restApiReader,
  aws_api_gateway_resource: apiResourceReader,
  aws_api_gateway_method: apiMethodReader,
  aws_api_gateway_integration: apiIntegrationReader,
  aws_api_gateway_method_response: apiMethodResponseReader,
  aws_api_gateway_integration_response: apiIntegrationResponseReader,
  aws_api_gateway_deployment: deploymentReader,
  aws_api_gateway_rest_api_policy: restApiPolicyReader,
  aws_api_gateway_authorizer: authorizerReader,
  aws_api_gateway_request_validator: requestValidatorReader,
  aws_api_gateway_model: modelReader,
  aws_api_gateway_stage: stageReader,
};

export const APIGATEWAY_IGNORED: Record<string, string[]> = {
  // body/parameters/put_rest_api_mode/fail_on_warnings/clone_from are import arguments the API never returns; the rest are computed.
  aws_api_gateway_rest_api: ['body', 'parameters', 'put_rest_api_mode', 'fail_on_warnings', 'clone_from', 'created_date', 'execution_arn', 'root_resource_id'],
  aws_api_gateway_resource: ['rest_api_id'],
  aws_api_gateway_method: ['rest_api_id', 'resource_id', 'http_method'],
  aws_api_gateway_integration: ['rest_api_id', 'resource_id', 'http_method'],
  aws_api_gateway_method_response: ['rest_api_id', 'resource_id', 'http_method'],
  aws_api_gateway_integration_response: ['rest_api_id', 'resource_id', 'http_method'],
  // Stage arguments and triggers act at creation only; the URLs and date are computed.
  aws_api_gateway_rest_api_policy: ['rest_api_id'],
  aws_api_gateway_authorizer: ['rest_api_id'],
  aws_api_gateway_request_validator: ['rest_api_id'],
  aws_api_gateway_model: ['rest_api_id'],
  // The URLs and ARNs are computed; the WAF association is its own resource (aws_wafv2_web_acl_association).
  aws_api_gateway_stage: ['rest_api_id', 'stage_name', 'execution_arn', 'invoke_url', 'web_acl_arn', 'canary_settings'],
  aws_api_gateway_deployment: ['created_date', 'execution_arn', 'invoke_url', 'stage_name', 'stage_description', 'variables', 'triggers', 'canary_settings', 'rest_api_id'],
};

export const APIGATEWAY_RULES: SeverityRule[] = [
  { id: 'apigw-method-auth-removed', severity: 'critical', description: 'API Gateway method opened without authorization (NONE)',
    rationale: 'Anyone who can reach the API can now call the method without credentials.',
    types: ['aws_api_gateway_method'], attributes: ['authorization'], becomes: ['NONE'] },
  { id: 'apigw-method-api-key-off', severity: 'critical', description: 'API Gateway method no longer requires an API key',
    rationale: 'Callers without a key, and outside any usage plan, can now call the method.',
    types: ['aws_api_gateway_method'], attributes: ['api_key_required'], becomes: [false] },
  { id: 'apigw-method-auth-changed', severity: 'high', description: 'API Gateway method authorizer or scopes changed',
    rationale: 'Who may call the method changed outside review.',
    types: ['aws_api_gateway_method'], attributes: ['authorization', 'authorizer_id', 'authorization_scopes'] },
  { id: 'apigw-integration-target-changed', severity: 'high', description: 'API Gateway integration sends requests elsewhere',
    rationale: 'Requests to the method now reach another backend, or run with other credentials.',
    types: ['aws_api_gateway_integration'], attributes: ['uri', 'type', 'credentials', 'connection_id', 'connection_type'] },
  { id: 'apigw-rest-api-policy-changed', severity: 'high', description: 'API Gateway REST API resource policy or endpoint type changed',
    rationale: 'Who may reach the API, or from where, changed outside review.',
    types: ['aws_api_gateway_rest_api', 'aws_api_gateway_rest_api_policy'], attributes: ['policy', 'endpoint_configuration*', 'disable_execute_api_endpoint'] },
  { id: 'apigw-authorizer-changed', severity: 'high', description: 'API Gateway authorizer function, credentials or identity source changed',
    rationale: 'What decides who may call the API changed outside review.',
    types: ['aws_api_gateway_authorizer'], attributes: ['authorizer_uri', 'authorizer_credentials', 'identity_source', 'provider_arns', 'type'] },
  { id: 'apigw-stage-access-log-removed', severity: 'medium', description: 'API Gateway stage access logging removed',
    rationale: 'Calls to the stage are no longer recorded.',
    types: ['aws_api_gateway_stage'], attributes: ['access_log_settings'], becomes: [''] },
];
