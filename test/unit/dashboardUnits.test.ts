// The run dashboard's pieces one by one, with values worked out by hand: the reward histogram's bins over rewards
// outside [0, 1], sums, the clipboard tables' formula guard and number test, failure causes and failing tests
// (detail, ordering, caps), the task table (attempt order, reward method, first pass per cell, figures, the attempt
// a row opens), the scatter sample and the provenance list, the viewer pivot's axes and recorded rows,
// reward-details.json rows (lenient shapes, caps) and the training table (columns, copies, ranges, re-reads).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attempt, Evidence, Run, Task } from '../../src/core/model';
import { attemptTokens, dashboardModel, taskRow } from '../../src/core/dashboard';
import { causeOf, failingTests, failureCauses } from '../../src/core/dashboard/causes';
import { axesOf, cellUnits, viewerPivot } from '../../src/core/dashboard/pivot';
import { rewardDetailNodes } from '../../src/core/dashboard/rewardDetails';
import { meanOf, rewardDistribution, sumOf, usageStat } from '../../src/core/dashboard/stats';
import { toCsv, toMarkdown } from '../../src/core/dashboard/tableText';
import { readTrainingTable, trainingSeries, trainingTableOf } from '../../src/core/dashboard/training';
import { MemFs } from '../../scripts/sample-runs/memFs';

const close = (a: number | null | undefined, b: number, eps = 1e-9) => assert.ok(typeof a === 'number' && Math.abs(a - b) <= eps, `${a} ≉ ${b}`);

function att(id: string, i: number, o: Partial<Attempt> = {}): Attempt {
  const reward = o.reward === undefined ? 0 : o.reward;
  return {
    id: `${id}#${i}`, index: i, label: `#${i + 1}`, outcome: reward === null ? 'infra-error' : reward >= 1 ? 'passed' : 'failed',
    reward, evidence: [], missing: [], ...o,
  };
}
function task(id: string, attempts: Partial<Attempt>[], o: Partial<Task> = {}): Task {
  return { id, label: id, attempts: attempts.map((a, i) => att(id, a.index ?? i, a)), ...o };
}
function run(tasks: Task[], o: Partial<Run> = {}): Run {
  return { id: 'x:run', kind: 'harbor-job', root: '/r', anchor: '/r', label: 'r', identity: {}, state: 'complete', files: [], problems: [], unvalidated: [], skipped: [], tasks, ...o };
}
const ctrf = (names: (string | { name: string; message?: string })[], kind: Evidence['kind'] = 'ctrf'): Evidence => ({
  kind, label: 'ctrf.json', path: '/c', isDir: false, present: true,
  failedTests: names.map((n) => (typeof n === 'string' ? { name: n } : n)),
});

test('stats: the histogram spans rewards below 0 and above 1, its last bin ends at the highest; sums and means of finite values', () => {
  // lo = −1, hi = 3: ten bins of 0.4; −1 → bin 0, 0.5 → 1.5 / 0.4 = 3.75 → bin 3, 3 → bin 9 (the last, closed).
  const h = rewardDistribution([-1, 0.5, 3, null]);
  assert.equal(h.binary, false);
  assert.deepEqual(h.bins.map((b) => b.count), [1, 0, 0, 1, 0, 0, 0, 0, 0, 1]);
  h.bins.forEach((b, i) => { close(b.from, -1 + 0.4 * i); close(b.to, -1 + 0.4 * (i + 1)); });
  close(h.mean, 2.5 / 3);
  assert.equal(h.nNull, 1);
  // lo = −0.7: ten bins of 0.17, whose tenth would end at 0.9999999999999998; the last bin ends at exactly 1.
  const g = rewardDistribution([-0.7, 0.5]);
  assert.equal(g.bins[9].to, 1);
  assert.equal(g.bins[0].from, -0.7);
  close(g.bins[0].to, -0.53);
  assert.deepEqual(g.bins.map((b) => b.count), [1, 0, 0, 0, 0, 0, 0, 1, 0, 0]);
  // Only rewards above 1: [0, 2] in bins of 0.2.
  const up = rewardDistribution([2, 1.5]);
  assert.equal(up.bins[9].to, 2);
  assert.deepEqual(up.bins.map((b) => b.count), [0, 0, 0, 0, 0, 0, 0, 1, 0, 1]);
  // Nothing measured: no bins, and not "binary".
  assert.deepEqual(rewardDistribution([null, Number.NaN]), { bins: [], nMeasured: 0, nNull: 2, mean: null, binary: false });
  assert.equal(sumOf([1, null, 2.5, undefined, Number.NaN, Infinity]), 3.5);
  assert.equal(sumOf([0, 0]), 0);
  assert.equal(sumOf([null]), null);
  assert.equal(sumOf([]), null);
  assert.equal(meanOf([2, Number.NaN, -Infinity, 4]), 3);
  assert.equal(meanOf([null]), null);
  assert.deepEqual(usageStat([Infinity, 5]), { n: 1, missing: 1, sum: 5, median: 5, p90: 5 });
});

