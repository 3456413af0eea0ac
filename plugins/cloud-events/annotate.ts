// What a completed scan's drifts get from the change events (attached to the drifts plugin's
// annotator hook, plugins/drifts/annotators.ts, run by drifts.reconcile before it writes):
//
// Cause: for each new drift, the latest stored successful write event touching its resource id
// between `since` (the start of the config's previous completed scan: the last time the
// resource was seen clean) and the detection; for an attribute drift, among several, the latest
// whose call changes one of the drifted attributes (cloudtrail.ts CALLS). Otherwise cause null
// with causeReason `no_events_received` (the organization sent no write event in the window)
// or `no_matching_event`.
//
// Noise: an attribute of a resource that changes between scans, or goes back, with no write
// event touching the resource in between, is one observation (one record per scan, address and
// attribute). An attribute with NOISE_THRESHOLD observations, at least one of each direction
// (it flips back and forth), is learned as noise for its resource type. A drift every diff
// attribute of which is learned (rule enabled) is suppressed, unless it was deleted, has a
// cause, or is rated critical or high, by its own severity or by the rule table for any of
// its attributes. The observation that reaches the threshold already suppresses its drift.
import type { AppContext } from '../../core/context.ts';
import { newId } from '../../core/crypto.ts';
import { classify, SEVERITY_RULES } from '../../runner-agent/src/engine/index.ts';
import type { AnnotateInput } from '../drifts/annotators.ts';
import type { DriftAnnotation, DriftCause } from '../drifts/types.ts';
import { changesAttribute } from './cloudtrail.ts';
import type { CloudEvent, CloudEventStore, NoiseObservation } from './store.ts';

export const NOISE_THRESHOLD = 3;
type Change = { attribute: string; before: unknown; after: unknown };

/** The diff's attribute changes (toReportedDrifts keeps them under `changes`). */
export const changesOf = (diff: Record<string, unknown> | undefined): Change[] =>
  Array.isArray((diff as { changes?: unknown })?.changes) ? (diff as { changes: Change[] }).changes.filter((c) => c && typeof c.attribute === 'string') : [];

const causeOf = (e: CloudEvent): DriftCause => ({
  eventId: e.eventId, eventName: e.eventName, eventTime: e.eventTime, actor: e.userIdentity.arn,
  actorType: e.userIdentity.type, sourceIPAddress: e.sourceIPAddress, userAgent: e.userAgent,
});

/** Rated critical or high by the severity table for this attribute alone (never learned, never suppressed). */
const severe = (resourceType: string, c: Change) =>
  ['critical', 'high'].includes(classify({ resourceType, changeType: 'changed', diff: [{ attribute: c.attribute, before: c.before, after: c.after }] }, {}, SEVERITY_RULES).severity);

