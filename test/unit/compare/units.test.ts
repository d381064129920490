// The comparison's pieces with values worked out by hand: which sides runs make (cells, agent and model from a cell
// or the identity, labels, merging and its key), a task's cell (majority outcome, measured, pass rate), how a task
// moved and by how much across several sides, the k compared, usage, per-side counts and differences, the merge
// note; and the verifier report's every line.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Evidence, Run, Task } from '../../../src/core/model';
import { attemptOrigin, compareRuns, compareSides, mergeKey, mergeSides, sidesOf, verifierEvidence, verifierReport, type CompareSide } from '../../../src/core/compare';
import { attempt, F, I, P, run as runOf, type A } from './build';

/** A run whose task labels are `L-<id>` (told apart from the ids). */
const run = (name: string, tasks: Record<string, A[]>, identity: Record<string, string | null> = {}, kind: Run['kind'] = 'harbor-job'): Run =>
  runOf(name, tasks, identity, kind, (id) => `L-${id}`);
const inCell = (a: A, cell: string): A => [a[0], a[1], { ...a[2], cell }];

test('sides: cells split out and sorted, agent and model from the cell (Harbor agent|model, viewer data model|harness) or the identity', () => {
  const h = run('h', { t: [inCell(P, 'codex|gpt-5'), inCell(F, 'aider|claude'), inCell(P, 'codex|gpt-5')] }, { job: 'job-7', dataset: 'tb' });
  const sides = sidesOf([h]);
  assert.deepEqual(sides.map((s) => [s.id, s.label, s.cell, s.agent, s.model, s.dataset, s.tasks[0].attempts.length]), [
    ['harbor-job:/jobs/h#aider|claude', 'job-7 · aider|claude', 'aider|claude', 'aider', 'claude', 'tb', 1],
    ['harbor-job:/jobs/h#codex|gpt-5', 'job-7 · codex|gpt-5', 'codex|gpt-5', 'codex', 'gpt-5', 'tb', 2],
  ]);
  // A task with no attempt in a cell is not on that cell's side.
  const two = run('two', { a: [inCell(P, 'x|m1')], b: [inCell(P, 'x|m2')] });
  assert.deepEqual(sidesOf([two]).map((s) => s.tasks.map((t) => t.id)), [['a'], ['b']]);
  // Viewer data: model|harness; the label without a job name is the run's.
  const v = run('v', { t: [inCell(P, 'm1|h1'), inCell(P, 'm2')] }, { taskset: 'ts' }, 'viewer-data');
  assert.deepEqual(sidesOf([v]).map((s) => [s.label, s.agent, s.model, s.dataset]), [['v · m1|h1', 'h1', 'm1', 'ts'], ['v · m2', null, 'm2', 'ts']]);
  // One cell only: the run is one side, named by the run, agent and model from the identity.
  const one = run('one', { t: [inCell(P, 'x|y')] }, { agent: 'ag', model: 'mo' });
  assert.deepEqual(sidesOf([one]).map((s) => [s.id, s.label, s.cell, s.agent, s.model, s.dataset]), [['harbor-job:/jobs/one', 'one', null, 'ag', 'mo', null]]);
  const plural = run('p', { t: [P] }, { harnesses: 'h1, h2', models: 'm1, m2' });
  assert.deepEqual(sidesOf([plural]).map((s) => [s.agent, s.model]), [['h1, h2', 'm1, m2']]);
  assert.deepEqual(sidesOf([run('n', { t: [P] })]).map((s) => [s.agent, s.model]), [[null, null]]);
  // The same run twice is one side.
  assert.equal(sidesOf([h, h]).length, 2);
  assert.equal(sidesOf([one, one]).length, 1);
});

