// `ops outbox`: the mails the service wrote to MAIL_OUTBOX_DIR when no SMTP_URL is set
// (core/mail.ts). `outbox` lists them, newest last; `outbox <n>` prints message n with its
// text decoded, so links (password reset, invitations) can be copied; `--raw` prints the .eml.
import { readdir, readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { offlineConfig, ScriptError } from '../app-for-scripts.ts';

interface Part { headers: Map<string, string>; body: string }

/** Headers (unfolded, lower-case names) and body of one MIME entity. */
function parseEntity(raw: string): Part {
  const split = raw.search(/\r?\n\r?\n/);
  const head = split === -1 ? raw : raw.slice(0, split);
  const body = split === -1 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

const decodeQuotedPrintable = (text: string): Buffer => {
  const soft = text.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i], 'utf8'));
  }
  return Buffer.from(bytes);
};

/** RFC 2047 encoded words (=?UTF-8?Q?...?= / ?B?), as nodemailer writes non-ASCII subjects. */
function decodeHeader(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g, (_, _charset: string, enc: string, text: string) =>
      (enc.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : decodeQuotedPrintable(text.replace(/_/g, ' '))).toString('utf8'));
}

function decodeBody(part: Part): string {
  const encoding = (part.headers.get('content-transfer-encoding') ?? '7bit').toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(part.body).toString('utf8');
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return part.body;
}

/** The text/plain part (else text/html, else the first part) of a possibly multipart entity. */
function readableText(part: Part): string {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return decodeBody(part);
  const parts = part.body.split(`--${boundary}`).slice(1)
    .filter((chunk) => !chunk.startsWith('--'))
    .map((chunk) => parseEntity(chunk.replace(/^\r?\n/, '')));
  const kind = (p: Part, t: string) => (p.headers.get('content-type') ?? 'text/plain').toLowerCase().startsWith(t);
  const chosen = parts.find((p) => kind(p, 'text/plain')) ?? parts.find((p) => kind(p, 'multipart/'))
    ?? parts.find((p) => kind(p, 'text/html')) ?? parts[0];
  return chosen ? readableText(chosen) : '';
}

async function listFiles(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  // core/mail.ts names files <ISO time>-<recipient>-<random>.eml, so name order is time order.
  return names.filter((n) => n.endsWith('.eml')).sort();
}

export async function outbox(args: string[]): Promise<number> {
  const config = offlineConfig();
  const dir = resolve(config.MAIL_OUTBOX_DIR);
  const raw = args.includes('--raw');
  const which = args.filter((a) => a !== '--raw')[0];
  const files = await listFiles(dir);
  if (config.SMTP_URL) console.error(`note: SMTP_URL is set, so new mail goes to the SMTP server, not to ${dir}`);

  if (which === undefined) {
    if (!files.length) {
      console.log(`No mail in ${dir}`);
      return 0;
    }
    const width = String(files.length).length;
    for (const [i, name] of files.entries()) {
      const { headers } = parseEntity(await readFile(join(dir, name), 'utf8'));
      const date = new Date(headers.get('date') ?? '');
      const when = Number.isNaN(date.getTime()) ? '-' : date.toISOString().replace('T', ' ').slice(0, 19);
      console.log(`${String(i + 1).padStart(width)}  ${when}  ${decodeHeader(headers.get('to') ?? '-')}  ${decodeHeader(headers.get('subject') ?? '(no subject)')}`);
    }
    console.log(`${files.length} message${files.length === 1 ? '' : 's'} in ${dir}; "outbox <n>" prints one`);
    return 0;
  }

  if (!/^\d+$/.test(which)) throw new ScriptError(`"${which}" is not a message number (see "outbox" for the list)`, 2);
  const n = Number(which);
  if (n < 1 || n > files.length) throw new ScriptError(`no message ${n}; ${dir} holds ${files.length}`, 1);
  const text = await readFile(join(dir, files[n - 1]), 'utf8');
  if (raw) {
    process.stdout.write(text);
    return 0;
  }
  const mail = parseEntity(text);
  for (const name of ['from', 'to', 'subject', 'date']) {
    const value = mail.headers.get(name);
    if (value) console.log(`${name[0].toUpperCase()}${name.slice(1)}: ${decodeHeader(value)}`);
  }
  console.log(`File: ${join(dir, files[n - 1])}\n`);
  console.log(readableText(mail).trimEnd());
  return 0;
}
