// Process entry: config, app, listen. scripts/start.ts starts the embedded services first.
import type { FastifyInstance } from 'fastify';
import { loadConfig, type Config } from './config.ts';
import { buildApp } from './app.ts';
import { DOCS_PATH } from './openapi.ts';

export async function main(): Promise<{ app: FastifyInstance; config: Config; close(): Promise<void> }> {
  // A ConfigError names the variable; the caller prints it and exits non-zero.
  const config = loadConfig();
  const { app } = await buildApp({ config, runJobs: true });
  await app.listen({ port: config.PORT, host: config.HOST });
  console.log(`Drift API listening on ${config.publicUrl} — API docs at ${config.publicUrl}${DOCS_PATH} (OpenAPI JSON at ${config.publicUrl}${DOCS_PATH}/json)`);
  return { app, config, close: () => app.close() };
}
