// tap `after`: reads the query shapes every test app recorded (core/db.ts query log) and
// fails, naming the store and the query, when no declared index covers one; then the status
// check (scripts/check-statuses.ts): an operation answering a status it does not document.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../core/loader.ts';
import type { CollectionSpec } from '../core/db.ts';
import { uncoveredQueries, type QueryShape } from '../core/index-check.ts';
import { checkStatuses } from './check-statuses.ts';

const dir = join(ROOT, '.data', 'query-log');
const specs = new Map<string, CollectionSpec>();
const queries: QueryShape[] = [];
for (const file of existsSync(dir) ? readdirSync(dir) : []) {
  for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
    if (!line) continue;
    const row = JSON.parse(line);
    if (row.spec) specs.set(row.spec.name, row.spec);
    else queries.push(row);
  }
}
const bad = uncoveredQueries(queries, specs);
if (bad.length) {
  console.error(`index check: ${bad.length} query shape(s) not covered by a declared index:`);
  for (const b of bad) console.error(`  ${b.owner} (${b.collection}) ${b.command} filter ${b.filter} sort ${b.sort}`);
} else console.log(`index check: ${queries.length} queries of ${specs.size} collections, every one covered by a declared index`);
const statusesOk = checkStatuses(ROOT);
if (bad.length || !statusesOk) process.exit(1);
