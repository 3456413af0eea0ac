// The domain events of the spec's Events section and the data each carries. One catalogue, so
// emitters (scans, drifts, orgs, guardrails, drift-watch) and subscribers (webhooks, chat,
// notifications) agree at compile time, and the OpenAPI document shows each payload.
import { Type, type Static, type TSchema } from 'typebox';

const Id = Type.String();
const Severity = Type.Union([Type.Literal('critical'), Type.Literal('high'), Type.Literal('medium'), Type.Literal('low')]);
const Actor = Type.Object({ id: Id, email: Type.Optional(Type.String()) });

/** A drift as events carry it (bounded lists: at most 100 per event, `count` gives the whole). */
export const EventDrift = Type.Object({
  _id: Id,
  resourceAddress: Type.String({ description: 'Terraform resource address' }),
  resourceType: Type.Optional(Type.String()),
  severity: Severity,
  /** drift.detected: the change event most likely behind it (plugins/cloud-events), null when none is known. */
  cause: Type.Optional(Type.Union([Type.Object({
    eventId: Type.String(), eventName: Type.String(), eventTime: Type.String({ description: 'ISO 8601' }),
    actor: Type.Union([Type.String(), Type.Null()]), actorType: Type.Union([Type.String(), Type.Null()]),
    sourceIPAddress: Type.Union([Type.String(), Type.Null()]), userAgent: Type.Union([Type.String(), Type.Null()]),
  }), Type.Null()])),
});

/** What started a scan (`schedule`: its config's cron or a Drift Watch run). */
const TriggeredBy = Type.String({ description: 'manual, schedule or event (a targeted re-check a cloud change event queued)' });

const Repository = {
  repositoryConfigId: Id,
  repositoryName: Type.String({ description: 'owner/name of the repository config' }),
};

/** Every event the bus carries. `runner.offline` is internal; the rest are the spec's webhook events. */
export const DOMAIN_EVENTS = {
  'scan.started': Type.Object({ scanId: Id, ...Repository, triggeredBy: Type.String() }),
  'scan.completed': Type.Object({
    scanId: Id, ...Repository,
    driftCount: Type.Integer({ description: 'Drifts open after the scan' }),
    newDrifts: Type.Integer(), resolvedDrifts: Type.Integer(), triggeredBy: Type.Optional(TriggeredBy),
  }),
  'scan.failed': Type.Object({ scanId: Id, ...Repository, error: Type.String(), triggeredBy: Type.Optional(TriggeredBy) }),
  // One event per scan (or per status change), not per drift: a scan finding 2,000 drifts is one delivery.
  'drift.detected': Type.Object({ scanId: Id, ...Repository, count: Type.Integer(), drifts: Type.Array(EventDrift) }),
  'drift.resolved': Type.Object({
    scanId: Type.Union([Id, Type.Null()]), ...Repository, count: Type.Integer(),
    resolvedBy: Type.Union([Type.Literal('scan'), Type.Literal('user')]), drifts: Type.Array(EventDrift),
  }),
  'guardrail.violated': Type.Object({
    evaluationId: Id, guardrailId: Id, guardrailName: Type.String(),
    enforcement: Type.Union([Type.Literal('block'), Type.Literal('warn'), Type.Literal('dry_run'), Type.Literal('require_approval')]),
    repositoryId: Id,
    decision: Type.Union([Type.Literal('blocked'), Type.Literal('allowed'), Type.Literal('pending')]),
    violationCount: Type.Integer(),
    violations: Type.Array(Type.Object({ address: Type.String(), resourceType: Type.String(), attribute: Type.String(), operator: Type.String() })),
  }),
  'guardrail.bypassed': Type.Object({ evaluationId: Id, repositoryId: Id, guardrailIds: Type.Array(Id), reason: Type.String(), bypassedBy: Actor }),
  'watch.drift_detected': Type.Object({
    watchId: Id, watchName: Type.String(), repositoryId: Id, scanId: Id,
    newDriftCount: Type.Integer(), driftCount: Type.Integer(), driftIds: Type.Array(Id),
  }),
  'member.invited': Type.Object({ invitationId: Id, email: Type.String(), role: Type.String(), invitedBy: Actor }),
  'member.removed': Type.Object({ userId: Id, email: Type.String(), role: Type.String(), removedBy: Type.Union([Actor, Type.Null()]) }),
  'runner.offline': Type.Object({ runnerIds: Type.Array(Id) }),
} satisfies Record<string, TSchema>;

/** The events a webhook may subscribe to (SPEC "Outbound webhooks"), in the spec's order. */
export const WEBHOOK_EVENTS = [
  'scan.started', 'scan.completed', 'scan.failed', 'drift.detected', 'drift.resolved',
  'guardrail.violated', 'guardrail.bypassed', 'watch.drift_detected', 'member.invited', 'member.removed',
] as const satisfies readonly (keyof typeof DOMAIN_EVENTS)[];

export type DomainEventName = keyof typeof DOMAIN_EVENTS;
export type DomainEventData<K extends DomainEventName> = Static<(typeof DOMAIN_EVENTS)[K]>;
