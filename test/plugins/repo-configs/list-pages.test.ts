// GET /api/repo-configs is paged (docs/repo-configs.md): an organization with more than 1,000
// configs (the old cap) reads every one of them, a page at a time, newest first.
import t from 'tap';
import { world } from '../../fixtures/world.ts';

const MANY = 1_030;

t.test('an organization with more than 1,000 configs reads them all, page by page', async (t) => {
  const w = await world(t);
  const first = (await w.api('POST', '/api/repo-configs', { repositoryName: 'acme/first', branch: 'main', provider: 'cloud_a' })).body.data;
  // The rest written straight to the store (as many creates would), each a copy of the first.
  const col = w.ctx.db.db.collection<{ _id: string; slot: string; repositoryName: string; createdAt: Date; updatedAt: Date }>('repo_configs');
  const template = (await col.findOne({ _id: first._id }))!;
  const base = template.createdAt.getTime();
  await col.insertMany(Array.from({ length: MANY - 1 }, (_, i) => ({
    ...template, _id: `c${String(i).padStart(23, '0')}`, slot: `bulk${i}`, repositoryName: `acme/bulk${i}`,
    createdAt: new Date(base + 1000 + i), updatedAt: new Date(base + 1000 + i),
  })));

  const page1 = await w.api('GET', '/api/repo-configs');
  t.equal(page1.status, 200);
  t.equal(page1.body.data.length, 20, 'a page of 20 by default');
  t.same(page1.body.pagination, { page: 1, limit: 20, total: MANY, pages: Math.ceil(MANY / 20) }, 'and how many there are');
  t.equal(page1.body.data[0].repositoryName, `acme/bulk${MANY - 2}`, 'newest first');

  const seen: string[] = [];
  for (let page = 1; ; page++) {
    const r = await w.api('GET', `/api/repo-configs?page=${page}&limit=100`);
    t.equal(r.status, 200);
    if (!r.body.data.length) break;
    seen.push(...r.body.data.map((c: { _id: string }) => c._id));
    t.equal(r.body.pagination.total, MANY);
  }
  t.equal(seen.length, MANY, `every config read (${seen.length})`);
  t.equal(new Set(seen).size, MANY, 'each once');
  t.equal(seen[MANY - 1], first._id, 'the oldest on the last page');

  for (const bad of ['limit=0', 'limit=101', 'page=0', 'page=x']) {
    const r = await w.api('GET', `/api/repo-configs?${bad}`);
    t.equal(r.status, 400, `${bad}: 400`);
    t.equal(r.body.error.code, 'validation_failed');
  }
});
