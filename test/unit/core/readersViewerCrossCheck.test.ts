// The cross-check of a viewer dataset's recorded aggregates (src/core/readers/viewerCrossCheck.ts), called directly:
// which recorded numbers disagree with the tasks, at what precision a recorded number is compared, how the numbers
// are written in the warning, and where the warning is placed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crossCheckViewerSummary, crossCheckViewerSummarySliced, type CellRewards } from '../../../src/core/readers/viewerCrossCheck';
import { TimeSlice } from '../../../src/core/turn';
import { parseJsonDocument } from '../../../src/core/readers/jsonFile';

type Obj = Record<string, unknown>;

function check(summary: Obj, cells: CellRewards[], nTasks: number) {
  const doc = parseJsonDocument('/v/summary.json', JSON.stringify(summary, null, 2));
  return crossCheckViewerSummary(doc, summary, cells, nTasks);
}

const cell = (taskIndex: number, model: string, harness: string, rewards: (number | null)[], recordedPassedAt?: number | null): CellRewards => ({
  taskIndex, model, harness, rewards, attemptNumbers: rewards.map((_, i) => i + 1), cellKey: `${model}|${harness}`,
  ...(recordedPassedAt !== undefined ? { recordedPassedAt } : {}),
});

// Task 0: M/h1 passes at 2, M/h2 fails; task 1: M/h1 all infra (null), N/h2 passes at 1.
const cells = [
  cell(0, 'M', 'h1', [0, 1], 2),
  cell(0, 'M', 'h2', [0, 0], null),
  cell(1, 'M', 'h1', [null, null]),
  cell(1, 'N', 'h2', [1, 0], 1),
];

test('recorded totals that agree with the tasks: nothing said', () => {
  const summary = {
    summary: { tasks_total: 2, tasks_any_pass: 2, attempts_total: 8, attempts_passed: 2, n_all_infra: 0 },
    by_model: [{ model: 'M', cells: 3, n_measured: 2, 'pass@1': 0.25, 'pass@2': 0.5 }, { model: 'N', cells: 1, n_measured: 1, 'pass@1': 0.5 }],
    by_harness: [{ harness: 'h1', cells: 2, n_measured: 1, 'pass@1': 0.5 }, { harness: 'h2', cells: 2, n_measured: 2, 'pass@1': 0.25, 'pass@2': 0.5 }],
  };
  assert.deepEqual(check(summary, cells, 2), []);
});

test('every recorded total that disagrees is a warning at its value, with both numbers', () => {
  const summary = {
    summary: { tasks_total: 3, tasks_any_pass: 1, attempts_total: 7, attempts_passed: 3, n_all_infra: 1 },
  };
  const problems = check(summary, cells, 2);
  assert.deepEqual(problems.map((p) => [p.jsonPath, p.severity, p.code, p.message]), [
    [['summary', 'tasks_total'], 'warning', 'aggregate-mismatch', 'summary.tasks_total is recorded as 3 but the tasks give 2'],
    [['summary', 'tasks_any_pass'], 'warning', 'aggregate-mismatch', 'summary.tasks_any_pass is recorded as 1 but the tasks give 2'],
    [['summary', 'attempts_total'], 'warning', 'aggregate-mismatch', 'summary.attempts_total is recorded as 7 but the tasks give 8'],
    [['summary', 'attempts_passed'], 'warning', 'aggregate-mismatch', 'summary.attempts_passed is recorded as 3 but the tasks give 2'],
    [['summary', 'n_all_infra'], 'warning', 'aggregate-mismatch', 'summary.n_all_infra is recorded as 1 but the tasks give 0'],
  ]);
  for (const p of problems) assert.equal(p.file, '/v/summary.json');
  assert.equal(problems[0].line, 3, 'placed at the recorded value');
  // A task whose every attempt is null is all infra (one with no attempts is not).
  const infra = check({ summary: { n_all_infra: 0 } }, [cell(0, 'M', 'h', [null]), cell(1, 'M', 'h', []), cell(2, 'M', 'h', [1])], 3);
  assert.deepEqual(infra.map((p) => p.message), ['summary.n_all_infra is recorded as 0 but the tasks give 1']);
});