test('tables as text: backslashes in Markdown, the CSV formula guard only at the start and only for what is not a number', () => {
  assert.equal(toMarkdown({ headers: ['a\\b'], rows: [['c\r\nd|e']] }), '| a\\\\b |\n| --- |\n| c d\\|e |\n');
  const csv = (s: string) => toCsv({ headers: [s], rows: [] }).slice(0, -2);
  // Numbers are kept as they are: signs, decimals, exponents.
  for (const n of ['-1', '-5', '-5.', '-12.5', '+.5', '-.25', '-1e5', '-1e-5', '-1E+10', '-1e10', '+3.25e-12']) assert.equal(csv(n), n, n);
  // Anything else starting with = + - @ (or a tab or CR) gets a quote in front, so no spreadsheet runs it.
  for (const s of ['=1+1', '-1abc', '-x1', '+1e', '-1e', '-.', '-1.2.3', '@SUM(A1)', '-e5']) assert.equal(csv(s), `'${s}`, s);
  assert.equal(csv('a=1'), 'a=1');
  assert.equal(csv('x-1'), 'x-1');
  // Leading or trailing spaces are kept by quoting the cell.
  assert.equal(csv(' a'), '" a"');
  assert.equal(csv('a '), '"a "');
  assert.equal(csv('a b'), 'a b');
});

test('causes: an exception\'s detail (category, else its step), a verifier stage, an unexplained null reward; groups ranked', () => {
  const ex = (where: string | undefined, details?: Attempt['details']) => causeOf(att('t', 0, { exception: { type: 'E', message: '', where }, details }));
  assert.deepEqual(ex('trial'), { key: 'exception:E', source: 'exception', label: 'E', detail: null, message: null });
  assert.equal(ex(undefined)!.detail, null);
  assert.equal(ex('agent')!.detail, 'step agent');
  assert.equal(ex('agent', { exceptionCategory: 'agent-timeout' })!.detail, 'agent-timeout');
  assert.equal(ex('agent', { exceptionCategory: 3 })!.detail, 'step agent');
  const fail = (failure: Attempt['failure'], reward: number | null = null) => causeOf(att('t', 0, { reward, failure }));
  assert.deepEqual(fail({ class: 'agent_run_error', stage: 'agent_run', reason: 'crash' }),
    { key: 'failure:agent_run_error', source: 'failure', label: 'agent_run_error', detail: 'agent_run', message: 'crash' });
  assert.equal(fail({ kind: 'timeout', stage: 'Verifier' })!.source, 'verifier');
  assert.equal(fail({ kind: 'timeout' })!.message, null);
  assert.deepEqual(fail({ reason: 'the container never started' }),
    { key: 'verifier:no-reward', source: 'verifier', label: 'no reward (verifier never ran)', detail: null, message: 'the container never started' });
  assert.equal(fail({ reason: 'low score' }, 0), null, 'a measured reward with a reason and no class is not a cause');
  assert.equal(fail({ reason: '' }), null);
  assert.equal(fail({}), null);
  assert.equal(causeOf(att('t', 0, { reward: 1 })), null);

  // Ranked by count, ties by key; the sample is the first message, cut to 2,000 characters.
  const long = 'x'.repeat(2500);
  const r = run([
    task('a', [{ exception: { type: 'Zeta', message: long } }, { exception: { type: 'Beta', message: 'b' } }]),
    task('b', [{ exception: { type: 'Alpha', message: 'a' } }, { exception: { type: 'Zeta', message: 'z' } }]),
  ]);
  const causes = failureCauses(r);
  assert.deepEqual(causes.map((c) => [c.key, c.count, c.tasks]), [['exception:Zeta', 2, 2], ['exception:Alpha', 1, 1], ['exception:Beta', 1, 1]]);
  assert.equal(causes[0].sample, 'x'.repeat(2000));
  assert.equal(causes[1].sample, 'a');
});

