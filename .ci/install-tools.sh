#!/usr/bin/env bash
# Installs what the real-VS-Code tests need, each step skipped when already there:
# Debian's chromium, libkrb5-dev, pkg-config (and a C++ toolchain when missing); Node 24 and code-server 4.139.1 from
# npm into a cache folder (${HARBOR_RUNS_TOOLS:-${XDG_CACHE_HOME:-~/.cache}/harbor-runs-vscode}).
# Prints `export` lines for the caller: `eval "$(bash .ci/install-tools.sh)"`; progress and errors go to stderr,
# the output of every step to $TOOLS/install.log.
# Works the same run by hand or from inside `npm test` (whose environment the nested npm installs do not inherit).
set -euo pipefail
TOOLS="${HARBOR_RUNS_TOOLS:-${XDG_CACHE_HOME:-$HOME/.cache}/harbor-runs-vscode}"
NODE24_VERSION=24.21.0
CS_VERSION=4.139.1
CHROMIUM="${HARBOR_RUNS_CHROMIUM:-/usr/bin/chromium}"
LOG="$TOOLS/install.log"
REPRO="HARBOR_RUNS_TOOLS='$TOOLS' bash .ci/install-tools.sh"
SECONDS=0

# fail <what failed> <what to try>: the step, the one command that reproduces it, what to try, the log's tail.
fail() {
  {
    echo "install-tools: FAILED after ${SECONDS}s: $1"
    echo "  reproduce:  $REPRO   (from the repository root; full output in $LOG)"
    echo "  try:        $2"
    echo "  last lines of $LOG:"
    tail -n 40 "$LOG" | sed 's/^/    /'
  } >&2
  exit 1
}
# The log is started by the first step that installs something: a run with nothing to do leaves the folder alone.
logging=0
step() {
  echo "install-tools: $1" >&2
  if [ $logging = 0 ]; then mkdir -p "$TOOLS" && : >"$LOG" && logging=1; fi
  printf '\n== %s (%s)\n' "$1" "$(date -u +%FT%TZ)" >>"$LOG"
}

SUDO=()
if [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null 2>&1; then SUDO=(sudo -n); fi
need_apt=()
[ -x "$CHROMIUM" ] || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
command -v pkg-config >/dev/null 2>&1 || need_apt+=(pkg-config)
# code-server's native modules are compiled by node-gyp.
command -v make >/dev/null 2>&1 || need_apt+=(make)
command -v g++ >/dev/null 2>&1 || need_apt+=(g++)
command -v python3 >/dev/null 2>&1 || need_apt+=(python3)
if [ ${#need_apt[@]} -gt 0 ]; then
  step "apt-get install ${need_apt[*]}"
  { "${SUDO[@]}" apt-get update && DEBIAN_FRONTEND=noninteractive "${SUDO[@]}" apt-get install -y --no-install-recommends "${need_apt[@]}"; } \
    >>"$LOG" 2>&1 </dev/null ||
    fail "apt-get install ${need_apt[*]}" \
      "run 'sudo apt-get install -y --no-install-recommends ${need_apt[*]}' yourself (needs root or sudo and the Debian mirrors); a chromium elsewhere: HARBOR_RUNS_CHROMIUM=<path>"
  CHROMIUM=/usr/bin/chromium
fi

# A calling npm (`npm test`, `npm run demo`) exports its own settings to the scripts it starts, and a nested npm reads
# every npm_config_* variable as its own configuration: npm_config_user_agent then names the calling Node (code-server's
# postinstall reads the Node version from it and refuses Node 20), npm_config_loglevel=silent hides errors,
# npm_config_local_prefix points at the repository; PATH starts with the calling node and node_modules/.bin folders.
# The nested installs get none of it: only the network settings (registry, proxy, certificates, cache) are kept, and
# Node 24 comes first on PATH so that npm, node-gyp and every install script run on it.
clean_env=()
for v in $(compgen -e); do
  case "${v,,}" in
    npm_config_registry | npm_config_*_registry | npm_config_cafile | npm_config_ca | npm_config_proxy | \
      npm_config_https_proxy | npm_config_http_proxy | npm_config_noproxy | npm_config_strict_ssl | npm_config_cache | \
      npm_config_userconfig | npm_config_globalconfig) ;;
    npm_config_*) clean_env+=(-u "$v") ;;
    *) case "$v" in npm_* | NODE | INIT_CWD) clean_env+=(-u "$v") ;; esac ;;
  esac
