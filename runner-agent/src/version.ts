// The agent's version is its package's: what `drift-runner --version` prints and the heartbeat reports.
import { readFileSync } from 'node:fs';

export const VERSION: string = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version;