test('failing tests: ctrf evidence only, nested in steps too, a test once per attempt, ranked, messages cut, capped', () => {
  const long = 'm'.repeat(2100);
  const r = run([
    task('a', [
      { evidence: [ctrf([{ name: 'test_b', message: long }, 'test_a']), { ...ctrf(['test_other']), kind: 'test-stdout' }] },
      // The same test failing in a step's ctrf.json and the trial's: counted once for this attempt.
      { evidence: [ctrf(['test_b']), { kind: 'step-dir' as Evidence['kind'], label: 's', path: '/s', isDir: true, present: true, children: [ctrf(['test_b', 'test_c'])] }] },
    ]),
    task('b', [{ evidence: [ctrf(['test_c', 'test_a'])] }]),
  ]);
  const ft = failingTests(r);
  assert.deepEqual(ft.map((t) => [t.name, t.attempts, t.tasks]), [['test_a', 2, 2], ['test_b', 2, 1], ['test_c', 2, 2]]);
  assert.equal(ft.find((t) => t.name === 'test_b')!.message, 'm'.repeat(2000));
  assert.equal(ft.find((t) => t.name === 'test_a')!.message, null);
  assert.deepEqual(failingTests(r, 2).map((t) => t.name), ['test_a', 'test_b']);
  const many = run([task('m', [{ evidence: [ctrf(Array.from({ length: 25 }, (_, i) => `t${String(i).padStart(2, '0')}`))] }])]);
  assert.equal(failingTests(many).length, 20);
  assert.equal(failingTests(many)[19].name, 't19');
});

test('attempt tokens: input plus output, either alone, none when neither is a finite number', () => {
  const tok = (tokens: Attempt['tokens']) => attemptTokens(att('t', 0, { tokens }));
  assert.equal(tok({ input: 10, output: 5 }), 15);
  assert.equal(tok({ input: 10 }), 10);
  assert.equal(tok({ output: 7 }), 7);
  assert.equal(tok({ input: Number.NaN, output: 7 }), 7);
  assert.equal(tok({ input: 3, output: Infinity }), 3);
  assert.equal(tok({ input: null, output: null, cached: 9 }), null);
  assert.equal(tok(undefined), null);
});