done
clean_path() { # $1 first, then PATH without node_modules/.bin folders and npm's node-gyp-bin
  local out="$1" p
  IFS=: read -r -a parts <<<"$PATH"
  for p in "${parts[@]}"; do
    case "$p" in */node_modules/.bin | */node-gyp-bin | "") ;; *) out="$out:$p" ;; esac
  done
  echo "$out"
}
# npm 11 lists dependency install scripts that no allowScripts entry covers and may refuse them (strict-allow-scripts,
# or a later default): Node's package fetches its binary in one, code-server builds its native modules and installs
# VS Code's own dependencies in nested npm installs whose package.json is not ours. These pinned versions are allowed to.
allow_scripts=()
if [ "$(env "${clean_env[@]}" npm config get dangerously-allow-all-scripts 2>/dev/null)" = false ]; then
  allow_scripts=(npm_config_dangerously_allow_all_scripts=true)
fi
nested_npm() { # nested_npm <node bin folder> <args…>: npm in the current folder, in the clean environment
  local bin="$1"
  shift
  env "${clean_env[@]}" PATH="$(clean_path "$bin")" "${allow_scripts[@]}" npm --no-audit --no-fund --foreground-scripts "$@"
}

case "$(uname -m)" in x86_64) ARCH=x64 ;; aarch64 | arm64) ARCH=arm64 ;; *) ARCH="$(uname -m)" ;; esac
N24="$TOOLS/node24/node_modules/node/node_modules/node-linux-$ARCH"
if [ ! -x "$N24/bin/node" ] || [ "$("$N24/bin/node" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  step "node@$NODE24_VERSION from npm"
  SYSTEM_NODE_BIN="$(dirname "$(command -v node)")"
  rm -rf "$TOOLS/node24" && mkdir -p "$TOOLS/node24"
  (cd "$TOOLS/node24" && echo '{"private":true}' >package.json && nested_npm "$SYSTEM_NODE_BIN" install "node@$NODE24_VERSION") \
    >>"$LOG" 2>&1 </dev/null ||
    fail "npm install node@$NODE24_VERSION (into $TOOLS/node24)" \
      "check that npm reaches its registry ('npm ping', proxy and certificate settings in ~/.npmrc), then run the command again"
  [ "$("$N24/bin/node" --version 2>/dev/null)" = "v$NODE24_VERSION" ] ||
    fail "node@$NODE24_VERSION installed but $N24/bin/node does not run" \
      "look for node@$NODE24_VERSION's preinstall (installArchSpecificPackage) in the log: it must be allowed to run; then run the command again"
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
    step "code-server@$CS_VERSION from npm (a few minutes: native modules build)"
    rm -rf "$TOOLS/cs" && mkdir -p "$TOOLS/cs"
    # npm_config_nodedir: node-gyp builds against Node 24's headers (shipped in node-linux-*), no download.
    (cd "$TOOLS/cs" && echo '{"private":true}' >package.json &&
      npm_config_nodedir="$N24" nested_npm "$N24/bin" install "code-server@$CS_VERSION") >>"$LOG" 2>&1 </dev/null ||
      fail "npm install code-server@$CS_VERSION (into $TOOLS/cs, on Node $NODE24_VERSION)" \
        "its native modules need g++, make, python3, libkrb5-dev and pkg-config: look for 'gyp ERR!' and 'ERROR:' in the log (code-server's notes: https://coder.com/docs/code-server/npm)"
    cs_works || fail "code-server@$CS_VERSION --version (the install finished but code-server does not start)" \
      "run '$N24/bin/node $CS_DIR/out/node/entry.js --version' to see why; delete $TOOLS/cs to install it again"
    touch "$CS_STAMP"
    echo "install-tools: tools installed in ${SECONDS}s" >&2
  fi
fi

echo "export HARBOR_RUNS_TOOLS='$TOOLS'"
echo "export HARBOR_RUNS_NODE24='$N24/bin/node'"
echo "export HARBOR_RUNS_CODE_SERVER='$CS_DIR/out/node/entry.js'"
echo "export HARBOR_RUNS_CHROMIUM='$CHROMIUM'"
