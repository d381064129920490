// Builds every bundle of the project with esbuild:
//   out/extension.js   the extension host (node, cjs, `vscode` external)
//   out/cli.js         the `harbor-runs` CLI (node, cjs)
//   out/webview/*.js   webview scripts (browser, iife) and their CSS/fonts
//   out/test/**, out/bench/**, out/scripts/**   tests, benchmarks and generators (node, cjs)
// Flags: --watch (rebuild on change), --production (minified, no source maps).
import * as esbuild from 'esbuild';
import { existsSync, mkdirSync, readdirSync, copyFileSync, statSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { execFileSync } from 'node:child_process';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const root = dirname(new URL(import.meta.url).pathname);

function walk(dir, test) {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  const out = [];
  for (const name of readdirSync(abs)) {
    const rel = join(dir, name);
    if (statSync(join(root, rel)).isDirectory()) out.push(...walk(rel, test));
    else if (test(rel)) out.push(rel);
  }
  return out;
}

// zod re-exports every one of its ~50 message locales as `z.locales`, which keeps them all in a bundle (260 kB
// minified); nothing here uses them: its locales index is replaced by English only (zod's default, loaded anyway).
const zodEnglishOnly = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (a) =>
      /[\\/]node_modules[\\/]zod[\\/]/.test(a.importer) ? { path: join(dirname(a.importer), '../locales/index.js'), namespace: 'zod-locales' } : undefined);
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (a) =>
      ({ contents: "export { default as en } from './en.js';", resolveDir: dirname(a.path), loader: 'js' }));
  },
};

const node = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  sourcemap: !production,
  minify: production,
  logLevel: 'warning',
  external: ['vscode'],
  // jsonc-parser's UMD entry loads its parts with a dynamic require that a bundle cannot follow: prefer ESM entries.
  mainFields: ['module', 'main'],
  // No Node bundle reads the browser's `navigator`. zod asks `typeof navigator` once (is eval allowed?), and VS Code's
  // extension host (Node 22 and later) answers any read of that global with a PendingMigrationError logged, with its
  // stack, in the extension host's log as if the extension had failed. Read as `undefined`, zod's answer is the same.
  define: { navigator: 'undefined' },
  plugins: [zodEnglishOnly],
};

const configs = [
  { ...node, entryPoints: { extension: 'src/extension.ts' }, outdir: 'out' },
  { ...node, entryPoints: { cli: 'src/cli/bin.ts' }, outdir: 'out', banner: { js: '#!/usr/bin/env node' } },
  // The trajectory editor's worker thread (reads and indexes a trajectory off the extension host's thread).
  { ...node, entryPoints: { trajectoryWorker: 'src/core/trajectory/worker.ts' }, outdir: 'out' },
  // The summary writer's row workers (pick the keys of a large rollouts file's rows on every core).
  { ...node, entryPoints: { summaryRowWorker: 'src/core/summary/rowWorker.ts' }, outdir: 'out' },
  // Write Run Summary's writer, off the extension host's thread (the summary streamed to disk there).
  { ...node, entryPoints: { summaryWriterWorker: 'src/core/summary/writerWorker.ts' }, outdir: 'out' },
  // A Harbor job's large lock.json parsed off the caller's thread (only its harbor block comes back).
  { ...node, entryPoints: { jobLockWorker: 'src/core/readers/harbor/jobLockWorker.ts' }, outdir: 'out' },
  // A large NeMo Gym run summary parsed and validated off the caller's thread (its tasks come back in slices).
  { ...node, entryPoints: { summaryDocWorker: 'src/core/readers/nemo/summaryDocWorker.ts' }, outdir: 'out' },
];

// Webview bundles: each top-level webview/<name>.ts, each webview/<panel>/main.ts (bundled as out/webview/<panel>.js)
// and a panel's first script webview/<panel>/early.ts (out/webview/<panel>Early.js, see PanelPage.early).
const webviewEntries = Object.fromEntries(
  walk('webview', (f) => /^webview\/[^/]+\.ts$/.test(f) || /^webview\/[^/]+\/(main|early)\.ts$/.test(f))
    .map((f) => [/\/main\.ts$/.test(f) ? f.split('/')[1] : /\/early\.ts$/.test(f) ? `${f.split('/')[1]}Early` : f.slice('webview/'.length, -'.ts'.length), f]),
);
if (Object.keys(webviewEntries).length) {
  configs.push({
    bundle: true, platform: 'browser', format: 'iife', target: 'es2022', sourcemap: !production, minify: production,
    logLevel: 'warning', entryPoints: webviewEntries, outdir: 'out/webview', plugins: [zodEnglishOnly],
  });
}

// The run summary's JSON Schema exporter is needed by every build, production included (see afterBuild).
configs.push({ ...node, entryPoints: { 'scripts/export-schema': 'scripts/export-schema.ts' }, outdir: 'out' });

if (!production) {
  const tsOf = (dir, re) => walk(dir, (f) => re.test(f));
  const entries = [
    ...tsOf('test', /\.ts$/).filter((f) => !f.includes('/fixtures-data/')),
    ...tsOf('bench', /\.ts$/),
    ...tsOf('scripts', /\.ts$/).filter((f) => f !== 'scripts/export-schema.ts'),
  ];
  const entryPoints = Object.fromEntries(entries.map((f) => [f.replace(/\.ts$/, ''), f]));
  // mocha, playwright-core and test-electron stay in node_modules: they load files of their own at run time.
  configs.push({ ...node, entryPoints, outdir: 'out', external: ['vscode', 'mocha', 'playwright-core', '@vscode/test-electron', 'fast-check'] });
}

function copyWebviewAssets() {
  const dest = join(root, 'out/webview');
  mkdirSync(dest, { recursive: true });
  for (const f of ['node_modules/@vscode/codicons/dist/codicon.css', 'node_modules/@vscode/codicons/dist/codicon.ttf', 'node_modules/uplot/dist/uPlot.min.css']) {
    if (existsSync(join(root, f))) copyFileSync(join(root, f), join(dest, f.split('/').pop()));
  }
  // A panel's webview/<panel>/main.css is copied as out/webview/<panel>.css, beside its script; other CSS keeps its path.
  for (const f of walk('webview', (p) => p.endsWith('.css'))) {
    const m = /^webview\/([^/]+)\/main\.css$/.exec(f);
    const target = join(dest, m ? `${m[1]}.css` : relative('webview', f));
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(join(root, f), target);
  }
}

function afterBuild() {
  copyWebviewAssets();
  // The run summary's JSON Schema is exported from its zod schema at build time (contributed through jsonValidation).
  const exporter = join(root, 'out/scripts/export-schema.js');
  if (existsSync(exporter)) execFileSync(process.execPath, [exporter], { stdio: 'inherit', cwd: root });
}

if (watch) {
  const contexts = await Promise.all(configs.map((c) => esbuild.context({
    ...c, plugins: [...(c.plugins ?? []), { name: 'after', setup(b) { b.onEnd(() => { try { afterBuild(); } catch (e) { console.error(e); } }); } }],
  })));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log('esbuild: watching');
} else {
  await Promise.all(configs.map((c) => esbuild.build(c)));
  afterBuild();
}
