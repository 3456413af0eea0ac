// drift-runner coverage <state file | s3://bucket/key> [--json] [--config DIR] [--region R] [--endpoint URL]
// What share of a state the engine would compare, per resource type, and why the rest is not.
// Offline for a state file; an s3:// state is fetched with the usual AWS credential chain.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AWS_READERS } from './engine/cloud/aws/index.ts';
import { formatCoverage, stateCoverage } from './engine/coverage.ts';
import { ScanError } from './engine/errors.ts';
import { parseRootModule, type RootModule } from './engine/hcl.ts';
import { readStateDocument } from './engine/state-v4.ts';

export const COVERAGE_USAGE = `Usage: drift-runner coverage <state file | s3://bucket/key> [options]
  --json           print one JSON document: {total, compared, percent, byType, other, providers, byProvider}
                   (providers: {aws, azurerm, google}, each {total, compared, percent}; the rest is aws_*)
  --config DIR     folder of the .tf/.tofu files that wrote the state, for provider regions
                   (default: the state file's folder when it holds any)
  --region REGION  the region the scan's credentials carry (default: AWS_REGION, AWS_DEFAULT_REGION)
  --project ID     the Google project the scan's credentials carry (default: GOOGLE_CLOUD_PROJECT)
  --endpoint URL   S3 endpoint override for an s3:// state (default: DRIFT_CLOUD_A_ENDPOINT)`;

async function readState(source: string, region: string, endpoint: string | undefined): Promise<string> {
  const s3 = /^s3:\/\/([^/]+)\/(.+)$/.exec(source);
  if (!s3) {
    try {
      return await readFile(source, 'utf8');
    } catch (e) {
      throw new ScanError('state_not_found', `Cannot read ${source}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  // Loaded only for s3:// states: a local state never touches the SDK's credential chain.
  const { S3Client, GetObjectCommand } = await import('@aws-sdk/client-s3');
  const client = new S3Client({ region: region || 'us-east-1', ...(endpoint ? { endpoint, forcePathStyle: true } : {}) });
  try {
    const out = await client.send(new GetObjectCommand({ Bucket: s3[1], Key: s3[2] }));
    return (await out.Body?.transformToString('utf8')) ?? '';
  } catch (e) {
    throw new ScanError('state_not_found', `Cannot read ${source}: ${(e as Error).name}: ${(e as Error).message}`);
  } finally {
    client.destroy();
  }
}

const holdsConfig = (dir: string) => existsSync(dir) && statSync(dir).isDirectory() && readdirSync(dir).some((f) => /\.(tf|tofu)(\.json)?$/.test(f));

export async function coverageMain(argv: string[], env: NodeJS.ProcessEnv, out: NodeJS.WritableStream, err: NodeJS.WritableStream): Promise<number> {
  let values: { json?: boolean; config?: string; region?: string; project?: string; endpoint?: string; help?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv, allowPositionals: true, strict: true,
      options: { json: { type: 'boolean' }, config: { type: 'string' }, region: { type: 'string' }, project: { type: 'string' }, endpoint: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
    }));
  } catch (e) {
    err.write(`drift-runner coverage: ${(e as Error).message}\n${COVERAGE_USAGE}\n`);
    return 2;
  }
  if (values.help) { out.write(`${COVERAGE_USAGE}\n`); return 0; }
  if (positionals.length !== 1) {
    err.write(`drift-runner coverage: give exactly one state file or s3:// URL\n${COVERAGE_USAGE}\n`);
    return 2;
  }
  const source = positionals[0];
  const region = values.region ?? env.AWS_REGION ?? env.AWS_DEFAULT_REGION ?? '';
  try {
    const doc = readStateDocument(await readState(source, region, values.endpoint ?? env.DRIFT_CLOUD_A_ENDPOINT), source);
    const configDir = values.config ?? (source.startsWith('s3://') ? undefined : path.dirname(path.resolve(source)));
    let module: RootModule | undefined;
    if (configDir && (values.config || holdsConfig(configDir))) module = await parseRootModule(path.resolve(configDir), '');
    const report = await stateCoverage(doc, { supported: (t) => !!AWS_READERS[t], module, credentialsRegion: region, credentialsProject: values.project ?? env.GOOGLE_CLOUD_PROJECT ?? '' });
    out.write(values.json ? `${JSON.stringify(report)}\n` : `${formatCoverage(report)}\n`);
    return 0;
  } catch (e) {
    if (!(e instanceof ScanError)) throw e;
    err.write(`drift-runner coverage: ${e.code}: ${e.message}\n`);
    return 1;
  }
}
