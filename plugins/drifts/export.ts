// The CSV export: a database cursor piped through csv-stringify into the response, so
// memory stays flat whatever the number of drifts (bench: 10,000 vs 100,000); on the embedded
// FerretDB the cursor is PostgreSQL's (store.ts exportRows), so the first rows leave at once.
import { pipeline, Readable } from 'node:stream';
import { stringify } from 'csv-stringify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { driftSort, type DriftFilter } from './drift-filter.ts';
import type { DriftStore } from './store.ts';
import type { Drift } from './types.ts';

export const CSV_COLUMNS = [
  'id', 'resourceType', 'resourceAddress', 'severity', 'status', 'changeType', 'repositoryName', 'repositoryConfig',
  'scan', 'detectedAt', 'lastSeenAt', 'resolvedAt', 'resolvedBy', 'rule_id', 'resource_id', 'location', 'account', 'declared_in',
  'cause_actor', 'cause_event', 'cause_time', 'suppressed',
] as const;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : '');
export const csvRow = (d: Drift) => [
  d._id, d.resourceType, d.resourceAddress, d.severity, d.status, d.changeType, d.repositoryName, d.repositoryConfig,
  d.scan, iso(d.detectedAt), iso(d.lastSeenAt), iso(d.resolvedAt), d.resolvedBy ?? '',
  d.ruleId ?? '', d.resourceId ?? '', d.location ?? '', d.account ?? '', d.declaredIn ? `${d.declaredIn.file}:${d.declaredIn.line}` : '',
  d.cause?.actor ?? '', d.cause?.eventName ?? '', iso(d.cause?.eventTime), d.suppressed ? 'true' : 'false',
];

/** Spreadsheets run cells that start with these as formulas (CSV injection): prefix a quote. */
const neutralize = (v: string) => (/^[=+\-@\t\r]/.test(v) ? `'${v}` : v);

export function streamCsv(req: FastifyRequest, reply: FastifyReply, store: DriftStore, orgId: string, filter: DriftFilter, sort?: string) {
  const source = Readable.from((async function* rows() {
    for await (const d of store.exportRows(orgId, filter, driftSort(sort))) yield csvRow(d);
  })());
  const csv = stringify({ header: true, columns: [...CSV_COLUMNS], cast: { string: neutralize } });
  pipeline(source, csv, (err) => {
    if (err) req.log.error({ err }, 'drift export stream failed');
  });
  const day = new Date().toISOString().slice(0, 10);
  return reply
    .type('text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="drifts-${day}.csv"`)
    .header('cache-control', 'no-store')
    .send(csv);
}
