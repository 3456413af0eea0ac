// DESIGN.md: on the embedded database findOneAndUpdate is not atomic, so job claims go through
// the exactly-once primitive. 50 runners polling at once over 40 pending scans: every scan is
// claimed exactly once, no runner gets two, ten get nothing.
import t from 'tap';
import { world } from '../../fixtures/world.ts';

t.test('50 runners poll at once for 40 pending scans: each scan claimed exactly once', async (t) => {
  const w = await world(t);
  const config = await w.config('acme/race');
  t.equal((await w.api('PUT', `/api/repo-configs/${config}`, { runnerLabels: ['race'], repositoryUrl: 'https://git.example.com/acme/race.git' })).status, 200);
  const runners: { _id: string; token: string }[] = [];
  for (let i = 0; i < 50; i++) runners.push((await w.api('POST', '/api/runners', { name: `r${i}`, labels: ['race'] })).body.data);
  const scanIds: string[] = [];
  for (let i = 0; i < 40; i += 10) {
    const batch = await Promise.all(Array.from({ length: 10 }, () => w.scans.trigger(w.owner.orgId, config, null)));
    scanIds.push(...batch.map((s) => s._id));
  }

  const poll = () => Promise.all(runners.map(async (r) => {
    const res = await w.app.inject({ method: 'POST', url: '/api/runners/jobs', headers: { 'x-runner-token': r.token }, payload: {} });
    if (res.statusCode !== 200) throw new Error(`poll: ${res.statusCode} ${res.body}`);
    return { runner: r._id, job: res.json().data.job as { _id: string } | null };
  }));
  const started = Date.now();
  const first = await poll();
  const ms = Date.now() - started;
  const claimed = first.filter((p) => p.job).map((p) => p.job!._id);
  t.equal(claimed.length, 40, `40 claims in one round of 50 concurrent polls (${ms} ms)`);
  t.equal(new Set(claimed).size, 40, 'no scan handed to two runners');
  t.same([...claimed].sort(), [...scanIds].sort(), 'every pending scan was claimed');
  t.equal(first.filter((p) => !p.job).length, 10, 'ten runners got nothing');

  const second = await poll();
  const holders = new Map(first.filter((p) => p.job).map((p) => [p.runner, p.job!._id]));
  t.ok(second.every((p) => (p.job?._id ?? null) === (holders.get(p.runner) ?? null)),
    'a second round claims nothing new: each holder is handed its own job again (an agent polls only when idle), the rest get null');
  const jobs = await w.ctx.db.db.collection('runner_jobs').find({ orgId: w.owner.orgId }).toArray();
  t.equal(jobs.length, 40, 'one holder record per scan');
  t.equal(new Set(jobs.map((j) => j.runnerId)).size, 40, 'held by 40 distinct runners');
  const running = await w.ctx.db.db.collection('scans').countDocuments({ orgId: w.owner.orgId, status: 'running' });
  t.equal(running, 40, 'all 40 scans are running');
});
