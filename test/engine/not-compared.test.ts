// Every scan says what it did not compare (stats.notCompared): per resource type and reason,
// a type without a reader, an instance of unknown region, a type the credentials may not read
// (the rest of the scan goes on) and a state shape the engine cannot compare. A scan whose every
// read is refused still fails with access_denied. The scan runs end to end (detectDrift on a
// folder) against the replay fake.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { startFakeCloud, stateWorld } from '../../runner-agent/src/engine/cloud/aws/replay/server.ts';
import { FakeError } from '../../runner-agent/src/engine/cloud/aws/replay/wire.ts';
import { detectDrift } from '../../runner-agent/src/engine/index.ts';
import { allAnswers } from '../../runner-agent/src/engine/replay.ts';
import { parseState } from '../../runner-agent/src/engine/state.ts';

const dir = mkdtempSync(join(tmpdir(), 'drift-not-compared-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
// No region anywhere for the default provider: only what the instances themselves name.
writeFileSync(join(dir, 'main.tf'), 'variable "region" {}\nprovider "aws" {\n  region = var.region\n}\nprovider "aws" {\n  alias  = "other"\n  region = var.region\n}\n');
const ACCT = '123456789012';
const res = (type: string, name: string, attributes: Record<string, unknown> | undefined, alias = '') => ({
  mode: 'managed', type, name, provider: `provider["registry.terraform.io/hashicorp/aws"]${alias}`,
  instances: [attributes ? { schema_version: 0, attributes } : { schema_version: 0 }],
});
const state = {
  version: 4, terraform_version: '1.6.0', serial: 1, lineage: 'l', outputs: {}, resources: [
    res('aws_vpc', 'main', { id: 'vpc-1', arn: `arn:aws:ec2:eu-west-1:${ACCT}:vpc/vpc-1`, cidr_block: '10.0.0.0/16', tags: {} }),
    res('aws_mq_broker', 'q', { id: 'b-1', arn: `arn:aws:mq:eu-west-1:${ACCT}:broker:q:b-1` }),
    res('aws_mq_broker', 'r', { id: 'b-2', arn: `arn:aws:mq:eu-west-1:${ACCT}:broker:r:b-2` }),
    // Alone under its alias (no peers to agree with), no ARN: no region is known.
    res('aws_kms_key', 'k', { id: 'key-1', description: 'no ARN, no region named' }, '.other'),
    res('aws_dynamodb_table', 'd', { id: 'd', name: 'd', arn: `arn:aws:dynamodb:eu-west-1:${ACCT}:table/d`, hash_key: 'k', billing_mode: 'PAY_PER_REQUEST' }),
    res('aws_sns_topic', 'nameless', { display_name: 'a topic the state names by nothing' }),
    res('aws_s3_bucket', 'empty', undefined),
  ],
};
writeFileSync(join(dir, 'terraform.tfstate'), JSON.stringify(state));

/** The fake of this state, with DynamoDB refusing every call as IAM does. */
async function fake(deny: (service: string) => boolean) {
  const answers = allAnswers().map((a) => (deny(a.service)
    ? { ...a, answer: () => { throw new FakeError('AccessDeniedException', `User is not authorized to perform ${a.service}:${a.op[2]}`); } }
    : a));
  return startFakeCloud(stateWorld(parseState(JSON.stringify(state), 's')), answers);
}
const scan = (endpoint: string) => detectDrift({
  source: { kind: 'path', path: dir }, iacPaths: [], provider: 'cloud_a', endpoint,
  credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'x', region: '' },
});

t.test('the scan lists, per type, what it did not compare and why', async (t) => {
  const cloud = await fake((s) => s === 'dynamodb');
  try {
    const out = await scan(cloud.endpoint);
    t.equal(out.resourcesScanned, 1, 'the VPC, read in the region its ARN names');
    t.same(out.drifts, []);
    t.same(out.stats.notCompared, [
      { resourceType: 'aws_mq_broker', reason: 'no_reader', count: 2 },
      { resourceType: 'aws_dynamodb_table', reason: 'access_denied', count: 1 },
      { resourceType: 'aws_kms_key', reason: 'unknown_region', count: 1 },
      { resourceType: 'aws_s3_bucket', reason: 'unsupported_shape', count: 1 },
      { resourceType: 'aws_sns_topic', reason: 'unsupported_shape', count: 1 },
    ]);
  } finally {
    await cloud.close();
  }
});

t.test('credentials refused for everything they were asked: the scan fails, as before', async (t) => {
  const cloud = await fake(() => true);
  try {
    await t.rejects(scan(cloud.endpoint), { code: 'access_denied', message: /cloud_a denied/ });
  } finally {
    await cloud.close();
  }
});
