// Issue 33, application-facing AWS types (EKS, API Gateway REST, Lambda permissions and URLs,
// CloudFront, ACM): the written corpus state replays clean; the replay fake built from an edited
// copy of it (the "cloud") gives exactly the drifts the edit makes, with the severities and rule
// ids the rules promise; deletions are found; API Gateway reads one GetResources per API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import t from 'tap';
import { IGNORED_ATTRIBUTES } from '../../../runner-agent/src/engine/catalogue.ts';
import { AWS_READERS, AwsContext } from '../../../runner-agent/src/engine/cloud/aws/index.ts';
import { startFakeCloud, stateWorld } from '../../../runner-agent/src/engine/cloud/aws/replay/server.ts';
import { compareLive } from '../../../runner-agent/src/engine/compare.ts';
import { buildIgnoreRules } from '../../../runner-agent/src/engine/ignore.ts';
import { allAnswers, replayState } from '../../../runner-agent/src/engine/replay.ts';
import { parseState } from '../../../runner-agent/src/engine/state.ts';
import type { DetectedDrift, StateInstance } from '../../../runner-agent/src/engine/types.ts';

const CORPUS = join(import.meta.dirname, '..', 'corpus');
const FILE = 'written-aws-apps.tfstate';
const text = readFileSync(join(CORPUS, FILE), 'utf8');
const base = parseState(text, FILE);
const TYPES = [
  'aws_eks_cluster', 'aws_eks_node_group', 'aws_api_gateway_rest_api', 'aws_api_gateway_resource', 'aws_api_gateway_method', 'aws_api_gateway_integration',
  'aws_api_gateway_deployment', 'aws_api_gateway_method_response', 'aws_api_gateway_integration_response', 'aws_lambda_permission', 'aws_lambda_function_url',
  'aws_cloudfront_distribution', 'aws_acm_certificate',
];

