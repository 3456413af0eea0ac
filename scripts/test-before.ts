// tap `before`: start from an empty query log and status log, so the checks after the run see
// only this run's. It imports nothing of the service: tap collects V8 coverage from this
// process even with coverage disabled, and a partial report of core/ made tap exit 1.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { dropPooledDatabases } from '../test/db-pool.ts';

const dataDir = fileURLToPath(new URL('../.data/', import.meta.url));
rmSync(`${dataDir}query-log`, { recursive: true, force: true });
rmSync(`${dataDir}status-log`, { recursive: true, force: true });
rmSync(`${dataDir}test-outbox`, { recursive: true, force: true });
// The run's start: scripts/test-skips.ts reads only the TAP results written after it.
mkdirSync(dataDir, { recursive: true });
writeFileSync(`${dataDir}test-run-started`, new Date().toISOString());
// Pooled test databases a killed run left behind were made by older code: start from none.
await dropPooledDatabases().catch((e: unknown) => console.error(`test databases not dropped: ${e instanceof Error ? e.message : String(e)}`));
