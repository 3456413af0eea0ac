// tap `after`: drops the run's pooled test databases (test/db-pool.ts), then checks that a
// declared index covers every query the run's apps made (scripts/check-indexes.ts).
import { dropPooledDatabases } from '../test/db-pool.ts';

await dropPooledDatabases().catch((e: unknown) => console.error(`test databases not dropped: ${e instanceof Error ? e.message : String(e)}`));
await import('./check-indexes.ts');
