// The Run Overview's view model: columns #1…#k, cells in attempt order, viewer-data columns grouped by cell,
// pass@1 / pass@k with unmeasured attempts left out, problems with paths relative to the run, and the model of
// every example run passing the protocol's own schema (what the webview accepts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { repoRoot as findRepoRoot } from '../../support/paths';
import type { Attempt, Outcome, Run, Task } from '../../../src/core/model';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { loadRuns } from '../../../src/core/load';
import { clipForWebview, evidenceToOpen, findAttempt, gridPart, overviewModel } from '../../../src/views/runOverviewModel';
import { dashboardRows } from '../../../src/core/dashboard';
import { OverviewModelSchema, parseHostMessage } from '../../../src/protocol/runOverview';

const repoRoot = findRepoRoot();

function attempt(taskId: string, index: number, outcome: Outcome, reward: number | null, extra: Partial<Attempt> = {}): Attempt {
  return { id: `${taskId}#${index}`, index, label: `#${index + 1}`, outcome, reward, evidence: [], missing: [], ...extra };
}

function run(tasks: Task[], extra: Partial<Run> = {}): Run {
  return {
    id: 'harbor-job:/r/job', kind: 'harbor-job', root: '/r/job', anchor: '/r/job', label: 'job-1', identity: { agent: 'a', model: null },
    state: 'complete', files: [], problems: [], unvalidated: [], skipped: [], tasks, ...extra,
  };
}

test('columns #1…#k, cells in attempt order, empty cells null, per-task pass@k', () => {
  const r = run([
    { id: 't1', label: 'one', attempts: [attempt('t1', 1, 'failed', 0), attempt('t1', 0, 'passed', 1)] },
    { id: 't2', label: 'two', attempts: [attempt('t2', 0, 'infra-error', null)] },
    { id: 't3', label: '', attempts: [attempt('t3', 0, 'failed', 0), attempt('t3', 1, 'failed', 0)] },
  ]);
  const m = overviewModel(r);
  assert.deepEqual(m.columns.map((c) => c.label), ['#1', '#2']);
  assert.equal(m.columns.some((c) => c.group !== undefined), false);
  assert.deepEqual(m.tasks[0].cells.map((c) => c?.outcome), ['passed', 'failed']);
  assert.deepEqual(m.tasks[1].cells.map((c) => c?.reward ?? null), [null, null]);
  assert.equal(m.tasks[1].cells[1], null, 'no second attempt → an empty cell');
  assert.equal(m.tasks[2].label, 't3', 'a task without a label shows its id');
  // t1: n=2, c=1, k=2 → 1; t2: unmeasured → null; t3: n=2, c=0 → 0.
  assert.deepEqual(m.tasks.map((t) => t.passAtK), [1, null, 0]);
  assert.equal(m.passAtK.k, 2);
  assert.equal(m.passAtK.value, 0.5);
  assert.equal(m.passAtK.nAllInfra, 1);
  assert.equal(m.passAtK.nMeasured, 2);
  // pass@1: t1 = 1/2, t3 = 0 → 0.25
  assert.equal(m.passAt1.value, 0.25);
  assert.equal(m.counts.total, 5);
  assert.equal(m.counts.measured, 4);
  assert.deepEqual(m.counts.byOutcome.map((o) => [o.outcome, o.count]), [['passed', 1], ['failed', 3], ['infra-error', 1]]);
  assert.deepEqual(m.identity, [['agent', 'a'], ['model', null]]);
});

test('tooltips say null reward is not measured and carry the exception and failure', () => {
  const r = run([{ id: 't', label: 't', attempts: [attempt('t', 0, 'infra-error', null, {
    exception: { type: 'EnvironmentStartTimeoutError', message: 'sandbox did not start' },
    failure: { kind: 'environment', reason: 'timeout' },
  })] }]);
  const tip = overviewModel(r).tasks[0].cells[0]!.tooltip;
  assert.match(tip, /Outcome: infra error/);
  assert.match(tip, /null \(not measured\)/);
  assert.match(tip, /EnvironmentStartTimeoutError: sandbox did not start/);
  assert.match(tip, /Failure: environment · timeout/);
});

