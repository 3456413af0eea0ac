// Issue 33's Google false drifts, replayed on the written state that holds each shape
// (corpus-google/written-google-false-drifts.tfstate): none is reported, and each normalisation
// still lets a real change through (a new grant, a changed env value, a schema column, automatic
// replication moved to user-managed, auto-repair turned on, intranode visibility turned on).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { compareAttributes } from '../../../runner-agent/src/engine/diff.ts';
import { buildIgnoreRules } from '../../../runner-agent/src/engine/ignore.ts';
import { replayState } from '../../../runner-agent/src/engine/replay.ts';
import { hashSensitive } from '../../../runner-agent/src/engine/sensitive.ts';
import { readStateDocument } from '../../../runner-agent/src/engine/state-v4.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { changed, compareAgainst } from './harness.ts';

const FILE = path.join(import.meta.dirname, '..', 'corpus-google', 'written-google-false-drifts.tfstate');
const TEXT = readFileSync(FILE, 'utf8');
const STATE: StateInstance[] = readStateDocument(TEXT, FILE).instances;
const by = (type: string, name: string) => STATE.find((i) => i.type === type && i.name === name)!;
const swap = (type: string, name: string, attrs: Record<string, unknown>) => STATE.map((i) => (i.type === type && i.name === name ? changed(i, attrs) : i));

t.test('the written state of the six false-drift shapes replays with no drift', async (t) => {
  const r = await replayState(TEXT, FILE);
  t.equal(r.compared, STATE.length);
  t.same(r.drifts.map((d) => `${d.resourceAddress} ${JSON.stringify(d.attributes)}`), []);
});

t.test('each normalisation still reports a real change', async (t) => {
  const run = by('google_cloud_run_service', 'ingest_api').attributes as any;
  const env = run.template[0].spec[0].containers[0].env;
  const withEnv = (e: unknown[]) => ({ template: [{ ...run.template[0], spec: [{ ...run.template[0].spec[0], containers: [{ ...run.template[0].spec[0].containers[0], env: e }] }] }] });
  const rows: [string, StateInstance[], string, string][] = [
    ['intranode visibility turned on', swap('google_container_cluster', 'data', { enable_intranode_visibility: true }), 'google_container_cluster.data', 'enable_intranode_visibility'],
    ['auto-repair turned on', swap('google_container_node_pool', 'batch', { management: [{ auto_repair: true, auto_upgrade: false }] }), 'google_container_node_pool.batch', 'management'],
    ['automatic replication moved to user-managed', swap('google_secret_manager_secret', 'warehouse_dsn', { replication: [{ user_managed: [{ replicas: [{ location: 'europe-west1', customer_managed_encryption: [] }] }] }] }),
      'google_secret_manager_secret.warehouse_dsn', 'replication.0.automatic,replication.0.user_managed'],
    ['schema column added to a table without one', swap('google_bigquery_table', 'events_ext', { schema: '[{"name":"x","type":"STRING"}]' }), 'google_bigquery_table.events_ext', 'schema'],
    ['schema column type changed', swap('google_bigquery_table', 'events', { schema: String(by('google_bigquery_table', 'events').attributes.schema).replace('"TIMESTAMP"', '"STRING"') }), 'google_bigquery_table.events', 'schema'],
    ['env value changed (sensitive set)', swap('google_cloud_run_service', 'ingest_api', withEnv([{ ...env[0], value: 'rotated' }, env[1], env[2]])), 'google_cloud_run_service.ingest_api', 'template.0.spec.0.containers.0.env'],
  ];
  for (const [what, live, address, attrs] of rows) {
    const { drifts } = await compareAgainst('google', STATE, live);
    t.same(drifts.map((d) => d.resourceAddress), [address], what);
    t.same(drifts[0]?.diff.map((d) => d.attribute), attrs.split(','), `${what}: at ${attrs}`);
  }
  // A member the binding does not list, granted by no sibling member instance: the binding drifts (sensitive: redacted).
  const live = swap('google_pubsub_topic_iam_binding', 'publishers', { members: [...(by('google_pubsub_topic_iam_binding', 'publishers').attributes.members as string[]), 'allUsers'] });
  const { drifts } = await compareAgainst('google', STATE, live);
  t.match(drifts, [{ resourceAddress: 'google_pubsub_topic_iam_binding.publishers', diff: [{ attribute: 'members', before: '(sensitive value changed)' }] }]);
  // The sibling member's grant gone: the member is deleted, the binding is not reported.
  const gone = await compareAgainst('google', STATE, STATE.filter((i) => i.type !== 'google_pubsub_topic_iam_member'));
  t.same(gone.drifts.map((d) => `${d.resourceAddress} ${d.changeType}`), ['google_pubsub_topic_iam_member.pubsub_agent deleted']);
});

t.test('JSON text, unset booleans and sensitive sets compare by meaning', async (t) => {
  const none = buildIgnoreRules([], {});
  const cmp = (a: Record<string, unknown>, b: Record<string, unknown>, spec = {}) => compareAttributes('x', 'x.y', a, b, spec, none).diff.map((d) => d.attribute);
  t.same(cmp({ doc: '{"a": 1, "b": [1, 2]}' }, { doc: '{"b":[1,2],"a":1}' }), [], 'JSON text: key order and spacing');
  t.same(cmp({ doc: '{"a": 1}' }, { doc: '{"a": 2}' }), ['doc'], 'JSON text: a changed value');
  t.same(cmp({ on: null, block: [] }, { on: false, block: [{ x: false, y: '' }] }), [], 'unset boolean, all-off block');
  t.same(cmp({ on: null }, { on: true }), ['on'], 'unset boolean turned on');
  const spec = { sets: { env: (e: any) => [`${e.name}=${e.value ?? ''}`] } };
  const a = hashSensitive({ env: [{ name: 'A', value: '1', from: [] }, { name: 'B', value: '2' }] }, [['env']], spec);
  const b = hashSensitive({ env: [{ name: 'B', value: '2' }, { name: 'A', value: '1' }] }, [['env']], spec);
  t.equal(a.env, b.env, 'a sensitive set hashes its element keys, in no order');
  t.not(a.env, hashSensitive({ env: [{ name: 'A', value: '9' }, { name: 'B', value: '2' }] }, [['env']], spec).env);
  t.equal(hashSensitive({ p: { x: [], y: 'v' } }, [['p']]).p, hashSensitive({ p: { y: 'v' } }, [['p']]).p, 'empty members do not change the hash');
});
