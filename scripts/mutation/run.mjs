// `npm run test:mutation [-- stryker options]`: builds, runs StrykerJS (stryker.config.mjs) with the options given
// (e.g. `--mutate src/core/outcome.ts`), keeps a copy of the JSON report as reports/mutation/runs/<time>.json (so runs
// over different folders add up), and prints the score per folder and file of this run.
// `node scripts/mutation-summary.mjs --all` merges every kept run (the latest result of each file).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const run = (args) => {
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const started = Date.now();
run(['esbuild.mjs']);
run([join(root, 'node_modules', '@stryker-mutator', 'core', 'bin', 'stryker.js'), 'run', ...process.argv.slice(2)]);
const report = join(root, 'reports', 'mutation', 'mutation.json');
if (existsSync(report)) {
  const runs = join(root, 'reports', 'mutation', 'runs');
  mkdirSync(runs, { recursive: true });
  copyFileSync(report, join(runs, `${new Date(started).toISOString().replace(/[:.]/g, '-')}.json`));
}
console.log(`mutation run: ${Math.round((Date.now() - started) / 1000)} s`);
run([join(root, 'scripts', 'mutation-summary.mjs'), report]);
