// The runner package the install script installs: the agent bundled by esbuild into one ES
// module file, run by the official Node binary of the host's platform (the npm registry's
// node-<platform> tarball, served as it is). Two downloads, each with a SHA-256 the script
// carries: the package (built here, hashed once built) and the runtime (pinned in
// scripts/runtime/node-runtime.lock, checked by scripts/runtime/node.sh when it downloads it).
//
// Package layout (a .tgz, unpacked into $PREFIX/releases/<sha>/):
//   bin/drift-runner        launcher: exec node/bin/node lib/drift-runner.mjs "$@"
//   lib/drift-runner.mjs    the agent, the engine and its dependencies in one file
//   main.wasm.gz            @cdktf/hcl2json's HCL parser (it reads it from its own ../ folder)
//   VERSION, RUNTIME        the agent's version and the Node version it expects
// The install script adds node -> ../../runtimes/node-v<version>-<platform> beside them.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmodSync, copyFileSync, createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../core/loader.ts';

const AGENT_DIR = path.join(ROOT, 'runner-agent');
const NODE_SH = path.join(ROOT, 'scripts', 'runtime', 'node.sh');

export interface RuntimeLock { version: string; platforms: Record<string, string> }

/** scripts/runtime/node-runtime.lock: the Node version and the SHA-256 of each platform's registry tarball. */
export function runtimeLock(): RuntimeLock {
  const lock: RuntimeLock = { version: '', platforms: {} };
  for (const line of readFileSync(path.join(ROOT, 'scripts', 'runtime', 'node-runtime.lock'), 'utf8').split('\n')) {
    const [key, value] = line.trim().split(/\s+/);
    if (!key || key.startsWith('#') || !value) continue;
    if (key === 'version') lock.version = value;
    else lock.platforms[key] = value;
  }
  return lock;
}

export interface AgentPackage { file: string; sha256: string; bytes: number; version: string }

