// Issue 33, EC2 network readers (cloud/aws/ec2net): the written state replays clean in few calls,
// and out-of-band changes in the fake cloud come back as drifts with the severity rules' verdicts.
import t from 'tap';
import { SEVERITY_RULES } from '../../../runner-agent/src/engine/catalogue.ts';
import { classify } from '../../../runner-agent/src/engine/rules.ts';
import { changed, corpusState, driftsAgainst } from './issue33-kit.ts';

const state = corpusState('written-aws-network-edges');
const entry = (o: Record<string, unknown>) => ({ action: 'allow', cidr_block: '', ipv6_cidr_block: '', icmp_code: 0, icmp_type: 0, ...o });
const push = (list: string, e: Record<string, unknown>) => (a: Record<string, unknown>) => ({ ...a, [list]: [...(a[list] as unknown[]), entry(e)] });

async function driftOf(cloud: ReturnType<typeof changed>, address: string) {
  const { drifts } = await driftsAgainst(cloud, state);
  return { drift: drifts.find((d) => d.resourceAddress === address), all: drifts };
}

t.test('the written network state replays clean: one DescribeNetworkAcls for ACLs, rules and associations', async (t) => {
  const { drifts, compared, calls } = await driftsAgainst(state, state);
  t.same(drifts, []);
  t.equal(compared, 10);
  // DescribeNetworkAcls, DescribeVpcEndpoints, DescribeAddresses, DescribeRouteTables: one each for 10 instances.
  t.equal(calls.ec2, 4, `ec2 calls: ${calls.ec2}`);
});

t.test('network ACL opened to the world on SSH/RDP is critical; other entry changes high; tags low', async (t) => {
  const open = await driftOf(changed(state, 'aws_network_acl.private', push('ingress', { rule_no: 130, protocol: 'tcp', from_port: 0, to_port: 65535, cidr_block: '0.0.0.0/0' })), 'aws_network_acl.private');
  t.match(open.drift, { severity: 'critical', ruleId: 'nacl-ssh-rdp-open-to-world', diff: [{ attribute: 'ingress' }] });
  const narrow = await driftOf(changed(state, 'aws_network_acl.private', push('ingress', { rule_no: 130, protocol: '6', from_port: 80, to_port: 443, cidr_block: '0.0.0.0/0' })), 'aws_network_acl.private');
  t.match(narrow.drift, { severity: 'high', ruleId: 'nacl-rules-changed' }, 'a range not covering 22/3389 is high');
  const egress = await driftOf(changed(state, 'aws_network_acl.private', push('egress', { rule_no: 130, protocol: '-1', from_port: 0, to_port: 0, cidr_block: '0.0.0.0/0' })), 'aws_network_acl.private');
  t.match(egress.drift, { severity: 'high', ruleId: 'nacl-rules-changed' }, 'egress is never the SSH/RDP rule');
  const tags = await driftOf(changed(state, 'aws_network_acl.private', (a) => ({ ...a, tags: { Name: 'renamed' }, tags_all: { Name: 'renamed' } })), 'aws_network_acl.private');
  t.match(tags.drift, { severity: 'low', ruleId: 'tags-only' });
  const subnets = await driftOf(changed(state, 'aws_network_acl.private', (a) => ({ ...a, subnet_ids: [] })), 'aws_network_acl.private');
  t.match(subnets.drift, { severity: 'high', diff: [{ attribute: 'subnet_ids', after: [] }] });
});

t.test('the default ACL: all protocols from ::/0 is critical', async (t) => {
  const { drift } = await driftOf(changed(state, 'aws_default_network_acl.default', push('ingress', { rule_no: 90, protocol: '-1', from_port: 0, to_port: 0, ipv6_cidr_block: '::/0' })),
    'aws_default_network_acl.default');
  t.match(drift, { severity: 'critical', ruleId: 'nacl-ssh-rdp-open-to-world' });
});

