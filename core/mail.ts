// Outgoing mail through one module: SMTP when SMTP_URL is set, otherwise a local outbox
// folder of .eml files the operator can read (`npm run ops -- outbox`).
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import nodemailer from 'nodemailer';

export interface MailMessage { to: string; subject: string; text: string; html?: string }
export interface Mailer { send(message: MailMessage): Promise<void>; close(): void }

export function createMailer(cfg: { SMTP_URL?: string; MAIL_FROM: string; MAIL_OUTBOX_DIR: string }): Mailer {
  if (cfg.SMTP_URL) {
    const transport = nodemailer.createTransport(cfg.SMTP_URL);
    return {
      async send(m) { await transport.sendMail({ from: cfg.MAIL_FROM, ...m }); },
      close: () => transport.close(),
    };
  }
  const outbox = resolve(cfg.MAIL_OUTBOX_DIR);
  const stream = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(m) {
      const info = await stream.sendMail({ from: cfg.MAIL_FROM, ...m });
      await mkdir(outbox, { recursive: true });
      // File names hold 255 bytes; an address may be longer (RFC 5321 allows 254 plus the rest of the name).
      const safeTo = m.to.replace(/[^a-zA-Z0-9@._-]/g, '_').slice(0, 120);
      // A random tail: two mails to one address in the same millisecond must not overwrite each other.
      await writeFile(join(outbox, `${new Date().toISOString().replace(/[:.]/g, '-')}-${safeTo}-${randomBytes(3).toString('hex')}.eml`), info.message as Buffer, { flag: 'wx' });
    },
    close: () => stream.close(),
  };
}
