// The list modes of the drift engine's readers beyond the first 13 types (#21 point 3): every
// reader type is listed (or named as listed under another type), and in a private moto one
// resource of each type is listed, read through its drift reader (AWS_READERS[type]), read back
// by the id discovery records, and codified into HCL that parses with the right import id.
import { join } from 'node:path';
import t from 'tap';
import { parse } from '@cdktf/hcl2json';
import { ROOT } from '../../../core/loader.ts';
import { startMoto } from '../../../scripts/bench/private-moto.ts';
import { discoverAccount, DISCOVERABLE_TYPES } from '../../../runner-agent/src/engine/discover.ts';
import { AWS_READERS, AwsContext } from '../../../runner-agent/src/engine/cloud/aws/index.ts';
import { AWS_LISTERS, DRIFT_ONLY, NOT_LISTED } from '../../../runner-agent/src/engine/cloud/aws/list.ts';
import { readerIdOf } from '../../../runner-agent/src/engine/inventory.ts';
import { codify, CONFIGURABLE, importIdOf } from '../../../plugins/discovery/iac.ts';
import { REFERENCE_TYPES } from '../../../plugins/discovery/store.ts';
import { monthlyCost } from '../../../plugins/discovery/prices.ts';
import { buildListEstate, CREDS } from './list-estate.ts';

const FIRST_13 = ['aws_instance', 'aws_security_group', 'aws_vpc', 'aws_subnet', 'aws_ebs_volume', 'aws_eip', 'aws_s3_bucket', 'aws_iam_role', 'aws_iam_policy',
  'aws_iam_user', 'aws_db_instance', 'aws_lambda_function', 'aws_dynamodb_table'];

t.test('every type the drift engine reads is listed, listed under the type it is an alias of, or named as not discovered yet', async (t) => {
  for (const type of Object.keys(AWS_READERS)) {
    const listed = AWS_LISTERS[type] || (NOT_LISTED[type] && NOT_LISTED[type].split(' / ').every((o) => AWS_LISTERS[o]));
    t.ok(listed || DRIFT_ONLY.has(type), `${type} is listed`);
  }
  for (const type of DRIFT_ONLY) {
    t.ok(AWS_READERS[type], `${type} (not discovered yet) has a drift reader`);
    t.notOk(AWS_LISTERS[type], `${type} has no lister yet: once it has one it leaves DRIFT_ONLY`);
  }
  for (const type of DISCOVERABLE_TYPES) {
    t.ok(AWS_READERS[type], `${type} has a drift reader`);
    t.ok(CONFIGURABLE[type]?.length, `${type} has configurable arguments for generate-iac`);
  }
});

const moto = await startMoto(ROOT, join(ROOT, '.data'), `moto-test-list-modes-${process.pid}.log`, () => undefined);
t.teardown(() => moto.stop());

