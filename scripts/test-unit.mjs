// Runs the unit tests (out/test/unit/**/*.test.js, built by `node esbuild.mjs`) with node:test: the spec reporter to
// the console, a TAP copy to a temp file whose summary gives the counts. Prints `@@counts {"passed":N,"failed":M}`
// (cancelled tests count as failed, skipped/todo as neither) and exits non-zero when anything failed.
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
    return { passed: 0, failed: 0 };
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
    if (pass === null || fail === null) {
      console.log(`unit: node --test ended (status ${r.status ?? r.signal}) without a summary`);
      return { passed: pass ?? 0, failed: Math.max(1, fail ?? 0) };
    }
    const failed = fail + (num('cancelled') ?? 0);
    // A non-zero exit with nothing counted as failed (a crash after the summary) is still a failure.
    return { passed: pass, failed: r.status !== 0 && failed === 0 ? 1 : failed };
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const counts = runUnitTests(process.argv[2]);
  console.log(`@@counts ${JSON.stringify(counts)}`);
  console.log(`${counts.passed} passed, ${counts.failed} failed`);
  process.exit(counts.failed > 0 ? 1 : 0);
}