export function createAnnotator(ctx: AppContext, store: CloudEventStore, threshold: number) {
  return async function annotate(input: AnnotateInput): Promise<Map<string, Partial<DriftAnnotation>>> {
    // CloudTrail times are whole seconds, and the cloud's clock is not ours: the window opens a
    // second early and closes a minute late.
    const since = input.since && new Date(input.since.getTime() - 1000);
    const at = new Date(input.at.getTime() + 60_000);
    const { orgId } = input;
    const notes = new Map<string, Partial<DriftAnnotation>>();
    const previousAt = new Map(input.previous.map((p) => [p.resourceAddress, p]));
    // One read: every successful write event in the window touching any resource this scan reported or saw before.
    const ids = [...new Set([...input.reported.map((r) => r.resourceId), ...input.previous.map((p) => p.resourceId)].filter((x): x is string => !!x))];
    const events = ids.length ? (await store.touching(orgId, ids, since, at)).filter((e) => !e.errorCode) : [];
    const byId = new Map<string, CloudEvent[]>();
    for (const e of events) for (const id of e.resourceIds) byId.set(id, [...(byId.get(id) ?? []), e]); // newest first, as read
    const needCause = input.reported.filter((r) => input.fresh.has(r.resourceAddress));
    const anyEvents = needCause.some((r) => !r.resourceId || !byId.has(r.resourceId)) ? await store.anyBetween(orgId, since, at) : true;

    for (const r of needCause) {
      const touching = (r.resourceId && byId.get(r.resourceId)) || [];
      const attributes = changesOf(r.diff as Record<string, unknown>).map((c) => c.attribute);
      const best = touching.find((e) => attributes.some((a) => changesAttribute(e.eventName, a))) ?? touching[0];
      notes.set(r.resourceAddress, best
        ? { cause: causeOf(best), causeReason: null }
        : { cause: null, causeReason: anyEvents ? 'no_matching_event' : 'no_events_received' });
    }

    // Noise: observations of this scan, then the rules they teach, then suppression.
    const observed: NoiseObservation[] = [];
    const observe = (resourceType: string, address: string, attribute: string, direction: NoiseObservation['direction']) =>
      observed.push({ _id: newId(), orgId, resourceType, attribute, scanId: input.scanId, address, direction, at: input.at });
    const quiet = (resourceId: string | null | undefined) => !!resourceId && !byId.has(resourceId);
    const reportedAt = new Set<string>();
    for (const r of input.reported) {
      reportedAt.add(r.resourceAddress);
      if ((r.changeType ?? 'changed') !== 'changed' || !quiet(r.resourceId) || ['critical', 'high'].includes(r.severity)) continue;
      const before = new Map(changesOf(previousAt.get(r.resourceAddress)?.diff).map((c) => [c.attribute, c]));
      const now = changesOf(r.diff as Record<string, unknown>);
      for (const c of now) {
        if (severe(r.resourceType, c)) continue;
        const prev = before.get(c.attribute);
        if (!prev || JSON.stringify(prev.after) !== JSON.stringify(c.after)) observe(r.resourceType, r.resourceAddress, c.attribute, 'changed');
      }
      const nowAttrs = new Set(now.map((c) => c.attribute));
      for (const [attribute, c] of before) if (!nowAttrs.has(attribute) && !severe(r.resourceType, c)) observe(r.resourceType, r.resourceAddress, attribute, 'reverted');
    }
    for (const p of input.previous) {
      // Open before, not reported now: its attributes went back to the state's values.
      if (reportedAt.has(p.resourceAddress) || p.changeType !== 'changed' || !quiet(p.resourceId) || ['critical', 'high'].includes(p.severity)) continue;
      for (const c of changesOf(p.diff)) if (!severe(p.resourceType, c)) observe(p.resourceType, p.resourceAddress, c.attribute, 'reverted');
    }
    if (observed.length) await learn(observed);

    const rules = await store.rulesOf(orgId);
    const learned = new Map(rules.filter((x) => x.learnedAt && x.enabled).map((x) => [`${x.resourceType}|${x.attribute}`, x]));
    for (const r of input.reported) {
      const changes = changesOf(r.diff as Record<string, unknown>);
      const note = notes.get(r.resourceAddress) ?? {};
      const hasCause = input.fresh.has(r.resourceAddress) ? !!note.cause : !!(r.resourceId && byId.has(r.resourceId));
      const suppressible = (r.changeType ?? 'changed') === 'changed' && changes.length > 0 && !hasCause && !['critical', 'high'].includes(r.severity)
        && changes.every((c) => learned.has(`${r.resourceType}|${c.attribute}`) && !severe(r.resourceType, c));
      notes.set(r.resourceAddress, {
        ...note, suppressed: suppressible,
        suppressedReason: suppressible ? [...new Set(changes.map((c) => `noise:${r.resourceType}:${c.attribute}`))].join(',').slice(0, 1000) : null,
      });
    }
    return notes;
  };

  /** Stores the observations (once each) and updates the rule of every attribute they name. */
  async function learn(observed: NoiseObservation[]) {
    const orgId = observed[0].orgId;
    if (!(await store.observe(orgId, observed))) return; // a retry of the same scan: nothing new
    const keys = new Map(observed.map((o) => [`${o.resourceType}|${o.attribute}`, o]));
    const at = new Date();
    for (const o of keys.values()) {
      const [changed, reverted] = await Promise.all([
        store.countObservations(orgId, o.resourceType, o.attribute, 'changed'),
        store.countObservations(orgId, o.resourceType, o.attribute, 'reverted'),
      ]);
      const existing = await store.ruleFor(orgId, o.resourceType, o.attribute);
      const isLearned = changed + reverted >= threshold && changed > 0 && reverted > 0;
      await store.upsertRule(orgId, o.resourceType, o.attribute, {
        observations: changed + reverted, updatedAt: at, ...(isLearned && !existing?.learnedAt ? { learnedAt: at } : {}),
      }, newId());
      if (isLearned && !existing?.learnedAt) ctx.log.info({ orgId, resourceType: o.resourceType, attribute: o.attribute }, 'noise rule learned');
    }
  }
}
