// Issue 33 readers against moto: EKS, API Gateway REST, Lambda permissions and URLs, CloudFront
// and ACM resources created through the SDK, a state written in the provider's shape from what
// was created (as `terraform import` would store it), a clean read, then out-of-band changes
// made with the SDK found as drifts with the rules' severities, and deletions found.
import t from 'tap';
import { IGNORED_ATTRIBUTES } from '../../runner-agent/src/engine/catalogue.ts';
import {
  CreateDeploymentCommand, CreateResourceCommand, CreateRestApiCommand, APIGatewayClient, GetResourcesCommand, PutIntegrationCommand,
  PutIntegrationResponseCommand, PutMethodCommand, PutMethodResponseCommand, DeleteMethodCommand, CreateAuthorizerCommand, CreateRequestValidatorCommand, CreateModelCommand,
  CreateStageCommand, DeleteStageCommand, DeleteRequestValidatorCommand,
} from '@aws-sdk/client-api-gateway';
import { ACMClient, DeleteCertificateCommand, RequestCertificateCommand } from '@aws-sdk/client-acm';
import { CloudFrontClient, CreateDistributionCommand, GetDistributionConfigCommand, UpdateDistributionCommand, type DistributionConfig } from '@aws-sdk/client-cloudfront';
import { CreateClusterCommand, CreateNodegroupCommand, DeleteNodegroupCommand, EKSClient } from '@aws-sdk/client-eks';
import { CreateRoleCommand, IAMClient } from '@aws-sdk/client-iam';
import {
  AddPermissionCommand, CreateFunctionCommand, CreateFunctionUrlConfigCommand, LambdaClient, RemovePermissionCommand, UpdateFunctionUrlConfigCommand,
} from '@aws-sdk/client-lambda';
import { AwsContext } from '../../runner-agent/src/engine/cloud/aws/index.ts';
import { compareLive } from '../../runner-agent/src/engine/compare.ts';
import { buildIgnoreRules } from '../../runner-agent/src/engine/ignore.ts';
import type { DetectedDrift, StateInstance } from '../../runner-agent/src/engine/types.ts';
import { zipOf } from './estate-services.ts';
import { CREDENTIALS, motoUrl, REGION, TRUST_POLICY } from './world.ts';

const endpoint = motoUrl();
const cfg = { endpoint, region: REGION, credentials: CREDENTIALS };
const sfx = `${Date.now().toString(36)}${process.pid}`;
const inst = (type: string, name: string, attributes: Record<string, unknown>): StateInstance => ({ address: `${type}.${name}`, type, name, attributes });

