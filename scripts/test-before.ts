// tap `before`: start from an empty query log, so the index check after the run sees only
// the queries of this run.
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../core/loader.ts';

rmSync(join(ROOT, '.data', 'query-log'), { recursive: true, force: true });
rmSync(join(ROOT, '.data', 'test-outbox'), { recursive: true, force: true });
