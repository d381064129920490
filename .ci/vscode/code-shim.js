#!/usr/bin/env node
// Stands in for the VS Code executable that @vscode/test-electron's runTests() spawns: it runs the extension tests in
// a real VS Code — code-server (started with Node 24) and its workbench in Debian's chromium, driven by playwright-core.
// The workbench runs the tests through the smoke-test-driver payload (extensionDevelopmentPath/extensionTestsPath),
// forwards the extension host's console to our stdout (codeAutomationLog) and reports its exit code
// (codeAutomationExit). Test hooks printed by the tests (@@screenshot / @@webview / @@ui, see workbench.js) are acted on
// here. code-server's whole process group and chromium are always stopped: on exit, on timeout, on SIGTERM/SIGINT.
// Env: HARBOR_RUNS_TEST_TIMEOUT_MS (default 10 min), HARBOR_RUNS_SCREENSHOT_DIR (default <dev path>/screenshots/integration),
// HARBOR_RUNS_SHIM_VERBOSE=1 (also print the workbench's own console errors).
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const tools = require('./tools');
const util = require('node:util');
const wb = require('./workbench');

const verbose = !!process.env.HARBOR_RUNS_SHIM_VERBOSE;
// The workbench's own log lines that reach codeAutomationLog on every run and say nothing about the tests
// (offline gallery and auth lookups, connection set-up). HARBOR_RUNS_SHIM_VERBOSE=1 prints them anyway.
const WORKBENCH_NOISE = new RegExp([
  '^Resolving connection token', '^Resolved connection token', '^Creating a socket', '^\\[reconnection-grace-time\\]',
  '^Updating additional builtin', '^\\[Service Worker\\]', '^\\[AgentHost', '^\\[AccountPolicyGate\\]',
  '^Creation of workbench contribution', 'ENOTFOUND', 'authentication provider', 'vsda', '^\\[Extension Host\\] *$',
].join('|'));

function parseArgs(argv) {
  const out = { positional: [] };
  const known = { extensionDevelopmentPath: 'dev', extensionTestsPath: 'tests', 'user-data-dir': 'userDataDir', 'extensions-dir': 'extensionsDir' };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const m = /^--([^=]+)(?:=(.*))?$/.exec(a);
    if (m) {
      const key = known[m[1]];
      if (key) {
        const value = m[2] !== undefined ? m[2] : argv[++i];
        if (key === 'dev') (out.dev = out.dev || []).push(value); else out[key] = value;
      }
      continue;
    }
    out.positional.push(a);
  }
  return out;
}

let fail = (why) => { console.error(`code-shim: ${why}`); process.exit(1); };

async function main() {
  const args = parseArgs(process.argv.slice(2));
  if (!args.dev || !args.tests) {
    console.error('code-shim: --extensionDevelopmentPath and --extensionTestsPath are required');
    return 2;
  }
  const devPath = path.resolve(args.dev[0]);
  const t = tools.toolPaths();
  const temp = tools.mkTemp('harbor-runs-shim-');
  const userDataDir = path.resolve(args.userDataDir || path.join(temp, 'user-data'));
  const extensionsDir = path.resolve(args.extensionsDir || path.join(temp, 'extensions'));
  const folder = args.positional.length ? path.resolve(args.positional[0]) : path.join(temp, 'ws');
  fs.mkdirSync(folder, { recursive: true });
  const shotDir = process.env.HARBOR_RUNS_SCREENSHOT_DIR || path.join(devPath, 'screenshots', 'integration');
  const hookDir = path.join(temp, 'hooks');
  fs.mkdirSync(hookDir, { recursive: true });
  // HARBOR_RUNS_UNTRUSTED=1: the folder opens untrusted (Restricted Mode), without a prompt.
  const untrusted = process.env.HARBOR_RUNS_UNTRUSTED === '1';
  tools.seedSettings(userDataDir, untrusted ? {
    'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never',
    'security.workspace.trust.banner': 'never', 'security.workspace.trust.emptyWindow': false,
  } : undefined);

  let server;
  let browser;
  let finished = false;
  const cleanup = async () => {
    if (browser) await Promise.race([browser.close().catch(() => {}), tools.sleep(5000)]);
    if (server) await server.stop();
    tools.rmrf(temp);
  };
  const finish = async (code, why) => {
    if (finished) return;
    finished = true;
    if (why) console.error(`code-shim: ${why}`);
    if (why && server) console.error(`code-shim: last lines of code-server's log:\n${tools.tail(server.logFile, 25)}`);
    await cleanup();
    process.exit(code);
  };
  fail = (why) => finish(1, why);
  for (const sig of ['SIGTERM', 'SIGINT', 'SIGHUP']) process.on(sig, () => { finish(130, `stopped by ${sig}`); });
  const timeoutMs = Number(process.env.HARBOR_RUNS_TEST_TIMEOUT_MS) || 10 * 60 * 1000;
  setTimeout(() => { finish(124, `timed out after ${timeoutMs} ms`); }, timeoutMs).unref();

  const started = Date.now();
  server = await tools.startCodeServer({
    tools: t, userDataDir, extensionsDir, folder, smokeTestDriver: true, untrusted,
    logFile: path.join(temp, 'code-server.log'),
    env: { HARBOR_RUNS_HOOK_DIR: hookDir, HARBOR_RUNS_SCREENSHOT_DIR: shotDir, HARBOR_RUNS_UNDER_TEST: '1' },
  });
  const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${path.resolve(p)}`;
  const payload = [
    ...args.dev.map((d) => ['extensionDevelopmentPath', remote(d)]),
    ['extensionTestsPath', remote(args.tests)],
    ['skipWelcome', 'true'],
  ];
  const url = `${server.url(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;

  browser = await tools.launchBrowser(t);
  const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  let hooks = Promise.resolve();
  const onLine = (line) => {
    if (/^@@(screenshot|webview|ui) /.test(line.trim())) {
      hooks = hooks.then(() => wb.handleHook(page, line, { shotDir, hookDir })).catch((e) => console.error(`code-shim: hook failed: ${e}`));
    }
  };
  await page.exposeFunction('codeAutomationLog', (type, msgArgs) => {
    const parts = Array.isArray(msgArgs) ? msgArgs : [msgArgs];
    const text = util.format(...parts);
    for (const line of text.split('\n')) onLine(line);
    if (!verbose && WORKBENCH_NOISE.test(text)) return;
    (type === 'error' ? process.stderr : process.stdout).write(`${text}\n`);
  });
  let reportExit;
  const exitCode = new Promise((resolve) => { reportExit = resolve; });
  await page.exposeFunction('codeAutomationExit', (code) => { reportExit(Number(code) || 0); });
  if (verbose) page.on('console', (m) => { if (m.type() === 'error') console.error(`[workbench] ${m.text()}`); });
  page.on('crash', () => { finish(1, 'the workbench page crashed'); });
  await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
  const code = await exitCode;
  await hooks;
  console.log(`code-shim: extension host exited with code ${code} after ${((Date.now() - started) / 1000).toFixed(1)} s`);
  await finish(code);
  return code;
}

main().then((code) => { process.exitCode = code; }, (e) => fail((e && e.stack) || String(e)));
