// tap `after` (run by scripts/check-indexes.ts): reads the answers every test app logged with a
// status their operation does not document (core/status-log.ts) and fails naming each
// (operation, status), with the error codes seen: declare them in the route's `raises`
// (core/manifest.ts), or fix the handler that answers what it should not.
import { join } from 'node:path';
import { readStatusLog } from '../core/status-log.ts';

export const STATUS_LOG_DIR = (root: string) => join(root, '.data', 'status-log');

/** Prints the outcome; false when some operation answered a status it does not document. */
export function checkStatuses(root: string): boolean {
  const found = readStatusLog(STATUS_LOG_DIR(root));
  if (!found.length) {
    console.log('status check: every answer of every operation has a status its OpenAPI entry documents');
    return true;
  }
  console.error(`status check: ${found.length} (operation, status) pair(s) the OpenAPI document does not list:`);
  for (const f of found) console.error(`  ${f.operationId} ${f.status}${f.codes.length ? ` (${f.codes.join(', ')})` : ''}: ${f.count} answer(s)`);
  return false;
}

if (import.meta.main) process.exit(checkStatuses(join(import.meta.dirname, '..')) ? 0 : 1);