test('viewer-data columns are grouped by model|harness cell', () => {
  const a = (t: string, i: number, cell: string, reward: number) => attempt(t, i, reward >= 1 ? 'passed' : 'failed', reward, { cell, id: `${cell}/${t}#${i}` });
  const r = run([
    { id: 'x', label: 'x', attempts: [a('x', 0, 'm1|h', 1), a('x', 1, 'm1|h', 0), a('x', 0, 'm0|h', 0)] },
    { id: 'y', label: 'y', attempts: [a('y', 0, 'm0|h', 1), a('y', 1, 'm0|h', 1), a('y', 2, 'm0|h', 0)] },
  ], { kind: 'viewer-data' });
  const m = overviewModel(r);
  assert.deepEqual(m.columns.map((c) => `${c.group}${c.label}`), ['m0|h#1', 'm0|h#2', 'm0|h#3', 'm1|h#1', 'm1|h#2']);
  assert.deepEqual(m.tasks[0].cells.map((c) => c?.reward ?? null), [0, null, null, 1, 0]);
  assert.deepEqual(m.tasks[1].cells.map((c) => c?.reward ?? null), [1, 1, 0, null, null]);
});

test('problems: path relative to the run root, line kept, capped with a count of the rest', () => {
  const problems = Array.from({ length: 5 }, (_, i) => ({ file: i === 0 ? '/elsewhere/x.json' : '/r/job/t/result.json', line: i + 1, severity: 'warning' as const, code: 'c', message: `m${i}` }));
  const m = overviewModel(run([], { problems }), { maxProblems: 3 });
  assert.deepEqual(m.problems.map((p) => `${p.displayFile}:${p.line}`), ['/elsewhere/x.json:1', 't/result.json:2', 't/result.json:3']);
  assert.equal(m.problemsOmitted, 2);
  assert.equal(m.tasks.length, 0);
  assert.equal(m.passAtK.value, null);
});

test('tasks left out of the run are listed with the problems: the count the Runs tree\'s Problems group shows', async () => {
  const { problemCount } = await import('../../../src/views/tree/nodes');
  const problems = [{ file: '/r/s.json', severity: 'error' as const, code: 'missing-path', message: 'gone' }];
  const skipped = [{ taskId: 'broken', reason: 'instruction.md is missing' }, { taskId: 'odd', reason: 'task.toml is missing' }];
  const unvalidated = [{ taskId: 'nosol', reason: 'NO_REFERENCE_SOLUTION' }];
  const r = run([], { problems, skipped, unvalidated });
  const m = overviewModel(r);
  assert.deepEqual(m.leftOut, [
    { taskId: 'broken', which: 'skipped', reason: 'instruction.md is missing' },
    { taskId: 'odd', which: 'skipped', reason: 'task.toml is missing' },
    { taskId: 'nosol', which: 'unvalidated', reason: 'NO_REFERENCE_SOLUTION' }]);
  assert.equal(m.problems.length + m.problemsOmitted + m.leftOut.length + m.leftOutOmitted, problemCount(r));
  const capped = overviewModel(r, { maxProblems: 2 });
  assert.deepEqual([capped.leftOut.length, capped.leftOutOmitted], [2, 1]);
  assert.equal(capped.problems.length + capped.problemsOmitted + capped.leftOut.length + capped.leftOutOmitted, problemCount(r));
});

test('huge runs: tasks capped, the rest counted', () => {
  const tasks = Array.from({ length: 30 }, (_, i) => ({ id: `t${i}`, label: `t${i}`, attempts: [attempt(`t${i}`, 0, 'passed', 1)] }));
  const m = overviewModel(run(tasks), { maxTasks: 10 });
  assert.equal(m.tasks.length, 10);
  assert.equal(m.tasksOmitted, 20);
  assert.equal(m.passAt1.nTasks, 30, 'pass@k is over every task, not only the ones sent');
});

