#!/usr/bin/env node
// Launcher: the agent and the detection engine it shares with the service are TypeScript, so
// the bin registers tsx's loader (a runtime dependency) and imports the CLI. No build step.
import { register } from 'tsx/esm/api';

const [major] = process.versions.node.split('.').map(Number);
if (major < 20) {
  console.error(`drift-runner needs Node.js 20 or later; this is ${process.version}`);
  process.exit(1);
}
register();
const { main, log } = await import('../src/cli.ts');
main().then((code) => process.exit(code), (err) => {
  log('error', err?.stack ?? String(err));
  process.exit(1);
});
