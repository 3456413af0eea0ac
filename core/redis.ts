// Redis connections: one for commands, one subscriber for cache invalidation.
// Commands fail fast while Redis is down (no offline queue), so guards can decide
// between failing open and failing closed instead of hanging.
import { Redis } from 'ioredis';

export interface RedisPair { main: Redis; sub: Redis; ping(): Promise<number>; close(): Promise<void> }

export async function connectRedis(url: string, keyPrefix: string): Promise<RedisPair> {
  const common = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
    retryStrategy: (times: number) => Math.min(times * 200, 2000),
    lazyConnect: true,
  };
  const main = new Redis(url, { ...common, keyPrefix });
  // Subscriptions must survive reconnects; the offline queue lets SUBSCRIBE wait for them.
  const sub = new Redis(url, { ...common, enableOfflineQueue: true, maxRetriesPerRequest: null });
  main.on('error', () => {}); // reported by /health and by the guards that need Redis
  sub.on('error', () => {});
  await Promise.all([main.connect(), sub.connect()]);
  return {
    main,
    sub,
    async ping() {
      const started = performance.now();
      await main.ping();
      return performance.now() - started;
    },
    async close() {
      main.disconnect();
      sub.disconnect();
    },
  };
}
