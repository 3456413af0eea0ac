// google_cloud_run_v2_job against the fake Cloud Run v2 API, on a real corpus state
// (xaviercallens-mirror-map-sieve-gcp, MIT): read back is no drift; another image or service
// account is high; a retry count is medium; gone is deleted.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { readStateDocument } from '../../../runner-agent/src/engine/state-v4.ts';
import { compareAgainst } from './harness.ts';
import { swap } from './google-lb-fixtures.ts';

const file = 'xaviercallens-mirror-map-sieve-gcp.tfstate';
const ALL = readStateDocument(readFileSync(path.join(import.meta.dirname, '..', 'corpus-google', file), 'utf8'), file).instances;
const JOBS = ALL.filter((i) => i.type === 'google_cloud_run_v2_job');
const JOB = JOBS[0];
const task = (patch: Record<string, unknown>) => {
  const t0 = (JOB.attributes.template as any[])[0];
  const k0 = t0.template[0];
  return [{ ...t0, template: [{ ...k0, ...patch }] }];
};

t.test('the real jobs read back are no drift', async (t) => {
  t.ok(JOBS.length >= 1, `${JOBS.length} jobs in the state`);
  const { drifts, compared } = await compareAgainst('google', JOBS);
  t.equal(compared, JOBS.length);
  t.same(drifts, []);
});

t.test('a live change is a drift with its rule', async (t) => {
  const k0 = (JOB.attributes.template as any[])[0].template[0];
  const rows: [string, typeof JOBS, string, string, string][] = [
    ['another image', swap(JOBS, JOB.address, { template: task({ containers: [{ ...k0.containers[0], image: 'docker.io/mallory/job:latest' }] }) }),
      'template.0.template.0.containers.0.image', 'gcp-cloud-run-job-code-or-identity-changed', 'high'],
    ['another service account', swap(JOBS, JOB.address, { template: task({ service_account: 'other@example.iam.gserviceaccount.com' }) }),
      'template.0.template.0.service_account', 'gcp-cloud-run-job-code-or-identity-changed', 'high'],
    ['retries', swap(JOBS, JOB.address, { template: task({ max_retries: 3 }) }), 'template.0.template.0.max_retries', 'changed', 'medium'],
  ];
  for (const [what, live, attribute, ruleId, severity] of rows) {
    const { drifts } = await compareAgainst('google', JOBS, live);
    t.equal(drifts.length, 1, `${what}: one drift`);
    t.equal(drifts[0]?.diff.map((e) => e.attribute).join(','), attribute, `${what}: ${attribute}`);
    t.equal(drifts[0]?.ruleId, ruleId, `${what}: ${ruleId}`);
    t.equal(drifts[0]?.severity, severity, `${what}: ${severity}`);
  }
});

t.test('gone is deleted', async (t) => {
  const { drifts } = await compareAgainst('google', JOBS, []);
  t.same(drifts.map((d) => d.changeType), JOBS.map(() => 'deleted'));
});
