// `npm test`: every layer of tests, one after the other, and a closing line `N passed, N failed` over all of them
// (`, N skipped` added when tests were skipped; the layer's row says how many and why).
//   build        node esbuild.mjs                       (one check: fails → 1 failed, and nothing else can run)
//   typecheck    tsc -p . --noEmit                      (one check)
//   unit         node:test on out/test/unit/**          (scripts/test-unit.mjs)
//   integration  mocha in a real extension host         (out/test/runIntegration.js: code-server + chromium)
//   ui           the packaged .vsix in a real workbench (out/test/ui/runUi.js)
// The last two install their tools first (.ci/install-tools.sh, a no-op when present). A layer that crashes without
// reporting counts as at least one failure. Exit code: 0 only when nothing failed.
// Options: --only=<layer,…> / --skip=<layer,…> (names above).
import { spawn, spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { closingLine, describeSkips, runUnitTests } from './test-unit.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const LAYERS = ['build', 'typecheck', 'unit', 'integration', 'ui'];
const opt = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3).split(',') ?? null;
const only = opt('only');
const skip = opt('skip') ?? [];
const wanted = (layer) => (!only || only.includes(layer)) && !skip.includes(layer);

/** Runs a command, echoing its output while keeping it, and resolves { status, output }. */
function run(cmd, args, env) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => { output += d; process.stdout.write(d); });
    child.stderr.on('data', (d) => { output += d; process.stderr.write(d); });
    child.on('error', (e) => { output += String(e); });
    child.on('close', (status, signal) => resolve({ status: status ?? (signal ? 1 : 0), output }));
  });
}

/** The counts a layer reported on its `@@counts {...}` line; a non-zero exit adds at least one failure. */
function countsOf({ status, output }) {
  const lines = output.split('\n').filter((l) => l.startsWith('@@counts '));
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  let skipReasons = {};
  if (lines.length) {
    try {
      const c = JSON.parse(lines[lines.length - 1].slice('@@counts '.length));
      passed = Number(c.passed) || 0;
      failed = Number(c.failed) || 0;
      skipped = Number(c.skipped) || 0;
      skipReasons = c.skipReasons ?? {};
    } catch { failed = 1; }
  }
  if (status !== 0 && failed === 0) failed = 1;
  return { passed, failed, skipped, skipReasons };
}

let toolsEnv;
/**
 * `.ci/install-tools.sh` once (a failure too: the next layer does not try again, which would overwrite its log);
 * its `export X='…'` lines become env for the layers that need a real VS Code.
 */
function installTools() {
  if (toolsEnv !== undefined) return toolsEnv;
  const r = spawnSync('bash', [join(root, '.ci/install-tools.sh')], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  toolsEnv = null;
  if (r.status !== 0) return null;
  toolsEnv = {};
  for (const line of r.stdout.split('\n')) {
    const m = /^export (\w+)='(.*)'$/.exec(line.trim());
    if (m) toolsEnv[m[1]] = m[2];
  }
  return toolsEnv;
}

const results = [];
const started = Date.now();
function record(layer, counts, t0, note) {
  results.push({ layer, ...counts, seconds: (Date.now() - t0) / 1000, note: note || undefined });
}
function banner(layer) {
  console.log(`\n=== ${layer} ${'='.repeat(Math.max(0, 60 - layer.length))}`);
}

let built = true;
for (const layer of LAYERS) {
  if (!wanted(layer)) continue;
  banner(layer);
  const t0 = Date.now();
  if (layer !== 'build' && !built && layer !== 'typecheck') {
    record(layer, { passed: 0, failed: 1 }, t0, 'not run: the build failed');
    continue;
  }
  if (layer === 'build') {
    const r = await run(process.execPath, ['esbuild.mjs']);
    built = r.status === 0;
    record(layer, built ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }, t0);
  } else if (layer === 'typecheck') {
    const r = await run(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', '.', '--noEmit']);
    record(layer, r.status === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }, t0);
  } else if (layer === 'unit') {
    let counts;
    try { counts = runUnitTests(); } catch (e) { console.error(e); counts = { passed: 0, failed: 1 }; }
    record(layer, counts, t0, describeSkips(counts.skipped, counts.skipReasons));
  } else {
    const env = installTools();
    if (!env) { record(layer, { passed: 0, failed: 1 }, t0, 'not run: .ci/install-tools.sh failed'); continue; }
    const script = layer === 'integration' ? 'out/test/runIntegration.js' : 'out/test/ui/runUi.js';
    const counts = countsOf(await run(process.execPath, [script], env));
    record(layer, counts, t0, describeSkips(counts.skipped, counts.skipReasons));
  }
}

const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + (r.skipped ?? 0), 0);
console.log('\n=== summary ' + '='.repeat(52));
for (const r of results) {
  console.log(`${r.layer.padEnd(12)} ${String(r.passed).padStart(5)} passed ${String(r.failed).padStart(4)} failed  ${r.seconds.toFixed(1).padStart(6)} s${r.note ? `  (${r.note})` : ''}`);
}
console.log(`total time ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(closingLine({ passed, failed, skipped }));
process.exitCode = failed > 0 ? 1 : 0;
