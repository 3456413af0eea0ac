// The install script GET /api/runners/:runnerId/setup serves (rendered by the service, kept in
// this package beside the agent it installs). Bash, idempotent: running it again reinstalls
// the package, rewrites the config and restarts the service. The host needs bash, curl or wget,
// tar and sha256sum (or shasum), and git for git sources: no Node, no npm. It installs the
// one-file agent (the package, plugins/runners/agent-package.ts) beside the official Node binary
// of the host's platform (the runtime), each checked against the SHA-256 the service put in this
// script; a mismatch stops it before anything is changed. A new release is unpacked beside the
// current one and must start and report in (`drift-runner check`: one heartbeat) before
// $PREFIX/current points at it; with systemd, a unit that does not come up is switched back.
//
// Layout: $PREFIX/releases/<version>-<sha>/{bin/drift-runner,lib/drift-runner.mjs,node -> runtime},
// $PREFIX/runtimes/node-v<version>-<platform>/bin/node, $PREFIX/current -> releases/<...>,
// $PREFIX/bin/drift-runner -> ../current/bin/drift-runner. The previous release is kept (one).
//
// Environment it honours: PREFIX (default /opt/drift-runner), CONFIG_DIR (/etc/drift-runner),
// STATE_DIR (/var/lib/drift-runner), DRIFT_RUNNER_ROOT (prefix for every path it writes, like
// DESTDIR: tests and image builds), DRIFT_SKIP_SYSTEMD=1 (never touch systemd),
// DRIFT_RUNNER_PACKAGE_URL / DRIFT_RUNNER_RUNTIME_URL (other download addresses: the SHA-256
// values stay the ones in this script).
//
// The script is rendered from its sections in the order they run, each a constant or a function
// of the few values it interpolates: variables, checks, download, config, switch, service, cleanup.

export interface SetupScriptInput {
  apiUrl: string;
  runnerId: string;
  runnerName: string;
  token: string;
  packageUrl: string;
  /** SHA-256 (hex) of the package at packageUrl, computed by the service when it built it. */
  packageSha256: string;
  packageVersion: string;
  /** The runtime download; the script appends &platform=<platform>. */
  runtimeUrl: string;
  nodeVersion: string;
  /** platform (linux-x64, ...) -> SHA-256 of its runtime tarball. */
  runtimes: Record<string, string>;
}