test('evidenceToOpen: test-stdout first, else the first present file, never a folder or a missing file', () => {
  const ev = (kind: Attempt['evidence'][number]['kind'], p: string, present = true, isDir = false) => ({ kind, label: p, path: p, present, isDir });
  assert.equal(evidenceToOpen(attempt('t', 0, 'passed', 1, { evidence: [ev('result', '/a/result.json'), ev('test-stdout', '/a/v/test-stdout.txt')] })), '/a/v/test-stdout.txt');
  assert.equal(evidenceToOpen(attempt('t', 0, 'passed', 1, { evidence: [ev('verifier-logs', '/a/v', true, true), ev('test-stdout', '/a/v/t.txt', false), ev('trial-log', '/a/trial.log')] })), '/a/trial.log');
  assert.equal(evidenceToOpen(attempt('t', 0, 'passed', 1, { evidence: [ev('step', '/a/s', true, true)] })), undefined);
  const r = run([{ id: 't', label: 't', attempts: [attempt('t', 0, 'passed', 1)] }]);
  assert.equal(findAttempt(r, 't', 't#0')?.attempt.index, 0);
  assert.equal(findAttempt(r, 't', 'nope'), undefined);
  assert.equal(findAttempt(r, 'nope', 't#0'), undefined);
});

test('the model of every example run is a valid init message', async () => {
  const runs = await loadRuns(new NodeFs(), [path.join(repoRoot, 'examples')]);
  assert.ok(runs.length >= 3, 'examples/ has runs');
  const kinds = new Set<string>();
  for (const r of runs) {
    const m = overviewModel(r);
    const parsed = OverviewModelSchema.safeParse(m);
    assert.ok(parsed.success, `${r.label}: ${parsed.success ? '' : JSON.stringify(parsed.error.issues.slice(0, 3))}`);
    assert.ok(parseHostMessage(JSON.parse(JSON.stringify({ type: 'init', model: m }))).ok, 'survives JSON (postMessage) and still parses');
    for (const t of m.tasks) assert.equal(t.cells.length, m.columns.length, `${r.label} ${t.id}: one cell per column`);
    kinds.add(r.kind);
  }
  assert.deepEqual([...kinds].sort(), ['harbor-job', 'nemo-gym', 'viewer-data']);
});

test('a 100,000-character task id and label: the init message still parses (clipped), and a click finds the attempt', () => {
  const long = 'x'.repeat(100_000);
  const twin = `${long}y`; // the same first 100,000 characters: clipped ids must still differ
  const r = run([
    { id: long, label: '', attempts: [attempt(long, 0, 'passed', 1)] },
    { id: twin, label: twin, attempts: [attempt(twin, 0, 'failed', 0)] },
  ], { label: long, identity: { agent: long, model: null } });
  r.problems.push({ file: `/r/job/${long}`, severity: 'warning', code: 'x', message: long });
  const m = overviewModel(r);
  const parsed = parseHostMessage({ type: 'init', model: m });
  assert.equal(parsed.ok, true, parsed.ok ? '' : parsed.error);
  assert.ok(m.tasks[0].label.length < 400 && m.tasks[0].label.includes('100000 characters'), 'label clipped, its length said');
  assert.ok(m.tasks[0].id.length <= 4000);
  assert.notEqual(m.tasks[0].id, m.tasks[1].id);
  const hit = findAttempt(r, m.tasks[1].id, m.tasks[1].cells[0]!.attemptId);
  assert.equal(hit?.task.id, twin);
  assert.equal(hit?.attempt.outcome, 'failed');
  assert.equal(findAttempt(r, m.tasks[0].id, m.tasks[0].cells[0]!.attemptId)?.task.id, long);
  // Short ids are sent unchanged.
  const small = overviewModel(run([{ id: 't1', label: 'one', attempts: [attempt('t1', 0, 'passed', 1)] }]));
  assert.equal(small.tasks[0].id, 't1');
  assert.equal(small.tasks[0].cells[0]!.attemptId, 't1#0');
});

test('the dashboard of a run with 100,000-character ids and messages: ids as the grid sends them, texts clipped', () => {
  const long = 'x'.repeat(100_000);
  const twin = `${long}y`;
  const exception = { type: 'AgentTimeoutError', message: 'm'.repeat(50_000) };
  const r = run([
    { id: long, label: '', attempts: [attempt(long, 0, 'passed', 1)] },
    { id: twin, label: twin, attempts: [attempt(twin, 0, 'truncated', 0, { exception })] },
  ]);
  const d = overviewModel(r).dashboard!;
  const row = d.rows.find((x) => x.outcome === 'truncated')!;
  assert.ok(row.id.length <= 4000 && row.label.length < 400);
  const hit = findAttempt(r, row.id, row.openAttemptId!);
  assert.equal(hit?.task.id, twin, 'a click in the task table finds the task');
  assert.equal(hit?.attempt.outcome, 'truncated');
  assert.deepEqual(new Set(d.rows.map((x) => x.id)), new Set(overviewModel(r).tasks.map((t) => t.id)), 'the table and the grid use the same ids');
  const cause = d.causes.find((c) => c.key === 'exception:AgentTimeoutError')!;
  assert.ok(cause.sample!.length < 4100, 'the sample message is clipped');
  assert.equal(findAttempt(r, cause.attempts[0].taskId, cause.attempts[0].attemptId)?.task.id, twin, 'a cause lists ids a click finds');
  // Short ids go unchanged (the same objects' texts as the core made them).
  const small = overviewModel(run([{ id: 't1', label: 'one', attempts: [attempt('t1', 0, 'passed', 1)] }])).dashboard!;
  assert.equal(small.rows[0].id, 't1');
  assert.equal(small.rows[0].openAttemptId, 't1#0');
});

