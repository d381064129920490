// The UI test: packages the .vsix, installs it into a fresh extensions dir of code-server, opens the workbench on a
// temp copy of examples/ in Debian's chromium (playwright-core) and runs every scenario of test/ui/scenarios/.
// Each check is one test; screenshots go to screenshots/ui/<scenario>-<step>.png (git-ignored).
// Prints `@@counts {"passed":N,"failed":M}` for scripts/test-all.mjs; exits non-zero when anything failed.
// Env: HARBOR_RUNS_UI_TIMEOUT_MS (whole run, default 10 min), HARBOR_RUNS_UI_ONLY (run only scenarios whose name matches).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Browser } from 'playwright-core';
import * as tools from '../../.ci/vscode/tools';
import { waitForWorkbench } from '../../.ci/vscode/workbench';
import { closeEditors, collapseTree, createContext, loadScenarios } from './driver';
import { ALLOWED_IN_VSIX, vsixFiles } from './vsix';

interface Result { name: string; ok: boolean; ms: number; error?: string }
const results: Result[] = [];

async function check(name: string, fn: () => Promise<void>): Promise<boolean> {
  const t0 = Date.now();
  try {
    await fn();
    results.push({ name, ok: true, ms: Date.now() - t0 });
    console.log(`  ✔ ${name} (${Date.now() - t0} ms)`);
    return true;
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    results.push({ name, ok: false, ms: Date.now() - t0, error });
    console.log(`  ✖ ${name} (${Date.now() - t0} ms)\n      ${error.split('\n').join('\n      ')}`);
    return false;
  }
}

function notRun(name: string, why: string): void {
  results.push({ name, ok: false, ms: 0, error: why });
  console.log(`  ✖ ${name}: not run (${why})`);
}

