// Entry of the one-file bundle the install script installs beside the official Node binary
// (plugins/runners/agent-package.ts builds it with esbuild). From a checkout, bin/drift-runner.js
// runs the sources instead.
import module from 'node:module';
import { main, log } from './cli.ts';

// V8's code cache for the bundle (Node's default folder under the temp dir): later starts skip
// most of the compile. Best effort: an unwritable temp dir only costs speed.
module.enableCompileCache?.();
main().then((code) => process.exit(code), (err: Error) => {
  log('error', err?.stack ?? String(err));
  process.exit(1);
});
