// Images, SSL certificates and managed instance groups against the fake Google APIs, on the
// real driftctl states of the corpus: read back is no drift (named ports in any order, a PEM
// with other surrounding whitespace); a template swapped or a certificate replaced is high;
// gone is deleted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { readStateDocument } from '../../../runner-agent/src/engine/state-v4.ts';
import { FLEET_READERS } from '../../../runner-agent/src/engine/cloud/google/fleet/index.ts';
import { compareAgainst } from './harness.ts';
import { swap } from './google-lb-fixtures.ts';

const load = (name: string) => readStateDocument(readFileSync(path.join(import.meta.dirname, '..', 'corpus-google', `${name}.tfstate`), 'utf8'), name).instances;
const STATE = [
  ...load('driftctl-google_compute_image'), ...load('driftctl-google_compute_ssl_certificate'), ...load('driftctl-google_compute_instance_group_manager'),
].filter((i) => FLEET_READERS[i.type]);
const IGM = STATE.find((i) => i.type === 'google_compute_instance_group_manager')!;
const CERT = STATE.find((i) => i.type === 'google_compute_ssl_certificate')!;
const IMAGE = STATE.find((i) => i.type === 'google_compute_image')!;

t.test('the real states read back are no drift', async (t) => {
  t.same([...new Set(STATE.map((i) => i.type))].sort(), Object.keys(FLEET_READERS).sort(), 'one instance of each type at least');
  const { drifts, compared } = await compareAgainst('google', STATE);
  t.equal(compared, STATE.length);
  t.same(drifts, []);
  const ports = IGM.attributes.named_port as unknown[];
  const live = swap(swap(STATE, IGM.address, { named_port: [...ports, { name: 'metrics', port: 9100 }].reverse() }), CERT.address, { certificate: `${CERT.attributes.certificate}\n` });
  const reordered = swap(STATE, IGM.address, { named_port: [{ name: 'metrics', port: 9100 }, ...ports] });
  t.same((await compareAgainst('google', reordered, live)).drifts, [], 'named ports are a set; a PEM differing in trailing whitespace is the same certificate');
});

t.test('a live change of each compared attribute is a drift with its rule', async (t) => {
  const version = (IGM.attributes.version as Record<string, unknown>[])[0];
  const rows: [string, typeof STATE, string, string, string][] = [
    ['group now creates from another template', swap(STATE, IGM.address, { version: [{ ...version, instance_template: String(version.instance_template).replace(/[^/]+$/, 'mallory') }] }),
      'version.0.instance_template', 'gcp-igm-template-changed', 'high'],
    ['group base name', swap(STATE, IGM.address, { base_instance_name: 'other' }), 'base_instance_name', 'changed', 'medium'],
    ['certificate replaced', swap(STATE, CERT.address, { certificate: '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n' }), 'certificate', 'gcp-ssl-certificate-replaced', 'high'],
    ['image family', swap(STATE, IMAGE.address, { family: 'golden' }), 'family', 'changed', 'medium'],
  ];
  for (const [what, live, attribute, ruleId, severity] of rows) {
    const { drifts } = await compareAgainst('google', STATE, live);
    t.equal(drifts.length, 1, `${what}: one drift`);
    t.equal(drifts[0]?.diff.map((e) => e.attribute).join(','), attribute, `${what}: ${attribute}`);
    t.equal(drifts[0]?.ruleId, ruleId, `${what}: ${ruleId}`);
    t.equal(drifts[0]?.severity, severity, `${what}: ${severity}`);
  }
});

t.test('gone is deleted', async (t) => {
  const { drifts } = await compareAgainst('google', STATE, []);
  t.same(drifts.map((d) => d.changeType), STATE.map(() => 'deleted'));
});