test('a big run\'s first screen: the task table\'s first rows, the rest in pages that add up to the whole table; the grid on request', () => {
  const outcomes: Outcome[] = ['passed', 'failed', 'agent-error', 'infra-error'];
  const tasks = Array.from({ length: 1000 }, (_, i) => ({
    id: `t${String(i).padStart(4, '0')}`, label: `t${i}`,
    attempts: Array.from({ length: 4 }, (_, a) => attempt(`t${i}`, a, outcomes[(i + a) % 4], outcomes[(i + a) % 4] === 'passed' ? 1 : outcomes[(i + a) % 4] === 'infra-error' ? null : 0,
      outcomes[(i + a) % 4] === 'agent-error' ? { exception: { type: 'NonZeroAgentExitCodeError', message: `exit ${i}` } } : {})),
  }));
  const r = run(tasks);
  const whole = overviewModel(r);
  const first = overviewModel(r, { firstRows: 100, deferGridAbove: 200, generation: 7 });
  const d = first.dashboard!;
  assert.equal(d.rows.length, 100);
  assert.equal(d.rowsTotal, 1000);
  assert.equal(d.rowsOmitted, 0);
  assert.equal(first.generation, 7);
  // Everything but the rows is the whole run's: counts, pass@k, causes are not of the first page.
  assert.deepEqual(first.counts, whole.counts);
  assert.deepEqual(d.passAt, whole.dashboard!.passAt);
  assert.deepEqual(d.causes, whole.dashboard!.causes);
  // The grid is left out: counted, sent on request (gridPart), the same as the whole model's.
  assert.equal(first.gridDeferred, true);
  assert.deepEqual([first.tasks.length, first.tasksOmitted], [0, 1000]);
  const grid = gridPart(r);
  assert.deepEqual([grid.columns, grid.tasks, grid.tasksOmitted], [whole.columns, whole.tasks, whole.tasksOmitted]);
  assert.equal(overviewModel(run(tasks.slice(0, 200)), { deferGridAbove: 200 }).gridDeferred, false, 'a run at the threshold has its grid');
  // The pages (as the panel builds them) complete the table: the same rows, in order, as the whole model's.
  const pages = [];
  for (let from = d.rows.length; from < d.rowsTotal; from += 300) pages.push(...clipForWebview(r, dashboardRows(r, from, from + 300)));
  assert.deepEqual([...d.rows, ...pages], whole.dashboard!.rows);
  assert.deepEqual(dashboardRows(r, 990, 5000).map((x) => x.id), tasks.slice(990).map((t) => t.id), 'a page past the end is clamped');
  // The first screen is small whatever the run's size, and each message is one the webview accepts.
  const initBytes = JSON.stringify({ type: 'init', model: first }).length;
  assert.ok(initBytes * 4 < JSON.stringify({ type: 'init', model: whole }).length, `first screen ${initBytes} bytes`);
  assert.ok(parseHostMessage(JSON.parse(JSON.stringify({ type: 'init', model: first }))).ok);
  const page = parseHostMessage({ type: 'rows', generation: 7, from: 100, rows: pages.slice(0, 300), done: false });
  assert.ok(page.ok, page.ok ? '' : page.error);
  assert.ok(parseHostMessage({ type: 'grid', generation: 7, ...grid }).ok);
  assert.equal(parseHostMessage({ type: 'rows', generation: 7, from: 100, rows: [{ id: 'x' }], done: true }).ok, false, 'a malformed row is refused');
});
