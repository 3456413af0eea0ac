// One scan's budget from its input: the store and rates it carries; the default rates apply
// unless the input overrides the endpoint (moto, the replay fake, a test server) and says nothing.
import type { ScanInput } from '../types.ts';
import { ScanBudget } from './index.ts';

export function scanBudget(input: Pick<ScanInput, 'apiBudget' | 'endpoint' | 'signal'>): ScanBudget {
  return new ScanBudget({ ...input.apiBudget, defaults: input.apiBudget?.defaults ?? !input.endpoint }, input.signal);
}
