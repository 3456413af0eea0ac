// What the issue-33 AWS reader tests share: the written corpus states, a cloud built from a
// changed copy of them (the replay fake), and the drifts the engine reports against it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AwsContext } from '../../../runner-agent/src/engine/cloud/aws/index.ts';
import { startFakeCloud, stateWorld } from '../../../runner-agent/src/engine/cloud/aws/replay/server.ts';
import { compareLive } from '../../../runner-agent/src/engine/compare.ts';
import { IGNORED_ATTRIBUTES } from '../../../runner-agent/src/engine/catalogue.ts';
import { buildIgnoreRules } from '../../../runner-agent/src/engine/ignore.ts';
import { allAnswers } from '../../../runner-agent/src/engine/replay.ts';
import { parseState } from '../../../runner-agent/src/engine/state.ts';
import type { StateInstance } from '../../../runner-agent/src/engine/types.ts';

const CORPUS = join(import.meta.dirname, '..', 'corpus');
export const corpusState = (name: string): StateInstance[] => parseState(readFileSync(join(CORPUS, `${name}.tfstate`), 'utf8'), name);

/** `state` compared against a fake cloud holding `cloud`. */
export async function driftsAgainst(cloud: StateInstance[], state: StateInstance[]) {
  const fake = await startFakeCloud(stateWorld(cloud), allAnswers());
  const aws = new AwsContext({ accessKeyId: 'replay', secretAccessKey: 'replay', region: 'eu-west-1' }, 'eu-west-1', fake.endpoint);
  try {
    const r = await compareLive(state.map((instance) => ({ instance, region: 'eu-west-1' })), aws, buildIgnoreRules([], IGNORED_ATTRIBUTES), { unsupported: {}, ignoredDiffs: 0 });
    return { ...r, calls: aws.calls };
  } finally {
    aws.destroy();
    await fake.close();
  }
}

/** A copy of `state` where the instance at `address` has its attributes changed (or is gone: null). */
export function changed(state: StateInstance[], address: string, edit: ((a: Record<string, unknown>) => Record<string, unknown>) | null): StateInstance[] {
  if (!state.some((i) => i.address === address)) throw new Error(`no ${address}`);
  return state.flatMap((i) => (i.address !== address ? [i] : edit ? [{ ...i, attributes: edit(structuredClone(i.attributes)) }] : []));
}