test('totals that are not numbers, a summary that is not an object, rows without their axis: not checked', () => {
  assert.deepEqual(check({ summary: { tasks_total: '2', attempts_total: null } }, cells, 5), []);
  assert.deepEqual(check({ summary: [3] }, cells, 5), []);
  assert.deepEqual(check({ summary: null }, cells, 5), []);
  assert.deepEqual(check({ by_model: [null, 'M', { cells: 9 }, { model: 7, cells: 9 }, [{ model: 'M', cells: 9 }]], by_harness: { harness: 'h1', cells: 9 } }, cells, 2), []);
});

test('passed_at of each cell against its first passing attempt', () => {
  const got = check({}, [
    cell(0, 'M', 'a', [0, 1], 1),
    cell(1, 'M', 'a', [0, 0], 2),
    cell(2, 'M', 'a', [1], null),
    cell(3, 'M', 'a', [null, 1], 2),
    cell(4, 'M', 'a', [0], null),
    cell(5, 'M', 'a', [0, 1]),
  ], 6);
  assert.deepEqual(got.map((p) => [p.jsonPath, p.message]), [
    [['tasks', 0, 'cells', 'M|a', 'passed_at'], 'passed_at is recorded as 1 but the first passing attempt is 2'],
    [['tasks', 1, 'cells', 'M|a', 'passed_at'], 'passed_at is recorded as 2 but the first passing attempt is none'],
    [['tasks', 2, 'cells', 'M|a', 'passed_at'], 'passed_at is recorded as null but the first passing attempt is 1'],
  ]);
  for (const p of got) assert.equal(p.severity, 'warning');
  // Attempt numbers as recorded, not positions.
  const renumbered = { ...cell(0, 'M', 'a', [0, 1], 2), attemptNumbers: [3, 5] };
  assert.deepEqual(check({}, [renumbered], 1).map((p) => p.message), ['passed_at is recorded as 2 but the first passing attempt is 5']);
});

test('by_model and by_harness: cells, n_measured and every pass@k column, each against the cells of that model or harness', () => {
  const summary = {
    by_model: [{ model: 'M', cells: 2, n_measured: 3, 'pass@1': 0.35, 'pass@2': 0.5, 'pass@3': 0.9, 'pass@1x': 7, 'xpass@1': 7, mean_turns: 4 }],
    by_harness: [{ harness: 'h2', cells: 2, n_measured: 2, 'pass@1': 0.25 }, { harness: 'nobody', cells: 0, 'pass@1': 0.5 }],
  };
  const got = check(summary, cells, 2);
  assert.deepEqual(got.map((p) => [p.jsonPath, p.message]), [
    [['by_model', 0, 'cells'], 'by_model[M].cells is recorded as 2 but the tasks give 3'],
    [['by_model', 0, 'n_measured'], 'by_model[M].n_measured is recorded as 3 but the tasks give 2'],
    [['by_model', 0, 'pass@1'], 'by_model[M].pass@1 is recorded as 0.35 but the tasks give 0.25'],
    [['by_model', 0, 'pass@3'], 'by_model[M].pass@3 is recorded as 0.9 but the tasks give 0.5'],
    [['by_harness', 1, 'pass@1'], 'by_harness[nobody].pass@1 is recorded as 0.5 but nothing was measured to compute it from'],
  ]);
});