test('task row: attempts in cell then index order, reward methods, figures, the attempt it opens, outcomes in their order', () => {
  const r = run([]);
  // Given out of order: cell "b" index 0, cell "a" index 1, cell "a" index 0, no cell index 5.
  const t = task('t', [
    { index: 0, cell: 'b', reward: 1, rewardMethod: 'llm', costUsd: 1, durationSec: 10, tokens: { input: 1, output: 1 } },
    { index: 1, cell: 'a', reward: 0, rewardMethod: 'programmatic', costUsd: Number.NaN, durationSec: 20 },
    { index: 0, cell: 'a', reward: 0.5, rewardMethod: 'llm' },
    { index: 5, reward: null, rewardMethod: '' },
  ]);
  const row = taskRow(r, t);
  assert.deepEqual(row.rewards, [null, 0.5, 0, 1]);
  assert.equal(row.rewardMethod, 'llm, programmatic');
  assert.equal(row.costUsd, 1);
  assert.equal(row.durationSec, 30);
  assert.equal(row.tokens, 2);
  close(row.meanReward, 0.5);
  assert.deepEqual(row.outcomes, ['passed', 'failed', 'infra-error']);
  assert.equal(row.openAttemptId, 't#5', 'the first attempt that did not pass, in order');
  // Same cell: by index; a task already in order keeps its order.
  assert.deepEqual(taskRow(r, task('u', [{ index: 1, cell: 'a', reward: 1 }, { index: 0, cell: 'a', reward: 0 }])).rewards, [0, 1]);
  assert.deepEqual(taskRow(r, task('u', [{ index: 0, reward: 0 }, { index: 1, reward: 1 }, { index: 2, reward: 0.5 }])).rewards, [0, 1, 0.5]);
  // No method on any attempt: the task's reward_mode; neither: null.
  assert.equal(taskRow(r, task('m', [{}], { details: { reward_mode: 'rubric' } })).rewardMethod, 'rubric');
  assert.equal(taskRow(r, task('m', [{}], { details: { reward_mode: 3 } })).rewardMethod, null);
  assert.equal(taskRow(r, task('m', [{}])).rewardMethod, null);
  // A label that is empty shows the id; a task without attempts opens nothing.
  assert.equal(taskRow(r, task('id1', [{}], { label: '' })).label, 'id1');
  const empty = taskRow(r, task('e', []));
  assert.equal(empty.openAttemptId, null);
  assert.equal(empty.outcome, 'missing');
  assert.equal(empty.costUsd, null);
  assert.equal(empty.durationSec, null);
  // The attempt opened: the first with a provenance warning, else the first that did not pass, else the first.
  const info = { code: 'reward-details' as const, severity: 'info' as const, message: 'i', file: '/r/x' };
  const warn = { code: 'reward-files-disagree' as const, severity: 'warning' as const, message: 'w', file: '/r/y' };
  assert.equal(taskRow(r, task('p', [{ reward: 1, provenance: [info] }, { reward: 0 }, { reward: 0 }])).openAttemptId, 'p#1');
  assert.equal(taskRow(r, task('p', [{ reward: 1 }, { reward: 0 }, { reward: 1, provenance: [info, warn] }])).openAttemptId, 'p#2');
  assert.equal(taskRow(r, task('p', [{ reward: 1 }, { reward: 1 }])).openAttemptId, 'p#0');
});

test('first pass: Harbor cells are attempts of one task in order; viewer data takes the best cell', () => {
  const attempts: Partial<Attempt>[] = [
    { index: 0, cell: 'x|m1', reward: 0 }, { index: 1, cell: 'x|m1', reward: 1 }, { index: 0, cell: 'x|m2', reward: 1 },
  ];
  // Harbor: m1's two attempts then m2's: [0, 1, 1] → passed at 2.
  assert.equal(taskRow(run([]), task('t', attempts)).passedAt, 2);
  // Viewer data: m1 passes at 2, m2 at 1 → 1. A cell that never passes does not count; no cell passes → null.
  const v = run([], { kind: 'viewer-data' });
  assert.equal(taskRow(v, task('t', attempts)).passedAt, 1);
  assert.equal(taskRow(v, task('t', [{ index: 0, cell: 'a|h', reward: 0 }, { index: 0, cell: 'b|h', reward: 0 }, { index: 1, cell: 'b|h', reward: 1 }, { index: 0, cell: 'c|h', reward: null }])).passedAt, 2);
  assert.equal(taskRow(v, task('t', [{ index: 0, cell: 'a|h', reward: 0 }])).passedAt, null);
});

