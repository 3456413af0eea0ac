// The Azure and Google Cloud state corpora (test/engine/corpus-azurerm, corpus-google; README in
// each): real public states for the readers of issue 25. Each folder is what its README says:
// every state is listed with its source and licence, parses with the engine's parser, holds
// managed instances of the folder's provider, and the folder stays small.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { readStateDocument } from '../../runner-agent/src/engine/state-v4.ts';
import { census, cloudOf, stateFiles } from '../../scripts/corpus-census.ts';

const FOLDERS = { azurerm: 'corpus-azurerm', google: 'corpus-google' } as const;
const MAX_BYTES = 3 << 20;

function folderBytes(dir: string): number {
  return readdirSync(dir).reduce((n, f) => {
    const p = path.join(dir, f);
    const s = statSync(p);
    return n + (s.isDirectory() ? folderBytes(p) : s.size);
  }, 0);
}

for (const [provider, folder] of Object.entries(FOLDERS)) {
  const dir = path.join(import.meta.dirname, folder);
  const states = readdirSync(dir).filter((f) => f.endsWith('.tfstate')).sort();

  t.test(`${folder}: every state is listed in the README, parses, and holds ${provider} instances`, async (t) => {
    t.ok(states.length >= 25, `${states.length} states`);
    const readme = readFileSync(path.join(dir, 'README.md'), 'utf8');
    for (const file of states) {
      t.ok(readme.includes(`\`${file}\``), `${file} is listed in README.md`);
      const doc = readStateDocument(readFileSync(path.join(dir, file), 'utf8'), file);
      const own = doc.instances.filter((i) => cloudOf(i.provider?.type) === provider);
      t.ok(own.length >= 1, `${file}: ${own.length} ${provider} managed instances`);
    }
  });

  t.test(`${folder}: the README lists no state that is not here`, async (t) => {
    const listed = [...readFileSync(path.join(dir, 'README.md'), 'utf8').matchAll(/`([\w.-]+\.tfstate)`/g)].map((m) => m[1]);
    t.same([...new Set(listed)].filter((f) => !states.includes(f)), [], 'every listed state exists');
  });

  t.test(`${folder}: under 3 MiB in all`, async (t) => {
    const bytes = folderBytes(dir);
    t.ok(bytes < MAX_BYTES, `${Math.round(bytes / 1024)} KiB`);
  });
}

t.test('the census counts each provider from the instance provider type (google-beta with google)', async (t) => {
  t.equal(cloudOf('google-beta'), 'google');
  t.equal(cloudOf('azurerm'), 'azurerm');
  t.equal(cloudOf('aws'), undefined);
  const dirs = Object.values(FOLDERS).map((f) => path.join(import.meta.dirname, f));
  const result = census(stateFiles(dirs));
  for (const p of ['azurerm', 'google'] as const) {
    const c = result.providers[p];
    t.equal(c.types.reduce((n, x) => n + x.count, 0), c.instances, `${p}: the types add up to the instances`);
    t.ok(c.types.every((x, i) => i === 0 || c.types[i - 1].count >= x.count), `${p}: types sorted by count`);
  }
});
