#!/usr/bin/env bash
# The project's own Node.js runtime (scripts/runtime/node-runtime.lock), fetched from the npm
# registry's node-<platform> package (the official binary) with npm, checked against the pinned
# SHA-256, unpacked once under .runtime/ (DRIFT_RUNTIME_DIR). Idempotent and safe to run
# concurrently (unpacked beside, then renamed into place).
#   node.sh exec CMD [ARGS...]   run CMD with the runtime's node first on PATH (npm start/test)
#   node.sh dir [PLATFORM]       ensure the runtime, print its folder (bin/node inside)
#   node.sh tarball PLATFORM     ensure the registry tarball, print its path (runner packages)
#   node.sh pin VERSION          download VERSION for every platform, print the lock lines
#   node.sh platform             print this machine's platform (linux-x64, linux-arm64, ...)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
LOCK="$HERE/node-runtime.lock"
CACHE="${DRIFT_RUNTIME_DIR:-$REPO/.runtime}"
VERSION=$(awk '$1 == "version" { print $2 }' "$LOCK")

die() { printf 'node runtime: %s\n' "$*" >&2; exit 1; }

host_platform() {
  local os arch
  case "$(uname -s)" in Linux) os=linux ;; Darwin) os=darwin ;; *) os=$(uname -s | tr 'A-Z' 'a-z') ;; esac
  case "$(uname -m)" in x86_64|amd64) arch=x64 ;; aarch64|arm64) arch=arm64 ;; *) arch=$(uname -m) ;; esac
  printf '%s-%s\n' "$os" "$arch"
}

pinned_sha() { awk -v p="$1" '$1 == p { print $2 }' "$LOCK"; }
supported() { awk '$1 != "version" && $1 !~ /^#/ && NF == 2 { printf "%s%s", sep, $1; sep=", " }' "$LOCK"; }

sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  else shasum -a 256 "$1" | cut -d' ' -f1; fi
}

# The registry tarball of PLATFORM, downloaded once and checked.
tarball() {
  local platform=$1 want file tmp got
  want=$(pinned_sha "$platform")
  [ -n "$want" ] || die "no Node.js $VERSION runtime is pinned for $platform (the npm registry has none); supported platforms: $(supported)"
  file="$CACHE/node-$platform-$VERSION.tgz"
  if [ -f "$file" ] && [ "$(sha256 "$file")" = "$want" ]; then printf '%s\n' "$file"; return; fi
  mkdir -p "$CACHE"
  tmp=$(mktemp -d "$CACHE/.dl-XXXXXX")
  printf 'node runtime: downloading node-%s@%s from the npm registry\n' "$platform" "$VERSION" >&2
  (cd "$tmp" && npm pack --silent "node-$platform@$VERSION" >/dev/null) || { rm -rf "$tmp"; die "npm pack node-$platform@$VERSION failed"; }
  got=$(sha256 "$tmp/node-$platform-$VERSION.tgz")
  if [ "$got" != "$want" ]; then rm -rf "$tmp"; die "node-$platform-$VERSION.tgz has SHA-256 $got, the lock says $want: refused"; fi
  mv -f "$tmp/node-$platform-$VERSION.tgz" "$file"
  rm -rf "$tmp"
  printf '%s\n' "$file"
}

# The unpacked runtime of PLATFORM (bin/node inside).
runtime_dir() {
  local platform=$1 dir file tmp
  dir="$CACHE/node-v$VERSION-$platform"
  if [ -x "$dir/bin/node" ]; then printf '%s\n' "$dir"; return; fi
  file=$(tarball "$platform")
  tmp=$(mktemp -d "$CACHE/.unpack-XXXXXX")
  tar -xzf "$file" -C "$tmp" package/bin/node package/LICENSE || { rm -rf "$tmp"; die "could not unpack $file"; }
  if ! mv "$tmp/package" "$dir" 2>/dev/null; then [ -x "$dir/bin/node" ] || { rm -rf "$tmp"; die "could not install $dir"; }; fi
  rm -rf "$tmp"
  printf '%s\n' "$dir"
}

cmd=${1:-}
[ $# -gt 0 ] && shift
case "$cmd" in
  platform) host_platform ;;
  dir) runtime_dir "${1:-$(host_platform)}" ;;
  tarball) [ $# -eq 1 ] || die "usage: node.sh tarball PLATFORM"; tarball "$1" ;;
  pin)
    [ $# -eq 1 ] || die "usage: node.sh pin VERSION"
    tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
    printf 'version %s\n' "$1"
    for p in linux-x64 linux-arm64 darwin-arm64 darwin-x64; do
      if (cd "$tmp" && npm pack --silent "node-$p@$1" >/dev/null 2>&1); then printf '%s %s\n' "$p" "$(sha256 "$tmp/node-$p-$1.tgz")"; fi
    done ;;
  exec)
    [ $# -gt 0 ] || die "usage: node.sh exec CMD [ARGS...]"
    platform=$(host_platform)
    if [ -n "$(pinned_sha "$platform")" ]; then
      dir=$(runtime_dir "$platform")
      export PATH="$dir/bin:$PATH"
    else
      # No official binary on the registry for this platform: a local Node of the same major only.
      major=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
      [ "$major" = "${VERSION%%.*}" ] || die "no Node.js $VERSION runtime for $platform on the npm registry (supported: $(supported)); install Node.js ${VERSION%%.*}.x yourself and run again"
    fi
    # V8's code cache and Node's type-stripped sources, kept across processes: every test file
    # and service process would otherwise strip and compile the same modules again (synchronous
    # work that, on a busy machine, held the event loop past the database's connect timeout).
    export NODE_COMPILE_CACHE="${NODE_COMPILE_CACHE:-$CACHE/compile-cache}"
    printf '> node %s (%s)\n' "$(node --version)" "$(command -v node)" >&2
    exec "$@" ;;
  *) die "usage: node.sh exec CMD... | dir [PLATFORM] | tarball PLATFORM | pin VERSION | platform" ;;
esac
