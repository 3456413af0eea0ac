// The manifest fields that replaced hand-written checks (issue 35 point 3), each decided by the
// engine: body gates, the body repository rule, resumed flows, and the error statuses each
// entry documents. Pure functions over fake requests: no app, a second or two.
import t from 'tap';
import type { FastifyRequest } from 'fastify';
import { bodyGates, resumer } from '../../core/guards/body-gates.ts';
import { repositoryGuard } from '../../core/guards/repositories.ts';
import { documentedCodes, errorStatuses, namesCode } from '../../core/openapi-errors.ts';
import { validateManifests, type LoadedPlugin } from '../../core/loader.ts';
import type { Manifest, RouteSpec } from '../../core/manifest.ts';
import type { Permission } from '../../core/permissions.ts';
import type { OrgAccess } from '../../core/tenancy/index.ts';
import { Type } from 'typebox';

const req = (over: Record<string, unknown>) => over as unknown as FastifyRequest;
const org = (...perms: Permission[]) => ({ id: 'o', permissions: new Set(perms) });
const code = async (p: Promise<unknown> | unknown) => { try { await p; return 'passed'; } catch (e) { return (e as { code?: string }).code; } };

t.test('a body gate asks its permission and scope only when the body asks for it', async (t) => {
  const gate = bodyGates([{ body: { field: 'action', equals: 'scan' }, permission: 'scans:write', scope: 'scans:trigger' }]);
  const run = (r: FastifyRequest) => (gate as unknown as (r: FastifyRequest) => Promise<void>)(r);
  t.equal(await code(run(req({ body: { action: 'ignore' }, org: org(), principal: { kind: 'user' } }))), 'passed', 'another action: no gate');
  t.equal(await code(run(req({ body: { action: 'scan' }, org: org('drifts:write'), principal: { kind: 'user' } }))), 'permission_denied', 'a role without scans:write');
  t.equal(await code(run(req({ body: { action: 'scan' }, org: org('scans:write'), principal: { kind: 'cli', scopes: ['drifts:write'] } }))), 'scope_denied', 'a CLI token without scans:trigger');
  t.equal(await code(run(req({ body: { action: 'scan' }, org: org('scans:write'), principal: { kind: 'cli', scopes: ['scans:trigger'] } }))), 'passed');
});

t.test('the body repository rule holds a limited CLI token to its repositories', async (t) => {
  const guard = repositoryGuard({ body: 'repositoryId' }, new Map()) as unknown as (r: FastifyRequest) => Promise<void>;
  const cli = (ids: string[] | null) => ({ kind: 'cli', repositories: ids ? { all: false, ids } : { all: true } });
  t.equal(await code(guard(req({ body: { repositoryId: 'r2' }, principal: cli(['r1']) }))), 'repository_denied', 'another repository');
  t.equal(await code(guard(req({ body: { repositoryId: 'r1' }, principal: cli(['r1']) }))), 'passed');
  t.equal(await code(guard(req({ body: { repositoryId: 'r2' }, principal: cli(null) }))), 'passed', 'a token for every repository');
  t.equal(await code(guard(req({ body: { repositoryId: 'r2' }, principal: { kind: 'user' } }))), 'passed', 'a user session');
});

t.test('a resumed flow answers only while its user holds the permission', async (t) => {
  const held = new Map([['member', new Set<Permission>(['integrations:read'])], ['admin', new Set<Permission>(['integrations:write'])]]);
  const access = async (_o: string, userId: string) => (held.has(userId) ? { org: { _id: 'o', name: 'Org', plan: 'team' } as unknown as OrgAccess['org'], role: userId, builtInRole: null, permissions: held.get(userId)! } : null);
  const resumed = resumer('integrations:write', access);
  t.ok(await resumed('o', 'admin'));
  t.equal(await resumed('o', 'member'), null, 'demoted since the start');
  t.equal(await resumed('o', 'gone'), null, 'no longer a member');
  t.equal(await resumer(undefined, access)('o', 'admin'), null, 'a route that declares no resumes resumes nobody');
});

