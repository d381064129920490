// Prints the mutation score of the last `npm run test:mutation` (reports/mutation/mutation.json, the StrykerJS JSON
// report) per folder and per file, and lists the surviving and uncovered mutants as `file:line mutator → replacement`.
// Score = detected / (detected + undetected): killed and timed-out mutants are detected; survived and not-covered ones
// are not; compile errors (the TypeScript checker), runtime errors and ignored mutants are left out, as Stryker does.
// Several reports (runs over different folders) are merged, a later report's file replacing an earlier one's.
// `--all`: every run kept by `npm run test:mutation` (reports/mutation/runs/*.json, oldest first).
// Usage: node scripts/mutation-summary.mjs [report.json ...] [--all] [--survivors]
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const given = args.filter((a) => !a.startsWith('--'));
const runsDir = join(root, 'reports', 'mutation', 'runs');
const kept = args.includes('--all') && existsSync(runsDir)
  ? readdirSync(runsDir).filter((f) => f.endsWith('.json')).sort().map((f) => join(runsDir, f)) : [];
const files = [...kept, ...given];
if (!files.length) files.push(join(root, 'reports', 'mutation', 'mutation.json'));
const report = { files: {} };
for (const file of files) {
  if (!existsSync(file)) {
    console.error(`no mutation report at ${file}: run \`npm run test:mutation\` first`);
    process.exit(1);
  }
  Object.assign(report.files, JSON.parse(readFileSync(file, 'utf8')).files);
}
const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);

const rows = new Map();
const survivors = [];
const add = (key, status) => {
  const r = rows.get(key) ?? { detected: 0, undetected: 0, other: 0 };
  if (DETECTED.has(status)) r.detected++;
  else if (UNDETECTED.has(status)) r.undetected++;
  else r.other++;
  rows.set(key, r);
};
for (const [path, f] of Object.entries(report.files)) {
  const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/') + 1) : './';
  for (const m of f.mutants) {
    add('(all)', m.status);
    add(folder, m.status);
    add(path, m.status);
    if (UNDETECTED.has(m.status)) {
      const line = m.location.start.line;
      const text = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80);
      survivors.push(`${path}:${line}  ${m.status.padEnd(10)} ${m.mutatorName} → ${text}`);
    }
  }
}
const pct = (r) => (r.detected + r.undetected ? (100 * r.detected) / (r.detected + r.undetected) : NaN);
const keys = [...rows.keys()].sort((a, b) => (a === '(all)' ? -1 : b === '(all)' ? 1 : a.localeCompare(b)));
console.log(`${'score'.padStart(7)} ${'detected'.padStart(8)} ${'undetected'.padStart(10)} ${'excluded'.padStart(8)}  file`);
for (const k of keys) {
  const r = rows.get(k);
  console.log(`${pct(r).toFixed(1).padStart(6)}% ${String(r.detected).padStart(8)} ${String(r.undetected).padStart(10)} ${String(r.other).padStart(8)}  ${k}`);
}
const byStatus = {};
for (const f of Object.values(report.files)) for (const m of f.mutants) byStatus[m.status] = (byStatus[m.status] ?? 0) + 1;
console.log(`\nby status: ${Object.entries(byStatus).map(([s, n]) => `${n} ${s}`).join(', ')}` +
  (byStatus.Ignored ? ' (Ignored: static mutants, reached only while the test files load; see docs/mutation-testing.md)' : ''));
if (args.includes('--survivors')) {
  console.log(`\n${survivors.length} undetected mutants:`);
  for (const s of survivors) console.log(s);
}
