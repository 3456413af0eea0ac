// Severity rules of the Compute Engine types (rules.ts explains the conditions), tried before the
// generic labels-only, deleted and changed rules.
import type { SeverityRule } from '../../../rules.ts';
import type { DiffEntry } from '../../../types.ts';

type Attrs = Record<string, any>;
const list = (v: unknown): any[] => (Array.isArray(v) ? v : []);
const strings = (v: unknown): string[] => list(v).filter((x) => typeof x === 'string');

const WORLD = new Set(['0.0.0.0/0', '::/0']);
const ADMIN = [22, 3389];

/** Whether a port list item (`"22"`, `"20-30"`) covers a port; no ports at all means every port. */
function covers(ports: string[], port: number): boolean {
  if (ports.length === 0) return true;
  return ports.some((p) => {
    const [from, to] = String(p).split('-').map((x) => Number(x.trim()));
    return Number.isFinite(from) && port >= from && port <= (Number.isFinite(to) ? to : from);
  });
}

/** Whether a firewall (its attributes) lets the internet in on SSH or RDP. */
export function opensAdminToInternet(f: Attrs): boolean {
  if (String(f.direction ?? 'INGRESS').toUpperCase() !== 'INGRESS' || f.disabled === true) return false;
  if (!strings(f.source_ranges).some((r) => WORLD.has(r.trim()))) return false;
  return list(f.allow).some((r: Attrs) => ['tcp', 'all', '6'].includes(String(r?.protocol ?? '').toLowerCase())
    && ADMIN.some((port) => covers(strings(r.ports), port)));
}

/** The firewall after a drift: the state with every top-level entry of the diff applied. */
function after(state: Attrs, diff: DiffEntry[]): Attrs {
  const out: Attrs = { ...state };
  for (const d of diff) if (!d.attribute.includes('.')) out[d.attribute] = d.after;
  return out;
}

/** External IPs (access configs) in an entry's value: a network_interface list or one access_config list. */
function accessConfigs(d: DiffEntry, v: unknown): number {
  if (/(^|\.)access_config$/.test(d.attribute)) return list(v).length;
  if (d.attribute === 'network_interface') return list(v).reduce((n: number, nic: Attrs) => n + list(nic?.access_config).length, 0);
  return 0;
}

export const COMPUTE_RULES: SeverityRule[] = [
  { id: 'gcp-firewall-admin-open-to-internet', severity: 'critical', description: 'Firewall now lets 0.0.0.0/0 in on SSH (22) or RDP (3389)',
    rationale: 'Anyone on the internet can now try to log in to the instances this firewall covers.',
    types: ['google_compute_firewall'], changeTypes: ['changed'],
    test: { describe: 'changed so that the firewall, enabled and INGRESS, lets 0.0.0.0/0 or ::/0 (source_ranges) in on tcp or every protocol, port 22 or 3389, which it did not before',
      fn: (_d, state, diff) => opensAdminToInternet(after(state, diff ?? [_d])) && !opensAdminToInternet(state) } },
  { id: 'gcp-firewall-changed', severity: 'high', description: 'Firewall rule changed',
    rationale: 'Which sources reach which instances and ports changed outside review.',
    types: ['google_compute_firewall'], changeTypes: ['changed'] },
  { id: 'gcp-instance-external-ip-added', severity: 'high', description: 'Instance gained an external IP (access config)',
    rationale: 'The instance is now addressable from the internet.',
    types: ['google_compute_instance'], changeTypes: ['changed'], attributes: ['network_interface', 'network_interface.*.access_config'],
    test: { describe: 'holds more access configs (external IPs) than before', fn: (d) => accessConfigs(d, d.after) > accessConfigs(d, d.before) } },
  { id: 'gcp-instance-access-changed', severity: 'high', description: 'Instance service account, network interfaces or network tags changed',
    rationale: 'The cloud permissions or network exposure of the instance changed (network tags select firewall rules).',
    types: ['google_compute_instance'], changeTypes: ['changed'], attributes: ['service_account*', 'network_interface*', 'tags', 'can_ip_forward'] },
  { id: 'gcp-instance-machine-type-changed', severity: 'medium', description: 'Instance machine type changed',
    rationale: 'Cost and capacity changed; no access is affected.',
    types: ['google_compute_instance'], changeTypes: ['changed'], attributes: ['machine_type'] },
];
