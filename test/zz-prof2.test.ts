import t from 'tap';
import { world } from '/work/main/test/plugins/drifts/world.ts';
t.test('prof', async (t) => {
  const w = await world(t);
  const id = await w.config('acme/x');
  await w.ctx.db.db.collection('repo_configs').updateOne({ _id: id as never }, { $set: { runnerLabels: ['l'], repositoryUrl: 'https://x/y.git' } });
  const r = (await w.api('POST', '/api/runners', { name: 'a', labels: ['l'] })).body.data;
  const poll = () => w.app.inject({ method: 'POST', url: '/api/runners/jobs', headers: { 'x-runner-token': r.token }, payload: {} });
  await poll();
  for (let i = 0; i < 3; i++) {
    const s = await w.scans.trigger(w.owner.orgId, id, undefined, null);
    await new Promise((r) => setTimeout(r, 300));
    let c0 = w.ctx.db.commandCount(); let t0 = Date.now();
    await poll();
    console.log('empty-or-claim', w.ctx.db.commandCount() - c0, Date.now() - t0);
    c0 = w.ctx.db.commandCount(); t0 = Date.now();
    await w.app.inject({ method: 'POST', url: '/api/runners/jobs/status', headers: { 'x-runner-token': r.token }, payload: { jobId: s._id, status: 'completed', result: { drifts: [] } } });
    console.log('status', w.ctx.db.commandCount() - c0, Date.now() - t0);
    await new Promise((r) => setTimeout(r, 300));
    c0 = w.ctx.db.commandCount(); t0 = Date.now();
    await poll();
    console.log('empty', w.ctx.db.commandCount() - c0, Date.now() - t0);
  }
  t.pass();
});
