// In-process caches for the hot paths (auth guards), kept coherent across service
// processes by invalidation messages on one Redis channel. Anything that changes a cached
// record calls invalidate(); every process drops its copy.
import { LRUCache } from 'lru-cache';
import type { Redis } from 'ioredis';

export interface Cache<V> {
  get(key: string): Promise<V | null>;
  invalidate(key: string): Promise<void>;
  /** Drops local copies only (used by the subscriber and on reconnect). */
  clearLocal(key?: string): void;
}

export interface Topic { publish(message: string): Promise<void> }

export interface CacheHub {
  /** A named pub/sub topic on the same channel; onReset runs after a reconnect (messages may be lost). */
  topic(name: string, onMessage: (message: string) => void, onReset?: () => void): Topic;
  create<V extends object>(name: string, load: (key: string) => Promise<V | null>, opts?: { max?: number; ttlMs?: number }): Cache<V>;
  close(): Promise<void>;
}

const MISSING = Symbol('missing');

export async function createCacheHub(main: Redis, sub: Redis, channel: string): Promise<CacheHub> {
  const caches = new Map<string, Cache<object>>();
  const topics = new Map<string, { onMessage: (m: string) => void; onReset?: () => void }>();
  sub.on('message', (ch: string, message: string) => {
    if (ch !== channel) return;
    const sep = message.indexOf('|');
    const name = message.slice(0, sep);
    const body = message.slice(sep + 1);
    caches.get(name)?.clearLocal(body);
    topics.get(name)?.onMessage(body);
  });
  // The subscriber is connected by now, so any later 'ready' is a reconnect: messages may
  // have been missed, so start from empty caches.
  sub.on('ready', () => {
    for (const c of caches.values()) c.clearLocal();
    for (const t of topics.values()) t.onReset?.();
  });
  await sub.subscribe(channel);

  return {
    topic(name, onMessage, onReset) {
      topics.set(name, { onMessage, onReset });
      return { publish: async (message) => { await main.publish(channel, `${name}|${message}`); } };
    },
    create<V extends object>(name: string, load: (key: string) => Promise<V | null>, opts: { max?: number; ttlMs?: number } = {}) {
      const lru = new LRUCache<string, V | typeof MISSING>({ max: opts.max ?? 10_000, ttl: opts.ttlMs ?? 60_000 });
      const inflight = new Map<string, Promise<V | null>>();
      const cache: Cache<V> = {
        async get(key) {
          const hit = lru.get(key);
          if (hit !== undefined) return hit === MISSING ? null : hit;
          let pending = inflight.get(key);
          if (!pending) {
            pending = load(key).then((value) => {
              lru.set(key, value ?? MISSING);
              return value;
            }).finally(() => inflight.delete(key));
            inflight.set(key, pending);
          }
          return pending;
        },
        async invalidate(key) {
          lru.delete(key);
          // Best effort: if Redis is down, other processes fall back on the TTL.
          await main.publish(channel, `${name}|${key}`).catch(() => undefined);
        },
        clearLocal(key) {
          if (key === undefined) lru.clear();
          else lru.delete(key);
        },
      };
      caches.set(name, cache as unknown as Cache<object>);
      return cache;
    },
    async close() {
      await sub.unsubscribe(channel).catch(() => undefined);
    },
  };
}