const run = (cmd: string, args: string[], timeout = 300_000) => new Promise<string>((resolve, reject) =>
  execFile(cmd, args, { timeout, maxBuffer: 1 << 20 }, (err, stdout, stderr) => (err ? reject(new Error(`${cmd} ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout.trim()))));

const sha256File = (file: string) => new Promise<string>((resolve, reject) => {
  const h = createHash('sha256');
  createReadStream(file).on('data', (d) => h.update(d)).on('error', reject).on('end', () => resolve(h.digest('hex')));
});

/** A hash of what goes into the bundle: the agent's files (names, sizes, mtimes) and the lockfile. */
function sourceHash(): string {
  const h = createHash('sha256');
  const walk = (rel: string) => {
    const full = path.join(AGENT_DIR, rel);
    const st = statSync(full);
    if (st.isDirectory()) {
      for (const name of readdirSync(full).sort()) if (name !== 'node_modules' && name !== 'test') walk(path.join(rel, name));
    } else {
      h.update(`${rel}\0${st.size}\0${st.mtimeMs}\0`);
    }
  };
  h.update(readFileSync(path.join(AGENT_DIR, 'package.json')));
  for (const part of ['bin', 'src']) if (existsSync(path.join(AGENT_DIR, part))) walk(part);
  const lockfile = path.join(ROOT, 'package-lock.json');
  if (existsSync(lockfile)) h.update(readFileSync(lockfile));
  h.update(readFileSync(path.join(ROOT, 'scripts', 'runtime', 'node-runtime.lock')));
  return h.digest('hex').slice(0, 16);
}

const LAUNCHER = `#!/usr/bin/env bash
# drift-runner: the bundled agent on the Node runtime installed beside it.
src="\${BASH_SOURCE[0]}"
while [ -L "$src" ]; do
  dir=$(cd -P "$(dirname "$src")" && pwd)
  src=$(readlink "$src")
  case "$src" in /*) ;; *) src="$dir/$src" ;; esac
done
here=$(cd -P "$(dirname "$src")/.." && pwd)
exec "$here/node/bin/node" "$here/lib/drift-runner.mjs" "$@"
`;

// ES module output: CommonJS dependencies inside call require() and read __dirname. The banner's
// own names are unique and the free `__dirname` / `__filename` of bundled code are defined to
// them: a bundled ES module that declares its own `__dirname` (the `open` package does) keeps it
// instead of clashing with the banner's.
const BANNER = [
  "import { createRequire as __driftRequire } from 'node:module';",
  "import { fileURLToPath as __driftPath } from 'node:url';",
  'const require = __driftRequire(import.meta.url);',
  'const __driftFilename = __driftPath(import.meta.url);',
  "const __driftDirname = __driftPath(new URL('.', import.meta.url));",
].join('\n');

/** Builds the package into `outFile` (esbuild, then tar). */
export async function buildAgentPackage(outFile: string): Promise<{ version: string }> {
  const { build } = await import('esbuild');
  const version = (JSON.parse(readFileSync(path.join(AGENT_DIR, 'package.json'), 'utf8')) as { version: string }).version;
  const staging = `${outFile}.staging`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(path.join(staging, 'bin'), { recursive: true });
  try {
    await build({
      entryPoints: [path.join(AGENT_DIR, 'src', 'bundle-entry.ts')],
      outfile: path.join(staging, 'lib', 'drift-runner.mjs'),
      bundle: true, platform: 'node', format: 'esm', target: `node${runtimeLock().version.split('.')[0]}`,
      minifyWhitespace: true, minifySyntax: true, legalComments: 'none', logLevel: 'silent',
      define: { DRIFT_RUNNER_BUNDLED_VERSION: JSON.stringify(version), __dirname: '__driftDirname', __filename: '__driftFilename' },
      // hcl2json's Go glue: `globalThis.performance ??= require('performance')`, never reached on Node 16+.
      external: ['performance'],
      banner: { js: BANNER },
    });
    // Beside the repository's node_modules, where the service's dependencies are installed.
    copyFileSync(path.join(ROOT, 'node_modules', '@cdktf', 'hcl2json', 'main.wasm.gz'), path.join(staging, 'main.wasm.gz'));
    writeFileSync(path.join(staging, 'bin', 'drift-runner'), LAUNCHER);
    chmodSync(path.join(staging, 'bin', 'drift-runner'), 0o755);
    writeFileSync(path.join(staging, 'VERSION'), `${version}\n`);
    writeFileSync(path.join(staging, 'RUNTIME'), `${runtimeLock().version}\n`);
    await run('tar', ['-czf', outFile, '-C', staging, 'bin', 'lib', 'main.wasm.gz', 'VERSION', 'RUNTIME']);
    return { version };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** The built package and its SHA-256, once per content: cached under DIR, rebuilt when a source changes. */
export function createPackageCache(dir: string) {
  let building: Promise<AgentPackage> | undefined;
  let last: AgentPackage | undefined;
  async function get(): Promise<AgentPackage> {
    const file = path.join(dir, `runner-bundle-${sourceHash()}.tgz`);
    if (last?.file === file && existsSync(file)) return last;
    if (existsSync(file) && existsSync(`${file}.sha256`)) {
      const sha256 = readFileSync(`${file}.sha256`, 'utf8').trim();
      if (sha256 === await sha256File(file)) {
        last = { file, sha256, bytes: statSync(file).size, version: (JSON.parse(readFileSync(path.join(AGENT_DIR, 'package.json'), 'utf8')) as { version: string }).version };
        return last;
      }
    }
    building ??= (async () => {
      mkdirSync(dir, { recursive: true });
      const tmp = `${file}.${process.pid}-${Date.now()}.tmp`;
      try {
        const { version } = await buildAgentPackage(tmp);
        const sha256 = await sha256File(tmp);
        writeFileSync(`${file}.sha256`, `${sha256}\n`);
        // Moved into place whole, so a concurrent reader (another process) never sees half a tarball.
        renameSync(tmp, file);
        for (const f of readdirSync(dir)) {
          if (/^runner-bundle-[0-9a-f]+\.tgz(\.sha256)?$/.test(f) && !f.startsWith(path.basename(file))) rmSync(path.join(dir, f), { force: true });
        }
        last = { file, sha256, bytes: statSync(file).size, version };
        return last;
      } finally {
        rmSync(tmp, { force: true });
      }
    })().finally(() => { building = undefined; });
    return building;
  }
  return { get };
}

/** The registry tarball of PLATFORM's Node runtime (downloaded once by scripts/runtime/node.sh, SHA-256 checked). */
export async function runtimeTarball(platform: string): Promise<{ file: string; sha256: string }> {
  const sha256 = runtimeLock().platforms[platform];
  if (!sha256) throw new Error(`no runtime for ${platform}`);
  const file = (await run('bash', [NODE_SH, 'tarball', platform])).split('\n').pop()!;
  return { file, sha256 };
}