/** A value as one single-quoted shell word. */
export const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
/** A value inside a double-quoted shell word. */
const dq = (v: string) => v.replace(/["$`\\]/g, '\\$&');

/** The values the script runs with: the service's, quoted, and the host's overrides. */
const variables = (i: SetupScriptInput, name: string, platforms: string[]) => `#!/usr/bin/env bash
# drift-runner install script for runner "${name}" (${i.runnerId}), served by ${i.apiUrl}.
# It carries this runner's token: keep it private. Safe to run again (reinstall + restart).
set -euo pipefail

API_URL=${shellQuote(i.apiUrl)}
RUNNER_TOKEN=${shellQuote(i.token)}
PACKAGE_URL="\${DRIFT_RUNNER_PACKAGE_URL:-${dq(i.packageUrl)}}"
PACKAGE_SHA256=${shellQuote(i.packageSha256)}
PACKAGE_VERSION=${shellQuote(i.packageVersion)}
RUNTIME_URL="\${DRIFT_RUNNER_RUNTIME_URL:-${dq(i.runtimeUrl)}}"
NODE_VERSION=${shellQuote(i.nodeVersion)}
SUPPORTED=${shellQuote(platforms.join(', '))}
ROOT="\${DRIFT_RUNNER_ROOT:-}"
PREFIX="\${PREFIX:-/opt/drift-runner}"
CONFIG_DIR="\${CONFIG_DIR:-/etc/drift-runner}"
STATE_DIR="\${STATE_DIR:-/var/lib/drift-runner}"
UNIT=drift-runner.service
# systemd's StateDirectory= (writable by the unit's dynamic user) lives under /var/lib.
case "$STATE_DIR" in
  /var/lib/?*) STATE_SUBDIR="\${STATE_DIR#/var/lib/}" ;;
  *) STATE_SUBDIR="" ;;
esac

`;

/** Helpers, then the checks made before anything is written: platform and its runtime, systemd, tools. */
const checks = (runtimeCases: string) => `say() { printf 'drift-runner setup: %s\\n' "$*"; }
fail() { printf 'drift-runner setup: %s\\n' "$*" >&2; exit 1; }

# Everything is checked before anything is written.
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64|Linux-amd64) PLATFORM=linux-x64 ;;
  Linux-aarch64|Linux-arm64) PLATFORM=linux-arm64 ;;
  Darwin-arm64) PLATFORM=darwin-arm64 ;;
  Darwin-x86_64) PLATFORM=darwin-x64 ;;
  *) PLATFORM="$(uname -s)-$(uname -m)" ;;
esac
RUNTIME_SHA256=
case "$PLATFORM" in
${runtimeCases}
  *) ;;
esac
[ -n "$RUNTIME_SHA256" ] || fail "no drift-runner build for $PLATFORM (Node.js $NODE_VERSION has no official binary for it on the npm registry); supported platforms: $SUPPORTED"
USE_SYSTEMD=0
if [ "\${DRIFT_SKIP_SYSTEMD:-0}" != "1" ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then USE_SYSTEMD=1; fi
[ "$USE_SYSTEMD" = 0 ] || [ -n "$STATE_SUBDIR" ] || fail "with systemd, STATE_DIR must be under /var/lib (the service runs as a dynamic user that may write only there); got $STATE_DIR"
if command -v curl >/dev/null 2>&1; then download() { curl -fsSL --retry 3 -o "$2" "$1"; }
elif command -v wget >/dev/null 2>&1; then download() { wget -q -O "$2" "$1"; }
else fail "curl or wget is required to download the runner"; fi
command -v tar >/dev/null 2>&1 || fail "tar is required to unpack the runner"
if command -v sha256sum >/dev/null 2>&1; then sha256() { sha256sum "$1" | cut -d' ' -f1; }
elif command -v shasum >/dev/null 2>&1; then sha256() { shasum -a 256 "$1" | cut -d' ' -f1; }
else fail "sha256sum or shasum is required to check the downloads"; fi
command -v git >/dev/null 2>&1 || say "warning: git is not installed; scans of git repositories need it"

`;

/** The runtime and package downloaded and checked, the new release unpacked beside the current one, started and reporting in. */
const DOWNLOAD = `tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Downloaded and checked against the SHA-256 the service computed: a mismatch changes nothing.
fetch() { # url file sha256 what
  download "$1" "$2" || fail "could not download $4 from $API_URL"
  local got; got=$(sha256 "$2")
  [ "$got" = "$3" ] || fail "$4: SHA-256 $got, expected $3 (what the service built): refused, nothing was changed"
}
BASE="$ROOT$PREFIX"
RUNTIME_NAME="node-v$NODE_VERSION-$PLATFORM"
if [ ! -x "$BASE/runtimes/$RUNTIME_NAME/bin/node" ]; then
  say "downloading Node.js $NODE_VERSION for $PLATFORM"
  fetch "$RUNTIME_URL&platform=$PLATFORM" "$tmp/runtime.tgz" "$RUNTIME_SHA256" "the Node.js runtime"
  mkdir -p "$tmp/runtime"
  tar -xzf "$tmp/runtime.tgz" -C "$tmp/runtime" package/bin/node package/LICENSE || fail "could not unpack the Node.js runtime"
fi
say "downloading drift-runner $PACKAGE_VERSION"
fetch "$PACKAGE_URL" "$tmp/package.tgz" "$PACKAGE_SHA256" "the runner package"
RELEASE="$PACKAGE_VERSION-\${PACKAGE_SHA256:0:12}"
mkdir -p "$BASE/releases" "$BASE/runtimes" "$BASE/bin"
if [ -d "$tmp/runtime" ]; then
  rm -rf "$BASE/runtimes/$RUNTIME_NAME"
  mv "$tmp/runtime/package" "$BASE/runtimes/$RUNTIME_NAME"
fi
# The new release beside the current one; the current one is untouched until this one reported in.
NEW="$BASE/releases/.new-$RELEASE"
rm -rf "$NEW"
mkdir -p "$NEW"
tar -xzf "$tmp/package.tgz" -C "$NEW" || { rm -rf "$NEW"; fail "could not unpack the runner package"; }
ln -s "../../runtimes/$RUNTIME_NAME" "$NEW/node"
version=$("$NEW/bin/drift-runner" --version 2>"$tmp/err") || { rm -rf "$NEW"; fail "the new drift-runner does not start ($(head -c 300 "$tmp/err")); the previous install is kept"; }
say "installing $version into $BASE"
( set -a; DRIFT_API_URL="$API_URL"; DRIFT_RUNNER_TOKEN="$RUNNER_TOKEN"; DRIFT_RUNNER_STATE_DIR="$ROOT$STATE_DIR"; export DRIFT_API_URL DRIFT_RUNNER_TOKEN DRIFT_RUNNER_STATE_DIR
  "$NEW/bin/drift-runner" check >"$tmp/check" 2>&1 ) || { rm -rf "$NEW"; fail "the new drift-runner did not report in to $API_URL ($(tail -c 300 "$tmp/check")); rolled back: the previous install is kept"; }

`;

/** The config file with the token, readable by root only. */
const CONFIG = `# The token is a secret: the config file is readable by root only. Written whole, then moved.
mkdir -p "$ROOT$CONFIG_DIR"
( umask 077
  printf 'DRIFT_API_URL=%s\\nDRIFT_RUNNER_TOKEN=%s\\nDRIFT_RUNNER_STATE_DIR=%s\\n' "$API_URL" "$RUNNER_TOKEN" "$STATE_DIR" > "$ROOT$CONFIG_DIR/runner.env.tmp" )
chmod 600 "$ROOT$CONFIG_DIR/runner.env.tmp"
mv -f "$ROOT$CONFIG_DIR/runner.env.tmp" "$ROOT$CONFIG_DIR/runner.env"
say "wrote $ROOT$CONFIG_DIR/runner.env"

`;

/** `current` pointed at the new release. */
const SWITCH = `# Switch: releases/<release> (a reinstall of the same release replaces it), then current.
point() { ln -sfn "$1" "$BASE/current.tmp" && { mv -Tf "$BASE/current.tmp" "$BASE/current" 2>/dev/null || mv -fh "$BASE/current.tmp" "$BASE/current"; }; }
previous=$(readlink "$BASE/current" 2>/dev/null || true)
if [ -d "$BASE/releases/$RELEASE" ]; then mv "$BASE/releases/$RELEASE" "$BASE/releases/.old-$RELEASE-$$"; fi
mv "$NEW" "$BASE/releases/$RELEASE"
point "releases/$RELEASE"
rm -rf "$BASE/releases/.old-$RELEASE-$$"
ln -sfn ../current/bin/drift-runner "$BASE/bin/drift-runner"
# An install of the npm-package era: its files are no longer used.
rm -rf "$BASE/lib/node_modules/@drift"

`;

/** The systemd unit (rolled back to the previous release when it does not stay up), or how to start the runner by hand. */
const service = (name: string) => `if [ "$USE_SYSTEMD" = 1 ]; then
  mkdir -p "$ROOT/etc/systemd/system"
  cat > "$ROOT/etc/systemd/system/$UNIT" <<UNIT_EOF
[Unit]
Description=Drift scan runner (${name})
After=network-online.target
Wants=network-online.target

[Service]
EnvironmentFile=$CONFIG_DIR/runner.env
ExecStart=$PREFIX/bin/drift-runner start
# The agent finishes or aborts its scan within its grace period, delivers, then exits 0.
KillSignal=SIGTERM
TimeoutStopSec=90
Restart=always
RestartSec=5
DynamicUser=yes
StateDirectory=$STATE_SUBDIR

[Install]
WantedBy=multi-user.target
UNIT_EOF
  systemctl daemon-reload
  systemctl enable "$UNIT" >/dev/null
  # restart, not just --now: a second run must pick up the new package and token.
  systemctl restart "$UNIT" || true
  sleep 5
  if ! systemctl is-active --quiet "$UNIT"; then
    if [ -n "$previous" ] && [ "$previous" != "releases/$RELEASE" ] && [ -d "$BASE/$previous" ]; then
      point "$previous"
      systemctl restart "$UNIT" || true
      fail "$UNIT did not stay up on $version; rolled back to $previous (journalctl -u $UNIT)"
    fi
    fail "$UNIT did not stay up (journalctl -u $UNIT)"
  fi
  say "systemd service $UNIT enabled and started (journalctl -u $UNIT -f)"
else
  mkdir -p "$ROOT$STATE_DIR"
  say "systemd not used here; start the runner with:"
  printf '  set -a; . %s/runner.env; set +a; %s/bin/drift-runner start\\n' "$ROOT$CONFIG_DIR" "$BASE"
fi

`;

/** Old releases and the runtimes no release uses removed. */
const CLEANUP = `# Kept: the current release and the one before it (a manual rollback: point current back).
for r in "$BASE"/releases/*; do
  [ -d "$r" ] || continue
  case "releases/\${r##*/}" in "releases/$RELEASE"|"$previous") ;; *) rm -rf "$r" ;; esac
done
for rt in "$BASE"/runtimes/*; do
  [ -d "$rt" ] || continue
  used=0
  for r in "$BASE"/releases/*; do [ "$(readlink "$r/node" 2>/dev/null)" = "../../runtimes/\${rt##*/}" ] && used=1; done
  [ "$used" = 1 ] || rm -rf "$rt"
done
say "installed $version"
`;

export function renderSetupScript(i: SetupScriptInput): string {
  const name = i.runnerName.replace(/[^\w .:/-]/g, '?');
  const platforms = Object.keys(i.runtimes).filter((p) => /^[a-z0-9]+-[a-z0-9]+$/.test(p) && /^[0-9a-f]{64}$/.test(i.runtimes[p]));
  const runtimeCases = platforms.map((p) => `  ${p}) RUNTIME_SHA256=${i.runtimes[p]} ;;`).join('\n');
  return [variables(i, name, platforms), checks(runtimeCases), DOWNLOAD, CONFIG, SWITCH, service(name), CLEANUP].join('');
}
