// Runs the unit tests (out/test/unit/**/*.test.js, built by `node esbuild.mjs`) with node:test: the spec reporter to
// the console, a TAP copy to a temp file whose summary gives the counts. Prints `@@counts {"passed":N,"failed":M,
// "skipped":S,"skipReasons":{reason: count}}` (cancelled tests count as failed, todo as neither), a line saying how many
// tests were skipped and why (e.g. the conformance tests when the shared sample files are not beside the repository),
// and exits non-zero when anything failed.
// Usage: node scripts/test-unit.mjs [name filter (regex on the file path)]
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const unitDir = join(root, 'out', 'test', 'unit');

function testFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    return e.isDirectory() ? testFiles(p) : e.name.endsWith('.test.js') ? [p] : [];
  }).sort();
}

export function runUnitTests(filter) {
  const files = testFiles(unitDir).filter((f) => !filter || new RegExp(filter).test(relative(root, f)));
  if (files.length === 0) {
    console.log(`unit: no test files under ${relative(root, unitDir)}/ (run \`node esbuild.mjs\` first)`);
    return { passed: 0, failed: 0, skipped: 0, skipReasons: {} };
  }
  const temp = mkdtempSync(join(tmpdir(), 'harbor-runs-unit-'));
  const tap = join(temp, 'unit.tap');
  try {
    const r = spawnSync(process.execPath, [
      '--enable-source-maps', '--test',
      '--test-reporter=spec', '--test-reporter-destination=stdout',
      '--test-reporter=tap', `--test-reporter-destination=${tap}`,
      ...files,
    ], { cwd: root, stdio: ['ignore', 'inherit', 'inherit'] });
    const text = existsSync(tap) ? readFileSync(tap, 'utf8') : '';
    const num = (key) => {
      const m = new RegExp(`^# ${key} (\\d+)$`, 'm').exec(text);
      return m ? Number(m[1]) : null;
    };
    const pass = num('pass');
    const fail = num('fail');
    const { skipped, skipReasons } = skipsOf(text);
    if (pass === null || fail === null) {
      console.log(`unit: node --test ended (status ${r.status ?? r.signal}) without a summary`);
      return { passed: pass ?? 0, failed: Math.max(1, fail ?? 0), skipped, skipReasons };
    }
    const failed = fail + (num('cancelled') ?? 0);
    // A non-zero exit with nothing counted as failed (a crash after the summary) is still a failure.
    return { passed: pass, failed: r.status !== 0 && failed === 0 ? 1 : failed, skipped: num('skipped') ?? skipped, skipReasons };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The skipped tests of a TAP report (`ok N - name # SKIP reason`), counted by reason. */
export function skipsOf(tap) {
  const skipReasons = {};
  let skipped = 0;
  for (const m of tap.matchAll(/^\s*ok \d+ - .*? # SKIP ?(.*)$/gm)) {
    const reason = m[1].trim() || 'no reason given';
    skipReasons[reason] = (skipReasons[reason] ?? 0) + 1;
    skipped++;
  }
  return { skipped, skipReasons };
}

/** `16 skipped: 14 no shared fixtures, 2 killWriter.js not built` (empty when nothing was skipped). */
export function describeSkips(skipped, skipReasons) {
  if (!skipped) return '';
  const why = Object.entries(skipReasons ?? {}).sort((a, b) => b[1] - a[1]).map(([r, n]) => `${n} ${r}`).join(', ');
  return `${skipped} skipped${why ? `: ${why}` : ''}`;
}

/** The closing line: `N passed, N failed`, with `, N skipped` when tests were skipped. */
export function closingLine({ passed, failed, skipped }) {
  return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const counts = runUnitTests(process.argv[2]);
  console.log(`@@counts ${JSON.stringify(counts)}`);
  if (counts.skipped) console.log(`unit: ${describeSkips(counts.skipped, counts.skipReasons)}`);
  console.log(closingLine(counts));
  process.exit(counts.failed > 0 ? 1 : 0);
}