test('merging: the key needs one agent and one model; merged attempts are renamed and traced; tasks sorted', () => {
  const side = (o: Partial<CompareSide>): CompareSide => ({ id: 's', label: 's', kind: 'harbor-job', runIds: ['r'], mergedFrom: [], cell: null, agent: 'a', model: 'm', dataset: 'd', tasks: [], ...o });
  assert.equal(mergeKey(side({})), JSON.stringify(['harbor-job', 'd', 'a', 'm']));
  assert.equal(mergeKey(side({ agent: null })), null);
  assert.equal(mergeKey(side({ model: '' })), null);
  assert.equal(mergeKey(side({ agent: 'a, b' })), null);
  assert.equal(mergeKey(side({ model: 'm1,m2' })), null);
  const only = side({});
  assert.equal(mergeSides([only]), only);
  const t = (id: string, ...as: A[]): Task => ({ id, label: id, attempts: as.map((a, i) => attempt(id, i, a)) });
  const s1 = side({ id: 's1', label: 'one', runIds: ['r1'], tasks: [t('z', P), t('b', F)] });
  const s2 = side({ id: 's2', label: 'two', runIds: ['r2'], tasks: [t('b', P), t('a', F)] });
  const m = mergeSides([s1, s2]);
  assert.equal(m.id, 'merged:s1+1');
  assert.equal(m.label, 'd · a · m (2 runs merged)');
  assert.deepEqual(m.runIds, ['r1', 'r2']);
  assert.deepEqual(m.mergedFrom, ['one', 'two']);
  assert.deepEqual(m.tasks.map((x) => [x.id, x.attempts.map((a) => a.id)]), [['a', ['s2::a#0']], ['b', ['s1::b#0', 's2::b#0']], ['z', ['s1::z#0']]]);
  assert.deepEqual(attemptOrigin(m, 's2::b#0'), { runId: 'r2', attemptId: 'b#0' });
  assert.deepEqual(attemptOrigin(s1, 'b#0'), { runId: 'r1', attemptId: 'b#0' });
  // Merging a merged side again keeps the first origins.
  const mm = mergeSides([m, side({ id: 's3', runIds: ['r3'], tasks: [t('a', P)] })]);
  assert.deepEqual(attemptOrigin(mm, 'merged:s1+1::s2::b#0'), { runId: 'r2', attemptId: 'b#0' });
  assert.deepEqual(attemptOrigin(mm, 's3::a#0'), { runId: 'r3', attemptId: 'a#0' });
  // Without dataset, agent and model the label is the first side's.
  assert.equal(mergeSides([side({ label: 'first', dataset: null, agent: null, model: null }), side({})]).label, 'first (2 runs merged)');
  // Runs of the same key merge, in the order first given; others stay where they were.
  const id = { agent: 'a', model: 'm' };
  const c = compareRuns([run('x1', { t: [P] }, id), run('y', { t: [P] }, { agent: 'b', model: 'm' }), run('x2', { t: [P] }, id), run('z', { t: [P] })], { merge: true });
  assert.deepEqual(c.sides.map((s) => s.label), ['a · m (2 runs merged)', 'y', 'z']);
  assert.equal(c.mergeNote, 'Merged view: 2 runs of a · m are one side (their attempts pooled per task).');
});

test('a task on a side: majority outcome (ties: the earlier outcome), measured attempts, pass rate, pass@k', () => {
  const c = compareRuns([run('a', {
    tie: [['failed', 0], ['passed', 1]],
    most: [['failed', 0], ['agent-error', 0], ['agent-error', 0]],
    none: [],
    half: [['passed', 0.5], ['failed', 0.25], I],
  })], { k: 2 });
  const cell = (id: string) => c.tasks.find((t) => t.id === id)!.cells[0]!;
  assert.equal(cell('tie').outcome, 'passed');
  assert.equal(cell('most').outcome, 'agent-error');
  assert.deepEqual(cell('most').counts, { failed: 1, 'agent-error': 2 });
  assert.equal(cell('none').outcome, 'missing');
  assert.equal(cell('none').passRate, null);
  assert.equal(cell('none').passAtK, null);
  const half = cell('half');
  assert.deepEqual([half.attempts, half.measured, half.passed, half.meanReward, half.passRate, half.passAtK], [3, 2, 0, 0.375, 0, 0]);
  assert.deepEqual(cell('tie').passAtK, 1);
  assert.equal(c.k, 2);
  assert.equal(c.tasks.find((t) => t.id === 'tie')!.label, 'L-tie');
});