t.test('each guard a manifest entry declares documents its status', async (t) => {
  const m = { plugin: 'x', prefix: '/api/x', reply: 'envelope', routes: [], errors: { 502: 'upstream' } } satisfies Manifest;
  const base: RouteSpec = { id: 'r', method: 'GET', url: '/', auth: 'none', response: { 200: null }, handler: 'h' };
  t.same(Object.keys(errorStatuses(m, base, undefined, false)).sort(), ['400', '502', '503'], 'open route: 400, 503, the plugin\'s 502');
  const guarded = errorStatuses(m, { ...base, method: 'POST', url: '/:id', auth: 'bearer', scope: 'scans:trigger', permission: 'scans:write', rateLimit: 'scan', limit: 'scansPerDay', body: Type.Object({}) }, 'pro', true);
  t.same(Object.keys(guarded).sort(), ['400', '401', '403', '404', '409', '413', '414', '415', '429', '502', '503']);
  t.match(guarded[403], /scope_denied.*permission_denied.*plan_required.*plan_limit/);
  t.match(guarded[404], /the organization \(x-org-id\), id/);
  // A route's own codes: each under its status, named; a status the guards give already gets the code appended.
  const raising = errorStatuses(m, { ...base, url: '/:id', raises: ['conflict', 'orgs.invitation_revoked', 'not_found', 'orgs.invitation_not_found'] }, undefined, false);
  t.same(Object.keys(raising).sort(), ['400', '404', '409', '410', '414', '502', '503'], 'no range entry: 409 and 410 from raises; 414 for a path parameter too long');
  t.match(raising[409], /^conflict: /);
  t.match(raising[410], /^orgs\.invitation_revoked: /);
  t.match(raising[404], /Not found \(not_found\): id; orgs\.invitation_not_found: /, 'not_found named once, the other 404 appended');
  t.same([...documentedCodes(raising)].filter((c) => !/^(validation_failed|bad_request|store_unavailable|shutting_down)$/.test(c)).sort(), ['conflict', 'not_found', 'orgs.invitation_not_found', 'orgs.invitation_revoked', 'uri_too_long']);
  t.notOk(namesCode('orgs.unknown_role: Unknown role', 'unknown_role'), 'a code is named whole, not as part of a namespaced one');
});

t.test('the loader refuses gates and resumes it cannot enforce', async (t) => {
  const plugin = (route: Partial<RouteSpec>) => [{ manifest: { plugin: 'x', prefix: '/api/x', reply: 'envelope', routes: [{ id: 'r', method: 'POST', url: '/', auth: 'user', response: { 200: null }, handler: 'h', ...route } as RouteSpec] }, enabled: true, plan: undefined }] as unknown as LoadedPlugin[];
  t.throws(() => validateManifests(plugin({ gates: [{ body: { field: 'action', equals: 'scan' }, permission: 'scans:write' }] })), /a gate names body field "action"/, 'a gate on a field the body does not have');
  t.throws(() => validateManifests(plugin({ body: Type.Object({ action: Type.String() }), gates: [{ body: { field: 'action', equals: 'scan' }, permission: 'scans:wrte' as Permission }] })), /did you mean "scans:write"/);
  t.throws(() => validateManifests(plugin({ resumes: { permission: 'integrations:write' } })), /resumes is for callbacks/);
  t.throws(() => validateManifests(plugin({ raises: ['conflct' as 'conflict'] })), /unknown error code in raises "conflct"; did you mean "conflict"\?/, 'an unknown code in raises refuses the boot');
  t.throws(() => validateManifests(plugin({ repositories: { body: 'repositoryId' } })), /body field "repositoryId"/);
  t.doesNotThrow(() => validateManifests(plugin({ body: Type.Object({ repositoryId: Type.String() }), repositories: { body: 'repositoryId' } })));
});
