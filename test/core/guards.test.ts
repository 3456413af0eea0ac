// The guard chain on its own, for the parts no current route exercises (platform admin) and
// the order of checks: credentials, scope, organization, permission, plan.
import t from 'tap';
import Fastify from 'fastify';
import fastifyAuth from '@fastify/auth';
import { buildGuards } from '../../core/guards/chain.ts';
import { errorHandler } from '../../core/error-handler.ts';
import type { RouteSpec } from '../../core/manifest.ts';
import type { CredentialKind, CredentialReader, Principal } from '../../core/guards/principal.ts';
import { buildTestApp, register, bearer } from '../helper.ts';

t.test('platform admin routes: 403 for everyone but admins', async (t) => {
  const { ctx } = await buildTestApp(t);
  const principals: Record<string, Principal> = {
    admin: { kind: 'user', userId: 'a', platformRole: 'admin' },
    user: { kind: 'user', userId: 'u', platformRole: 'user' },
  };
  const readers = new Map<CredentialKind, CredentialReader>([['jwt', async (req) => principals[String(req.headers.authorization ?? '').slice(7)]]]);
  const spec: RouteSpec = { id: 'adminThing', method: 'GET', url: '/admin', auth: 'bearer', platformAdmin: true, response: { 200: null }, handler: 'x' };
  // The guards compose credential readers with @fastify/auth, as the app does (core/app.ts).
  const app = Fastify();
  await app.register(fastifyAuth);
  const guards = buildGuards(spec, undefined, {
    auth: app.auth.bind(app), readers, records: new Map(), tenancy: ctx.tenancy, limits: ctx.limits, rateLimit: async () => {}, verifySignature: async () => {},
  }, 'test');
  app.setErrorHandler(errorHandler);
  app.get('/admin', { onRequest: guards.onRequest }, async () => ({ ok: true }));
  t.teardown(() => app.close());
  t.equal((await app.inject({ url: '/admin' })).statusCode, 401, 'anonymous: 401');
  const denied = await app.inject({ url: '/admin', headers: bearer('user') });
  t.equal(denied.statusCode, 403, 'a user: 403');
  t.equal(denied.json().error.message, 'Forbidden');
  t.equal((await app.inject({ url: '/admin', headers: bearer('admin') })).statusCode, 200, 'an admin passes');
});

t.test('custom role permissions are honoured by the permission guard', async (t) => {
  const { app, ctx } = await buildTestApp(t);
  const owner = await register(app);
  const member = await register(app);
  const { _id: roleId } = await ctx.tenancy.createRole({ orgId: owner.orgId, name: 'auditor', permissions: ['org:read'] });
  await ctx.tenancy.addMember({ orgId: owner.orgId, userId: member.userId, role: roleId });
  const read = await app.inject({ method: 'GET', url: `/api/orgs/${owner.orgId}`, headers: bearer(member.token) });
  t.equal(read.statusCode, 200, 'a custom role with org:read may read the organization');
  t.equal(read.json().role, roleId);
  // The write API drops the cached role in every process: the next request sees it.
  await ctx.tenancy.updateRole(owner.orgId, roleId, { permissions: [] });
  const denied = await app.inject({ method: 'GET', url: `/api/orgs/${owner.orgId}`, headers: bearer(member.token) });
  t.equal(denied.statusCode, 403, 'without it, 403 permission_denied');
  t.equal(denied.json().error.code, 'permission_denied');
});
