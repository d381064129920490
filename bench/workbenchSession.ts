// A real-workbench session for the benchmarks that need one: the packaged .vsix (production build, as users get it)
// installed into code-server with a fresh profile, a workspace the benchmark fills, Debian's chromium; a screenshot
// in screenshots/bench-<name>-failure.png when the benchmark throws, and everything stopped and removed afterwards.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import * as tools from '../.ci/vscode/tools';

export interface WorkbenchSession {
  repo: string;
  page: Page;
  workspace: string;
  /** The extension's user-data folder (its logs are below it). */
  userDataDir: string;
  vsixBytes: number;
  /** code-server's process id (its extension host is a descendant: bench/hostProfiler.ts). */
  serverPid: number;
}

/**
 * Runs `bench` in a workbench opened on the folder `fill` writes (it gets an empty folder and the repository root).
 * BENCH_WORKSPACE=<dir>: the workspace is that folder, kept afterwards; `fill` is told whether it was filled before
 * (a second run measures the same generated run without generating it again).
 */
export async function inWorkbench(name: string, fill: (workspace: string, repo: string, filledBefore: boolean) => Promise<void>, bench: (s: WorkbenchSession) => Promise<void>): Promise<void> {
  const repo = tools.findRepoRoot(__dirname);
  const t = tools.ensureTools(repo);
  const temp = tools.mkTemp(`harbor-runs-${name}-`);
  let server: tools.CodeServer | undefined;
  let browser: Browser | undefined;
  try {
    const kept = process.env.BENCH_WORKSPACE ? path.resolve(process.env.BENCH_WORKSPACE) : undefined;
    const workspace = kept ?? path.join(temp, 'ws');
    const filledBefore = kept !== undefined && fs.existsSync(path.join(kept, '.filled'));
    fs.mkdirSync(workspace, { recursive: true });
    await fill(workspace, repo, filledBefore);
    if (kept) fs.writeFileSync(path.join(kept, '.filled'), '');
    const vsix = path.join(temp, 'harbor-runs.vsix');
    const r = await tools.run(path.join(repo, 'node_modules', '.bin', 'vsce'), ['package', '--no-dependencies', '-o', vsix], { cwd: repo });
    if (r.status !== 0) throw new Error(`vsce package failed:\n${r.output.slice(-2000)}`);
    const userDataDir = path.join(temp, 'user-data');
    const extensionsDir = path.join(temp, 'extensions');
    tools.seedSettings(userDataDir);
    const inst = tools.installExtension(t, vsix, userDataDir, extensionsDir);
    if (!inst.ok) throw new Error(`installing the .vsix failed:\n${inst.output}`);
    server = await tools.startCodeServer({ tools: t, userDataDir, extensionsDir, folder: workspace });
    browser = await tools.launchBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(server.url(workspace), { waitUntil: 'domcontentloaded', timeout: 60_000 });
    await bench({ repo, page, workspace, userDataDir, vsixBytes: fs.statSync(vsix).size, serverPid: server.pid });
  } catch (e) {
    const page = browser?.contexts()[0]?.pages()[0];
    if (page) {
      fs.mkdirSync(path.join(repo, 'screenshots'), { recursive: true });
      await page.screenshot({ path: path.join(repo, 'screenshots', `bench-${name}-failure.png`) }).catch(() => undefined);
    }
    throw e;
  } finally {
    if (browser) await Promise.race([browser.close().catch(() => undefined), tools.sleep(5000)]);
    if (server) await server.stop();
    // BENCH_KEEP_LOGS=<dir>: the workbench's logs (renderer, server, extension host, this extension's) are kept there.
    const keep = process.env.BENCH_KEEP_LOGS;
    if (keep) {
      try {
        fs.cpSync(path.join(temp, 'user-data'), path.join(keep, `${name}-${Date.now()}`), { recursive: true, filter: (p) => !/(CachedData|CachedExtensionVSIXs|User\/(globalStorage|workspaceStorage)|\.sock)$|CachedData\/|User\/(globalStorage|workspaceStorage)\//.test(p) });
      } catch (e) {
        console.error(`keeping the logs failed: ${String(e)}`);
      }
    }
    tools.rmrf(temp);
  }
}

/** The extension's log files ("Harbor Runs.log") under a profile folder, each with its text and creation time. */
export function harborRunsLogs(dir: string): { path: string; text: string; mtime: number }[] {
  return logFiles(dir, /Harbor Runs\.log$/);
}

/**
 * Resolves once VS Code's extension host is up and its startup activation is over ("Eager extensions activated" in
 * the host's log), the state of a window opened a few seconds before; how long that took. A click timed from then
 * leaves VS Code's own start (the host process, the built-in extensions, its `workspaceContains` search) out of what
 * the extension is timed on.
 */
export async function extensionHostSettled(userDataDir: string, timeoutMs = 180_000): Promise<number> {
  const t0 = Date.now();
  await waitFor('the extension host\'s startup activation', () =>
    logFiles(userDataDir, /^(remote)?exthost\.log$/).some((l) => l.text.includes('Eager extensions activated')) || undefined, timeoutMs, 200);
  return Date.now() - t0;
}

/** Log files whose name matches `name` under a folder, each with its text and creation time. */
function logFiles(dir: string, name: RegExp): { path: string; text: string; mtime: number }[] {
  const out: { path: string; text: string; mtime: number }[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (name.test(e.name)) {
        const st = fs.statSync(p);
        out.push({ path: p, text: fs.readFileSync(p, 'utf8'), mtime: st.birthtimeMs || st.mtimeMs });
      }
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out;
}

/** Polls `fn` until it returns a value (every `pollMs`), or throws after `timeoutMs` naming what was awaited. */
export async function waitFor<T>(what: string, fn: () => T | undefined, timeoutMs = 60_000, pollMs = 100): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await tools.sleep(pollMs);
  }
}

/**
 * Waits until `loc` is visible, looking every 20 ms. For timings: Playwright's own wait, through frames that do not
 * exist yet (a webview being made), retries at growing intervals (up to 500 ms and more), so it sees a paint late by
 * up to that much; each look here is one round trip to the browser.
 */
export async function visibleSoon(loc: Locator, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await loc.isVisible().catch(() => false))) {
    if (Date.now() > end) throw new Error(`not visible within ${timeoutMs} ms: ${String(loc)}`);
    await tools.sleep(20);
  }
}