test('dashboard: unit, scatter means and sample, provenance warnings first and capped', () => {
  const info = (n: number) => ({ code: 'reward-details' as const, severity: 'info' as const, message: `i${n}`, file: `/r/i${n}` });
  const warn = { code: 'reward-files-disagree' as const, severity: 'warning' as const, message: 'w', file: '/r/w' };
  const tasks = Array.from({ length: 5 }, (_, i) => task(`t${i}`, [
    { reward: 1, costUsd: 1, durationSec: 10, provenance: i === 0 ? [info(1), info(2)] : i === 4 ? [warn] : [] },
    { reward: 0, costUsd: 3, durationSec: 30 },
  ], { label: i === 1 ? '' : `T${i}` }));
  const r = run(tasks);
  const d = dashboardModel(r, { maxPoints: 2 });
  assert.equal(d.unit, 'task');
  assert.equal(d.scatter.total, 5);
  // Every third point (5 points, at most 2): t0 and t3.
  assert.deepEqual(d.scatter.points.map((p) => p.taskId), ['t0', 't3']);
  assert.deepEqual(d.scatter.points[0], { taskId: 't0', label: 'T0', reward: 0.5, costUsd: 2, tokens: null, durationSec: 20 });
  assert.equal(dashboardModel(r, { maxPoints: 5 }).scatter.points.length, 5);
  assert.equal(dashboardModel(r, { maxPoints: 4 }).scatter.points.length, 3);
  assert.equal(dashboardModel(r).scatter.points[1].label, 't1');
  assert.equal(dashboardModel(r).rows[1].label, 't1');
  assert.deepEqual(d.provenance.map((p) => p.message), ['w', 'i1', 'i2']);
  assert.equal(d.provenanceOmitted, 0);
  const capped = dashboardModel(r, { maxProvenance: 2 });
  assert.deepEqual(capped.provenance.map((p) => p.message), ['i1', 'i2']);
  assert.equal(capped.provenanceOmitted, 1);
  const one = dashboardModel(r, { maxProvenance: 1 });
  assert.deepEqual(one.provenance.map((p) => p.message), ['i1']);
  assert.equal(one.provenanceOmitted, 2);
});

test('viewer pivot: axes from details or the cell key, units in attempt order, names sorted, recorded rows read leniently', () => {
  const ax = (o: Partial<Attempt>) => axesOf(att('t', 0, o));
  assert.deepEqual(ax({ details: { model: 'M', harness: 'H' }, cell: 'x|y' }), { model: 'M', harness: 'H' });
  assert.deepEqual(ax({ details: { model: 'M' }, cell: 'x|y|z' }), { model: 'x', harness: 'y|z' });
  assert.deepEqual(ax({ details: { harness: 'H' }, cell: 'x|y' }), { model: 'x', harness: 'y' });
  assert.deepEqual(ax({ cell: '|h' }), { model: '', harness: 'h' });
  assert.deepEqual(ax({ cell: 'solo' }), { model: 'solo', harness: '' });
  assert.deepEqual(ax({}), { model: '', harness: '' });

  const a = (cell: string, index: number, reward: number | null, nTurns?: number): Partial<Attempt> => ({ cell, index, reward, nTurns });
  const r = run([
    task('t1', [a('M2|H2', 1, 1, 4), a('M2|H2', 0, 0, 2), a('M1|H1', 0, 1), a('M1|H2', 0, null)]),
    task('t2', [a('M2|H1', 0, 0.5)]),
  ], {
    kind: 'viewer-data',
    recorded: {
      by_model: [null, 5, { model: 'M1', 'pass@1': Number.NaN, 'pass@2': 0.75 }, { 'pass@1': 1 }],
      by_harness: [{ harness: 'H2', 'pass@1': 0.1, 'pass@2': 0.2 }],
    },
  });
  const units = cellUnits(r);
  assert.deepEqual(units.map((u) => [u.model, u.harness, u.rewards]), [['M2', 'H2', [0, 1]], ['M1', 'H1', [1]], ['M1', 'H2', [null]], ['M2', 'H1', [0.5]]]);
  const p = viewerPivot(r)!;
  assert.deepEqual(p.models, ['M1', 'M2']);
  assert.deepEqual(p.harnesses, ['H1', 'H2']);
  assert.equal(p.kMax, 2);
  assert.deepEqual(p.cells.map((c) => [c.model, c.harness, c.units, c.attempts]), [['M1', 'H1', 1, 1], ['M1', 'H2', 1, 1], ['M2', 'H1', 1, 1], ['M2', 'H2', 1, 2]]);
  assert.deepEqual(p.byModel.map((x) => [x.name, x.recordedPassAt1, x.recordedPassAtK]), [['M1', null, 0.75], ['M2', null, null]]);
  assert.deepEqual(p.byHarness.map((x) => [x.name, x.cells, x.recordedPassAt1, x.recordedPassAtK]), [['H1', 2, null, null], ['H2', 2, 0.1, 0.2]]);
  close(p.byModel[1].meanTurns, 3);
  assert.equal(viewerPivot(run([], { kind: 'viewer-data' })), null);
});

