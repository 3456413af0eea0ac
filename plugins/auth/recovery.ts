// Password reset by email. The reset token is stored hashed, lives one hour, and is spent
// once (exactly-once primitive); a reset ends every session of the account.
import type { AppContext } from '../../core/context.ts';
import { badRequest } from '../../core/errors.ts';
import { hashPassword, randomToken, sha256Hex } from '../../core/crypto.ts';
import type { AuthStore } from './store.ts';
import type { Sessions } from './sessions.ts';
import { normalizeEmail } from './sessions.ts';
import type { Credentials } from './credential-readers.ts';

const RESET_TTL_MS = 60 * 60 * 1000;

export function createRecovery(ctx: AppContext, store: AuthStore, sessions: Sessions, creds: Credentials) {
  return {
    /** Always the same answer, so the route does not reveal which emails have accounts. */
    async forgot(emailInput: string) {
      const user = await store.userByEmail(normalizeEmail(emailInput));
      if (user) {
        const token = randomToken('rst_');
        const now = new Date();
        await store.insertOneTimeToken({ _id: sha256Hex(token), userId: user._id, purpose: 'reset', createdAt: now, expiresAt: new Date(now.getTime() + RESET_TTL_MS) });
        const link = `${ctx.config.FRONTEND_URL}/reset-password?token=${encodeURIComponent(token)}`;
        await ctx.mail.send({
          to: user.email,
          subject: 'Reset your password',
          text: `Someone asked to reset the password of your account.\n\nReset it within one hour: ${link}\n\nToken: ${token}\n\nIf this was not you, ignore this email.`,
        });
      }
      return { message: 'If an account exists for this email, a reset link has been sent' };
    },

    async reset(token: string, password: string) {
      const hash = sha256Hex(token);
      const record = await store.oneTimeToken(hash);
      if (!record || record.purpose !== 'reset' || record.expiresAt < new Date() || !(await ctx.once.claim(`reset:${hash}`))) {
        throw badRequest('Invalid or expired reset token');
      }
      const passwordHash = await hashPassword(password);
      await store.updateUser(record.userId, { passwordHash, passwordChangedAt: new Date() });
      await store.spendOneTimeToken(hash);
      await creds.users.invalidate(record.userId);
      await sessions.revokeAll(record.userId, 'password_reset');
      return { message: 'Password has been reset; sign in with the new password' };
    },
  };
}
