// `npm run bench`: builds, then runs every benchmark (out/bench/*.bench.js) one after the other.
// Each prints its own figures as ratios against a floor measured in the same run; exit code is non-zero if one crashed.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
execFileSync(process.execPath, [join(root, 'esbuild.mjs')], { stdio: 'inherit', cwd: root });
const dir = join(root, 'out', 'bench');
let failed = 0;
for (const name of readdirSync(dir).filter((f) => f.endsWith('.bench.js')).sort()) {
  console.log(`\n=== ${name.replace(/\.js$/, '')}`);
  const r = spawnSync(process.execPath, [join(dir, name)], { stdio: 'inherit', cwd: root });
  if (r.status !== 0) { failed++; console.log(`${name}: exited with ${r.status ?? r.signal}`); }
}
process.exitCode = failed ? 1 : 0;
