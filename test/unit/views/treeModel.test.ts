// The Runs tree's pure part: filters, sort, descriptions, flags, ids, and where a Problem lands in its JSON file.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Attempt, Outcome, Run, Task } from '../../../src/core/model';
import { FIRST_PAGE, MORE_PAGE, childrenOf, makeRunNode, rootChildren, type TreeNode } from '../../../src/views/tree/nodes';
import { describe as describeNode, taskDescription } from '../../../src/views/tree/describe';
import { defaultViewState, describeFilter, visibleTasks, type ViewState } from '../../../src/views/tree/viewState';
import { bestOutcome } from '../../../src/views/outcomeStyle';
import { escapeMd, tooltipOf } from '../../../src/views/tree/tooltips';
import { JsonLocator } from '../../../src/core/jsonLocator';

function attempt(task: string, i: number, outcome: Outcome, reward: number | null, missing: string[] = []): Attempt {
  return {
    id: `${task}#${i}`, index: i, label: `#${i + 1}`, outcome, reward, dir: `/r/v/${task}-${i}`, missing,
    evidence: outcome === 'missing' ? [] : [
      { kind: 'test-stdout', label: 'test-stdout.txt', path: `/r/v/${task}-${i}/test-stdout.txt`, isDir: false, present: true },
      { kind: 'trajectory', label: 'trajectory.json', path: `/r/v/${task}-${i}/trajectory.json`, isDir: false, present: missing.length === 0, namedBy: 'rollouts.jsonl line 3 names it' },
    ],
  };
}

function task(id: string, index: number, attempts: Attempt[]): Task {
  return { id, index, label: id, attempts };
}

function run(): Run {
  return {
    id: 'nemo-gym:/r/x_run_summary.json', kind: 'nemo-gym', root: '/r', anchor: '/r/x_run_summary.json', label: 'tb · agent',
    identity: {}, state: 'complete', rolloutsPath: '/r/x.jsonl', summaryPath: '/r/x_run_summary.json',
    files: [{ key: 'rollouts', label: 'Rollouts', path: '/r/x.jsonl', present: true }, { key: 'failures', label: 'Failures', path: '/r/x_failures.jsonl', present: true, stale: true },
      { key: 'metrics', label: 'Metrics', path: null, present: false }],
    problems: [{ file: '/r/x_run_summary.json', severity: 'error', code: 'missing-path', message: 'not on disk', jsonPath: ['missing_paths', 0] }],
    unvalidated: [{ taskId: 'no-sol', reason: 'NO_REFERENCE_SOLUTION' }], skipped: [],
    tasks: [
      task('task-10', 2, [attempt('task-10', 0, 'failed', 0), attempt('task-10', 1, 'failed', 0)]),
      task('task-2', 1, [attempt('task-2', 0, 'passed', 1), attempt('task-2', 1, 'missing', null)]),
      task('task-1', 0, [attempt('task-1', 0, 'passed', 1), attempt('task-1', 1, 'failed', 0.5, ['/r/v/task-1-1/trajectory.json'])]),
    ],
  };
}

const ctx = (state: ViewState = defaultViewState()) => ({ state, listDir: async () => [] as [string, 'file' | 'dir' | 'other'][] });
const labels = (nodes: TreeNode[]) => nodes.map((n) => describeNode(n).label);

test('a run lists its tasks in index order, then "Run files", then "Problems"', () => {
  const kids = childrenOf(makeRunNode(run()), ctx()) as TreeNode[];
  assert.deepEqual(labels(kids), ['task-1', 'task-2', 'task-10', 'Run files', 'Problems']);
  const files = childrenOf(kids[3], ctx()) as TreeNode[];
  assert.deepEqual(labels(files), ['Rollouts', 'Failures'], 'a file the run does not have (path null) is left out');
  const stale = describeNode(files[1]);
  assert.deepEqual(stale.flag && { b: stale.flag.badge, s: stale.flag.severity }, { b: 'S', s: 'warning' });
  const problems = childrenOf(kids[4], ctx()) as TreeNode[];
  assert.deepEqual(problems.map((n) => n.kind), ['problem', 'reason']);
  assert.match(describeNode(problems[1]).description ?? '', /unvalidated · NO_REFERENCE_SOLUTION/);
});

test('sort by reward puts the best mean first; by failures the most failures first', () => {
  const r = run();
  assert.deepEqual(visibleTasks(r, { ...defaultViewState(), sort: 'reward' }).map((t) => t.id), ['task-2', 'task-1', 'task-10']);
  assert.deepEqual(visibleTasks(r, { ...defaultViewState(), sort: 'failures' }).map((t) => t.id), ['task-10', 'task-1', 'task-2']);
});

