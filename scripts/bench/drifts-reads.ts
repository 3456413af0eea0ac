// The reads `npm run bench -- drifts` times (drifts.ts): through the service and the same read
// through the raw driver, the export's whole stream and its first row, and a process's peak memory.
import { readFileSync } from 'node:fs';
import type { Db } from 'mongodb';
import { stringify } from 'csv-stringify';

export interface Ctx { url: string; token: string; orgId: string; configs: string[]; scanId: string; db: Db }
const ms = async (fn: () => Promise<unknown>) => { const t0 = performance.now(); await fn(); return performance.now() - t0; };

/** Peak resident memory (MiB) of a process while fn runs, sampled every 20 ms from /proc. */
export async function peakRss(pid: number, fn: () => Promise<unknown>) {
  const rss = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
  const base = rss();
  let peak = base;
  const timer = setInterval(() => { peak = Math.max(peak, rss()); }, 20);
  const t = await ms(fn);
  clearInterval(timer);
  return { base, peak: Math.max(peak, rss()), ms: t };
}

export async function exportViaService(c: Ctx) {
  const res = await fetch(`${c.url}/api/drifts/export`, { headers: { authorization: `Bearer ${c.token}` } });
  if (res.status !== 200) throw new Error(`export -> ${res.status}`);
  let lines = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) for (const b of chunk) if (b === 10) lines++;
  return lines;
}
/** Time to the first CSV row (header and one drift) through the service, and to the first document of the raw cursor. */
export async function firstBytes(c: Ctx) {
  const t0 = performance.now();
  const res = await fetch(`${c.url}/api/drifts/export`, { headers: { authorization: `Bearer ${c.token}` } });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let text = '';
  while (text.split('\n').length < 3) {
    const { value, done } = await reader.read();
    if (done) break;
    text += Buffer.from(value).toString();
  }
  const svc = performance.now() - t0;
  await reader.cancel();
  const t1 = performance.now();
  const cursor = c.db.collection('drifts').find({ orgId: c.orgId }).sort({ detectedAt: -1, _id: -1 }).batchSize(100);
  await cursor.next();
  const raw = performance.now() - t1;
  await cursor.close();
  return { svc, raw };
}
export async function exportRaw(c: Ctx) {
  const csv = stringify({ header: true, columns: ['id', 'resourceType', 'resourceAddress', 'severity', 'status', 'detectedAt'] });
  let lines = 0;
  csv.on('data', (chunk: Buffer) => { for (const b of chunk) if (b === 10) lines++; });
  const done = new Promise((resolve) => csv.on('end', resolve));
  for await (const d of c.db.collection('drifts').find({ orgId: c.orgId }).sort({ detectedAt: -1, _id: -1 }).batchSize(1000)) {
    if (!csv.write([d._id, d.resourceType, d.resourceAddress, d.severity, d.status, d.detectedAt.toISOString()])) await new Promise((r) => csv.once('drain', r));
  }
  csv.end();
  await done;
  return lines;
}

export const QUERY = '/api/drifts/query?status=detected,acknowledged&severity=critical,high&sort=-detectedAt&limit=20';
export const LIST = '/api/drifts?limit=20';
export const rawList = (c: Ctx) => {
  const filter = { orgId: c.orgId, suppressed: { $ne: true } };
  return Promise.all([c.db.collection('drifts').find(filter).sort({ detectedAt: -1, _id: -1 }).limit(20).toArray(), c.db.collection('drifts').countDocuments(filter)]);
};
export const rawQuery = (c: Ctx) => {
  const filter = { orgId: c.orgId, status: { $in: ['detected', 'acknowledged'] }, severityRank: { $in: [4, 3] } };
  return Promise.all([
    c.db.collection('drifts').find(filter).sort({ detectedAt: -1, _id: -1 }).limit(20).toArray(),
    c.db.collection('drifts').countDocuments(filter),
  ]);
};
export const rawAggregations = (c: Ctx) => {
  const col = c.db.collection('drifts');
  const since = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
  return Promise.all([
    col.aggregate([{ $match: { orgId: c.orgId } }, { $group: { _id: { severity: '$severity', status: '$status', resourceType: '$resourceType' }, n: { $sum: 1 } } }]).toArray(),
    col.aggregate([{ $match: { orgId: c.orgId, day: { $gte: since } } }, { $group: { _id: '$day', n: { $sum: 1 } } }]).toArray(),
    col.aggregate([{ $match: { orgId: c.orgId, resolvedDay: { $gte: since } } }, { $group: { _id: '$resolvedDay', n: { $sum: 1 } } }]).toArray(),
  ]);
};

