// A platform admin's session: created through the operator's accounts service (as
// `npm run ops -- create-admin` does), then signed in like any user.
import { register, type buildTestApp, type Session } from '../../helper.ts';

export async function admin(app: Parameters<typeof register>[0], services: Awaited<ReturnType<typeof buildTestApp>>['services'], email: string): Promise<Session> {
  await services.auth!.accounts.createUser({ email, password: 'correct horse battery', role: 'admin' });
  const res = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password: 'correct horse battery' } });
  const body = res.json();
  return { token: body.token, refreshToken: body.refreshToken, userId: body.user.id, orgId: '', email };
}