t.test('aws_network_acl_rule: an ingress rule moved onto 22 is critical; an egress change high; a deletion found', async (t) => {
  const moved = await driftOf(changed(state, 'aws_network_acl_rule.https_in', (a) => ({ ...a, from_port: 20, to_port: 25 })), 'aws_network_acl_rule.https_in');
  t.match(moved.drift, { severity: 'critical', ruleId: 'nacl-rule-ssh-rdp-open-to-world', diff: [{ attribute: 'from_port', after: 20 }, { attribute: 'to_port', after: 25 }] });
  t.notOk(moved.all.some((d) => d.resourceAddress === 'aws_network_acl.edge'), 'the ACL leaves its rule resources\' entries to them');
  const denied = await driftOf(changed(state, 'aws_network_acl_rule.all_out', (a) => ({ ...a, rule_action: 'deny' })), 'aws_network_acl_rule.all_out');
  t.match(denied.drift, { severity: 'high', ruleId: 'nacl-rule-changed', diff: [{ attribute: 'rule_action', before: 'allow', after: 'deny' }] });
  const gone = await driftOf(changed(state, 'aws_network_acl_rule.https_in', null), 'aws_network_acl_rule.https_in');
  t.match(gone.drift, { changeType: 'deleted', severity: 'high' });
});

t.test('associations: subnet moved to another ACL, main route table replaced, EIP moved, endpoint route removed', async (t) => {
  const acl = await driftOf(changed(state, 'aws_network_acl_association.edge_a', (a) => ({ ...a, id: 'aclassoc-0new', network_acl_id: 'acl-0f1e2d3c4b5a69788' })),
    'aws_network_acl_association.edge_a');
  t.match(acl.drift, { severity: 'high', diff: [{ attribute: 'network_acl_id', after: 'acl-0f1e2d3c4b5a69788' }] });
  const main = await driftOf(changed(state, 'aws_main_route_table_association.main', (a) => ({ ...a, route_table_id: 'rtb-0priv00000000001' })), 'aws_main_route_table_association.main');
  t.match(main.drift, { severity: 'high', ruleId: 'network-association-changed', diff: [{ attribute: 'route_table_id', after: 'rtb-0priv00000000001' }] });
  const eip = await driftOf(changed(state, 'aws_eip_association.bastion', (a) => ({ ...a, instance_id: 'i-0other' })), 'aws_eip_association.bastion');
  t.match(eip.drift, { severity: 'high', diff: [{ attribute: 'instance_id', after: 'i-0other' }] });
  const cloud = changed(changed(state, 'aws_vpc_endpoint_route_table_association.s3_private', null), 'aws_vpc_endpoint.s3',
    (a) => ({ ...a, route_table_ids: ['rtb-0main00000000001'] }));
  const { drifts } = await driftsAgainst(cloud, state);
  t.match(drifts.find((d) => d.resourceAddress === 'aws_vpc_endpoint_route_table_association.s3_private'), { changeType: 'deleted' });
  t.notOk(drifts.some((d) => d.resourceAddress === 'aws_vpc_endpoint.s3'), 'the route its association manages is reported there, once');
  const extra = await driftOf(changed(state, 'aws_vpc_endpoint.s3', (a) => ({ ...a, route_table_ids: [...(a.route_table_ids as string[]), 'rtb-0other'] })), 'aws_vpc_endpoint.s3');
  t.match(extra.drift, { severity: 'high', ruleId: 'vpc-endpoint-policy-changed', diff: [{ attribute: 'route_table_ids' }] }, 'a route table added out of band is on the endpoint');
});

t.test('VPC endpoint policy changed is high; the endpoint deleted is found', async (t) => {
  const policy = JSON.stringify({ Version: '2012-10-17', Statement: [{ Effect: 'Allow', Principal: '*', Action: 's3:GetObject', Resource: 'arn:aws:s3:::x/*' }] });
  const p = await driftOf(changed(state, 'aws_vpc_endpoint.s3', (a) => ({ ...a, policy })), 'aws_vpc_endpoint.s3');
  t.match(p.drift, { severity: 'high', ruleId: 'vpc-endpoint-policy-changed', diff: [{ attribute: 'policy' }] });
  const gone = await driftOf(changed(state, 'aws_vpc_endpoint.s3', null), 'aws_vpc_endpoint.s3');
  t.match(gone.drift, { changeType: 'deleted' });
});

