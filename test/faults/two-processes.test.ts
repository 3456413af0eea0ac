// Outgrowing one machine: two service processes (each with its job loop) on one database and
// one Redis, requests spread across both (docs/faults.md):
//   - a logout through one process is refused by the other at once;
//   - a plan change made elsewhere (as `npm run ops -- set-plan` does) is enforced by both at once;
//   - runner claims through both never hand one scan to two runners;
//   - a scheduled tick (an Agenda job both processes poll) makes one scan, not two.
import t from 'tap';
import { changePlan } from '../../core/tenancy/plan-change.ts';
import { controlApp, http, startService, until } from '../e2e/lib.ts';

t.test('two processes on one database and one Redis', async (t) => {
  const control = await controlApp(t);
  const env = { E2E_DB: control.db, E2E_PREFIX: control.prefix, EXECUTOR_CONCURRENCY: '1' };
  const [a, b] = await Promise.all([startService(t, env), startService(t, env)]);
  t.teardown(async () => { for (const p of [a, b]) { p.child.kill('SIGTERM'); await p.exited; } });
  const both = [a.url, b.url];

  const owner = (await http(a.url, 'POST', '/api/auth/register', undefined, { email: `two-${Date.now()}@example.com`, password: 'correct horse battery' })).body;
  const orgId = (await http(b.url, 'GET', '/api/auth/me', owner.token)).body.defaultOrgId as string;

  t.test('a plan change is enforced by both processes at once', async (t) => {
    const cfg = { branch: 'main', provider: 'cloud_a', runnerLabels: ['two'], repositoryUrl: 'https://git.example.com/acme/infra.git' };
    t.equal((await http(a.url, 'POST', '/api/repo-configs', owner.token, { ...cfg, repositoryName: 'acme/one' })).status, 201, 'Free: the first config');
    const refused = await http(b.url, 'POST', '/api/repo-configs', owner.token, { ...cfg, repositoryName: 'acme/two' });
    t.equal(refused.status, 403, 'Free: a second one is refused by the other process');
    // B has just read the organization (its cache is warm); the change is made by a third app.
    await changePlan(control.ctx, orgId, 'team', { cause: 'ops.set-plan', route: 'test' });
    const allowed = await http(b.url, 'POST', '/api/repo-configs', owner.token, { ...cfg, repositoryName: 'acme/two' });
    t.equal(allowed.status, 201, 'Team: the other process allows it at once');
    await changePlan(control.ctx, orgId, 'free', { cause: 'ops.set-plan', route: 'test' });
    t.equal((await http(a.url, 'POST', '/api/repo-configs', owner.token, { ...cfg, repositoryName: 'acme/three' })).status, 403, 'back on Free: refused at once');
    await changePlan(control.ctx, orgId, 'team', { cause: 'ops.set-plan', route: 'test' });
  });

  t.test('a logout through one process is enforced by the other at once', async (t) => {
    const login = (await http(a.url, 'POST', '/api/auth/login', undefined, { email: owner.user.email, password: 'correct horse battery' })).body;
    t.equal((await http(b.url, 'GET', '/api/auth/me', login.token)).status, 200, 'B accepts the session (and caches it)');
    t.equal((await http(a.url, 'POST', '/api/auth/logout', login.token, {})).status, 200, 'logout through A');
    t.equal((await http(b.url, 'GET', '/api/auth/me', login.token)).status, 401, 'B refuses the token at once');
    t.equal((await http(a.url, 'GET', '/api/auth/me', login.token)).status, 401, 'and so does A');
  });

  t.test('runner claims through both processes never hand one scan to two runners', async (t) => {
    const configs = (await http(a.url, 'GET', '/api/repo-configs', owner.token)).body.data as { _id: string }[];
    const runners: string[] = [];
    for (let i = 0; i < 6; i++) runners.push((await http(both[i % 2], 'POST', '/api/runners', owner.token, { name: `r${i}`, labels: ['two'] })).body.data.token);
    const scans: string[] = [];
    for (let i = 0; i < 8; i++) {
      const s = await http(both[i % 2], 'POST', `/api/scans/trigger/${configs[i % configs.length]._id}`, owner.token);
      t.equal(s.status, 201);
      scans.push(s.body.data._id);
    }
    const holders = new Map<string, Set<number>>();
    const statuses = new Set<string>();
    const poll = async (r: number, via: string) => {
      const res = await fetch(`${via}/api/runners/jobs`, { method: 'POST', headers: { 'x-runner-token': runners[r], 'content-type': 'application/json' }, body: '{}' });
      const body = await res.json();
      if (res.status !== 200) statuses.add(`${res.status} ${JSON.stringify(body).slice(0, 200)}`);
      const job = res.status === 200 ? body.data.job : null;
      if (job) holders.set(job._id, (holders.get(job._id) ?? new Set()).add(r));
      return job as { _id: string } | null;
    };
    // Rounds: every runner polls through both processes at once; each then finishes what it got.
    for (let round = 0; round < 4; round++) {
      const got = await Promise.all(runners.flatMap((_, r) => both.map((via) => poll(r, via).then((job) => ({ r, via, job })))));
      const finished = new Set<string>();
      for (const { r, via, job } of got) {
        if (!job || finished.has(`${r}:${job._id}`)) continue;
        finished.add(`${r}:${job._id}`);
        await fetch(`${via}/api/runners/jobs/status`, { method: 'POST', headers: { 'x-runner-token': runners[r], 'content-type': 'application/json' }, body: JSON.stringify({ jobId: job._id, status: 'completed', result: { drifts: [] } }) });
      }
    }
    const doubles = [...holders.entries()].filter(([, rs]) => rs.size > 1).map(([id]) => id);
    t.same(doubles, [], 'no scan was handed to two runners');
    t.equal(holders.size, scans.length, `every scan was claimed (${holders.size} of ${scans.length})`, { refused: [...statuses] });
  });

  t.test('a scheduled tick makes one scan, with both job loops running', async (t) => {
    const cfg = await http(a.url, 'POST', '/api/repo-configs', owner.token, { repositoryName: 'acme/scheduled', branch: 'main', provider: 'cloud_a', runnerLabels: ['none'], scheduleCron: '* * * * *' });
    t.equal(cfg.status, 201);
    const scansOf = async () => ((await http(b.url, 'GET', `/api/scans/repository/${cfg.body.data._id}?limit=100`, owner.token)).body.data as { triggeredBy: string; createdAt: string }[])
      .filter((s) => s.triggeredBy === 'schedule');
    // The tick comes now rather than at the next minute: the config's due minute is moved to
    // this one, as time passing would; both processes' due-scan loops then find it due at once.
    const moved = await control.ctx.db.db.collection('repo_configs').updateOne(
      { _id: cfg.body.data._id }, { $set: { dueMinute: Math.floor(Date.now() / 60_000) } });
    t.equal(moved.matchedCount, 1, 'the schedule has its due minute');
    await until('a scheduled scan', async () => (await scansOf()).length > 0, 60_000, 500);
    // Both loops sweep every 200 ms: a second scan of the same tick would be there by now.
    await new Promise((r) => setTimeout(r, 5000));
    const byMinute = new Map<string, number>();
    for (const s of await scansOf()) byMinute.set(s.createdAt.slice(0, 16), (byMinute.get(s.createdAt.slice(0, 16)) ?? 0) + 1);
    t.ok([...byMinute.values()].every((n) => n === 1), `one scan per tick (${JSON.stringify(Object.fromEntries(byMinute))})`);
  });
});
