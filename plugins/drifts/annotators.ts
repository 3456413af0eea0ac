// The drifts plugin's annotator hook: what another plugin adds to a scan's drifts before
// reconcile.ts writes them (plugins/cloud-events: the cause of each new drift, learned noise).
//
// A plugin that needs drifts attaches its annotator while the plugins are built
// (`drifts.attachAnnotator` in its build); the drifts plugin's start() closes the hook, so the
// annotators of a running service are exactly those its plugins declared at boot. A hook,
// rather than drifts using the annotating plugin, because that plugin needs scans, which
// needs drifts: the lower plugin offers the hook and the higher one attaches
// (docs/architecture.md, "Dependencies between plugins").
import type { ReportedDrift } from './schemas.ts';
import type { Drift, DriftAnnotation } from './types.ts';

/**
 * One scan's drifts as an annotator sees them. `previous`: the open drifts of the addresses the
 * scan read, before it; `since`: when the config's previous completed scan started (null: none).
 */
export interface AnnotateInput {
  orgId: string; repositoryConfig: string; scanId: string; since: Date | null; at: Date;
  reported: ReportedDrift[];
  previous: Pick<Drift, 'resourceAddress' | 'resourceType' | 'resourceId' | 'diff' | 'changeType' | 'severity'>[];
  /** Addresses whose drift is new (first detected, or reported again after its accepted diff changed): they get a cause. */
  fresh: Set<string>;
}
/** Answers an annotation per reported address; an address it leaves out gets NO_ANNOTATION. */
export type DriftAnnotator = (input: AnnotateInput) => Promise<Map<string, Partial<DriftAnnotation>>>;

export const NO_ANNOTATION: DriftAnnotation = { cause: null, causeReason: 'no_events_received', suppressed: false, suppressedReason: null };

export function createAnnotators() {
  const attached: DriftAnnotator[] = [];
  let closed = false;
  return {
    /** The hook: called from a plugin's build. After the service started it refuses (a boot-order bug, not a request's). */
    attach(annotator: DriftAnnotator) {
      if (closed) throw new Error('drifts.attachAnnotator: annotators attach while the plugins are built, before the service starts');
      attached.push(annotator);
    },
    close() { closed = true; },
    get any() { return attached.length > 0; },
    /** Every attached annotator's notes, in the order they attached (later ones win per field). */
    async annotate(input: AnnotateInput) {
      const notes = new Map<string, Partial<DriftAnnotation>>();
      for (const annotator of attached) {
        for (const [address, note] of await annotator(input)) notes.set(address, { ...notes.get(address), ...note });
      }
      return notes;
    },
  };
}
export type Annotators = ReturnType<typeof createAnnotators>;
