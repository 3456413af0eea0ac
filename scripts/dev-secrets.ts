// Outside production, `npm start` must work with no configuration: JWT_SECRET and
// ENCRYPTION_KEY default to random values generated once and kept in the data folder, so
// sessions and encrypted credentials survive restarts. Production must set both.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';

const REPO = resolve(dirname(fileURLToPath(import.meta.url)), '..');

export function ensureDevSecrets(env: NodeJS.ProcessEnv): void {
  if (env.NODE_ENV === 'production' || (env.JWT_SECRET && env.ENCRYPTION_KEY)) return;
  const file = join(resolve(env.DRIFT_DATA_DIR ?? join(REPO, '.data')), 'dev-secrets.json');
  let secrets: { JWT_SECRET: string; ENCRYPTION_KEY: string };
  if (existsSync(file)) {
    secrets = JSON.parse(readFileSync(file, 'utf8'));
  } else {
    secrets = { JWT_SECRET: randomBytes(32).toString('hex'), ENCRYPTION_KEY: randomBytes(32).toString('hex') };
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  }
  env.JWT_SECRET ||= secrets.JWT_SECRET;
  env.ENCRYPTION_KEY ||= secrets.ENCRYPTION_KEY;
}
