// Cloud Discovery's list mode of every Azure and Google reader that has one, on the real corpus
// instances of those types served by the fake: each listed resource carries the id the state holds
// (what the scans' inventory records, so managed and orphan classify alike) and the reader's own
// mapping of its attributes (the same attributes a drift scan compares).
import t from 'tap';
import { azureApi, AZURE_READERS } from '../../../runner-agent/src/engine/cloud/azure/index.ts';
import { googleApi, GOOGLE_READERS } from '../../../runner-agent/src/engine/cloud/google/index.ts';
import { ownProject } from '../../../runner-agent/src/engine/cloud/google/kit.ts';
import { startRestFake, stateWorld } from '../../../runner-agent/src/engine/cloud/rest/fake.ts';
import { readerIdOf } from '../../../runner-agent/src/engine/inventory.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';
import { corpusStates, staticTokens } from './harness.ts';

const clouds = [
  { name: 'azurerm', readers: AZURE_READERS, style: 'arm' as const, api: azureApi, instances: corpusStates('azurerm').flatMap((c) => c.doc.instances),
    account: (i: StateInstance) => /^\/subscriptions\/([^/]+)/i.exec(String(i.attributes.id ?? ''))?.[1], norm: (id: string) => id.toLowerCase() },
  { name: 'google', readers: GOOGLE_READERS, style: 'google' as const, api: googleApi, instances: corpusStates('google').flatMap((c) => c.doc.instances),
    account: (i: StateInstance) => ownProject(i.attributes), norm: (id: string) => id },
];

for (const c of clouds) {
  t.test(`${c.name}: every listing reader lists the corpus instances of its type by their state id`, async (t) => {
    const listing = Object.keys(c.readers).filter((type) => c.readers[type].list);
    t.ok(listing.length >= 6, `${listing.length} types with a list mode`);
    const fake = await startRestFake({ style: c.style, routes: Object.values(c.readers).flatMap((r) => r.fake), world: stateWorld(c.instances), pageSize: 3 });
    const api = c.api(staticTokens, { endpoint: fake.endpoint });
    t.teardown(async () => { await api.destroy(); await fake.close(); });
    let checked = 0;
    for (const type of listing) {
      const mine = c.instances.filter((i) => i.type === type && c.account(i) && readerIdOf(type, i.attributes));
      for (const account of new Set(mine.map((i) => c.account(i)!))) {
        const listed = await c.readers[type].list!(api, account);
        const ids = new Set(listed.map((l) => c.norm(l.id)));
        for (const i of mine.filter((x) => c.account(x) === account)) {
          t.ok(ids.has(c.norm(readerIdOf(type, i.attributes)!)), `${type} ${i.address} listed by its id`);
          checked++;
        }
        t.ok(listed.every((l) => Object.keys(l.attributes).length > 0), `${type} in ${account}: attributes mapped`);
      }
    }
    t.ok(checked >= 10, `${checked} corpus instances found by list mode`);
  });
}
