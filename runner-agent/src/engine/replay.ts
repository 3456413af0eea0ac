// `drift-runner replay <state file>`: the engine's own readers, comparison, ignore and severity
// code run against a fake cloud that answers every call with exactly what the state says (the
// SDK's real request path, over loopback HTTP). Whatever drift it reports is a false positive by
// construction. Offline, no credentials.
import { AWS_READERS, AwsContext } from './cloud/aws/index.ts';
import type { Answer } from './cloud/aws/reader.ts';
import { startFakeCloud, stateWorld } from './cloud/aws/replay/server.ts';
import { compareLive } from './compare.ts';
import { buildIgnoreRules } from './ignore.ts';
import { arnRegion } from './region.ts';
import { parseState } from './state.ts';
import type { DiffEntry } from './types.ts';

export interface ReplayResult {
  compared: number;
  /** `attributes`: the attribute differences the engine reported (a deletion shows as `id` going to null). */
  drifts: { resourceAddress: string; resourceType: string; attributes: DiffEntry[] }[];
  unsupported: Record<string, number>;
  sdkCalls: number;
  sdkCallsByService: Record<string, number>;
}

/** Every reader's answers, one per operation (readers sharing an API share its answer). */
export function allAnswers(): Answer[] {
  const seen = new Map<string, Answer>();
  for (const r of Object.values(AWS_READERS)) for (const a of r.answers) if (!seen.has(`${a.service}:${a.op[2]}`)) seen.set(`${a.service}:${a.op[2]}`, a);
  return [...seen.values()];
}

export async function replayState(text: string, where: string): Promise<ReplayResult> {
  const instances = parseState(text, where);
  const fake = await startFakeCloud(stateWorld(instances), allAnswers());
  const region = 'us-east-1';
  const aws = new AwsContext({ accessKeyId: 'replay', secretAccessKey: 'replay', region }, region, fake.endpoint);
  try {
    const entries = instances.map((instance) => {
      const own = instance.attributes.region;
      return { instance, region: (typeof own === 'string' && own) || arnRegion(instance.attributes) || region };
    });
    const stats = { unsupported: {} as Record<string, number>, ignoredDiffs: 0 };
    const { drifts, compared } = await compareLive(entries, aws, buildIgnoreRules([]), stats);
    return {
      compared, unsupported: stats.unsupported, sdkCalls: aws.totalCalls, sdkCallsByService: { ...aws.calls },
      drifts: drifts.map(({ resourceAddress, resourceType, diff }) => ({ resourceAddress, resourceType, attributes: diff })),
    };
  } finally {
    aws.destroy();
    await fake.close();
  }
}
