// `harbor-runs compare`: two generated Harbor jobs of the same tasks side by side (text and --json), --merge of
// one-trial jobs, exit codes 0 / 1 / 2, no stack trace.
import { test, before, after } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { generateHarborJob, type HarborJobSpec } from '../../../scripts/sample-runs/harborJob';

const cli = path.resolve(__dirname, '../../../cli.js');
let dir = '';

function run(...args: string[]) {
  const r = spawnSync(process.execPath, [cli, 'compare', ...args], { encoding: 'utf8', cwd: dir });
  assert.doesNotMatch(r.stderr, /\n\s+at /, 'no stack trace');
  return r;
}

const job = (jobName: string, model: string, trials: HarborJobSpec['trials']): HarborJobSpec =>
  ({ jobName, agent: 'terminus-2', model, dataset: 'tb', trials, finished: true });

before(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'compare-cli-'));
  await generateHarborJob(path.join(dir, 'a'), job('job-a', 'p/model-a', [
    { task: 'fix-git', case: 'passed' }, { task: 'regex-log', case: 'failed' }, { task: 'hello', case: 'passed' }, { task: 'old-task', case: 'passed' },
  ]));
  await generateHarborJob(path.join(dir, 'b'), job('job-b', 'p/model-b', [
    { task: 'fix-git', case: 'failed' }, { task: 'regex-log', case: 'passed' }, { task: 'hello', case: 'passed' }, { task: 'new-task', case: 'environment-failure' },
  ]));
  for (const [i, c] of (['passed', 'failed', 'passed'] as const).entries()) {
    await generateHarborJob(path.join(dir, 'one'), job(`one-${i}`, 'p/model-b', [{ task: 'fix-git', case: c }]));
  }
});
after(() => fs.rmSync(dir, { recursive: true, force: true }));

test('text: the sides, totals with the difference, regressed then improved then one-side tasks, unchanged counted', () => {
  const r = run('a/job-a', 'b/job-b');
  assert.equal(r.status, 0, r.stderr);
  const out = r.stdout;
  assert.match(out, /^Comparing 2 runs \(A is the baseline; differences over the 3 tasks every run has; pass@k at k=1\)/);
  assert.match(out, /\nA {2}job-a · tb · terminus-2 · p\/model-a {2}\(Harbor job\)\nB {2}job-b/);
  assert.match(out, /pass@1 \(common\) +0\.667 +0\.667 +±0\.000\n/);
  const order = ['Regressed (1):', 'tb/fix-git  A: passed · 1.0  →  B: failed · 0.0', 'Improved (1):', 'tb/regex-log  A: failed · 0.0  →  B: passed · 1.0',
    'Not in every run (2):', 'tb/new-task  A: — (absent)  →  B: infra-error · 1 not measured · —', 'tb/old-task', 'Unchanged: 1 task'];
  let at = 0;
  for (const s of order) { const i = out.indexOf(s, at); assert.ok(i >= at, `${s} after position ${at}:\n${out}`); at = i; }
});

test('--json: the comparison document; --merge pools one-trial jobs of the same agent and model and says so', () => {
  const r = run('a/job-a', 'b/job-b', '--json');
  assert.equal(r.status, 0, r.stderr);
  const doc = JSON.parse(r.stdout);
  assert.equal(doc.sides.length, 2);
  assert.deepEqual(doc.tasks.map((t: { id: string; change: string }) => `${t.id}:${t.change}`),
    ['tb/fix-git:regressed', 'tb/regex-log:improved', 'tb/new-task:only-in-some', 'tb/old-task:only-in-some', 'tb/hello:unchanged']);
  assert.equal(doc.sides[1].counts.regressed, 1);
  assert.ok(doc.sides[0].usage.inputTokens > 0);
  const plain = JSON.parse(run('a/job-a', 'one', '--json').stdout);
  assert.equal(plain.sides.length, 4);
  const merged = run('a/job-a', 'one', '--merge');
  assert.equal(merged.status, 0, merged.stderr);
  assert.match(merged.stdout, /Merged view: 3 runs of terminus-2 · p\/model-b on tb are one side/);
  assert.match(merged.stdout, /merged from: one-0 · tb · terminus-2 · p\/model-b, one-1 /);
  assert.match(merged.stdout, /tb\/fix-git {2}A: passed · 1\.0 {2}→ {2}B: passed · 2\/3 pass · 0\.667/);
});

test('exit 1 for an unreadable path or one without a run, 2 on usage errors and fewer than two runs', () => {
  assert.equal(run('a/job-a', 'nowhere').status, 1);
  fs.mkdirSync(path.join(dir, 'empty'), { recursive: true });
  assert.match(run('a/job-a', 'empty').stderr, /no run found under empty/);
  const one = run('a/job-a');
  assert.equal(one.status, 2);
  assert.match(one.stderr, /1 run found; give two or more/);
  assert.equal(run().status, 2);
  assert.equal(run('a', 'b', '--frobnicate').status, 2);
  assert.equal(run('a', 'b', '--k', '0').status, 2);
});
