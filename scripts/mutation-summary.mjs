// Prints the mutation score of the last `npm run test:mutation` (reports/mutation/mutation.json, the StrykerJS JSON
// report) per folder and per file, and lists the surviving and uncovered mutants as `file:line mutator → replacement`.
// Score = detected / (detected + undetected): killed and timed-out mutants are detected; survived and not-covered ones
// are not; compile errors (the TypeScript checker), runtime errors and ignored mutants are left out, as Stryker does.
// Usage: node scripts/mutation-summary.mjs [report.json] [--survivors]
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--')) ?? join(root, 'reports', 'mutation', 'mutation.json');
if (!existsSync(file)) {
  console.error(`no mutation report at ${file}: run \`npm run test:mutation\` first`);
  process.exit(1);
}
const report = JSON.parse(readFileSync(file, 'utf8'));
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
if (args.includes('--survivors')) {
  console.log(`\n${survivors.length} undetected mutants:`);
  for (const s of survivors) console.log(s);
}