test('filters: outcome keeps tasks with such an attempt and only those attempts; text; only problems', () => {
  const r = run();
  const onlyMissing: ViewState = { ...defaultViewState(), outcomes: new Set<Outcome>(['missing']) };
  const tasks = childrenOf(makeRunNode(r), ctx(onlyMissing)) as TreeNode[];
  assert.deepEqual(labels(tasks).slice(0, 1), ['task-2']);
  assert.deepEqual(labels(childrenOf(tasks[0], ctx(onlyMissing)) as TreeNode[]), ['#2']);
  assert.deepEqual(visibleTasks(r, { ...defaultViewState(), text: 'K-1' }).map((t) => t.id), ['task-1', 'task-10']);
  assert.deepEqual(visibleTasks(r, { ...defaultViewState(), onlyProblems: true }).map((t) => t.id), ['task-1', 'task-2']);
  assert.equal(describeFilter(defaultViewState()), undefined);
  assert.equal(describeFilter({ ...onlyMissing, onlyProblems: true }), 'Filtered by outcome missing · only problems');
  const none = childrenOf(makeRunNode(r), ctx({ ...defaultViewState(), text: 'zzz' })) as TreeNode[];
  assert.equal(none[0].kind, 'message');
});

test('descriptions, icons and flags say what happened', () => {
  const r = run();
  assert.equal(taskDescription(r.tasks[2]), '1/2 · pass@2 ✓');
  assert.equal(taskDescription(r.tasks[0]), '0/2 · pass@2 ✗');
  assert.equal(bestOutcome(r.tasks[0]), 'failed');
  assert.equal(bestOutcome(r.tasks[1]), 'passed');
  const runSpec = describeNode(makeRunNode(r));
  assert.equal(runSpec.description, '2/5 passed · 6 attempts');
  assert.equal(runSpec.contextValue, 'run+nemo+rollouts+summary');
  const outdated = describeNode(makeRunNode({ ...r, summaryOutdated: true }));
  assert.equal(outdated.description, '2/5 passed · 6 attempts · summary out of date');
  const one = describeNode(makeRunNode({ ...r, tasks: [task('solo', 0, [attempt('solo', 0, 'passed', 1)])] }));
  assert.equal(one.description, '1/1 passed · 1 attempt');
  // A training run with no attempts of its own says its steps and last reward; with attempts, the attempts.
  const training = { steps: 6, last: { step: 6, reward: 0.7041, loss: 0.3 } };
  const trainingRun = { ...r, kind: 'viewer-data' as const, tasks: [], training, state: 'running' as const };
  assert.equal(describeNode(makeRunNode(trainingRun)).description, 'training · 6 steps · reward 0.704 · running');
  assert.equal(describeNode(makeRunNode({ ...trainingRun, training: { steps: 1, last: { reward: null } } })).description, 'training · 1 step · running');
  assert.equal(describeNode(makeRunNode({ ...r, training })).description, '2/5 passed · 6 attempts');
  // A Harbor job's row is named by its job; its counts come first, then its agents, models and dataset.
  const identity = { job: '2026-09-02__10-00-00', agent: 'terminus-2', model: 'openai/gpt-5', dataset: 'terminal-bench/terminal-bench-2' };
  const job = describeNode(makeRunNode({ ...r, kind: 'harbor-job', identity, label: '2026-09-02__10-00-00 · terminal-bench/terminal-bench-2 · terminus-2 · openai/gpt-5' }));
  assert.deepEqual([job.label, job.description], ['2026-09-02__10-00-00', '2/5 passed · 6 attempts · terminus-2 · openai/gpt-5 · terminal-bench/terminal-bench-2']);
  assert.match(tooltipOf(makeRunNode({ ...r, summaryOutdated: true })) ?? '', /older than the rows: Write Run Summary to update/);
  const tasks = childrenOf(makeRunNode(r), ctx()) as TreeNode[];
  const t2 = childrenOf(tasks[1], ctx()) as TreeNode[];
  const missing = describeNode(t2[1]);
  assert.equal(missing.description, '— · missing');
  assert.deepEqual({ b: missing.flag?.badge, s: missing.flag?.severity, click: missing.click }, { b: '!', s: 'error', click: 'explain-missing' });
  const t1 = childrenOf(tasks[0], ctx()) as TreeNode[];
  const ev = childrenOf(t1[1], ctx()) as TreeNode[];
  const traj = describeNode(ev[1]);
  assert.equal(traj.description, 'not on disk · rollouts.jsonl line 3 names it');
  assert.equal(traj.flag?.severity, 'error');
  assert.equal(describeNode(ev[0]).click, 'open');
});

test('ids are stable across a re-read (new objects, same ids) and unique', () => {
  const walk = (n: TreeNode, out: string[]) => { out.push(n.id); for (const k of childrenOf(n, ctx()) as TreeNode[]) walk(k, out); return out; };
  const a = walk(makeRunNode(run()), []);
  const b = walk(makeRunNode(run()), []);
  assert.deepEqual(a, b);
  assert.equal(new Set(a).size, a.length);
});

