// `npm run demo`: builds the extension, packages the .vsix, installs it into a fresh code-server profile (under the
// tool cache folder), and serves a real VS Code on 127.0.0.1 opened on a temp copy of examples/ (so the demo never
// writes into the repo). Prints the URL and serves until Ctrl-C.
//   PORT=<n>     the port (default: the first free one from 8080 up)
//   --check      start, check with Playwright that the Harbor view shows runs, save screenshots/demo.png, stop.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tools = require(join(root, '.ci/vscode/tools.js'));
const wb = require(join(root, '.ci/vscode/workbench.js'));
const check = process.argv.includes('--check');

function step(what, cmd, args) {
  console.log(`demo: ${what}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error(`${what} failed (exit ${r.status ?? r.signal})`);
}

async function main() {
  console.log('demo: tools (chromium, Node 24, code-server; skipped when present)');
  const t = tools.ensureTools(root);
  step('build', process.execPath, ['esbuild.mjs']);
  const home = join(tools.toolsDir(), 'demo');
  tools.rmrf(home);
  mkdirSync(home, { recursive: true });
  const vsix = join(home, 'harbor-runs.vsix');
  step('package the .vsix', join(root, 'node_modules/.bin/vsce'), ['package', '--no-dependencies', '-o', vsix]);
  const userDataDir = join(home, 'user-data');
  const extensionsDir = join(home, 'extensions');
  tools.seedSettings(userDataDir);
  console.log('demo: install the .vsix into code-server');
  const inst = tools.installExtension(t, vsix, userDataDir, extensionsDir);
  if (!inst.ok) throw new Error(`installing the .vsix failed:\n${inst.output}`);

  // A writable temp copy: the demo may write run summaries and must not touch the repo's examples/.
  const temp = tools.mkTemp('harbor-runs-demo-');
  const workspace = join(temp, 'examples');
  if (existsSync(join(root, 'examples'))) cpSync(join(root, 'examples'), workspace, { recursive: true });
  else mkdirSync(workspace);
  const port = process.env.PORT ? Number(process.env.PORT) : await tools.freePort(8080);
  const server = await tools.startCodeServer({ tools: t, userDataDir, extensionsDir, folder: workspace, port, logFile: join(home, 'code-server.log') });
  const url = server.url(workspace);
  const stop = async (code) => { await server.stop(); tools.rmrf(temp); process.exit(code); };
  process.on('SIGINT', () => { console.log('\ndemo: stopping'); void stop(0); });
  process.on('SIGTERM', () => { void stop(0); });

  console.log(`\nHarbor Runs demo: a real VS Code (code-server) on a temp copy of examples/ (${workspace})`);
  console.log(`  open ${url}`);
  console.log(`  log  ${server.logFile}`);
  if (!check) {
    console.log('  Ctrl-C to stop');
    setInterval(() => {}, 1 << 30);
    return;
  }

  let browser;
  let ok = false;
  try {
    browser = await tools.launchBrowser(t);
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 60000 });
    await wb.waitForWorkbench(page);
    await wb.openView(page, 'Harbor', 'Runs', 60000);
    await page.locator('.sidebar .monaco-list-row').first().waitFor({ state: 'visible', timeout: 60000 });
    // Every kind of run the CLI finds in the workspace must have its row in the view. Runs fill in as they are read
    // ("Reading …" rows first): wait until every kind has its row and nothing is still being read, up to 2 minutes
    // (on a loaded machine the first read of the examples takes seconds).
    const cli = spawnSync(process.execPath, [join(root, 'out/cli.js'), 'inspect', workspace, '--json'], { encoding: 'utf8' });
    const runs = cli.status === 0 ? JSON.parse(cli.stdout).runs : [];
    const kinds = [...new Set(runs.map((r) => r.kind))];
    const missingOf = (rows) => kinds.filter((k) => !runs.some((r) => r.kind === k && rows.some((row) => row.startsWith(r.label))));
    const until = Date.now() + 120000;
    let rows = await wb.treeRowTexts(page);
    while ((missingOf(rows).length > 0 || rows.some((row) => row.startsWith('Reading '))) && Date.now() < until) {
      await tools.sleep(500);
      rows = await wb.treeRowTexts(page);
    }
    mkdirSync(join(root, 'screenshots'), { recursive: true });
    await page.screenshot({ path: join(root, 'screenshots', 'demo.png') });
    console.log(`demo --check: the Runs view shows ${rows.length} rows:\n  ${rows.join('\n  ')}`);
    console.log('demo --check: screenshot saved to screenshots/demo.png');
    const missingKinds = missingOf(rows);
    console.log(`demo --check: kinds found by the CLI: ${kinds.join(', ') || 'none'}; without a row: ${missingKinds.join(', ') || 'none'}`);
    ok = rows.length > 0 && runs.length > 0 && missingKinds.length === 0;
    await browser.close();
    await stop(ok ? 0 : 1);
  } catch (e) {
    console.error(`demo --check failed: ${e instanceof Error ? e.message : e}`);
    if (browser) await browser.close().catch(() => {});
    await stop(1);
  }
}

main().catch((e) => {
  console.error(`demo: ${e instanceof Error ? e.message : e}`);
  process.exit(1);
});
