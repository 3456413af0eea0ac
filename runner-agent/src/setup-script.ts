// The install script GET /api/runners/:runnerId/setup serves (rendered by the service, kept in
// this package beside the agent it installs). Bash, idempotent: running it again reinstalls
// the package, rewrites the config and restarts the service.
//
// Environment it honours: PREFIX (default /opt/drift-runner), CONFIG_DIR (/etc/drift-runner),
// STATE_DIR (/var/lib/drift-runner), DRIFT_RUNNER_ROOT (prefix for every path it writes, like
// DESTDIR: tests and image builds), DRIFT_SKIP_SYSTEMD=1 (never touch systemd),
// DRIFT_RUNNER_PACKAGE_URL (another package tarball).

export interface SetupScriptInput {
  apiUrl: string;
  runnerId: string;
  runnerName: string;
  token: string;
  packageUrl: string;
}

/** A value as one single-quoted shell word. */
export const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export function renderSetupScript(i: SetupScriptInput): string {
  const name = i.runnerName.replace(/[^\w .:/-]/g, '?');
  return `#!/usr/bin/env bash
# drift-runner install script for runner "${name}" (${i.runnerId}), served by ${i.apiUrl}.
# It carries this runner's token: keep it private. Safe to run again (reinstall + restart).
set -euo pipefail

API_URL=${shellQuote(i.apiUrl)}
RUNNER_TOKEN=${shellQuote(i.token)}
PACKAGE_URL="\${DRIFT_RUNNER_PACKAGE_URL:-${i.packageUrl.replace(/["$`\\]/g, '\\$&')}}"
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

say() { printf 'drift-runner setup: %s\\n' "$*"; }
fail() { printf 'drift-runner setup: %s\\n' "$*" >&2; exit 1; }

USE_SYSTEMD=0
if [ "\${DRIFT_SKIP_SYSTEMD:-0}" != "1" ] && [ -d /run/systemd/system ] && command -v systemctl >/dev/null 2>&1; then USE_SYSTEMD=1; fi
# Checked before anything is written.
[ "$USE_SYSTEMD" = 0 ] || [ -n "$STATE_SUBDIR" ] || fail "with systemd, STATE_DIR must be under /var/lib (the service runs as a dynamic user that may write only there); got $STATE_DIR"
command -v node >/dev/null 2>&1 || fail "Node.js 20 or later is required (https://nodejs.org), then run this script again"
major=$(node -p 'process.versions.node.split(".")[0]')
[ "$major" -ge 20 ] || fail "Node.js 20 or later is required; this machine has $(node --version)"
command -v npm >/dev/null 2>&1 || fail "npm is required (it comes with Node.js)"
command -v git >/dev/null 2>&1 || say "warning: git is not installed; scans of git repositories need it"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
say "downloading the runner package"
if command -v curl >/dev/null 2>&1; then
  curl -fsSL --retry 3 -o "$tmp/drift-runner.tgz" "$PACKAGE_URL" || fail "could not download $API_URL's runner package"
else
  node -e 'fetch(process.argv[1]).then(async (r) => { if (!r.ok) throw new Error("HTTP " + r.status); require("fs").writeFileSync(process.argv[2], Buffer.from(await r.arrayBuffer())); }).catch((e) => { console.error(e.message); process.exit(1); })' \\
    "$PACKAGE_URL" "$tmp/drift-runner.tgz" || fail "could not download $API_URL's runner package"
fi

say "installing into $ROOT$PREFIX"
mkdir -p "$ROOT$PREFIX"
npm install -g --prefix "$ROOT$PREFIX" --no-audit --no-fund --loglevel=error "$tmp/drift-runner.tgz" >/dev/null
BIN="$ROOT$PREFIX/bin/drift-runner"
version=$("$BIN" --version) || fail "the installed drift-runner does not start"
say "installed drift-runner $version"

# The token is a secret: the config file is readable by root only. Written whole, then moved.
mkdir -p "$ROOT$CONFIG_DIR"
( umask 077
  printf 'DRIFT_API_URL=%s\\nDRIFT_RUNNER_TOKEN=%s\\nDRIFT_RUNNER_STATE_DIR=%s\\n' "$API_URL" "$RUNNER_TOKEN" "$STATE_DIR" > "$ROOT$CONFIG_DIR/runner.env.tmp" )
chmod 600 "$ROOT$CONFIG_DIR/runner.env.tmp"
mv -f "$ROOT$CONFIG_DIR/runner.env.tmp" "$ROOT$CONFIG_DIR/runner.env"
say "wrote $ROOT$CONFIG_DIR/runner.env"

if [ "$USE_SYSTEMD" = 1 ]; then
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
  systemctl restart "$UNIT"
  say "systemd service $UNIT enabled and started (journalctl -u $UNIT -f)"
else
  mkdir -p "$ROOT$STATE_DIR"
  say "systemd not used here; start the runner with:"
  printf '  set -a; . %s/runner.env; set +a; %s/bin/drift-runner start\\n' "$ROOT$CONFIG_DIR" "$ROOT$PREFIX"
fi
`;
}