async function scan(state: StateInstance[]) {
  const aws = new AwsContext(CREDENTIALS, REGION, endpoint);
  try {
    const out = await compareLive(state.map((instance) => ({ instance, region: REGION })), aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
    return { ...out, calls: { ...aws.calls }, by: Object.fromEntries(out.drifts.map((d) => [d.resourceAddress, d])) as Record<string, DetectedDrift> };
  } finally {
    aws.destroy();
  }
}

const iam = new IAMClient(cfg);
const role = (await iam.send(new CreateRoleCommand({ RoleName: `apps-${sfx}`, AssumeRolePolicyDocument: JSON.stringify(TRUST_POLICY) }))).Role!;

t.test('EKS: a cluster and node group read clean; a node group deleted out of band is deleted', async (t) => {
  const eks = new EKSClient(cfg);
  const name = `apps-${sfx}`;
  const vpc = { subnetIds: ['subnet-a1', 'subnet-b2'], securityGroupIds: ['sg-apps1'], endpointPublicAccess: false, endpointPrivateAccess: true };
  await eks.send(new CreateClusterCommand({ name, roleArn: role.Arn, version: '1.29', resourcesVpcConfig: vpc, tags: { Team: 'platform' } }));
  await eks.send(new CreateNodegroupCommand({
    clusterName: name, nodegroupName: 'workers', nodeRole: role.Arn, subnets: vpc.subnetIds, instanceTypes: ['m5.large'],
    scalingConfig: { desiredSize: 2, maxSize: 4, minSize: 1 }, labels: { role: 'workers' }, capacityType: 'ON_DEMAND',
  }));
  const state = [
    inst('aws_eks_cluster', 'main', { id: name, name, role_arn: role.Arn, version: '1.29', tags: { Team: 'platform' }, vpc_config: [{
      endpoint_private_access: true, endpoint_public_access: false, security_group_ids: vpc.securityGroupIds, subnet_ids: vpc.subnetIds,
    }] }),
    inst('aws_eks_node_group', 'workers', { id: `${name}:workers`, cluster_name: name, node_group_name: 'workers', node_role_arn: role.Arn, subnet_ids: vpc.subnetIds,
      instance_types: ['m5.large'], scaling_config: [{ desired_size: 2, max_size: 4, min_size: 1 }], labels: { role: 'workers' }, capacity_type: 'ON_DEMAND', taint: [] }),
  ];
  const clean = await scan(state);
  t.equal(clean.compared, 2);
  t.same(clean.drifts, [], 'no drift');
  // A state that believes the endpoint private sees moto's (public) answer as critical: the reader reads the flag.
  const believedClosed = structuredClone(state[0]);
  (believedClosed.attributes.vpc_config as Record<string, unknown>[])[0].endpoint_private_access = false;
  t.match((await scan([believedClosed])).drifts, [{ diff: [{ attribute: 'vpc_config.0.endpoint_private_access', before: false, after: true }] }]);
  await eks.send(new DeleteNodegroupCommand({ clusterName: name, nodegroupName: 'workers' }));
  t.match((await scan(state)).by['aws_eks_node_group.workers'], { changeType: 'deleted' });
});

t.test('API Gateway: resource, method, integration and responses read clean from one GetResources; auth opened and a method deleted', async (t) => {
  const apigw = new APIGatewayClient(cfg);
  const api = await apigw.send(new CreateRestApiCommand({ name: `apps-${sfx}`, description: 'orders', tags: { Team: 'orders' } }));
  const root = (await apigw.send(new GetResourcesCommand({ restApiId: api.id }))).items!.find((r) => r.path === '/')!;
  const res = await apigw.send(new CreateResourceCommand({ restApiId: api.id, parentId: root.id, pathPart: 'orders' }));
  const m = { restApiId: api.id, resourceId: res.id, httpMethod: 'GET' };
  await apigw.send(new PutMethodCommand({ ...m, authorizationType: 'AWS_IAM', apiKeyRequired: true }));
  await apigw.send(new PutIntegrationCommand({ ...m, type: 'MOCK', requestTemplates: { 'application/json': '{"statusCode": 200}' } }));
  await apigw.send(new PutMethodResponseCommand({ ...m, statusCode: '200' }));
  await apigw.send(new PutIntegrationResponseCommand({ ...m, statusCode: '200', selectionPattern: '' }));
  const dep = await apigw.send(new CreateDeploymentCommand({ restApiId: api.id, description: 'v1' }));
  const child = { rest_api_id: api.id, resource_id: res.id, http_method: 'GET' };
  const state = [
    inst('aws_api_gateway_rest_api', 'orders', { id: api.id, name: `apps-${sfx}`, description: 'orders', tags: { Team: 'orders' }, root_resource_id: root.id }),
    inst('aws_api_gateway_resource', 'orders', { id: res.id, rest_api_id: api.id, parent_id: root.id, path_part: 'orders', path: '/orders' }),
    inst('aws_api_gateway_method', 'get', { ...child, id: `agm-${api.id}-${res.id}-GET`, authorization: 'AWS_IAM', api_key_required: true, authorizer_id: '' }),
    inst('aws_api_gateway_integration', 'get', { ...child, id: `agi-${api.id}-${res.id}-GET`, type: 'MOCK', request_templates: { 'application/json': '{"statusCode": 200}' } }),
    inst('aws_api_gateway_method_response', 'ok', { ...child, id: `agmr-${api.id}-${res.id}-GET-200`, status_code: '200' }),
    inst('aws_api_gateway_integration_response', 'ok', { ...child, id: `agir-${api.id}-${res.id}-GET-200`, status_code: '200', selection_pattern: '' }),
    inst('aws_api_gateway_deployment', 'v1', { id: dep.id, rest_api_id: api.id, description: 'v1' }),
  ];
  const clean = await scan(state);
  t.equal(clean.compared, 7);
  t.same(clean.drifts, [], 'no drift');
  t.equal(clean.calls.apigateway, 3, 'GetRestApis, GetResources and GetDeployments: one each for 7 instances');
  // moto has no UpdateMethod: the method is put again out of band, open (its integration and responses go with the old one).
  await apigw.send(new DeleteMethodCommand(m));
  await apigw.send(new PutMethodCommand({ ...m, authorizationType: 'NONE', apiKeyRequired: true }));
  const opened = await scan(state);
  t.match(opened.by['aws_api_gateway_method.get'], { severity: 'critical', ruleId: 'apigw-method-auth-removed', diff: [{ attribute: 'authorization', before: 'AWS_IAM', after: 'NONE' }] });
  for (const a of ['aws_api_gateway_integration.get', 'aws_api_gateway_method_response.ok', 'aws_api_gateway_integration_response.ok']) {
    t.match(opened.by[a], { changeType: 'deleted' }, `${a} deleted with the method it hung off`);
  }
  await apigw.send(new DeleteMethodCommand(m));
  t.match((await scan(state)).by['aws_api_gateway_method.get'], { changeType: 'deleted' });
});

t.test('API Gateway extras: authorizer, request validator, model and stage read clean; a stage and a validator deleted out of band', async (t) => {
  const apigw = new APIGatewayClient(cfg);
  const api = await apigw.send(new CreateRestApiCommand({ name: `apps-extra-${sfx}` }));
  const uri = `arn:aws:apigateway:${REGION}:lambda:path/2015-03-31/functions/arn:aws:lambda:${REGION}:123456789012:function:auth/invocations`;
  const auth = await apigw.send(new CreateAuthorizerCommand({ restApiId: api.id, name: 'tok', type: 'TOKEN', authorizerUri: uri, identitySource: 'method.request.header.Authorization',
    authorizerResultTtlInSeconds: 120 }));
  const val = await apigw.send(new CreateRequestValidatorCommand({ restApiId: api.id, name: 'body', validateRequestBody: true, validateRequestParameters: false }));
  const model = await apigw.send(new CreateModelCommand({ restApiId: api.id, name: 'Order', contentType: 'application/json', description: 'an order', schema: '{"type": "object"}' }));
  // A deployment needs a method: GET / answering from a mock.
  const root = (await apigw.send(new GetResourcesCommand({ restApiId: api.id }))).items!.find((r) => r.path === '/')!;
  await apigw.send(new PutMethodCommand({ restApiId: api.id, resourceId: root.id, httpMethod: 'GET', authorizationType: 'NONE' }));
  await apigw.send(new PutIntegrationCommand({ restApiId: api.id, resourceId: root.id, httpMethod: 'GET', type: 'MOCK' }));
  const dep = await apigw.send(new CreateDeploymentCommand({ restApiId: api.id, description: 'v1' }));
  await apigw.send(new CreateStageCommand({ restApiId: api.id, stageName: 'prod', deploymentId: dep.id, description: 'live', variables: { color: 'blue' } }));
  const state = [
    inst('aws_api_gateway_authorizer', 'tok', { id: auth.id, rest_api_id: api.id, name: 'tok', type: 'TOKEN', authorizer_uri: uri,
      identity_source: 'method.request.header.Authorization', authorizer_result_ttl_in_seconds: 120, authorizer_credentials: '', identity_validation_expression: '' }),
    inst('aws_api_gateway_request_validator', 'body', { id: val.id, rest_api_id: api.id, name: 'body', validate_request_body: true, validate_request_parameters: false }),
    inst('aws_api_gateway_model', 'order', { id: model.id, rest_api_id: api.id, name: 'Order', content_type: 'application/json', description: 'an order', schema: '{\n  "type": "object"\n}' }),
    inst('aws_api_gateway_stage', 'prod', { id: `ags-${api.id}-prod`, rest_api_id: api.id, stage_name: 'prod', deployment_id: dep.id, description: 'live', variables: { color: 'blue' } }),
  ];
  const clean = await scan(state);
  t.equal(clean.compared, 4);
  t.same(clean.drifts, [], 'no drift');
  await apigw.send(new DeleteStageCommand({ restApiId: api.id, stageName: 'prod' }));
  await apigw.send(new DeleteRequestValidatorCommand({ restApiId: api.id, requestValidatorId: val.id }));
  const after = await scan(state);
  t.match(after.by['aws_api_gateway_stage.prod'], { changeType: 'deleted' });
  t.match(after.by['aws_api_gateway_request_validator.body'], { changeType: 'deleted' });
  t.equal(after.drifts.length, 2);
});

t.test('Lambda: a permission and a function URL read clean; the URL opened and the permission removed', async (t) => {
  const lambda = new LambdaClient(cfg);
  const fn = `apps-${sfx}`;
  await lambda.send(new CreateFunctionCommand({ FunctionName: fn, Runtime: 'nodejs20.x', Role: role.Arn, Handler: 'index.handler', Code: { ZipFile: zipOf('index.js', 'exports.handler = async () => 1;') } }));
  const srcArn = `arn:aws:s3:::uploads-${sfx}`;
  await lambda.send(new AddPermissionCommand({ FunctionName: fn, StatementId: 'AllowS3', Action: 'lambda:InvokeFunction', Principal: 's3.amazonaws.com', SourceArn: srcArn, SourceAccount: '123456789012' }));
  await lambda.send(new CreateFunctionUrlConfigCommand({ FunctionName: fn, AuthType: 'AWS_IAM', Cors: { AllowOrigins: ['https://app.example.com'], AllowMethods: ['GET'] } }));
  const state = [
    inst('aws_lambda_permission', 's3', { id: 'AllowS3', statement_id: 'AllowS3', function_name: fn, action: 'lambda:InvokeFunction', principal: 's3.amazonaws.com',
      source_arn: srcArn, source_account: '123456789012', qualifier: '' }),
    inst('aws_lambda_function_url', 'url', { id: fn, function_name: fn, qualifier: '', authorization_type: 'AWS_IAM', cors: [{
      allow_credentials: false, allow_headers: [], allow_methods: ['GET'], allow_origins: ['https://app.example.com'], expose_headers: [], max_age: 0,
    }] }),
  ];
  const clean = await scan(state);
  t.equal(clean.compared, 2);
  t.same(clean.drifts, [], 'no drift');
  await lambda.send(new UpdateFunctionUrlConfigCommand({ FunctionName: fn, AuthType: 'NONE' }));
  await lambda.send(new RemovePermissionCommand({ FunctionName: fn, StatementId: 'AllowS3' }));
  const after = await scan(state);
  t.match(after.by['aws_lambda_function_url.url'], { severity: 'critical', ruleId: 'lambda-url-auth-none' });
  t.match(after.by['aws_lambda_permission.s3'], { changeType: 'deleted' });
});

t.test('CloudFront: a distribution reads clean; viewer protocol opened to allow-all is critical', async (t) => {
  const cf = new CloudFrontClient(cfg);
  const origin = `site-${sfx}.s3.amazonaws.com`;
  const config: DistributionConfig = {
    CallerReference: `apps-${sfx}`, Comment: 'site', Enabled: true, DefaultRootObject: 'index.html',
    Origins: { Quantity: 1, Items: [{ Id: 'site', DomainName: origin, S3OriginConfig: { OriginAccessIdentity: '' } }] },
    DefaultCacheBehavior: { TargetOriginId: 'site', ViewerProtocolPolicy: 'redirect-to-https', ForwardedValues: { QueryString: false, Cookies: { Forward: 'none' } }, MinTTL: 0 },
  };
  const d = (await cf.send(new CreateDistributionCommand({ DistributionConfig: config }))).Distribution!;
  const state = [inst('aws_cloudfront_distribution', 'site', {
    id: d.Id, arn: d.ARN, enabled: true, comment: 'site', default_root_object: 'index.html',
    origin: [{ origin_id: 'site', domain_name: origin, origin_path: '', s3_origin_config: [], custom_origin_config: [] }],
    default_cache_behavior: [{ target_origin_id: 'site', viewer_protocol_policy: 'redirect-to-https', min_ttl: 0 }],
  })];
  const clean = await scan(state);
  t.equal(clean.compared, 1);
  t.same(clean.drifts, [], 'no drift');
  const got = await cf.send(new GetDistributionConfigCommand({ Id: d.Id }));
  const next = { ...got.DistributionConfig!, DefaultCacheBehavior: { ...got.DistributionConfig!.DefaultCacheBehavior!, ViewerProtocolPolicy: 'allow-all' as const } };
  await cf.send(new UpdateDistributionCommand({ Id: d.Id, IfMatch: got.ETag, DistributionConfig: next }));
  t.match((await scan(state)).by['aws_cloudfront_distribution.site'], { severity: 'critical', ruleId: 'cloudfront-viewer-allow-all' });
});

t.test('ACM: a requested certificate reads clean; deleted out of band it is a high drift', async (t) => {
  const acm = new ACMClient(cfg);
  const domain = `www-${sfx}.example.com`;
  const arn = (await acm.send(new RequestCertificateCommand({ DomainName: domain, SubjectAlternativeNames: [domain, `api-${sfx}.example.com`], ValidationMethod: 'DNS' }))).CertificateArn!;
  const state = [inst('aws_acm_certificate', 'site', { id: arn, arn, domain_name: domain, subject_alternative_names: [`api-${sfx}.example.com`], validation_method: 'DNS', tags: {} })];
  const clean = await scan(state);
  t.same(clean.drifts, [], 'no drift');
  await acm.send(new DeleteCertificateCommand({ CertificateArn: arn }));
  t.match((await scan(state)).by['aws_acm_certificate.site'], { changeType: 'deleted', severity: 'high', ruleId: 'acm-certificate-deleted' });
});