test('reward details: lenient shapes become rows, text cut, nothing counted that is not there', () => {
  assert.deepEqual(rewardDetailNodes(null), [{ depth: 0, name: '(reward details)', kind: null, score: null, weight: null, value: null, text: null }]);
  const doc = JSON.parse(`{
    "big": { "score": 1e999, "kind": 5, "judge": { "model": 7 }, "judge_output": null, "warnings": ["a", {"b": 1}] },
    "nothing": null,
    "words": "fine",
    "list": [ { "score": 1 }, 0.5 ],
    "group": { "kind": "group", "aggregation": 3, "components": [ 4, { "weight": 0.5, "detail": { "score": 0 } }, { "name": 9, "detail": 2 } ] },
    "crit": { "criteria": [ "x", { "value": 1 }, { "raw": "yes" }, { "value": { "k": 1 }, "raw": [1], "reasoning": "", "error": "" }, { "value": null, "name": 3 } ] }
  }`);
  const nodes = rewardDetailNodes(doc);
  assert.deepEqual(nodes.map((n) => [n.depth, n.name, n.kind, n.score, n.weight]), [
    [0, 'big', null, null, null], [0, 'nothing', null, null, null], [0, 'words', null, null, null],
    [0, 'list[0]', null, 1, null], [0, 'list[1]', null, 0.5, null],
    [0, 'group', 'group', null, null], [1, '(component)', null, 0, 0.5], [1, '(component)', null, 2, null],
    [0, 'crit', null, null, null], [1, '(criterion)', 'criterion', 1, null], [1, '(criterion)', 'criterion', null, null],
    [1, '(criterion)', 'criterion', null, null], [1, '(criterion)', 'criterion', null, null],
  ]);
  const by = (i: number) => nodes[i];
  assert.equal(by(0).value, null, 'a judge without a model name');
  assert.equal(by(0).text, 'warnings: a; {\n "b": 1\n}');
  assert.equal(by(1).value, null);
  assert.equal(by(2).value, 'fine');
  assert.equal(by(4).value, null, 'a number is a score, not a value');
  assert.equal(by(5).value, null, 'no aggregation name, no threshold');
  assert.equal(by(7).value, null);
  assert.equal(by(9).value, '1');
  assert.equal(by(10).value, 'yes');
  assert.equal(by(11).value, '{\n "k": 1\n} · raw [\n 1\n]');
  assert.equal(by(11).text, null, 'empty reasoning and error say nothing');
  assert.equal(by(12).value, null);
  const g = rewardDetailNodes({ g: { kind: 'group', threshold: 0.5 } });
  assert.equal(g[0].value, 'threshold: 0.5');
  const both = rewardDetailNodes({ d: { judge_output: 'out', criteria: [{ name: 'c', reasoning: 'why', error: 'bad' }] } });
  assert.equal(both[0].text, 'out');
  assert.equal(both[1].text, 'why\nerror: bad');

  // Text is cut at 20,000 characters: a string, printed JSON, joined parts.
  const big = 'y'.repeat(25_000);
  const cut = rewardDetailNodes({ s: big, o: { judge_output: { big } }, j: { judge_output: big, warnings: ['w'] } });
  assert.equal(cut[0].value!.length, 20_000);
  assert.equal(cut[1].text!.length, 20_000);
  assert.equal(cut[2].text!.length, 20_000);
  // At most 5,000 rows; nesting deeper than 30 levels is not followed.
  const wide = rewardDetailNodes({ d: { criteria: Array.from({ length: 6000 }, (_, i) => ({ name: `c${i}`, value: 1 })) } });
  assert.equal(wide.length, 5000);
  assert.equal(wide[4999].name, 'c4998');
  const lists = rewardDetailNodes(Object.fromEntries(Array.from({ length: 5002 }, (_, i) => [`k${i}`, i])));
  assert.equal(lists.length, 5000);
  let deep: unknown = { score: 1 };
  for (let i = 0; i < 40; i++) deep = { kind: 'group', components: [{ name: `g${i}`, detail: deep }] };
  const deepNodes = rewardDetailNodes({ top: deep });
  assert.equal(deepNodes.length, 31);
  assert.equal(Math.max(...deepNodes.map((n) => n.depth)), 30);
});