test('moves across several sides: regressed wins over improved, delta is the largest move its way; order by size then id', () => {
  const base = run('a', { mixed: [P, P], up: [F, F], tiny: [['failed', 0.5]], b2: [P], b1: [P], gone: [P] });
  const s1 = run('b', { mixed: [P, F], up: [P, F], tiny: [['failed', 0.5 + 1e-12]], b2: [F], b1: [F] });
  const s2 = run('c', { mixed: [F, F], up: [P, P], tiny: [['failed', 0.5]], b2: [F], b1: [F], gone: [P] });
  const c = compareRuns([base, s1, s2]);
  const row = (id: string) => c.tasks.find((t) => t.id === id)!;
  assert.deepEqual([row('mixed').change, row('mixed').changes, row('mixed').delta], ['regressed', [null, 'regressed', 'regressed'], -1]);
  assert.deepEqual([row('up').change, row('up').delta], ['improved', 1]);
  // A move within 1e-9 is no move.
  assert.deepEqual([row('tiny').change, row('tiny').delta], ['unchanged', 0]);
  assert.deepEqual([row('gone').change, row('gone').changes, row('gone').delta], ['only-in-some', [null, 'only-in-some', 'unchanged'], 0]);
  assert.deepEqual(c.tasks.map((t) => t.id), ['b1', 'b2', 'mixed', 'up', 'gone', 'tiny']);
  // Counts per side: a task missing on either side counts as only-in-some for that side.
  assert.deepEqual(c.sides[0].counts, { regressed: 0, improved: 0, 'only-in-some': 0, 'not-comparable': 0, unchanged: 0 });
  assert.deepEqual(c.sides[1].counts, { regressed: 3, improved: 1, 'only-in-some': 1, 'not-comparable': 0, unchanged: 1 });
  assert.deepEqual(c.sides[2].counts, { regressed: 3, improved: 1, 'only-in-some': 0, 'not-comparable': 0, unchanged: 2 });
  // A regression in one side and an improvement in another: regressed, by the drop.
  const d = compareRuns([run('a', { t: [P, F] }), run('b', { t: [P, P] }), run('c', { t: [F, F] })]);
  assert.deepEqual([d.tasks[0].change, d.tasks[0].delta], ['regressed', -0.5]);
  // Equal pass rates move by mean reward; an unmeasured side is not comparable and moves nothing.
  const e = compareRuns([run('a', { t: [['failed', 0.25]], u: [P] }), run('b', { t: [['failed', 0.75]], u: [I] })]);
  assert.deepEqual(e.tasks.map((t) => [t.id, t.change, t.delta]), [['t', 'improved', 0.5], ['u', 'not-comparable', 0]]);
  assert.equal(e.sides[1].counts['not-comparable'], 1);
  // Over the common tasks: A passes u only (1/2), B measured t only, which failed (0/1).
  assert.equal(e.sides[1].diff!.passAt1, -0.5);
});

test('the k compared: the largest power of two every side has attempts for; given k wins', () => {
  const n = (count: number) => Array.from({ length: count }, () => P);
  assert.equal(compareRuns([run('a', { t: n(5) }), run('b', { t: n(7) })]).k, 4);
  assert.equal(compareRuns([run('a', { t: n(8), u: n(1) }), run('b', { t: n(9) })]).k, 8);
  assert.equal(compareRuns([run('a', { t: n(3) }), run('b', { t: n(1) })]).k, 1);
  assert.equal(compareRuns([run('a', {}), run('b', { t: n(4) })]).k, 1);
  assert.equal(compareRuns([]).k, 1);
  assert.equal(compareRuns([run('a', { t: n(4) })], { k: 3 }).k, 3);
});

test('totals per side: outcome counts, all-infra tasks, pass@1 and pass@k over all and common tasks; usage', () => {
  const a = run('a', {
    t1: [['passed', 1, { tokens: { cached: 5 } }], ['failed', 0, { tokens: { input: 10, output: 2, cached: null } }]],
    t2: [I, ['cancelled', null, { tokens: {}, costUsd: Number.NaN, durationSec: 4 }]],
    t3: [['passed', 1, { costUsd: 0.25, durationSec: Infinity }]],
  });
  const b = run('b', { t1: [P, P], t3: [F] });
  const c = compareSides(sidesOf([a, b]), { k: 2 });
  const all = c.sides[0].all;
  assert.deepEqual([all.tasks, all.attempts, all.measured, all.passed, all.allInfra], [3, 5, 3, 2, 1]);
  assert.deepEqual(all.counts, { passed: 2, failed: 1, 'agent-error': 0, truncated: 0, 'infra-error': 1, cancelled: 1, running: 0, incomplete: 0, missing: 0, 'no-result': 0 });
  assert.equal(all.meanReward, 2 / 3);
  assert.equal(all.passAt1, (0.5 + 1) / 2);
  assert.equal(all.passAtK, (1 + 1) / 2);
  const common = c.sides[0].common;
  assert.deepEqual([common.tasks, common.attempts, common.passAt1], [2, 3, 0.75]);
  assert.equal(c.commonTasks, 2);
  assert.deepEqual(c.sides[1].diff, { passAt1: 0.5 - 0.75, passAtK: 0.5 - 1, meanReward: 0 });
  assert.deepEqual(c.sides[0].usage, { inputTokens: 10, outputTokens: 2, cachedTokens: 5, costUsd: 0.25, durationSec: 4, withTokens: 2, withCost: 1, withDuration: 1 });
  assert.equal(c.mergeNote, null);
  // A side with no common task measured: differences are null, not numbers.
  const none = compareRuns([run('a', { t: [P] }), run('b', { u: [P] })]);
  assert.deepEqual(none.sides[1].diff, { passAt1: null, passAtK: null, meanReward: null });
  assert.equal(none.commonTasks, 0);
});

