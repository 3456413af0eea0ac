// The edge and serverless networking readers (Cloud Armor security policies, serverless network
// endpoint groups, VPC Access connectors) against the fake Google APIs: the written corpus state
// read back is no drift; a live change of each compared attribute is a drift with its rule; gone
// is deleted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { readStateDocument } from '../../../runner-agent/src/engine/state-v4.ts';
import { compareAgainst } from './harness.ts';
import { at, swap } from './google-lb-fixtures.ts';

const file = 'written-google-edge.tfstate';
const EDGE = readStateDocument(readFileSync(path.join(import.meta.dirname, '..', 'corpus-google', file), 'utf8'), file).instances;
const ARMOR = 'google_compute_security_policy.edge';
const rules = at(EDGE, ARMOR).attributes.rule as Record<string, any>[];
const allowAll = { ...rules[0], priority: 500, description: 'temporary', match: [{ ...rules[0].match[0], config: [{ src_ip_ranges: ['*'] }] }] };

t.test('the written state read back is no drift, rules in any order', async (t) => {
  const { drifts, compared } = await compareAgainst('google', EDGE);
  t.equal(compared, EDGE.length);
  t.same(drifts, []);
  const reordered = swap(EDGE, ARMOR, { rule: [...rules].reverse() });
  t.same((await compareAgainst('google', EDGE, reordered)).drifts, [], 'the rules are a set');
});

t.test('a live change of each compared attribute is a drift with its rule', async (t) => {
  const rows: [string, typeof EDGE, string, string, string][] = [
    ['Cloud Armor rule allowing every source added', swap(EDGE, ARMOR, { rule: [...rules, allowAll] }), 'rule', 'gcp-armor-allow-all-added', 'critical'],
    ['Cloud Armor deny rule removed', swap(EDGE, ARMOR, { rule: [rules[0], rules[2]] }), 'rule', 'gcp-armor-rules-changed', 'high'],
    ['Cloud Armor allow-list widened', swap(EDGE, ARMOR, { rule: [{ ...rules[0], match: [{ ...rules[0].match[0], config: [{ src_ip_ranges: ['0.0.0.0/1'] }] }] }, rules[1], rules[2]] }),
      'rule', 'gcp-armor-rules-changed', 'high'],
    ['NEG points at another Cloud Run service', swap(EDGE, 'google_compute_region_network_endpoint_group.api', { cloud_run: [{ service: 'other', tag: '', url_mask: '' }] }),
      'cloud_run.0.service', 'gcp-serverless-neg-retargeted', 'high'],
    ['connector moved to another network', swap(EDGE, 'google_vpc_access_connector.serverless', { network: 'shared-vpc' }), 'network', 'gcp-vpc-connector-network-changed', 'high'],
    ['connector scaled', swap(EDGE, 'google_vpc_access_connector.serverless', { max_instances: 10 }), 'max_instances', 'changed', 'medium'],
  ];
  for (const [what, live, attributes, ruleId, severity] of rows) {
    const { drifts } = await compareAgainst('google', EDGE, live);
    t.equal(drifts.length, 1, `${what}: one drift`);
    t.equal(drifts[0]?.diff.map((e) => e.attribute).join(','), attributes, `${what}: ${attributes}`);
    t.equal(drifts[0]?.ruleId, ruleId, `${what}: ${ruleId}`);
    t.equal(drifts[0]?.severity, severity, `${what}: ${severity}`);
  }
});

t.test('gone is deleted', async (t) => {
  const { drifts } = await compareAgainst('google', EDGE, []);
  t.same(drifts.map((d) => [d.resourceAddress, d.changeType]).sort(), EDGE.map((i) => [i.address, 'deleted']).sort());
});
