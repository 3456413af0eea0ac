// One in-process bus for domain events (scan.completed, drift.detected, ...). Webhooks,
// chat, notifications and the audit trail subscribe; a failing subscriber never breaks
// the emitter or the other subscribers. Names and payloads come from core/event-catalog.ts.
import type { DomainEventData, DomainEventName } from './event-catalog.ts';

export interface DomainEvent<K extends DomainEventName = DomainEventName> { type: K; orgId: string; data: DomainEventData<K>; at: Date }
export type Subscriber<K extends DomainEventName = DomainEventName> = (event: DomainEvent<K>) => Promise<void> | void;

export interface EventBus {
  on<K extends DomainEventName>(type: K, fn: Subscriber<K>): void;
  on(type: '*', fn: Subscriber): void;
  /** Resolves once every subscriber has finished (each persists before it resolves). */
  emit<K extends DomainEventName>(type: K, orgId: string, data: DomainEventData<K>): Promise<void>;
}

export function createEventBus(log: { error(obj: object, msg: string): void }): EventBus {
  const subscribers = new Map<string, Subscriber[]>();
  return {
    on(type: string, fn: Subscriber) {
      subscribers.set(type, [...(subscribers.get(type) ?? []), fn]);
    },
    async emit(type, orgId, data) {
      const event = { type, orgId, data, at: new Date() } as DomainEvent;
      const fns = [...(subscribers.get(type) ?? []), ...(subscribers.get('*') ?? [])];
      await Promise.all(fns.map(async (fn) => {
        try { await fn(event); } catch (err) { log.error({ err, type }, 'event subscriber failed'); }
      }));
    },
  } as EventBus;
}