test('training table: steps must be finite numbers, text values make no column, at most 24 columns, copies are apart', () => {
  const t = trainingTableOf([{ step: 1, loss: Infinity, note: 'x', extra: null }, { step: Infinity, loss: 1 }, { step: '2', loss: 1 }, { step: 2, loss: 0.5 }]);
  assert.deepEqual(t.steps, [1, 2]);
  assert.equal(t.badLines, 2);
  assert.deepEqual(t.keys, ['loss', 'extra']);
  assert.equal(t.value('loss', 0), null);
  assert.equal(t.value('loss', 1), 0.5);
  assert.equal(t.value('loss', 7), null);
  assert.equal(t.value('absent', 0), null);
  assert.equal(t.live, false);
  assert.deepEqual(t.lastRead, { continued: false, rows: 0 });
  assert.deepEqual(t.resume, { byte: 0, line: 0 });
  const wide = trainingTableOf([Object.fromEntries([['step', 0], ...Array.from({ length: 30 }, (_, i) => [`k${String(i).padStart(2, '0')}`, i])])]);
  assert.equal(wide.keys.length, 24);
  assert.equal(wide.keys[23], 'k23');
  // A copy read on into leaves the table it came from as it was, and the other way round.
  const a = trainingTableOf([{ step: 1, loss: 1 }, { step: 2, loss: 2 }]);
  const c = a.copy();
  c.tail = { rows: 1, bad: 0 };
  c.dropTail();
  assert.deepEqual(a.columns.get('loss'), [1, 2]);
  c.add({ step: 10, loss: 10 });
  a.add({ step: 20, loss: 20 });
  assert.deepEqual(c.steps, [1, 10]);
  assert.deepEqual(a.steps, [1, 2, 20]);
  assert.deepEqual(c.columns.get('loss'), [1, 10]);
  // Curves in the chart's order, then the other keys sorted.
  const s = trainingSeries(trainingTableOf([{ step: 0, zeta: 1, loss: 2, alpha: 3, reward: 4 }]));
  assert.deepEqual(s.series.map((x) => x.key), ['reward', 'loss', 'alpha', 'zeta']);
});

test('training series: a range past every step, or before, is empty; steps below zero are kept without a lower bound', () => {
  const t = trainingTableOf([1, 2, 3].map((step) => ({ step, reward: step })));
  for (const range of [{ from: 4 }, { to: 0 }, { from: 2.5, to: 2.6 }]) {
    const s = trainingSeries(t, range);
    assert.deepEqual([s.from, s.to, s.steps], [null, null, []], JSON.stringify(range));
  }
  assert.deepEqual(trainingSeries(t, { from: 3 }).steps, [3]);
  assert.deepEqual(trainingSeries(t, { to: 1 }).steps, [1]);
  const neg = trainingTableOf([-2, -1, 0].map((step) => ({ step })));
  assert.deepEqual(trainingSeries(neg).steps, [-2, -1, 0]);
  assert.deepEqual(trainingSeries(neg, { to: null, from: null }).steps, [-2, -1, 0]);
});

test('training re-read: a bad line before the unfinished last one stays counted once it is finished; rows added counted', async () => {
  const mem = new MemFs();
  const enc = new TextEncoder();
  const path = '/run/train/metrics.jsonl';
  mem.put(path, enc.encode('{"step":1}\nnot json\n{"step":2}\n{"step":3}'), 1000);
  const t1 = await readTrainingTable(mem, path);
  // A last line that parses is a row (taken back at the next read), not a sign of a file still being written.
  assert.deepEqual([t1.steps, t1.badLines, t1.live, t1.lastRead], [[1, 2, 3], 1, false, { continued: false, rows: 3 }]);
  mem.put(path, enc.encode('{"step":1}\nnot json\n{"step":2}\n{"step":3}\n{"step":4}\n'), 2000);
  const t2 = await readTrainingTable(mem, path, t1);
  assert.deepEqual([t2.steps, t2.badLines, t2.live], [[1, 2, 3, 4], 1, false]);
  assert.deepEqual(t2.lastRead, { continued: true, rows: 2 });
  // The same with the bad line last but one, right before the unfinished line.
  mem.put(path, enc.encode('{"step":1}\n{"step":2}\nnot json\n{"step":3}'), 3000);
  const u1 = await readTrainingTable(mem, path);
  assert.equal(u1.badLines, 1);
  mem.put(path, enc.encode('{"step":1}\n{"step":2}\nnot json\n{"step":3}\n'), 4000);
  const u2 = await readTrainingTable(mem, path, u1);
  assert.deepEqual([u2.steps, u2.badLines, u2.lastRead.continued], [[1, 2, 3], 1, true]);
});