test('root: runs directly, or one node per workspace folder when several have runs', () => {
  const r = run();
  const one = rootChildren([{ folder: '/a', name: 'a', runs: [r] }, { folder: '/b', name: 'b', runs: [] }], defaultViewState(), (x) => makeRunNode(x));
  assert.deepEqual(one.map((n) => n.kind), ['run']);
  const two = rootChildren([{ folder: '/a', name: 'a', runs: [r] }, { folder: '/b', name: 'b', runs: [r] }], defaultViewState(), (x) => makeRunNode(x));
  assert.deepEqual(two.map((n) => n.kind), ['folder', 'folder']);
});

test('tooltips escape what runs wrote', () => {
  assert.equal(escapeMd('a*b_[c](d)'), 'a\\*b\\_\\[c\\]\\(d\\)');
  const r = run();
  r.tasks[0].attempts[0].exception = { type: 'AgentTimeoutError', message: '<img src=x onerror=alert(1)> **bold**' };
  const tasks = childrenOf(makeRunNode(r), ctx()) as TreeNode[];
  const a = (childrenOf(tasks[2], ctx()) as TreeNode[])[0];
  const md = tooltipOf(a) ?? '';
  assert.match(md, /` AgentTimeoutError `/);
  assert.ok(md.includes('\\<img') && !/[^\\]<img/.test(md), 'raw HTML is escaped');
  assert.ok(md.includes('\\*\\*bold\\*\\*'));
});

test('the run tooltip gives pass@1 and pass@k over the measured tasks (null rewards left out)', () => {
  assert.match(tooltipOf(makeRunNode(run())) ?? '', /pass@1 0\.500 · pass@2 0\.667 \(3 of 3 tasks measured\)/);
});

test('JsonLocator places a jsonPath on its exact value, and a missing key on the deepest existing parent', () => {
  const text = '{\n  "files": {"rollouts": null},\n  "missing_paths": [\n    "verifier/a",\n    "verifier/b"\n  ]\n}\n';
  const loc = new JsonLocator(text);
  assert.deepEqual(loc.spanOf(['missing_paths', 1]), { line: 4, character: 4, endLine: 4, endCharacter: 16 });
  assert.deepEqual(loc.spanOf(['files', 'rollouts']), { line: 1, character: 24, endLine: 1, endCharacter: 28 });
  assert.deepEqual(loc.spanOf(['files', 'nope'])?.line, 1);
  assert.equal(new JsonLocator('not json at all').spanOf(['x']), undefined);
});

test('the filter and sort survive a reload: stored as plain JSON, read back leniently', async () => {
  const { storeViewState, restoreViewState } = await import('../../../src/views/tree/viewState');
  const s = { ...defaultViewState(), outcomes: new Set<Outcome>(['failed', 'infra-error']), text: 'git', onlyProblems: true, sort: 'failures' as const };
  const stored = JSON.parse(JSON.stringify(storeViewState(s)));
  assert.deepEqual(restoreViewState(stored), s);
  assert.deepEqual(restoreViewState(undefined), defaultViewState());
  assert.deepEqual(restoreViewState('garbage'), defaultViewState());
  assert.deepEqual(restoreViewState({ outcomes: ['failed', 'no-such-outcome', 3], text: 7, onlyProblems: 'yes', sort: 'size' }),
    { ...defaultViewState(), outcomes: new Set(['failed']) });
});

test('a reader problem points where its Problems entry starts: the value, not the key (one JsonLocator)', async () => {
  const { parseJsonDocument, problemAt } = await import('../../../src/core/readers/jsonFile');
  const text = '{\n  "files": {\n    "rollouts":   "r.jsonl"\n  },\n  "tasks": [\n    {"id": 1}\n  ]\n}\n';
  const doc = parseJsonDocument('/x/s.json', text);
  const p = problemAt(doc, ['files', 'rollouts'], 'error', 'c', 'm');
  const span = new JsonLocator(text).spanOf(['files', 'rollouts'])!;
  assert.deepEqual({ line: p.line, column: p.column }, { line: span.line + 1, column: span.character + 1 });
  assert.deepEqual({ line: p.line, column: p.column }, { line: 3, column: 19 }, 'the value "r.jsonl", after the key and its spaces');
  assert.deepEqual(problemAt(doc, ['tasks', 0, 'nope'], 'error', 'c', 'm').line, 6, 'a missing key lands on its parent object');
});

