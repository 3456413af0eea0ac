// One in-process bus for domain events (scan.completed, drift.detected, ...). Webhooks,
// chat, notifications and the audit trail subscribe; a failing subscriber never breaks
// the emitter or the other subscribers.
export interface DomainEvent<T = unknown> { type: string; orgId: string; data: T; at: Date }
export type Subscriber = (event: DomainEvent) => Promise<void> | void;

export interface EventBus {
  on(type: string | '*', fn: Subscriber): void;
  emit<T>(type: string, orgId: string, data: T): Promise<void>;
}

export function createEventBus(log: { error(obj: object, msg: string): void }): EventBus {
  const subscribers = new Map<string, Subscriber[]>();
  return {
    on(type, fn) {
      subscribers.set(type, [...(subscribers.get(type) ?? []), fn]);
    },
    async emit(type, orgId, data) {
      const event: DomainEvent = { type, orgId, data, at: new Date() };
      const fns = [...(subscribers.get(type) ?? []), ...(subscribers.get('*') ?? [])];
      await Promise.all(fns.map(async (fn) => {
        try { await fn(event); } catch (err) { log.error({ err, type }, 'event subscriber failed'); }
      }));
    },
  };
}
