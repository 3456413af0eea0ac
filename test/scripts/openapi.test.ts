// The OpenAPI export must come out the same on every machine: independent of the local
// operator file, PORT and PUBLIC_URL. (`npm test` checks the committed files are fresh.)
import t from 'tap';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { COMMENT_HEADER } from 'openapi-typescript';
import { generate, SERVER_PLACEHOLDER } from '../../scripts/openapi.ts';
import { buildTestApp, TEST_SECRETS } from '../helper.ts';
// Importing the generated types makes `tsc --noEmit` check them with the project.
import type { paths } from '../../openapi/types.ts';

type MeResponse = paths['/api/auth/me']['get']['responses'][200]['content']['application/json'];
const typed: Pick<MeResponse, 'role' | 'defaultOrgId'> = { role: 'admin', defaultOrgId: 'org' };

t.test('the export ignores the local operator file, port and public URL', async (t) => {
  const tmp = mkdtempSync(join(tmpdir(), 'drift-openapi-'));
  t.teardown(() => rmSync(tmp, { recursive: true, force: true }));
  // Stores nobody answers on: the export reads the manifests only.
  const base = { MONGODB_URI: 'mongodb://127.0.0.1:9/none', REDIS_URL: 'redis://127.0.0.1:9', NODE_ENV: 'test', ...TEST_SECRETS };
  // An operator file that raises auth to enterprise: it must not reach x-plan.
  const operatorFile = join(tmp, 'drift.config.json');
  writeFileSync(operatorFile, JSON.stringify({ plugins: { auth: { enabled: true, plan: 'enterprise' } } }));

  const plain = await generate({ ...base, DRIFT_CONFIG: join(tmp, 'absent.json') });
  const local = await generate({ ...base, DRIFT_CONFIG: operatorFile, PORT: '4123', PUBLIC_URL: 'https://drift.example.com' });
  t.equal(local['openapi.json'], plain['openapi.json'], 'the same document');
  t.equal(local['types.ts'], plain['types.ts'], 'the same types');

  const doc = JSON.parse(plain['openapi.json']);
  t.same(doc.servers.map((s: { url: string }) => s.url), [SERVER_PLACEHOLDER], 'the servers URL is the fixed placeholder');
  t.match(plain['openapi.json'], /\n$/, 'the file ends with a newline');
  t.equal(plain['openapi.json'], `${JSON.stringify(doc, null, 2)}\n`, 'and is indented by 2 spaces');
  // Manifest routes live under /api; the engine's own (/health) carry no manifest facts.
  const ops = Object.entries(doc.paths as Record<string, Record<string, Record<string, unknown>>>)
    .filter(([path]) => path.startsWith('/api/')).flatMap(([, methods]) => Object.values(methods));
  t.ok(ops.length > 0, 'manifest operations are present');
  t.ok(ops.every((op) => typeof op.operationId === 'string' && 'x-plan' in op && 'x-auth' in op), 'each carries its id and manifest facts');
  t.equal(doc.paths['/api/auth/me'].get['x-plan'], 'free', 'auth routes at their manifest tier, not the operator file\'s');

  t.ok(plain['types.ts'].startsWith(COMMENT_HEADER), 'the types carry the generated-file header');
  t.match(plain['types.ts'], /export interface paths \{/, 'and describe the paths');
  t.equal(typed.role, 'admin', 'the committed types compile against the routes (see the type above)');
});

t.test('the exported document is the one the running service serves', async (t) => {
  const { app } = await buildTestApp(t);
  await app.ready();
  const served = structuredClone(app.swagger()) as unknown as Record<string, unknown>;
  const exported = JSON.parse((await generate({ ...process.env, ...TEST_SECRETS }))['openapi.json']);
  served.servers = exported.servers;
  t.same(JSON.parse(JSON.stringify(served)), exported, 'same operations, schemas and extensions');
});
