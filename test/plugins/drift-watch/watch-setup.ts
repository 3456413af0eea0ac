// The shared setup of the Drift Watch route tests (watch.test.ts, watch-runs.test.ts): a world
// with the drift-watch service, the watch.drift_detected events it emitted, and helpers to create
// a watch, run it once with a given scan result, and read its jobs, events, notifications, audit.
import { world } from '../../fixtures/world.ts';
import type { ReportedDrift } from '../../../plugins/scans/schemas.ts';
import type { DomainEvent } from '../../../core/events.ts';

export const HOUR = 3_600_000;

export async function setup(t: Parameters<typeof world>[0]) {
  const w = await world(t);
  const watch = w.services['drift-watch']!;
  const emitted: DomainEvent<'watch.drift_detected'>[] = [];
  w.ctx.bus.on('watch.drift_detected', (e) => { emitted.push(e); });
  const create = async (body: Record<string, unknown>) => {
    const r = await w.api('POST', '/api/drift-watch', body);
    if (r.status !== 201) throw new Error(`watch: ${JSON.stringify(r.body)}`);
    return r.body;
  };
  const jobs = (name: string, watchId: string) => w.ctx.db.db.collection('agenda_jobs').find({ name, 'data.watchId': watchId }).toArray();
  let clock = Date.now();
  /** One run: a tick a day after the last (a new fire time whatever the interval), then the scan's result as an executor reports it. */
  async function run(id: string, result: { drifts: ReportedDrift[] } | { error: string }) {
    clock += 24 * HOUR;
    const out = await watch.tick(w.owner.orgId, id, new Date(clock));
    if (!out.ran || !out.scanId) throw new Error(`no run: ${JSON.stringify(out)}`);
    await w.scans.recordScanResult(w.owner.orgId, out.scanId, { status: 'running' });
    await w.scans.recordScanResult(w.owner.orgId, out.scanId, 'error' in result ? { status: 'failed', error: result.error } : { status: 'completed', drifts: result.drifts });
    return out.scanId;
  }
  const events = async (query = '') => (await w.api('GET', `/api/drift-watch/events${query}`)).body;
  const notifications = async () => (await w.api('GET', '/api/notifications?limit=100')).body.data.filter((n: { type: string }) => n.type === 'drift_watch');
  const audit = async (action: string) => { await w.ctx.audit.flush(); return w.ctx.db.db.collection('audit_logs').find({ orgId: w.owner.orgId, action }).toArray(); };
  return { w, watch, emitted, create, jobs, run, events, notifications, audit };
}
