// `ops create-admin`: a platform admin through the auth plugin's own registration path
// (same validation, password hashing and default organization as POST /api/auth/register).
import { AppError } from '../../core/errors.ts';
import type { App } from '../../core/app.ts';
import type { Accounts } from '../../plugins/auth/service.ts';
import { ScriptError, withApp } from '../app-for-scripts.ts';

/**
 * The operator's action in the platform trail (orgId null): who ran it is the machine's
 * operator, so the actor is `operator` with the OS user, and the entry names the account.
 */
async function audited(built: App, action: string, user: { userId: string; email: string }, details: Record<string, unknown>): Promise<void> {
  await built.ctx.audit.write({
    orgId: null, action, userId: null, actorKind: 'operator', actorName: process.env.USER ?? process.env.LOGNAME ?? 'operator',
    method: 'CLI', route: 'ops create-admin', resourceType: 'user', resourceId: user.userId, statusCode: 0,
    details: { email: user.email, ...details }, ipAddress: '', userAgent: 'npm run ops',
  });
  await built.ctx.audit.flush();
}

function accountsService(built: App): Accounts {
  const accounts = built.services.auth?.accounts;
  if (!accounts) throw new ScriptError('the auth plugin did not register its accounts service');
  return accounts;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').replace(/\r?\n$/, '');
}

/** create-admin <email> <password|-> [name]; "-" reads the password from stdin (keeps it out of shell history). */
export async function createAdmin([email, passwordArg, name]: string[]): Promise<number> {
  const password = passwordArg === '-' ? await readStdin() : passwordArg;
  return withApp(async (built) => {
    const accounts = accountsService(built);
    try {
      const user = await accounts.createUser({ email, password, name, role: 'admin' });
      await audited(built, 'ops.admin_created', user, { orgId: user.orgId });
      console.log(`Created platform admin ${user.email}: user ${user.userId}, organization ${user.orgId}`);
      return 0;
    } catch (err) {
      if (!(err instanceof AppError)) throw err;
      if (err.code === 'bad_request') throw new ScriptError(`invalid input: ${err.message}`, 2);
      if (err.code !== 'conflict') throw new ScriptError(err.message);
    }
    // The email is taken: promote that account instead (its password is left as it is).
    const existing = await accounts.setRole(email, 'admin');
    if (!existing) throw new ScriptError(`could not create or find a user with email ${email}`);
    if (existing.changed) await audited(built, 'ops.admin_promoted', existing, { role: 'admin' });
    console.log(existing.changed
      ? `Promoted existing user ${existing.email} to platform admin (password unchanged): user ${existing.userId}, organization ${existing.orgId}`
      : `${existing.email} is already a platform admin: user ${existing.userId}, organization ${existing.orgId}`);
    return 0;
  });
}
