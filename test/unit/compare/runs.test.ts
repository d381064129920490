// Run comparison: regressions and improvements first, tasks on one side only listed, unmeasured attempts never
// averaged in as zeros, pass@k per side with the difference, usage per side, cells split, jobs merged (stated).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { compareRuns, sidesOf, verifierReport } from '../../../src/core/compare';
import { attempt, F, I, P, run, type A } from './build';

test('regressed and improved tasks first, then one-side tasks, then unchanged; deltas from the baseline', () => {
  const a = run('a', { steady: [P, P], drop: [P, P], rise: [F, F], half: [P, F], onlyA: [P] });
  const b = run('b', { steady: [P, P], drop: [F, F], rise: [P, F], half: [F, F], onlyB: [F] });
  const c = compareRuns([a, b]);
  assert.deepEqual(c.tasks.map((t) => `${t.id}:${t.change}`), ['drop:regressed', 'half:regressed', 'rise:improved', 'onlyA:only-in-some', 'onlyB:only-in-some', 'steady:unchanged']);
  assert.equal(c.tasks[0].delta, -1);
  assert.equal(c.tasks[1].delta, -0.5);
  const onlyB = c.tasks.find((t) => t.id === 'onlyB')!;
  assert.equal(onlyB.cells[0], null);
  assert.equal(onlyB.cells[1]?.outcome, 'failed');
  assert.equal(c.commonTasks, 4);
  assert.equal(c.k, 2);
  const [sa, sb] = c.sides;
  assert.equal(sa.diff, null);
  assert.deepEqual(sb.counts, { regressed: 2, improved: 1, 'only-in-some': 2, 'not-comparable': 0, unchanged: 1 });
  // Over the 4 common tasks: A passes 5/8 attempts, B 3/8.
  assert.equal(sa.common.passAt1, (1 + 1 + 0 + 0.5) / 4);
  assert.equal(sb.common.passAt1, (1 + 0 + 0.5 + 0) / 4);
  assert.equal(sb.diff?.passAt1, -0.25);
  assert.equal(sa.all.tasks, 5);
  assert.equal(sa.all.passAtK, (1 + 1 + 0 + 1 + 1) / 5);
  assert.equal(sb.common.passAtK, (1 + 0 + 1 + 0) / 4);
  assert.equal(sb.diff?.passAtK, -0.25);
});

test('a null reward is not measured: not a zero in the mean, and a side that measured nothing is not comparable', () => {
  const a = run('a', { t1: [P, I], t2: [P], t3: [F] });
  const b = run('b', { t1: [P, P], t2: [I, I], t3: [F, I] });
  const c = compareRuns([a, b]);
  const row = (id: string) => c.tasks.find((t) => t.id === id)!;
  assert.equal(row('t1').cells[0]?.meanReward, 1);
  assert.equal(row('t1').cells[0]?.measured, 1);
  assert.equal(row('t1').change, 'unchanged');
  assert.equal(row('t2').change, 'not-comparable');
  assert.equal(row('t2').cells[1]?.meanReward, null);
  assert.equal(row('t2').cells[1]?.outcome, 'infra-error');
  assert.equal(row('t3').change, 'unchanged');
  assert.equal(c.sides[1].all.allInfra, 1);
  assert.equal(c.sides[1].all.meanReward, (1 + 1 + 0) / 3);
  assert.equal(c.sides[1].all.passAt1, (1 + 0) / 2);
});

test('fractional rewards: equal pass rates compare by mean reward', () => {
  const c = compareRuns([run('a', { t: [['failed', 0.5]] }), run('b', { t: [['failed', 0.25]] })]);
  assert.equal(c.tasks[0].change, 'regressed');
  assert.equal(c.tasks[0].delta, -0.25);
});

test('tokens, cost and duration per side: sums of what attempts said, with how many said it', () => {
  const a = run('a', { t: [['passed', 1, { tokens: { input: 100, output: 10, cached: null }, costUsd: 0.5, durationSec: 30 }], ['failed', 0, { durationSec: 12 }]] });
  const b = run('b', { t: [P] });
  const c = compareRuns([a, b]);
  assert.deepEqual(c.sides[0].usage, { inputTokens: 100, outputTokens: 10, cachedTokens: null, costUsd: 0.5, durationSec: 42, withTokens: 1, withCost: 1, withDuration: 2 });
  assert.deepEqual(c.sides[1].usage, { inputTokens: null, outputTokens: null, cachedTokens: null, costUsd: null, durationSec: null, withTokens: 0, withCost: 0, withDuration: 0 });
});