test('verifier report: every reward, step lines, the first line of an exception, ctrf states, stdout notes', () => {
  const ev = (o: Partial<Evidence>): Evidence => ({ kind: 'ctrf', label: 'ctrf.json', path: '/x', isDir: false, present: true, ...o });
  const a = attempt('t', 0, ['failed', 0.5, {
    rewards: { z: 1, a: 0.25 },
    steps: [{ name: 'build', reward: 1 }, { name: 'test', reward: null, exception: { type: 'VerifierTimeoutError', message: 'x' } }],
    evidence: [
      ev({ kind: 'test-stdout', label: 'stdout dir', isDir: true }),
      ev({ kind: 'step-dir' as Evidence['kind'], label: 'steps', isDir: true, children: [ev({ kind: 'test-stdout', label: 'steps/test/test-stdout.txt' }), ev({ present: false })] }),
    ],
  }]);
  assert.deepEqual(verifierEvidence(a), { stdout: a.evidence[1].children![0], ctrf: a.evidence[1].children![1] });
  assert.equal(verifierReport(a, 'out\n\n'), [
    'outcome: failed', 'reward: 0.5', '  a: 0.25', '  z: 1.0', 'step build: reward 1.0', 'step test: reward —, VerifierTimeoutError',
    'failed tests: ctrf.json missing', '', '--- steps/test/test-stdout.txt ---', 'out', '', '',
  ].join('\n'));
  assert.equal(verifierReport(a, null), verifierReport(a, '').replace('---\n\n', '---\n(not read)\n'));
  assert.ok(verifierReport(a, null, 'too large').endsWith('--- steps/test/test-stdout.txt ---\n(too large)\n'));
  const one = attempt('t', 1, ['passed', 1, { rewards: { reward: 1 }, evidence: [ev({ kind: 'test-stdout', label: 'test-stdout.txt', present: false }), ev({ failedTests: [] })] }]);
  assert.equal(verifierReport(one, null), 'outcome: passed\nreward: 1.0\nfailed tests (0):\n\n--- test-stdout.txt ---\n(missing)\n');
  const sorted = attempt('t', 2, ['failed', 0, { evidence: [ev({ failedTests: [{ name: 'b' }, { name: 'B' }, { name: 'a', message: 'first\nsecond' }, { name: 'b' }] })] }]);
  assert.ok(verifierReport(sorted, 'x').includes('failed tests (4):\n  - B\n  - a: first\n  - b\n  - b\n'));
});