test('after the first mutation run: a cell-less attempt first, the best cell wins over a later one, no duration is not zero, cell means, long values cut', () => {
  const r = run([]);
  // An attempt without a cell sorts before one with a cell (an empty cell name), whatever the cell's name.
  assert.deepEqual(taskRow(r, task('t', [{ index: 0, cell: 'A|m', reward: 1 }, { index: 0, reward: 0 }])).rewards, [0, 1]);
  // Viewer data: the first cell passes at 1, the second at 2: the task passed at 1.
  const v = run([], { kind: 'viewer-data' });
  assert.equal(taskRow(v, task('t', [{ index: 0, cell: 'x|h', reward: 1 }, { index: 0, cell: 'y|h', reward: 0 }, { index: 1, cell: 'y|h', reward: 1 }])).passedAt, 1);
  // An attempt that does not say how long it took adds no duration (null, not 0 s).
  const noTime = taskRow(r, task('t', [{ reward: 1 }]));
  assert.equal(noTime.durationSec, null);
  assert.equal(noTime.costUsd, null);
  assert.equal(dashboardModel(run([task('t', [{ reward: 1 }])])).scatter.points[0].durationSec, null);
  // Each pivot cell's mean reward over its measured attempts.
  const p = viewerPivot(run([task('t', [{ cell: 'M|H', index: 0, reward: 1 }, { cell: 'M|H', index: 1, reward: 0.5 }, { cell: 'M|H', index: 2, reward: null }])], { kind: 'viewer-data' }))!;
  assert.equal(p.cells[0].meanReward, 0.75);
  // A criterion's value printed as JSON is cut at 20,000 characters too.
  const nodes = rewardDetailNodes({ d: { criteria: [{ name: 'c', value: { big: 'z'.repeat(25_000) } }] } });
  assert.equal(nodes[1].value!.length, 20_000);
});

test('a task\'s attempts by cell, then attempt number, from any order', () => {
  const r = run([]);
  const t = task('t', [{ index: 5, cell: 'a|m', reward: 0.5 }, { index: 0, cell: 'b|m', reward: 0 }, { index: 1, cell: 'a|m', reward: 0.1 }]);
  assert.deepEqual(taskRow(r, t).rewards, [0.1, 0.5, 0]);
  const u = task('u', [{ index: 2, cell: 'b|m', reward: 0.2 }, { index: 1, cell: 'a|m', reward: 0.1 }, { index: 0, cell: 'b|m', reward: 0 }]);
  assert.deepEqual(taskRow(r, u).rewards, [0.1, 0, 0.2]);
});

test('provenance findings: warnings before infos, each kind in the order of tasks and attempts', () => {
  const f = (name: string, severity: 'warning' | 'info') => ({
    code: severity === 'warning' ? 'reward-before-verifier' as const : 'reward-details' as const, severity, file: `/r/${name}`, message: name,
  });
  const m = dashboardModel(run([
    task('t1', [{ provenance: [f('i1', 'info'), f('w1', 'warning')] }, { provenance: [f('w2', 'warning'), f('i2', 'info')] }]),
    task('t2', [{ provenance: [f('w3', 'warning'), f('i3', 'info'), f('w4', 'warning')] }]),
  ]));
  assert.deepEqual(m.provenance.map((p) => p.message), ['w1', 'w2', 'w3', 'w4', 'i1', 'i2', 'i3']);
});