test('merged jobs: one trial per job, same agent and model, become one side (stated); other agents stay apart', () => {
  const id = (agent: string, model = 'gpt-x') => ({ agent, model, dataset: 'tb' });
  const jobs = [
    run('j1', { t1: [P] }, id('terminus')), run('j2', { t1: [F], t2: [P] }, id('terminus')), run('j3', { t2: [P] }, id('terminus')),
    run('k1', { t1: [F] }, id('codex')), run('k2', { t2: [F] }, id('codex')),
  ];
  const plain = compareRuns(jobs);
  assert.equal(plain.sides.length, 5);
  assert.equal(plain.mergeNote, null);
  const c = compareRuns(jobs, { merge: true });
  assert.equal(c.sides.length, 2);
  assert.deepEqual(c.sides[0].mergedFrom, ['j1', 'j2', 'j3']);
  assert.deepEqual(c.sides[0].runIds, ['harbor-job:/jobs/j1', 'harbor-job:/jobs/j2', 'harbor-job:/jobs/j3']);
  assert.match(c.sides[0].label, /3 runs merged/);
  assert.match(c.mergeNote ?? '', /3 runs of terminus · gpt-x on tb.*2 runs of codex · gpt-x on tb/);
  const t1 = c.tasks.find((t) => t.id === 't1')!;
  assert.equal(t1.cells[0]?.attempts, 2);
  assert.equal(t1.cells[0]?.passRate, 0.5);
  assert.deepEqual(t1.cells[0]?.attemptIds, ['harbor-job:/jobs/j1::t1#0', 'harbor-job:/jobs/j2::t1#0']);
  assert.deepEqual(c.tasks.map((t) => `${t.id}:${t.change}`), ['t2:regressed', 't1:regressed']);
  // The same run given twice is one side; a run whose agent is not known is never merged.
  assert.equal(compareRuns([jobs[0], jobs[0], jobs[1]], { merge: true }).sides[0].mergedFrom.length, 2);
  assert.equal(compareRuns([run('x', { t: [P] }), run('y', { t: [P] })], { merge: true }).sides.length, 2);
});

test('a run with several cells is one side per cell (viewer data model|harness)', () => {
  const v = run('v', { t: [P] }, {}, 'viewer-data');
  v.tasks[0].attempts = [
    { ...attempt('t', 0, P), cell: 'm1|h' }, { ...attempt('t', 1, F), cell: 'm2|h' }, { ...attempt('t', 2, P), cell: 'm2|h' },
  ];
  const sides = sidesOf([v]);
  assert.deepEqual(sides.map((s) => [s.label, s.model, s.agent]), [['v · m1|h', 'm1', 'h'], ['v · m2|h', 'm2', 'h']]);
  const c = compareRuns([v]);
  assert.equal(c.tasks[0].change, 'regressed');
  assert.equal(c.tasks[0].cells[1]?.attempts, 2);
  assert.equal(sidesOf([v], { splitCells: false }).length, 1);
});

test('verifier report: outcome, reward, failed tests sorted, stdout or why it is absent', () => {
  const a = attempt('t', 0, ['failed', 0, {
    exception: { type: 'AgentTimeoutError', message: 'timed out\nmore' },
    evidence: [
      { kind: 'ctrf', label: 'ctrf.json', path: '/x/ctrf.json', isDir: false, present: true, failedTests: [{ name: 'test_b', message: 'boom' }, { name: 'test_a' }] },
      { kind: 'test-stdout', label: 'test-stdout.txt', path: '/x/test-stdout.txt', isDir: false, present: true },
    ],
  }]);
  assert.equal(verifierReport(a, 'line 1\n'), [
    'outcome: failed', 'reward: 0.0', 'exception: AgentTimeoutError: timed out', 'failed tests (2):', '  - test_a', '  - test_b: boom', '',
    '--- test-stdout.txt ---', 'line 1', '',
  ].join('\n'));
  const none = attempt('t', 1, I);
  assert.equal(verifierReport(none, null), 'outcome: infra-error\nreward: — (not measured)\nfailed tests: no ctrf.json\n\n--- test-stdout.txt ---\n(none)\n');
});
