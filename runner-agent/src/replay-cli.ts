// drift-runner replay <state file> [--json] [--config DIR]
// Runs the engine's readers, comparison, ignore and severity code against a fake cloud that
// answers every call with what the state says; each drift printed is a false positive of the
// engine. Exit status: 0 no drift, 1 drifts reported, 2 bad usage or unreadable state.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { ScanError } from './engine/errors.ts';
import { replayState } from './engine/replay.ts';

export const REPLAY_USAGE = `Usage: drift-runner replay <state file> [--json] [--config DIR]
  --json         print one JSON document: {compared, drifts: [{resourceAddress, resourceType, attributes}]}
  --config DIR   folder of the .tf/.tofu files that wrote the state: each instance is placed and read
                 in the region a scan resolves from it (provider blocks, aliases, variables, tfvars)
Offline, no credentials: the state's resources are served by a loopback fake of the cloud APIs.`;

export async function replayMain(argv: string[], out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  let values: { json?: boolean; config?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, allowPositionals: true, strict: true, options: { json: { type: 'boolean' }, config: { type: 'string' }, help: { type: 'boolean', short: 'h' } } }));
  } catch (e) {
    err.write(`drift-runner replay: ${(e as Error).message}\n${REPLAY_USAGE}\n`);
    return 2;
  }
  if (values.help) { out.write(`${REPLAY_USAGE}\n`); return 0; }
  if (positionals.length !== 1) {
    err.write(`drift-runner replay: give exactly one state file\n${REPLAY_USAGE}\n`);
    return 2;
  }
  const file = positionals[0];
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    err.write(`drift-runner replay: cannot read ${file}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}\n`);
    return 2;
  }
  try {
    const r = await replayState(text, file, values.config ? { config: path.resolve(values.config) } : {});
    if (values.json) out.write(`${JSON.stringify({ compared: r.compared, drifts: r.drifts })}\n`);
    else {
      out.write(`${r.compared} resource instances compared against a replay of ${file}; ${r.drifts.length} false drift(s)\n`);
      for (const d of r.drifts) {
        out.write(`  ${d.resourceAddress}\n`);
        for (const a of d.attributes) out.write(`    ${a.attribute}: ${JSON.stringify(a.before)} -> ${JSON.stringify(a.after)}\n`);
      }
    }
    return r.drifts.length ? 1 : 0;
  } catch (e) {
    if (!(e instanceof ScanError)) throw e;
    err.write(`drift-runner replay: ${e.code}: ${e.message}\n`);
    return 2;
  }
}