test('first load: a run still being read is a "Reading…" row after the runs read so far', () => {
  const nodes = rootChildren([{ folder: '/ws', name: 'ws', runs: [] }], defaultViewState(), (r) => makeRunNode(r), [],
    [{ folder: '/ws', anchor: '/ws/jobs/big-job' }]);
  assert.deepEqual(nodes.map((n) => [n.kind, n.kind === 'message' ? n.text : '', n.kind === 'message' ? n.icon : '']), [['message', 'Reading jobs/big-job…', 'loading~spin']]);
});

test('first load: a Harbor job being read says how far its read is beside its "Reading…" row', () => {
  const nodes = rootChildren([{ folder: '/ws', name: 'ws', runs: [] }], defaultViewState(), (r) => makeRunNode(r), [],
    [{ folder: '/ws', anchor: '/ws/jobs/big-job', progress: { done: 2560, total: 10000 } }]);
  const spec = describeNode(nodes[0]);
  assert.equal(spec.label, 'Reading jobs/big-job…');
  assert.equal(spec.description, '2,560 of 10,000 trial folders (25%)');
});

test('a big run lists its tasks a page at a time, then a "Show more" row; a task its attempts the same way', async () => {
  const many: Task[] = Array.from({ length: FIRST_PAGE + 1500 }, (_, i) => task(`t${String(i).padStart(5, '0')}`, i, [attempt(`t${i}`, 0, 'passed', 1)]));
  const big: Run = { ...run(), tasks: many };
  const rn = makeRunNode(big);
  const state = defaultViewState();
  const all = await childrenOf(rn, { state, listDir: async () => [] });
  assert.equal(all.filter((n) => n.kind === 'task').length, many.length, 'without a limit, every task');
  const shown = new Map<string, number>();
  const limitOf = (n: TreeNode) => shown.get(n.id) ?? FIRST_PAGE;
  const page = await childrenOf(rn, { state, listDir: async () => [], limitOf });
  const tasks = page.filter((n) => n.kind === 'task');
  assert.equal(tasks.length, FIRST_PAGE);
  assert.deepEqual(tasks.map((n) => n.kind === 'task' && n.task.id), many.slice(0, FIRST_PAGE).map((t) => t.id), 'the first tasks in order');
  const more = page.find((n) => n.kind === 'more');
  assert.ok(more && more.kind === 'more');
  assert.equal(page.indexOf(more), FIRST_PAGE, 'right after the tasks, before the run\'s groups');
  assert.deepEqual([more.shown, more.total, more.what], [FIRST_PAGE, many.length, 'tasks']);
  const spec = describeNode(more);
  assert.deepEqual([spec.label, spec.description, spec.click], [`Show ${MORE_PAGE.toLocaleString('en-US')} more tasks`, `200 of 1,700 shown`, 'show-more']);
  shown.set(rn.id, more.shown + MORE_PAGE);
  const next = await childrenOf(rn, { state, listDir: async () => [], limitOf });
  const last = next.find((n) => n.kind === 'more');
  assert.ok(last?.kind === 'more' && last.shown === FIRST_PAGE + MORE_PAGE);
  assert.equal(describeNode(last).label, 'Show 500 more tasks', 'the last page says what is left');
  shown.set(rn.id, last.shown + MORE_PAGE);
  const full = await childrenOf(rn, { state, listDir: async () => [], limitOf });
  assert.equal(full.filter((n) => n.kind === 'task').length, many.length);
  assert.ok(!full.some((n) => n.kind === 'more'), 'no "Show more" once every task is listed');
  // A filter pages what it lets through: 10 tasks match, no "Show more".
  const filtered = await childrenOf(rn, { state: { ...state, text: 't0000' }, listDir: async () => [], limitOf });
  assert.equal(filtered.filter((n) => n.kind === 'task').length, 10);
  // A task with many attempts.
  const t = task('wide', 0, Array.from({ length: FIRST_PAGE + 5 }, (_, i) => attempt('wide', i, i % 2 ? 'failed' : 'passed', i % 2 ? 0 : 1)));
  const tn = (await childrenOf(makeRunNode({ ...run(), tasks: [t] }), { state, listDir: async () => [], limitOf }))[0];
  const attempts = await childrenOf(tn, { state, listDir: async () => [], limitOf });
  assert.equal(attempts.filter((n) => n.kind === 'attempt').length, FIRST_PAGE);
  const am = attempts.at(-1);
  assert.ok(am?.kind === 'more');
  assert.deepEqual([am.shown, am.total, am.what, am.parent], [FIRST_PAGE, FIRST_PAGE + 5, 'attempts', tn]);
  // Only the failed ones: 102 of them, one page.
  const failedOnly = await childrenOf(tn, { state: { ...state, outcomes: new Set<Outcome>(['failed']) }, listDir: async () => [], limitOf });
  assert.equal(failedOnly.length, Math.floor((FIRST_PAGE + 5) / 2));
});