test('a recorded number is compared at its own precision: half a unit of its last decimal', () => {
  const one = (recorded: number, rewards: (number | null)[][]) =>
    check({ by_model: [{ model: 'M', 'pass@1': recorded }] }, rewards.map((r, i) => cell(i, 'M', 'h', r)), rewards.length).map((p) => p.message);
  // pass@1 of [1,0,0] is 1/3.
  assert.deepEqual(one(0.33, [[1, 0, 0]]), []);
  assert.deepEqual(one(0.3, [[1, 0, 0]]), []);
  assert.deepEqual(one(0.34, [[1, 0, 0]]), ['by_model[M].pass@1 is recorded as 0.34 but the tasks give 0.3333']);
  assert.deepEqual(one(0.328, [[1, 0, 0]]), ['by_model[M].pass@1 is recorded as 0.328 but the tasks give 0.3333']);
  // 0.55 against 0.5: exactly half a unit of 0.5's last decimal is still the same number.
  assert.deepEqual(one(0.5, [[1, 0], [1, 1, 1, 0, 0]]), []);
  assert.deepEqual(one(0.6, [[1, 0, 0, 0]]), ['by_model[M].pass@1 is recorded as 0.6 but the tasks give 0.25']);
  // An integer: within 0.5.
  assert.deepEqual(one(0, [[1, 0, 0]]), []);
  assert.deepEqual(one(1, [[1, 0, 0]]), ['by_model[M].pass@1 is recorded as 1 but the tasks give 0.3333']);
  // Written with an exponent, or with nine or more decimals: 1e-9.
  assert.deepEqual(one(1e-7, [[0]]), ['by_model[M].pass@1 is recorded as 1e-7 but the tasks give 0']);
  assert.deepEqual(one(0.333333333, [[1, 0, 0]]), []);
  assert.deepEqual(one(0.333333332, [[1, 0, 0]]), ['by_model[M].pass@1 is recorded as 0.3333 but the tasks give 0.3333']);
  assert.deepEqual(one(0.3333333318, [[1, 0, 0]]), ['by_model[M].pass@1 is recorded as 0.3333 but the tasks give 0.3333']);
  // A number rounding to four decimals: no trailing dot.
  assert.deepEqual(one(2.00001, [[1, 0]]), ['by_model[M].pass@1 is recorded as 2 but the tasks give 0.5']);
  assert.deepEqual(one(0.00004, [[1, 0]]), ['by_model[M].pass@1 is recorded as 0.00004 but the tasks give 0.5']);
});

test('edges: two-digit k in pass@k, tasks whose attempts all are infra, a tiny negative number written as is, the unmeasured warning\'s severity and code', () => {
  const many = Array.from({ length: 12 }, (_, i) => (i === 11 ? 1 : 0));
  const got = check({ by_model: [{ model: 'M', 'pass@10': 0.5 }] }, [cell(0, 'M', 'h', many)], 1);
  assert.deepEqual(got.map((p) => [p.jsonPath, p.message]), [[['by_model', 0, 'pass@10'], 'by_model[M].pass@10 is recorded as 0.5 but the tasks give 0.8333']]);
  assert.deepEqual(check({ summary: { n_all_infra: 2 } }, [cell(0, 'M', 'h', [null]), cell(1, 'M', 'h', [null, null])], 2), []);
  assert.deepEqual(check({ summary: { tasks_total: -0.00001 } }, [], 0).map((p) => p.message), ['summary.tasks_total is recorded as -0.00001 but the tasks give 0']);
  const none = check({ by_harness: [{ harness: 'nobody', 'pass@1': 0.5 }] }, cells, 2);
  assert.deepEqual(none.map((p) => [p.severity, p.code, p.file]), [['warning', 'aggregate-mismatch', '/v/summary.json']]);
});

test('the sliced cross-check says what the whole one says, with turns of the event loop between its pieces', async () => {
  // 600 cells (a turn every 256 cells of each pass) and by_model / by_harness rows (a turn for each); some disagree.
  const many = Array.from({ length: 600 }, (_, i) => cell(i >> 1, i % 3 ? 'M' : 'N', i % 2 ? 'h1' : 'h2', [i % 4 ? 0 : 1, null], i % 4 ? null : 2));
  const summary = {
    summary: { tasks_total: 300, attempts_passed: 150 },
    by_model: [{ model: 'M', cells: 400, 'pass@1': 0.25, 'pass@2': 0.3 }, { model: 'N', cells: 200, 'pass@1': 0.25 }],
    by_harness: [{ harness: 'h1', cells: 300, n_measured: 300 }],
  };
  const doc = parseJsonDocument('/v/summary.json', JSON.stringify(summary, null, 2));
  const whole = crossCheckViewerSummary(doc, summary, many, 300);
  assert.ok(whole.length >= 3, JSON.stringify(whole.map((p) => p.message)));
  let turns = 0;
  let running = true;
  const tick = (): void => { turns++; if (running) setImmediate(tick); };
  setImmediate(tick);
  const sliced = await crossCheckViewerSummarySliced(doc, summary, many, 300, new TimeSlice(0));
  running = false;
  assert.deepEqual(sliced, whole);
  // Two passes over the cells (2 turns each), three rows (each row's pass@k in one pass over its cells).
  assert.ok(turns >= 7, `${turns} turns`);
});