t.test('the SSH/RDP rule reads port ranges, protocols and both address families', async (t) => {
  const acl = (before: unknown[], after: unknown[]) => classify({ resourceType: 'aws_network_acl', changeType: 'changed', diff: [{ attribute: 'ingress', before, after }] }, {}, SEVERITY_RULES);
  const e = (o: Record<string, unknown>) => entry({ rule_no: 1, protocol: 'tcp', from_port: 0, to_port: 0, ...o });
  t.equal(acl([], [e({ cidr_block: '0.0.0.0/0', from_port: 3000, to_port: 4000 })]).severity, 'critical', '3389 inside a range');
  t.equal(acl([], [e({ ipv6_cidr_block: '::/0', protocol: 'all' })]).severity, 'critical', 'all protocols from ::/0');
  t.equal(acl([], [e({ cidr_block: '0.0.0.0/0', protocol: 'udp', from_port: 22, to_port: 22 })]).severity, 'critical', 'udp 22 too');
  t.equal(acl([], [e({ cidr_block: '0.0.0.0/0', action: 'deny', protocol: '-1' })]).severity, 'high', 'a deny entry opens nothing');
  t.equal(acl([], [e({ cidr_block: '10.0.0.0/8', from_port: 22, to_port: 22 })]).severity, 'high', 'a private range is not the world');
  t.equal(acl([], [e({ cidr_block: '0.0.0.0/0', protocol: 'icmp' })]).severity, 'high', 'ICMP has no ports');
  const open = [e({ cidr_block: '0.0.0.0/0', from_port: 22, to_port: 22 })];
  t.equal(acl(open, [...open, e({ rule_no: 2, cidr_block: '10.0.0.0/8' })]).severity, 'high', 'already open before: not newly opened');
  const rule = (state: Record<string, unknown>, diff: { attribute: string; before: unknown; after: unknown }[]) =>
    classify({ resourceType: 'aws_network_acl_rule', changeType: 'changed', diff }, state, SEVERITY_RULES);
  const base = { egress: false, rule_action: 'allow', protocol: 'tcp', cidr_block: '10.0.0.0/8', from_port: 22, to_port: 22 };
  t.equal(rule(base, [{ attribute: 'cidr_block', before: '10.0.0.0/8', after: '0.0.0.0/0' }]).ruleId, 'nacl-rule-ssh-rdp-open-to-world');
  t.equal(rule({ ...base, egress: true }, [{ attribute: 'cidr_block', before: '10.0.0.0/8', after: '0.0.0.0/0' }]).ruleId, 'nacl-rule-changed', 'egress rules are not');
  t.equal(rule({ ...base, cidr_block: '0.0.0.0/0', rule_action: 'deny' }, [{ attribute: 'rule_action', before: 'deny', after: 'allow' }]).severity, 'critical', 'a deny turned allow');
});

t.test('parent copies the provider writes before their standalone resources apply are not drift', async (t) => {
  // Right after an apply: the endpoint's route_table_ids and the EIP's instance predate their associations.
  const eip = { address: 'aws_eip.bastion', type: 'aws_eip', name: 'bastion', attributes: {
    id: 'eipalloc-0bastion000000001', allocation_id: 'eipalloc-0bastion000000001', public_ip: '34.240.1.10', domain: 'vpc', instance: '', network_interface: '', association_id: '', private_ip: '', tags: {} } };
  const stale = changed([...state, eip], 'aws_vpc_endpoint.s3', (a) => ({ ...a, route_table_ids: ['rtb-0main00000000001'] }));
  const { drifts, compared } = await driftsAgainst([...state, eip], stale);
  t.same(drifts, [], 'the associations compare their own parts');
  t.equal(compared, 11);
  const alone = await driftsAgainst([...state, eip], stale.filter((i) => i.type !== 'aws_vpc_endpoint_route_table_association' && i.type !== 'aws_eip_association'));
  t.same(alone.drifts.map((d) => d.resourceAddress).sort(), ['aws_eip.bastion', 'aws_vpc_endpoint.s3'], 'without them in the state, the same differences are drift');
});
