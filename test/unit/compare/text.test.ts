// What `harbor-runs compare` prints, in-process (the CLI test spawns the command, which the mutation runs leave
// out): the header, the sides, the totals table with its differences from A, the task groups in their order with
// their cap, and the unchanged tasks counted or listed. Every expected line is written out by hand from the runs.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Attempt, Outcome, Run, Task } from '../../../src/core/model';
import { cellText, compareRuns, renderCompareText, sideLetter } from '../../../src/core/compare';

type A = [Outcome, number | null, Partial<Attempt>?];

function attempt(taskId: string, i: number, [outcome, reward, extra]: A): Attempt {
  return { id: `${taskId}#${i}`, index: i, label: `#${i + 1}`, outcome, reward, evidence: [], missing: [], ...extra };
}

function run(name: string, tasks: Record<string, A[]>, identity: Record<string, string | null> = {}): Run {
  const ts: Task[] = Object.entries(tasks).map(([id, as]) => ({ id, label: id, attempts: as.map((a, i) => attempt(id, i, a)) }));
  return {
    id: `harbor-job:/jobs/${name}`, kind: 'harbor-job', root: `/jobs/${name}`, anchor: `/jobs/${name}`, label: name, identity,
    state: 'complete', files: [], problems: [], unvalidated: [], skipped: [], tasks: ts,
  };
}

const P: A = ['passed', 1];
const F: A = ['failed', 0];
const I: A = ['infra-error', null];

// A: drop 2/2, rise 0/2, same 1/2, void unmeasured, gone (A only). B: drop 1/2, rise 2/2, same 1/2, void 2/2, new (B only).
const a = run('a', {
  drop: [['passed', 1, { tokens: { input: 12000, output: 1_000_000 }, costUsd: 1.5, durationSec: 90 }], P],
  rise: [F, F], same: [P, F], void: [I, I], gone: [F],
});
const b = run('b', {
  drop: [['failed', 0, { tokens: { input: 9999, output: 10000 } }], P],
  rise: [P, P], same: [F, P], void: [P, P], new: [I],
});

// Columns of the totals table, widths counted by hand: the longest label "mean reward (common)" is 20 characters,
// A's longest value "1m 30s" 6, B's "0.750" 5, B−A's "+0.250" 6.
const tableLines = [
  '                             A      B     B−A',
  '  tasks                      5      5',
  '  attempts                   9      9',
  '  passed / measured        3/7    6/8',
  '  all not measured           1      1',
  '  pass@1 (common)        0.500  0.750  +0.250',
  '  pass@2 (common)        0.667  1.000  +0.333',
  '  mean reward (common)   0.500  0.750  +0.250',
  '  pass@1 (all tasks)     0.375  0.750',
  '  input tokens           12.0k   9999',
  '  output tokens          1.00M  10.0k',
  '  cost                   $1.50      —',
  '  agent time (sum)      1m 30s      —',
];

test('compare text: header, sides, totals with differences from A, groups in order, unchanged counted', () => {
  const c = compareRuns([a, b]);
  assert.equal(renderCompareText(c), [
    'Comparing 2 runs (A is the baseline; differences over the 4 tasks every run has; pass@k at k=2)',
    '',
    'A  a  (Harbor job)',
    'B  b  (Harbor job)',
    '',
    ...tableLines,
    '',
    'Regressed (1):',
    '  drop  A: passed · 2/2 pass · 1.0  →  B: passed · 1/2 pass · 0.5',
    '',
    'Improved (1):',
    '  rise  A: failed · 0/2 pass · 0.0  →  B: passed · 2/2 pass · 1.0',
    '',
    'Not in every run (2):',
    '  gone  A: failed · 0.0  →  B: — (absent)',
    '  new  A: — (absent)  →  B: infra-error · 1 not measured · —',
    '',
    'Not comparable (a run measured nothing) (1):',
    '  void  A: infra-error · 2 not measured · —  →  B: passed · 2/2 pass · 1.0',
    '',
    'Unchanged: 1 task',
    '',
  ].join('\n'));
});