async function main(): Promise<void> {
  const repo = tools.findRepoRoot(__dirname);
  const t = tools.ensureTools(repo);
  const temp = tools.mkTemp('harbor-runs-ui-');
  const shotDir = path.join(repo, 'screenshots', 'ui');
  const scenarios = loadScenarios(path.join(__dirname, 'scenarios'))
    .filter((s) => !process.env.HARBOR_RUNS_UI_ONLY || new RegExp(process.env.HARBOR_RUNS_UI_ONLY).test(s.name));
  let server: tools.CodeServer | undefined;
  let browser: Browser | undefined;
  const cleanup = async (): Promise<void> => {
    if (browser) await Promise.race([browser.close().catch(() => undefined), tools.sleep(5000)]);
    if (server) await server.stop();
    tools.rmrf(temp);
  };
  // A guard against a hang, not a speed target: the scenarios take 3-6 min on a quiet 2-core machine, and took just
  // over 10 min on one shared with four other heavy jobs (load 11-17), where a 10-min guard failed two that passed.
  const timeoutMs = Number(process.env.HARBOR_RUNS_UI_TIMEOUT_MS) || 20 * 60 * 1000;
  const timer = setTimeout(() => {
    console.error(`ui: timed out after ${timeoutMs} ms`);
    void cleanup().then(() => report(true));
  }, timeoutMs);
  for (const sig of ['SIGINT', 'SIGTERM'] as const) process.on(sig, () => { void cleanup().then(() => process.exit(130)); });

  console.log('UI tests (code-server + chromium)');
  const vsix = path.join(temp, 'harbor-runs.vsix');
  const vsce = path.join(repo, 'node_modules', '.bin', 'vsce');
  const packaged = await check('vsce package: a .vsix without warnings', async () => {
    const r = await tools.run(vsce, ['package', '--no-dependencies', '-o', vsix], { cwd: repo });
    if (r.status !== 0) throw new Error(`vsce package exited ${r.status}:\n${r.output.slice(-3000)}`);
    const warnings = r.output.split('\n').filter((l) => /warning/i.test(l));
    if (warnings.length) throw new Error(`vsce printed warnings:\n${warnings.join('\n')}`);
    if (!fs.existsSync(vsix)) throw new Error('no .vsix was written');
  });
  if (packaged) {
    await check('the .vsix holds only the bundles, media, schemas and docs', async () => {
      const files = vsixFiles(fs.readFileSync(vsix)).filter((f) => f.startsWith('extension/')).map((f) => f.slice('extension/'.length));
      const extra = files.filter((f) => !ALLOWED_IN_VSIX.some((re) => re.test(f)));
      if (extra.length) throw new Error(`unexpected files in the .vsix: ${extra.slice(0, 20).join(', ')}`);
      for (const need of ['package.json', 'out/extension.js']) if (!files.includes(need)) throw new Error(`${need} is not in the .vsix`);
      // `vsce package` ran the production build (vscode:prepublish): minified, no source map reference.
      const bundle = fs.readFileSync(path.join(repo, 'out', 'extension.js'), 'utf8');
      const perLine = Math.round(bundle.length / bundle.split('\n').length);
      if (/sourceMappingURL/.test(bundle) || perLine < 500) throw new Error(`out/extension.js is not the production build (${perLine} characters a line, source map: ${/sourceMappingURL/.test(bundle)})`);
      console.log(`      ${files.length} files, ${(fs.statSync(vsix).size / 1024).toFixed(0)} KiB`);
    });
  } else notRun('the .vsix holds only the bundles, media, schemas and docs', 'no .vsix');

  const userDataDir = path.join(temp, 'user-data');
  const extensionsDir = path.join(temp, 'extensions');
  tools.seedSettings(userDataDir);
  const installed = packaged && await check('the .vsix installs into code-server without errors', async () => {
    const r = tools.installExtension(t, vsix, userDataDir, extensionsDir);
    if (!r.ok) throw new Error(`code-server --install-extension (exit ${r.status}):\n${r.output}`);
    const dirs = fs.readdirSync(extensionsDir).filter((d) => d.startsWith('harbor-runs.harbor-runs-'));
    if (dirs.length !== 1) throw new Error(`expected one harbor-runs.harbor-runs-* folder, found: ${fs.readdirSync(extensionsDir).join(', ')}`);
  });
  if (!packaged) notRun('the .vsix installs into code-server without errors', 'no .vsix');

  if (!installed) {
    for (const s of scenarios) notRun(`scenario ${s.name}`, 'the extension is not installed');
  } else {
    const workspace = path.join(temp, 'examples');
    const examples = path.join(repo, 'examples');
    if (fs.existsSync(examples)) fs.cpSync(examples, workspace, { recursive: true }); else fs.mkdirSync(workspace);
    let page: import('playwright-core').Page | undefined;
    const opened = await check('the workbench opens on examples/', async () => {
      server = await tools.startCodeServer({ tools: t, userDataDir, extensionsDir, folder: workspace, logFile: path.join(temp, 'code-server.log') });
      browser = await tools.launchBrowser(t);
      page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
      await page.goto(server.url(workspace), { waitUntil: 'domcontentloaded', timeout: 60_000 });
      await waitForWorkbench(page);
    });
    for (const s of scenarios) {
      if (!opened || !page) { notRun(`scenario ${s.name}`, 'the workbench did not open'); continue; }
      const ctx = createContext(page, s.name, workspace, repo, shotDir);
      const ok = await check(`scenario ${s.name}`, () => s.run(ctx));
      if (!ok) {
        await ctx.shot('failure').then((f) => console.log(`      screenshot: ${path.relative(repo, f)}`), () => undefined);
        await page.keyboard.press('Escape').catch(() => undefined);
      }
      // Each scenario starts where the others expect to: no editor open, the Runs tree collapsed (rows below an
      // expanded run are not rendered, so a scenario could not find them).
      await closeEditors(ctx).catch(() => undefined);
      await collapseTree(ctx);
    }
    if (results.some((r) => !r.ok) && server) {
      console.log(`  code-server log (tail):\n${tools.tail(server.logFile, 15)}`);
      for (const log of extensionLogs(userDataDir)) console.log(`  extension log ${path.basename(path.dirname(path.dirname(log)))} (tail):\n${tools.tail(log, 25)}`);
    }
  }
  clearTimeout(timer);
  await cleanup();
  report(false);
}

/** The extension's own log files ("Harbor Runs.log", one per extension-host session) under a profile, oldest first. */
function extensionLogs(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(path.join(d, e.name));
      else if (e.name === 'Harbor Runs.log') out.push(path.join(d, e.name));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return out.sort((a, b) => fs.statSync(a).mtimeMs - fs.statSync(b).mtimeMs);
}

function report(timedOut: boolean): void {
  const passed = results.filter((r) => r.ok).length;
  const failed = results.length - passed + (timedOut ? 1 : 0);
  console.log(`@@counts ${JSON.stringify({ passed, failed })}`);
  process.exit(failed > 0 ? 1 : 0);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  results.push({ name: 'ui run', ok: false, ms: 0, error: String(e) });
  report(false);
});