/** The state's instances compared against a fake cloud built from `cloud`. */
async function against(cloud: StateInstance[], state: StateInstance[] = base) {
  const fake = await startFakeCloud(stateWorld(cloud), allAnswers());
  const aws = new AwsContext({ accessKeyId: 'replay', secretAccessKey: 'replay', region: 'eu-west-1' }, 'eu-west-1', fake.endpoint);
  try {
    const out = await compareLive(state.map((instance) => ({ instance, region: 'eu-west-1' })), aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
    return { ...out, calls: { ...aws.calls }, by: Object.fromEntries(out.drifts.map((d) => [d.resourceAddress, d])) as Record<string, DetectedDrift> };
  } finally {
    aws.destroy();
    await fake.close();
  }
}

/** The cloud: the state with some instances edited (a function of their attributes) and some gone. */
function cloudWith(edits: Record<string, (a: Record<string, any>) => void>, gone: string[] = []): StateInstance[] {
  return base.filter((i) => !gone.includes(i.address)).map((i) => {
    const edit = edits[i.address];
    if (!edit) return i;
    const attributes = structuredClone(i.attributes) as Record<string, any>;
    edit(attributes);
    return { ...i, attributes };
  });
}

t.test('every type has a reader with replay answers, and the written state replays clean', async (t) => {
  for (const type of TYPES) t.ok(AWS_READERS[type]?.answers.length, `${type} has a reader and replay answers`);
  const r = await replayState(text, FILE);
  t.equal(r.compared, base.length, `all ${base.length} instances compared`);
  t.same(r.drifts, [], 'no drift');
});

t.test('API Gateway: one GetResources per API answers every resource, method, integration and response', async (t) => {
  const out = await against(base);
  t.same(out.drifts, []);
  // One REST API: GetRestApis once, GetResources once, GetDeployments once.
  t.equal(out.calls.apigateway, 3, `${out.calls.apigateway} API Gateway calls for 10 API Gateway instances`);
  // Three permissions on two functions: one GetPolicy per function.
  t.equal(out.calls.lambda, 3, 'two GetPolicy (one per function) and one GetFunctionUrlConfig');
});

t.test('API Gateway: authorization opened, API key dropped, integration retargeted, resource deleted', async (t) => {
  const out = await against(cloudWith({
    'aws_api_gateway_method.list': (a) => { a.api_key_required = false; },
    'aws_api_gateway_method.get': (a) => { a.authorization = 'NONE'; },
    'aws_api_gateway_integration.get': (a) => { a.uri = 'https://attacker.example.net/orders/{id}'; },
    'aws_api_gateway_integration_response.get_200': (a) => { a.selection_pattern = ''; },
    'aws_api_gateway_rest_api.orders': (a) => { a.tags = { Team: 'other' }; a.tags_all = a.tags; },
    'aws_api_gateway_deployment.orders': (a) => { a.description = 'hotfix'; },
  }, ['aws_api_gateway_method_response.get_200']));
  t.match(out.by['aws_api_gateway_method.list'], { severity: 'critical', ruleId: 'apigw-method-api-key-off', diff: [{ attribute: 'api_key_required', before: true, after: false }] });
  t.match(out.by['aws_api_gateway_method.get'], { severity: 'critical', ruleId: 'apigw-method-auth-removed', diff: [{ attribute: 'authorization', before: 'AWS_IAM', after: 'NONE' }] });
  t.match(out.by['aws_api_gateway_integration.get'], { severity: 'high', ruleId: 'apigw-integration-target-changed' });
  t.match(out.by['aws_api_gateway_integration_response.get_200'], { changeType: 'changed', diff: [{ attribute: 'selection_pattern', before: '2\\d{2}', after: '' }] });
  t.match(out.by['aws_api_gateway_rest_api.orders'], { severity: 'low', ruleId: 'tags-only' });
  t.match(out.by['aws_api_gateway_deployment.orders'], { diff: [{ attribute: 'description', after: 'hotfix' }] });
  t.match(out.by['aws_api_gateway_method_response.get_200'], { changeType: 'deleted' });
  t.equal(out.drifts.length, 7, 'nothing else drifts');
});

t.test('API Gateway: a REST API deleted takes its whole tree with it', async (t) => {
  const gone = base.filter((i) => i.type.startsWith('aws_api_gateway_')).map((i) => i.address);
  const out = await against(cloudWith({}, gone));
  t.same(out.drifts.map((d) => d.resourceAddress).sort(), [...gone].sort(), 'every API Gateway instance is deleted');
  t.ok(out.drifts.every((d) => d.changeType === 'deleted'));
});

t.test('Lambda: a URL opened, a permission widened to everyone, a condition dropped, a statement removed', async (t) => {
  const out = await against(cloudWith({
    'aws_lambda_function_url.thumbnails': (a) => { a.authorization_type = 'NONE'; },
    'aws_lambda_permission.apigw': (a) => { a.principal = '*'; },
    'aws_lambda_permission.s3': (a) => { a.source_account = null; },
  }, ['aws_lambda_permission.partner']));
  t.match(out.by['aws_lambda_function_url.thumbnails'], { severity: 'critical', ruleId: 'lambda-url-auth-none' });
  t.match(out.by['aws_lambda_permission.apigw'], { severity: 'critical', ruleId: 'lambda-permission-public', diff: [{ attribute: 'principal', after: '*' }] });
  t.match(out.by['aws_lambda_permission.s3'], { severity: 'critical', ruleId: 'lambda-permission-condition-removed', diff: [{ attribute: 'source_account', before: '111122223333', after: '' }] });
  t.match(out.by['aws_lambda_permission.partner'], { changeType: 'deleted' });
  t.equal(out.drifts.length, 4);
  const cors = await against(cloudWith({ 'aws_lambda_function_url.thumbnails': (a) => { a.cors[0].allow_origins = ['*']; } }));
  t.match(cors.drifts, [{ resourceAddress: 'aws_lambda_function_url.thumbnails', diff: [{ attribute: 'cors.0.allow_origins', after: ['*'] }] }]);
});

t.test('EKS: endpoint opened to the world, public access turned on, logging cut, node group scaled and deleted', async (t) => {
  const out = await against(cloudWith({
    'aws_eks_cluster.main': (a) => { a.vpc_config[0].public_access_cidrs = ['0.0.0.0/0']; },
    'aws_eks_node_group.workers': (a) => { a.scaling_config[0].max_size = 20; a.taint = [a.taint[1], a.taint[0]]; },
  }));
  t.match(out.by['aws_eks_cluster.main'], { severity: 'critical', ruleId: 'eks-endpoint-open-to-world' });
  t.match(out.by['aws_eks_node_group.workers'], { diff: [{ attribute: 'scaling_config.0.max_size', before: 6, after: 20 }] });
  t.equal(out.by['aws_eks_node_group.workers'].diff.length, 1, 'taints in another order are the same set');
  const priv = cloudWith({ 'aws_eks_cluster.main': (a) => { a.vpc_config[0].endpoint_public_access = false; } });
  const opened = await against(base, priv.filter((i) => i.type === 'aws_eks_cluster'));
  t.match(opened.drifts, [{ severity: 'critical', ruleId: 'eks-endpoint-public', diff: [{ attribute: 'vpc_config.0.endpoint_public_access', before: false, after: true }] }]);
  const logs = await against(cloudWith({ 'aws_eks_cluster.main': (a) => { a.enabled_cluster_log_types = ['api']; a.encryption_config = []; } }));
  t.match(logs.by['aws_eks_cluster.main'], { severity: 'high', ruleId: 'eks-cluster-security-changed' });
  const gone = await against(cloudWith({}, ['aws_eks_node_group.workers']));
  t.match(gone.drifts, [{ resourceAddress: 'aws_eks_node_group.workers', changeType: 'deleted' }]);
});

t.test('CloudFront: plain HTTP allowed, an origin retargeted or stripped of its access control, the WAF removed', async (t) => {
  const d = 'aws_cloudfront_distribution.site';
  const rule = async (edit: (a: Record<string, any>) => void) => (await against(cloudWith({ [d]: edit }))).by[d];
  t.match(await rule((a) => { a.ordered_cache_behavior[0].viewer_protocol_policy = 'allow-all'; }), { severity: 'critical', ruleId: 'cloudfront-viewer-allow-all' });
  t.match(await rule((a) => { a.origin[1].domain_name = 'someone-else.s3.amazonaws.com'; }), { severity: 'critical', ruleId: 'cloudfront-origin-retargeted' });
  t.match(await rule((a) => { a.origin[1].origin_access_control_id = ''; }), { severity: 'critical', ruleId: 'cloudfront-origin-access-removed' });
  t.match(await rule((a) => { a.origin[2].s3_origin_config = []; }), { severity: 'critical', ruleId: 'cloudfront-origin-access-removed' });
  t.match(await rule((a) => { a.origin.pop(); a.origin[1].domain_name = 'other.s3.amazonaws.com'; }), { severity: 'critical', ruleId: 'cloudfront-origins-replaced' });
  t.match(await rule((a) => { a.web_acl_id = ''; }), { severity: 'high', ruleId: 'cloudfront-web-acl-removed' });
  t.match(await rule((a) => { a.tags = { Team: 'x' }; a.tags_all = a.tags; }), { severity: 'low', ruleId: 'tags-only' });
  // Origins, error responses and functions come back in another order: the same sets, no drift.
  const shuffled = await against(cloudWith({ [d]: (a) => { a.origin.reverse(); a.custom_error_response.reverse(); } }));
  t.same(shuffled.drifts, [], 'set order carries no meaning');
  const gone = await against(cloudWith({}, [d]));
  t.match(gone.drifts, [{ resourceAddress: d, changeType: 'deleted' }]);
});

t.test('ACM: a SAN added is a change; a deleted certificate is high', async (t) => {
  const c = 'aws_acm_certificate.site';
  const changed = await against(cloudWith({ [c]: (a) => { a.subject_alternative_names = ['example.com', 'evil.example.com']; } }));
  t.match(changed.by[c], { changeType: 'changed', diff: [{ attribute: 'subject_alternative_names' }] });
  const gone = await against(cloudWith({}, [c]));
  t.match(gone.by[c], { changeType: 'deleted', severity: 'high', ruleId: 'acm-certificate-deleted' });
});

t.test('the real EKS state (terraboard) replays clean, and a cluster opened drifts', async (t) => {
  const file = 'terraboard-eks.tfstate';
  const eks = parseState(readFileSync(join(CORPUS, file), 'utf8'), file);
  t.same((await replayState(readFileSync(join(CORPUS, file), 'utf8'), file)).drifts, []);
  const cluster = eks.find((i) => i.type === 'aws_eks_cluster')!;
  const closed = { ...cluster, attributes: { ...cluster.attributes, vpc_config: [{ ...(cluster.attributes.vpc_config as any[])[0], public_access_cidrs: ['10.0.0.0/8'] }] } };
  const out = await against([cluster], [closed]);
  t.match(out.drifts, [{ severity: 'critical', ruleId: 'eks-endpoint-open-to-world' }]);
});

t.test('API Gateway extras (driftctl states): authorizers, validators, models, stages and API policies read from one list per API', async (t) => {
  const load = (f: string) => parseState(readFileSync(join(CORPUS, `driftctl-aws_api_gateway_${f}.tfstate`), 'utf8'), f);
  const state = ['authorizer', 'request_validator', 'model', 'stage', 'rest_api_policy'].flatMap(load).filter((i) => AWS_READERS[i.type]);
  const clean = await against(state, state);
  t.equal(clean.compared, state.length);
  t.same(clean.drifts, [], 'no drift');
  const edit = (type: string, attrs: Record<string, unknown>) => state.map((i, n) => (i.type === type && state.findIndex((x) => x.type === type) === n ? { ...i, attributes: { ...i.attributes, ...attrs } } : i));
  const first = (type: string) => state.find((i) => i.type === type)!.address;
  const wide = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Action: 'execute-api:Invoke', Resource: '*' }] });
  let cloud = edit('aws_api_gateway_authorizer', { authorizer_uri: 'arn:aws:apigateway:us-east-1:lambda:path/2015-03-31/functions/arn:aws:lambda:us-east-1:1:function:other/invocations' });
  cloud = cloud.map((i) => (i.address === first('aws_api_gateway_request_validator') ? { ...i, attributes: { ...i.attributes, validate_request_body: false } } : i));
  cloud = cloud.map((i) => (i.address === first('aws_api_gateway_model') ? { ...i, attributes: { ...i.attributes, schema: '{"type":"object"}' } } : i));
  cloud = cloud.map((i) => (i.address === first('aws_api_gateway_rest_api_policy') ? { ...i, attributes: { ...i.attributes, policy: wide } } : i));
  cloud = cloud.map((i) => (i.address === first('aws_api_gateway_stage') ? { ...i, attributes: { ...i.attributes, deployment_id: 'newdep' } } : i));
  const out = await against(cloud, state);
  t.match(out.by[first('aws_api_gateway_authorizer')], { severity: 'high', ruleId: 'apigw-authorizer-changed' });
  t.match(out.by[first('aws_api_gateway_request_validator')], { diff: [{ attribute: 'validate_request_body', before: true, after: false }] });
  t.notOk(out.by[first('aws_api_gateway_model')], 'a schema written differently is the same document');
  t.match(out.by[first('aws_api_gateway_rest_api_policy')], { severity: 'high', ruleId: 'apigw-rest-api-policy-changed' });
  t.match(out.by[first('aws_api_gateway_stage')], { diff: [{ attribute: 'deployment_id', after: 'newdep' }] });
  t.equal(out.drifts.length, 4);
  const gone = await against(state.filter((i) => i.type !== 'aws_api_gateway_stage'), state);
  t.same(gone.drifts.filter((d) => d.changeType === 'deleted').map((d) => d.resourceType), ['aws_api_gateway_stage', 'aws_api_gateway_stage'].slice(0, state.filter((i) => i.type === 'aws_api_gateway_stage').length));
});