test('compare text: a group over the cap says how many more; --all lists every task and the unchanged ones', () => {
  const c = compareRuns([a, b]);
  const capped = renderCompareText(c, { maxTasks: 1 });
  assert.ok(capped.includes([
    'Not in every run (2):',
    '  gone  A: failed · 0.0  →  B: — (absent)',
    '  … 1 more (--all lists every task)',
    '',
    'Not comparable (a run measured nothing) (1):',
  ].join('\n')), capped);
  // A group exactly at the cap has no "more" line.
  assert.equal(capped.match(/more \(--all/g)?.length, 1);
  assert.ok(capped.endsWith('\nUnchanged: 1 task\n'));
  const all = renderCompareText(c, { all: true, maxTasks: 1 });
  assert.ok(!all.includes('more (--all'));
  assert.ok(all.includes('  gone  A: failed · 0.0  →  B: — (absent)\n  new  A: — (absent)'));
  assert.ok(all.endsWith('\n\nUnchanged (1):\n  same  A: passed · 1/2 pass · 0.5  →  B: passed · 1/2 pass · 0.5\n'), all);
  // No group is printed empty; with nothing unchanged the count is plural, and --all does not print an empty list.
  const one = compareRuns([run('x', { t: [P] }), run('y', { t: [F] })]);
  const text = renderCompareText(one, { all: true });
  assert.ok(!text.includes('Improved'));
  assert.ok(!text.includes('Unchanged ('));
  assert.ok(text.endsWith('\n\nUnchanged: 0 tasks\n'), text);
  assert.ok(text.startsWith('Comparing 2 runs (A is the baseline; differences over the 1 task every run has; pass@k at k=1)\n'));
  // 20 tasks are listed by default, the 21st is counted.
  const many = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`t${String(i).padStart(2, '0')}`, [P]]));
  const manyF = Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`t${String(i).padStart(2, '0')}`, [F]]));
  const dflt = renderCompareText(compareRuns([run('p', many), run('q', manyF)]));
  assert.ok(dflt.includes('  t19  A: passed · 1.0  →  B: failed · 0.0\n  … 1 more (--all lists every task)\n'), dflt);
  assert.ok(!dflt.includes('  t20  A:'));
});

test('compare text: three sides, k = 1 (no pass@k row), signed differences, merged sides and unsafe labels', () => {
  const c = compareRuns([run('a', { t: [P] }), run('b\u001b[2Jx', { t: [F] }), run('c', { t: [P] })]);
  const text = renderCompareText(c);
  const lines = text.split('\n');
  assert.equal(lines[0], 'Comparing 3 runs (A is the baseline; differences over the 1 task every run has; pass@k at k=1)');
  assert.deepEqual(lines.slice(2, 5), ['A  a  (Harbor job)', 'B  b\\x1b[2Jx  (Harbor job)', 'C  c  (Harbor job)']);
  assert.ok(!text.includes('\u001b'));
  // widths: 20 ("mean reward (common)"), 5 per side ("1.000"), 6 per difference ("−1.000")
  assert.ok(lines.includes('  pass@1 (common)       1.000  0.000  1.000  −1.000  ±0.000'), text);
  assert.ok(lines.includes('                            A      B      C     B−A     C−A'), text);
  assert.equal(lines.filter((l) => / \(common\) /.test(l)).length, 2, 'pass@1 and mean reward only');
  assert.ok(lines.includes('  t  A: passed · 1.0  →  B: failed · 0.0  →  C: passed · 1.0'));

  const id = { agent: 'terminus', model: 'gpt-x', dataset: 'tb' };
  const m = compareRuns([run('j1', { t: [P] }, id), run('j2', { u: [P] }, id), run('k', { t: [F], u: [F] })], { merge: true });
  const mt = renderCompareText(m).split('\n');
  assert.equal(mt[1], 'Merged view: 2 runs of terminus · gpt-x on tb are one side (their attempts pooled per task).');
  assert.equal(mt[2], '');
  assert.deepEqual(mt.slice(3, 6), ['A  tb · terminus · gpt-x (2 runs merged)  (Harbor job)', '   merged from: j1, j2', 'B  k  (Harbor job)']);
});

test('side letters and one task on one side in brief', () => {
  assert.deepEqual([0, 1, 25, 26, 30].map(sideLetter), ['A', 'B', 'Z', 'S27', 'S31']);
  assert.equal(cellText(null), '— (absent)');
  const cell = (o: Partial<Parameters<typeof cellText>[0] & object>) => cellText({
    attempts: 1, measured: 1, passed: 1, outcome: 'passed', counts: {}, meanReward: 1, passRate: 1, passAtK: 1, attemptIds: [], ...o,
  });
  assert.equal(cell({}), 'passed · 1.0');
  assert.equal(cell({ attempts: 3, measured: 3, passed: 2, meanReward: 2 / 3 }), 'passed · 2/3 pass · 0.667');
  assert.equal(cell({ attempts: 3, measured: 1, passed: 1 }), 'passed · 1/1 pass · 2 not measured · 1.0');
  assert.equal(cell({ attempts: 2, measured: 0, passed: 0, outcome: 'infra-error', meanReward: null }), 'infra-error · 2 not measured · —');
});

test('compare text: a side that measured nothing shows dashes, no difference, and no counts', () => {
  const text = renderCompareText(compareRuns([run('a', { t: [I] }), run('b', { t: [P] })]));
  const lines = text.split('\n');
  // widths: 20, A's 3 ("0/0"), B's 5 ("1.000"), B−A's 3 (its header: the difference is empty)
  assert.ok(lines.includes('  pass@1 (common)         —  1.000'), text);
  assert.ok(lines.includes('  mean reward (common)    —  1.000'), text);
  assert.ok(lines.includes('  input tokens            —      —'), text);
  assert.ok(lines.includes('  cost                    —      —'), text);
});
