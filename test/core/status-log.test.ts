// The status check that keeps the OpenAPI document's error statuses true (core/status-log.ts,
// scripts/check-statuses.ts, run by tap's `after` step): an answer with a status its operation
// documents passes; the same answer once the manifest entry's `raises` no longer declares it,
// or from a route that never declared it, is logged and fails the check, named. A bare Fastify
// app with a real manifest entry's schemas (no database): the log goes to a folder of its own,
// not the suite's.
import t, { type Test } from 'tap';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import orgs from '../../manifests/orgs.ts';
import { errorStatuses } from '../../core/openapi-errors.ts';
import { responseSchemas } from '../../core/route-schemas.ts';
import { errorHandler } from '../../core/error-handler.ts';
import { AppError, type ErrorCode } from '../../core/errors.ts';
import type { RouteSpec } from '../../core/manifest.ts';
import { logUndocumentedStatuses, readStatusLog } from '../../core/status-log.ts';
import { checkStatuses, STATUS_LOG_DIR } from '../../scripts/check-statuses.ts';

const revoke = orgs.routes.find((r) => r.id === 'revokeInvitation') as RouteSpec;

/** Answers one request of `route` whose handler raises `code`, logging to `root`'s status log. */
async function answer(root: string, route: RouteSpec, code: ErrorCode): Promise<number> {
  const app = Fastify();
  app.setErrorHandler(errorHandler);
  // The entry's success schemas name shared ones by $ref; only the error answer is sent here.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  logUndocumentedStatuses(app, join(STATUS_LOG_DIR(root), 'app.jsonl'));
  const statuses = errorStatuses(orgs, route, undefined, true);
  app.route({ method: route.method, url: '/x', schema: { operationId: route.id, response: responseSchemas(route, 'named', statuses) }, handler: async () => { throw new AppError(code); } });
  const res = await app.inject({ method: route.method, url: '/x' });
  await app.close();
  return res.statusCode;
}

const fresh = (t: Test) => {
  const root = mkdtempSync(join(tmpdir(), 'status-log-'));
  t.teardown(() => rmSync(root, { recursive: true, force: true }));
  return root;
};

t.test('a declared code answers a documented status: nothing logged, the check passes', async (t) => {
  const root = fresh(t);
  t.ok(revoke.raises?.includes('orgs.invitation_not_pending'), 'manifests/orgs.ts declares it');
  t.equal(await answer(root, revoke, 'orgs.invitation_not_pending'), 409);
  t.same(readStatusLog(STATUS_LOG_DIR(root)), []);
  t.equal(checkStatuses(root), true);
});

t.test('the same answer once the declaration is removed: logged, named, and the check fails', async (t) => {
  const root = fresh(t);
  const undeclared = { ...revoke, raises: revoke.raises?.filter((c) => c !== 'orgs.invitation_not_pending') };
  t.notOk('409' in errorStatuses(orgs, undeclared, undefined, true), 'no 409 left in the entry');
  t.equal(await answer(root, undeclared, 'orgs.invitation_not_pending'), 409);
  t.same(readStatusLog(STATUS_LOG_DIR(root)), [{ operationId: 'revokeInvitation', status: 409, codes: ['orgs.invitation_not_pending'], count: 1 }]);
  t.equal(checkStatuses(root), false, 'the tap after step exits 1');
});

t.test('a route that never declared a 410 answering one fails the check; guard statuses need no declaration', async (t) => {
  const root = fresh(t);
  const fake: RouteSpec = { id: 'fakeRoute', method: 'GET', url: '/x/:id', auth: 'user', params: revoke.params, response: { 200: null }, handler: 'h' };
  t.equal(await answer(root, fake, 'not_found'), 404, 'a 404 the path parameter documents');
  t.equal(await answer(root, fake, 'invalid_token'), 401, 'a 401 the auth documents');
  t.same(readStatusLog(STATUS_LOG_DIR(root)), []);
  t.equal(await answer(root, fake, 'orgs.invitation_expired'), 410);
  t.equal(await answer(root, fake, 'orgs.invitation_expired'), 410);
  t.same(readStatusLog(STATUS_LOG_DIR(root)), [{ operationId: 'fakeRoute', status: 410, codes: ['orgs.invitation_expired'], count: 2 }]);
  t.equal(checkStatuses(root), false);
  const declared = fresh(t);
  t.equal(await answer(declared, { ...fake, raises: ['orgs.invitation_expired'] }, 'orgs.invitation_expired'), 410);
  t.same(readStatusLog(STATUS_LOG_DIR(declared)), [], 'declared in raises: documented');
  const bug = fresh(t);
  t.equal(await answer(bug, fake, 'internal'), 500);
  t.same(readStatusLog(STATUS_LOG_DIR(bug)), [], 'an unexpected error (a bug, no operation documents it) is the fuzz\'s and the test\'s to catch');
});
