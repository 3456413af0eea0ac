// Learned patterns (SPEC Pattern: pattern, frequency, avgSeverity, resources) from the
// organization's drift history: resources that drift at a regular interval, resources that
// drift right after their repository changes, and the change classes each resource type drifts in.
import { CHANGE_CLASSES, type History } from './features.ts';
import type { PatternList } from './schemas.ts';

const DAY = 86_400_000;
const MAX_PATTERNS = 50;
const MAX_RESOURCES = 20;

interface Acc { kind: PatternList[number]['kind']; frequency: number; severity: number; resources: Set<string> }

export function patternsOf(h: History): PatternList {
  const acc = new Map<string, Acc>();
  const add = (pattern: string, kind: Acc['kind'], address: string, drifts: number, severitySum: number) => {
    const a = acc.get(pattern) ?? { kind, frequency: 0, severity: 0, resources: new Set<string>() };
    acc.set(pattern, a);
    a.frequency += drifts; a.severity += severitySum; a.resources.add(address);
  };
  for (const r of h.resources) {
    const n = r.events.length;
    const last = r.pre[n];
    const sev = last[7];
    // Periodic: three or more drifts whose intervals vary by under 30% of their mean.
    if (n >= 3) {
      const gaps = r.times.slice(1).map((t, i) => t - r.times[i]);
      const mean = gaps.reduce((s, g) => s + g, 0) / gaps.length;
      const sd = Math.sqrt(gaps.reduce((s, g) => s + (g - mean) ** 2, 0) / gaps.length);
      if (mean > 0 && sd / mean < 0.3) add(`${r.type} drifts every ~${Math.max(1, Math.round(mean / DAY))} days`, 'periodic', r.address, n, sev);
    }
    // After a repository change: most of its drifts within two days of a new commit.
    if (n >= 2 && last[0] / n >= 0.8) add(`${r.type} drifts after a repository change`, 'after_repository_change', r.address, n, sev);
    for (let c = 0; c < CHANGE_CLASSES.length; c++) {
      if (last[1 + c] > 0) add(`${r.type}: ${CHANGE_CLASSES[c]} changes`, 'change_class', r.address, last[1 + c], (sev / n) * last[1 + c]);
    }
  }
  return [...acc].sort((a, b) => b[1].frequency - a[1].frequency || a[0].localeCompare(b[0])).slice(0, MAX_PATTERNS).map(([pattern, a]) => ({
    pattern, kind: a.kind, frequency: a.frequency,
    avgSeverity: Math.round((a.severity / Math.max(1, a.frequency)) * 100) / 100,
    resources: [...a.resources].sort().slice(0, MAX_RESOURCES),
    resourceCount: a.resources.size,
  }));
}
