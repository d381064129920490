// StrykerJS mutation testing of the core (src/core) and the vscode-free view code: `npm run test:mutation`.
// Each mutant is switched on at run time (mutant schemata): the sandbox is built once with `node esbuild.mjs`, so
// every test bundle under out/test/unit carries all mutants. Stryker's mocha runner loads every bundle ONCE in a
// long-lived process (scripts/mutation/node-test-on-mocha.cjs turns the node:test tests into mocha tests) and, per
// mutant, re-runs only the tests that reached it in the dry run (per-test coverage). Incremental: results of unchanged code and tests are reused from
// reports/mutation/incremental.json, so a re-run after a small change takes minutes. The HTML report is written to
// reports/mutation/mutation.html (git-ignored); scripts/mutation-summary.mjs prints the score per file.
// Scope a run while iterating: `npm run test:mutation -- --mutate src/core/passAtK.ts`.
// docs/mutation-testing.md has the score, the time of a full run and what became of every survivor.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

function walk(dir, keep) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p, keep) : keep(p) ? [p] : [];
  });
}

// Schemas only declare shapes (zod), except for the plain functions beside them: only those are mutated, as
// `file:first-last` line ranges of each top-level `export function … {` up to its closing `}` line.
function schemaFunctionRanges(file) {
  const lines = readFileSync(file, 'utf8').split('\n');
  const ranges = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^export function /.test(lines[i])) continue;
    let end = i;
    while (end < lines.length && lines[end] !== '}') end++;
    ranges.push(`${file}:${i + 1}-${end + 1}`);
    i = end;
  }
  return ranges;
}

const schemas = walk('src/core/schemas', (p) => p.endsWith('.ts'));

// Test files in this order (mocha runs them in order and stops at the first failing test): focused files first (they
// kill most mutants in milliseconds), broad and slow ones (property tests, the sample-run generator) last. Left out:
// the files that only check how the writer survives kills and large inputs (minutes each), and the files whose time
// goes into spawning the CLI (out/cli.js) many times over: they still run in `npm test`. A child process runs the
// mutant too (the adapter passes it on in __STRYKER_ACTIVE_MUTANT__) but reports no coverage.
// MUTATION_QUICK=1 also leaves out the broad, slow files (property tests over random input, the sample-run generator):
// a survivor then costs less, and the score is a lower bound of the full set's.
const slowTests = new Set(['summary/kill', 'summary/io', 'inspect', 'compare/cli', 'trajectory/cli', 'summary/cli', 'hostile/reads',
  'hostile/writer', ...(process.env.MUTATION_QUICK === '1' ? ['fuzz', 'generator'] : [])]);
const firstTests = ['passAtK', 'outcome', 'summary/serialize', 'summary/parsers', 'schemas.harbor', 'viewerData', 'views/treeModel',
  'views/runOverviewModel', 'protocol/runOverview'];
const lastTests = ['fuzz', 'generator'];
const rank = (name) => (firstTests.includes(name) ? firstTests.indexOf(name) - firstTests.length
  : lastTests.includes(name) ? lastTests.indexOf(name) + 1 : 0);
// MUTATION_TESTS=<regex on the name, e.g. 'core/|hostile/honest'>: only those test files (a quick run over the tests
// written for a few files; a mutant only another file would kill counts as survived, so the score is a lower bound).
const onlyTests = process.env.MUTATION_TESTS ? new RegExp(process.env.MUTATION_TESTS) : undefined;
const testFiles = walk('test/unit', (p) => p.endsWith('.test.ts'))
  .map((p) => p.slice('test/unit/'.length, -'.test.ts'.length))
  .filter((name) => !slowTests.has(name) && (!onlyTests || onlyTests.test(name)))
  .sort((a, b) => rank(a) - rank(b) || a.localeCompare(b))
  .map((name) => `out/test/unit/${name}.test.js`);

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  packageManager: 'npm',
  mutate: [
    'src/core/**/*.ts',
    ...schemas.map((f) => `!${f}`),
    ...schemas.flatMap(schemaFunctionRanges),
    // vscode-free view code (the presentation logic of the host)
    'src/views/**/*.ts',
  ],
  buildCommand: 'node esbuild.mjs',
  testRunner: 'mocha',
  mochaOptions: {
    spec: testFiles,
    require: ['scripts/mutation/node-test-on-mocha.cjs'],
    // Tests that assert only how fast something is are left out: instrumented code on a loaded machine is slower,
    // which is not a bug (they still run in `npm test`). Also left out: the trajectory stream test over the XSS
    // corpus in 1-byte chunks (22 s uninstrumented, so each surviving scanner mutant would cost minutes; the other
    // stream cases read the same code paths in the same chunk sizes, and the XSS corpus is checked by viewModel), and
    // the trajectory progress test, whose first page is cut by a 150 ms timer when the instrumented read is slower.
    grep: `/^(?!.*(${['answers in well under 100 ms', '(no blow-up)', 'align in well under 2 s', 'xss: read in chunks of 1, 7 and 4096 bytes',
      'progress: a first page of steps with the header before the rest is read']
      .map((t) => t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')}))/`,
  },
  coverageAnalysis: 'perTest',
  // A "static" mutant is reached only while the test bundles load (a module-level constant): the long-lived process
  // would have to be restarted and every test run for each one. They are left out (status Ignored, counted apart in
  // scripts/mutation-summary.mjs); mutants reached both while loading and by tests run against those tests.
  ignoreStatic: true,
  // The TypeScript checker (drops mutants that do not compile) checks one mutant of a file at a time and was the
  // bottleneck (passAtK.ts: 24.5 min with it, 14 min without): opt in with MUTATION_TSC=1. Without it a mutant that
  // would not compile is run like any other, so it counts as killed or survived (docs/mutation-testing.md).
  checkers: process.env.MUTATION_TSC === '1' ? ['typescript'] : [],
  tsconfigFile: 'tsconfig.json',
  typescriptChecker: { prioritizePerformanceOverAccuracy: true },
  incremental: true,
  incrementalFile: 'reports/mutation/incremental.json',
  reporters: ['html', 'json', 'clear-text', 'progress'],
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false, reportScoreTable: true },
  thresholds: { high: 90, low: 85, break: null },
  // The machine is shared: two processes at a time, and generous timeouts (a loaded machine is slow, not wrong).
  concurrency: 2,
  timeoutMS: 10000,
  timeoutFactor: 2,
  dryRunTimeoutMinutes: 20,
  tempDirName: '.stryker-tmp',
  cleanTempDir: true,
};
