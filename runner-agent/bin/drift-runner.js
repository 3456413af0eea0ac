#!/usr/bin/env node
// Launcher from a checkout: Node runs the agent's TypeScript through its own type stripping
// (erasable syntax only). Installed runners run the one-file bundle beside the official Node
// binary instead (runner-agent/src/package.ts builds it; node_modules cannot strip types).
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 18)) {
  console.error(`drift-runner from source needs Node.js 26 (the project's runtime: scripts/runtime/node.sh); this is ${process.version}`);
  process.exit(1);
}
const { main, log } = await import('../src/cli.ts');
main().then((code) => process.exit(code), (err) => {
  log('error', err?.stack ?? String(err));
  process.exit(1);
});
