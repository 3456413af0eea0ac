// The source host's OAuth states: random, single use, 10 minutes, kept in Redis under the
// hash of what the browser carries and spent with GETDEL, so a state works once whatever
// happens next. The flows that link or connect something (add-account, app install) also
// keep who started them and the hash of their browser-binding nonce (core/browser-binding.ts).
import type { Redis } from 'ioredis';
import type { BoundStart } from '../../core/browser-binding.ts';
import { randomToken, sha256Hex } from '../../core/crypto.ts';

export const STATE_TTL_SECONDS = 600;

export type State =
  | { flow: 'login'; cli: boolean; redirectUri: string | null }
  | ({ flow: 'add' } & BoundStart)
  | ({ flow: 'install'; orgId: string } & BoundStart);

export function createStates(redis: Redis) {
  return {
    async create(state: State): Promise<string> {
      const value = randomToken('', 24);
      await redis.set(`scm-state:${sha256Hex(value)}`, JSON.stringify(state), 'EX', STATE_TTL_SECONDS);
      return value;
    },
    async spend(value: string | undefined): Promise<State | null> {
      if (!value) return null;
      const raw = await redis.getdel(`scm-state:${sha256Hex(value)}`);
      return raw ? JSON.parse(raw) as State : null;
    },
  };
}
export type States = ReturnType<typeof createStates>;