t.test('each new type is listed, read by its reader, read back by its id, and codified', async (t) => {
  const { expected, natEni, subnet } = await buildListEstate(moto.endpoint);
  const types = DISCOVERABLE_TYPES.filter((x) => !FIRST_13.includes(x));
  t.same(Object.keys(expected).sort(), types.slice().sort(), 'the estate holds a resource of every newly listed type');
  const out = await discoverAccount({ credentials: CREDS, endpoint: moto.endpoint, regions: ['us-east-1'], types });

  const aws = new AwsContext(CREDS, 'us-east-1', moto.endpoint);
  t.teardown(() => aws.destroy());
  const known = new Map(out.resources.filter((r) => REFERENCE_TYPES.has(r.type)).map((r) => [r.resourceId, r.type]));
  for (const [type, ids] of Object.entries(expected)) {
    for (const id of ids) {
      const r = out.resources.find((x) => x.type === type && x.resourceId === id);
      if (!t.ok(r, `${type} ${id} is discovered`)) continue;
      t.equal(r!.service, AWS_LISTERS[type].service);
      // A state holding what discovery recorded names the same id, and the drift reader finds it by it.
      const state = { ...r!.attributes, id };
      t.equal(readerIdOf(type, state), id, `${type}: readerIdOf of the discovered attributes is the listed id`);
      const [again] = await AWS_READERS[type].read([{ instance: { address: `${type}.x`, type, name: 'x', attributes: state }, region: r!.region }], aws);
      t.ok(again, `${type}: the drift reader reads it back by its id`);

      const g = codify(type, id, r!.region, r!.attributes, known);
      if (type === 'aws_key_pair') t.match(g.iac, /\n\s*public_key\s*=\s*"ssh-rsa AAAA[^"]+"/, 'aws_key_pair: public_key from the key pair\'s public key material');
      const parsed = await parse('main.tf', g.iac) as { resource: Record<string, Record<string, unknown[]>>; import: { id: string; to: string }[] };
      t.ok(parsed.resource[type], `${type}: the generated HCL parses`);
      t.equal(parsed.import[0].id, importIdOf(type, id, r!.attributes), `${type}: the import block names the import id`);
      t.equal(parsed.import[0].to, `${"$"}{${g.address}}`, `${type}: the import block names the resource`);
      t.ok(g.importCommand.startsWith(`terraform import ${g.address} `));
    }
  }

  // Where the import id is not the reader's id.
  const byType = (type: string) => out.resources.find((r) => r.type === type)!;
  const assoc = byType('aws_route_table_association');
  t.match(codify(assoc.type, assoc.resourceId, assoc.region, assoc.attributes, known).iac, new RegExp(`id = "${subnet}/rtb-`), 'association: imported as subnet/route table');
  const svc = byType('aws_ecs_service');
  t.match(codify(svc.type, svc.resourceId, svc.region, svc.attributes, known).importCommand, "'apps/web'", 'ECS service: imported as cluster/service');
  const cluster = byType('aws_ecs_cluster');
  t.match(codify(cluster.type, cluster.resourceId, cluster.region, cluster.attributes, known).importCommand, "'apps'", 'ECS cluster: imported by name');

  // References between discovered resources.
  const route = byType('aws_route');
  t.match(codify(route.type, route.resourceId, route.region, route.attributes, known).iac, /route_table_id = aws_route_table\.rtb_\w+\.id\n\s+destination_cidr_block = "0\.0\.0\.0\/0"\n\s+gateway_id = aws_internet_gateway\.igw_\w+\.id/);
  const listener = byType('aws_lb_listener');
  const listenerHcl = codify(listener.type, listener.resourceId, listener.region, listener.attributes, known).iac;
  t.match(listenerHcl, /resource "aws_lb_listener" "web_lb_\w+" \{\n\s+load_balancer_arn = aws_lb\.web_lb_\w+\.arn/);
  t.match(listenerHcl, /default_action \{\n\s+type = "forward"\n\s+target_group_arn = aws_lb_target_group\.web_tg_\w+\.arn\n\s+\}/);
  const enc = byType('aws_s3_bucket_server_side_encryption_configuration');
  t.match(codify(enc.type, enc.resourceId, enc.region, enc.attributes, known).iac, /rule \{\n\s+apply_server_side_encryption_by_default \{\n\s+sse_algorithm = "AES256"/, 'nested blocks');

  // Prices of the new types the table documents: NAT gateway and load balancer hours, a KMS key's month.
  t.equal(monthlyCost('aws_nat_gateway', byType('aws_nat_gateway').attributes), 32.85, 'NAT gateway 730 h × 0.045');
  t.equal(monthlyCost('aws_lb', byType('aws_lb').attributes), 16.43, 'application load balancer 730 h × 0.0225');
  t.equal(monthlyCost('aws_kms_key', byType('aws_kms_key').attributes), 1);

  // What is not a resource of its own is not listed.
  t.notOk(out.resources.some((r) => r.type === 'aws_network_interface' && r.resourceId === natEni), "a NAT gateway's interface is the gateway's");
  t.notOk(out.resources.some((r) => r.type === 'aws_route53_record' && /_(SOA|NS)$/.test(r.resourceId)), "a zone's SOA and apex NS come with the zone");
  t.notOk(out.resources.some((r) => r.type === 'aws_route' && r.attributes.origin !== 'CreateRoute'), 'local routes are the VPC\'s');
  t.ok(out.stats.sdkCalls > 0);
});
