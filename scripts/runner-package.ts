// Builds the runner package the install script installs (plugins/runners/agent-package.ts) and
// says what it is: `npm run runner-package [-- --out DIR]`. The service builds the same package
// on the first install-script request; this is for release pipelines and for measuring it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createPackageCache, runtimeLock } from '../plugins/runners/agent-package.ts';
import { ROOT } from '../core/loader.ts';

const { values } = parseArgs({ options: { out: { type: 'string' } } });
const out = path.resolve(values.out ?? path.join(process.env.DRIFT_DATA_DIR ?? path.join(ROOT, '.data'), 'runner-agent'));
const started = Date.now();
const pkg = await createPackageCache(out).get();
console.log(`package  ${pkg.file}`);
console.log(`version  ${pkg.version} on Node.js ${runtimeLock().version} (${Object.keys(runtimeLock().platforms).join(', ')})`);
console.log(`size     ${(pkg.bytes / 1e6).toFixed(2)} MB (built or found in ${Date.now() - started} ms)`);
console.log(`sha256   ${pkg.sha256}`);

// Unpacked beside this machine's runtime: the one-file runner's start-up time, for --version
// (launcher, runtime, bundle parse) and for `check` against a closed port (the agent and the
// engine with its cloud SDKs loaded, one heartbeat attempted).
const dir = mkdtempSync(path.join(tmpdir(), 'drift-runner-pkg-'));
try {
  spawnSync('tar', ['-xzf', pkg.file, '-C', dir], { stdio: 'inherit' });
  const node = spawnSync('bash', [path.join(ROOT, 'scripts', 'runtime', 'node.sh'), 'dir'], { encoding: 'utf8' }).stdout.trim();
  symlinkSync(node, path.join(dir, 'node'));
  const time = (args: string[]) => {
    const runs: number[] = [];
    let output = '';
    for (let i = 0; i < 5; i++) {
      const t0 = process.hrtime.bigint();
      const r = spawnSync(path.join(dir, 'bin', 'drift-runner'), args, { encoding: 'utf8' });
      runs.push(Number(process.hrtime.bigint() - t0) / 1e6);
      output = (r.stdout || r.stderr).trim().split('\n')[0];
    }
    runs.sort((a, b) => a - b);
    console.log(`start    ${args.join(' ')}: median ${runs[2].toFixed(0)} ms of 5 (min ${runs[0].toFixed(0)}, max ${runs[4].toFixed(0)}) -> ${output}`);
  };
  time(['--version']);
  time(['check', '--url', 'http://127.0.0.1:9', '--token', 'rn_x']);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