test('more moves and sides: pass rate before mean reward, a cell-less attempt beside one cell, a Harbor cell without a model', () => {
  // Pass rate 1/2 → 0 with the mean reward unchanged (0.95): regressed by the pass rate.
  const c = compareRuns([run('a', { t: [P, ['failed', 0.9]] }), run('b', { t: [['failed', 0.95], ['failed', 0.95]] })]);
  assert.deepEqual([c.tasks[0].change, c.tasks[0].delta], ['regressed', -0.5]);
  // The baseline measured nothing: not comparable, however the other side did.
  assert.equal(compareRuns([run('a', { t: [I] }), run('b', { t: [P] })]).tasks[0].change, 'not-comparable');
  // An attempt without a cell beside attempts of one cell: one side, the run itself.
  const mixed = run('m', { t: [inCell(P, 'x|y'), F] });
  assert.deepEqual(sidesOf([mixed]).map((s) => [s.id, s.cell, s.mergedFrom]), [['harbor-job:/jobs/m', null, []]]);
  const solo = run('s', { t: [inCell(P, 'solo'), inCell(F, 'x|y')] });
  assert.deepEqual(sidesOf([solo]).map((s) => [s.agent, s.model]), [['solo', null], ['x', 'y']]);
  // Two merged groups are both stated, joined by "; ", each with its dataset when known.
  const j = (name: string, agent: string, dataset?: string) => run(name, { t: [P] }, { agent, model: 'm', ...(dataset ? { dataset } : {}) });
  const note = compareRuns([j('a1', 'a', 'tb'), j('a2', 'a', 'tb'), j('b1', 'b'), j('b2', 'b'), j('b3', 'b')], { merge: true }).mergeNote;
  assert.equal(note, 'Merged view: 2 runs of a · m on tb are one side; 3 runs of b · m are one side (their attempts pooled per task).');
  // The verifier's stdout is shown as it is when it does not end in a newline.
  assert.ok(verifierReport(attempt('t', 0, P), 'abc').endsWith('--- test-stdout.txt ---\nabc\n'));
});

test('after the first mutation run: the largest move is kept whichever side has it, missing differences, infinite rewards, task order', () => {
  // The largest drop (B, −1) is not the last side's (C, −0.5); the same for a rise.
  const down = compareRuns([run('a', { t: [P, P] }), run('b', { t: [F, F] }), run('c', { t: [P, F] })]);
  assert.deepEqual([down.tasks[0].change, down.tasks[0].delta], ['regressed', -1]);
  const up = compareRuns([run('a', { t: [F, F] }), run('b', { t: [P, P] }), run('c', { t: [P, F] })]);
  assert.deepEqual([up.tasks[0].change, up.tasks[0].delta], ['improved', 1]);
  // A difference needs a value on both sides: the baseline measured nothing, or the other side did not.
  assert.deepEqual(compareRuns([run('a', { t: [I] }), run('b', { t: [P] })]).sides[1].diff, { passAt1: null, passAtK: null, meanReward: null });
  assert.deepEqual(compareRuns([run('a', { t: [P] }), run('b', { t: [I] })]).sides[1].diff, { passAt1: null, passAtK: null, meanReward: null });
  // An infinite reward or token count is not a measurement (a reader hands 1e999 through as Infinity).
  const inf = compareRuns([run('a', { t: [['passed', Infinity, { tokens: { input: Infinity, output: 3 } }], F] })]);
  assert.deepEqual([inf.tasks[0].cells[0]!.measured, inf.tasks[0].cells[0]!.meanReward], [1, 0]);
  assert.deepEqual([inf.sides[0].all.measured, inf.sides[0].all.meanReward], [1, 0]);
  assert.deepEqual([inf.sides[0].usage.inputTokens, inf.sides[0].usage.outputTokens], [null, 3]);
  // Merged tasks come out sorted by id whatever order the sides list them in.
  const t = (id: string): Task => ({ id, label: id, attempts: [attempt(id, 0, P)] });
  const side = (id: string, tasks: Task[]): CompareSide => ({ id, label: id, kind: 'harbor-job', runIds: [id], mergedFrom: [], cell: null, agent: 'a', model: 'm', dataset: null, tasks });
  assert.deepEqual(mergeSides([side('s1', [t('b'), t('z')]), side('s2', [t('a'), t('c')])]).tasks.map((x) => x.id), ['a', 'b', 'c', 'z']);
  // A ctrf.json read without a list of failures lists none.
  const bare = attempt('t', 0, ['failed', 0, { evidence: [{ kind: 'ctrf', label: 'ctrf.json', path: '/c', isDir: false, present: true }] }]);
  assert.ok(verifierReport(bare, null).includes('\nfailed tests (0):\n\n'));
});

test('a mean reward that moved by 1e-9 or less has not moved; by more, it has', () => {
  const tiny = compareRuns([run('a', { t: [['failed', 0]] }), run('b', { t: [['failed', 1e-9]] })]);
  assert.deepEqual([tiny.tasks[0].change, tiny.tasks[0].delta], ['unchanged', 0]);
  const more = compareRuns([run('a', { t: [['failed', 0]] }), run('b', { t: [['failed', 1e-8]] })]);
  assert.deepEqual([more.tasks[0].change, more.tasks[0].delta], ['improved', 1e-8]);
});
