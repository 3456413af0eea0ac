// `npm run openapi`: writes the OpenAPI document of every plugin (openapi/openapi.json) and
// the TypeScript types generated from it (openapi/types.ts). `--check` writes nothing and
// fails when the committed files differ from what the manifests produce (run by `npm test`).
//
// The output must be the same on every machine: every plugin is enabled whatever the local
// drift.config.json says, and the servers URL is a fixed placeholder rather than this
// machine's PUBLIC_URL or PORT.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import openapiTS, { astToString, COMMENT_HEADER, type OpenAPI3 } from 'openapi-typescript';
import { ROOT } from '../core/loader.ts';
import { buildApiDocument } from '../core/api-document.ts';
import { offlineConfig, runScript } from './app-for-scripts.ts';

export const OPENAPI_DIR = join(ROOT, 'openapi');
export const SERVER_PLACEHOLDER = 'http://localhost:3000';

export interface Generated { 'openapi.json': string; 'types.ts': string }

/** The OpenAPI document of all plugins as the app serves it at /docs/json, frozen for the repository. */
export async function openapiDocument(env: NodeJS.ProcessEnv = process.env): Promise<Record<string, unknown>> {
  // From the manifests alone: no database, no Redis, no plugin built (core/api-document.ts).
  const doc = await buildApiDocument(offlineConfig(env));
  doc.servers = [{ url: SERVER_PLACEHOLDER, description: 'Local development server (npm start); use your deployment URL' }];
  return doc;
}

/** Both files' text, exactly as committed: 2-space JSON with a trailing newline, and the generated types. */
export async function generate(env: NodeJS.ProcessEnv = process.env): Promise<Generated> {
  const json = `${JSON.stringify(await openapiDocument(env), null, 2)}\n`;
  // Types come from the JSON text itself, so they match the committed document exactly.
  const ast = await openapiTS(JSON.parse(json) as OpenAPI3, { silent: true });
  return { 'openapi.json': json, 'types.ts': COMMENT_HEADER + astToString(ast) };
}

async function main(args: string[]): Promise<number> {
  const check = args.includes('--check');
  const files = await generate();
  const rel = (name: string) => relative(ROOT, join(OPENAPI_DIR, name));
  if (check) {
    let stale = 0;
    for (const [name, text] of Object.entries(files)) {
      const committed = await readFile(join(OPENAPI_DIR, name), 'utf8').catch(() => undefined);
      if (committed !== text) {
        console.error(`${rel(name)} is stale: run npm run openapi`);
        stale++;
      }
    }
    return stale ? 1 : 0;
  }
  await mkdir(OPENAPI_DIR, { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(OPENAPI_DIR, name), text);
    console.log(`wrote ${rel(name)}`);
  }
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  runScript('openapi', () => main(process.argv.slice(2)));
}
