// Subagents resolved by the loader (core/trajectory/subagents.ts: by path, by embedded id, session-only, unreferenced
// embedded; loops, depth bound, missing targets; each counted once in the totals with subagents), the recount against
// final_metrics (core/trajectory/recount.ts: tolerance for cost, sums over continuation files, the step count's three
// accepted readings), and the search (core/trajectory/search.ts: each field's text, caps, a view that grows or is
// replaced).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { MemFs } from '../../../scripts/sample-runs/memFs';
import { fieldText, loadTrajectory, TrajectorySearch, type Problem, type StepView, type TimelineFile, type Totals, type TrajectoryView } from '../../../src/core/trajectory';
import { addTotals, disagreements, emptyTotals } from '../../../src/core/trajectory/recount';

const DIR = '/runs/job/trial/agent';
const FILE = `${DIR}/trajectory.json`;
const h = { schema_version: 'ATIF-v1.7', agent: { name: 'main' } };

function mem(files: Record<string, unknown>): MemFs {
  const m = new MemFs();
  for (const [rel, v] of Object.entries(files)) m.put(`${DIR}/${rel}`, JSON.stringify(v));
  return m;
}
const refStep = (id: number, refs: unknown[], tokens = 0) => ({ step_id: id, source: 'agent', message: `s${id}`, metrics: { prompt_tokens: tokens }, observation: { results: [{ subagent_trajectory_ref: refs }] } });
const subDoc = (name: string, tokens: number, more: Record<string, unknown> = {}) => ({ schema_version: 'ATIF-v1.7', agent: { name }, steps: [{ step_id: 1, source: 'agent', message: name, metrics: { prompt_tokens: tokens } }], ...more });
const P = (pointer: string, severity: Problem['severity'], message: string, file = FILE): Problem => ({ file, pointer, severity, message });
const at = (step: number, j = 0) => `/steps/${step}/observation/results/0/subagent_trajectory_ref/${j}`;

test('subagents by path: opened once counted once, missing, referring back, nested deeper than the bound', async () => {
  const files = {
    'trajectory.json': { ...h, steps: [
      refStep(1, [{ trajectory_path: 'subs/a.json' }, { trajectory_path: 'missing.json' }], 1),
      refStep(2, [{ trajectory_path: './subs/a.json' }, { trajectory_path: 'trajectory.json' }]),
    ] },
    'subs/a.json': { ...subDoc('a', 10), steps: [refStep(1, [{ trajectory_path: 'b.json' }, { trajectory_path: '../trajectory.json' }], 10)] },
    'subs/b.json': subDoc('b', 100),
  };
  const v = await loadTrajectory(mem(files), FILE);
  assert.deepEqual(v.subagents.map((s) => [s.kind, s.ref, s.path, s.step, s.unresolved, s.agent, s.steps, s.totals.prompt_tokens]), [
    ['path', 'subs/a.json', `${DIR}/subs/a.json`, 0, null, 'a', 1, 110],
    ['path', 'missing.json', null, 0, 'no such file', null, 0, null],
    ['path', './subs/a.json', `${DIR}/subs/a.json`, 1, null, 'a', 1, 110],
    ['path', 'trajectory.json', null, 1, 'refers back to a trajectory that contains it', null, 0, null],
  ]);
  assert.deepEqual(v.problems, [
    P(`${at(0, 1)}/trajectory_path`, 'warning', 'subagent "missing.json": no such file'),
    P(`${at(1, 1)}/trajectory_path`, 'warning', 'subagent "trajectory.json": refers back to a trajectory that contains it'),
  ]);
  assert.equal(v.totals.prompt_tokens, 1);
  assert.equal(v.totalsWithSubagents.prompt_tokens, 111, 'a.json (with its own subagent b.json) counted once');
  const a = v.subagents[0].view!;
  assert.deepEqual(a.subagents.map((s) => [s.ref, s.unresolved]), [['b.json', null], ['../trajectory.json', 'refers back to a trajectory that contains it']]);
  assert.deepEqual(a.problems, [P(`${at(0, 1)}/trajectory_path`, 'warning', 'subagent "../trajectory.json": refers back to a trajectory that contains it', `${DIR}/subs/a.json`)]);

  const one = await loadTrajectory(mem(files), FILE, { maxDepth: 1 });
  const inner = one.subagents[0].view!.subagents[0];
  assert.deepEqual([inner.path, inner.unresolved, inner.view], [`${DIR}/subs/b.json`, 'not opened: nested deeper than 1', null]);
  assert.deepEqual(one.subagents[0].view!.problems[0], P(`${at(0)}/trajectory_path`, 'warning', 'subagent "b.json": not opened: nested deeper than 1', `${DIR}/subs/a.json`));
  assert.equal(one.totalsWithSubagents.prompt_tokens, 11);
  const none = await loadTrajectory(mem(files), FILE, { maxDepth: 0 });
  assert.deepEqual(none.subagents.map((s) => [s.path, s.unresolved]), [
    [`${DIR}/subs/a.json`, 'not opened: nested deeper than 0'], [`${DIR}/missing.json`, 'not opened: nested deeper than 0'],
    [`${DIR}/subs/a.json`, 'not opened: nested deeper than 0'], [null, 'refers back to a trajectory that contains it'],
  ]);
  assert.equal(none.totalsWithSubagents.prompt_tokens, 1);
});

test('subagents by embedded id, session-only refs, and embedded trajectories no step names', async () => {
  const doc = { ...h, steps: [
    refStep(1, [{ trajectory_id: 'e1' }, { trajectory_id: 'zz' }, { session_id: 'sid' }], 1),
    refStep(2, [{ trajectory_id: 'e1' }]),
  ], subagent_trajectories: [subDoc('e', 10, { trajectory_id: 'e1' }), subDoc('f', 100, { trajectory_id: 'f1' }), subDoc('g', 1000)] };
  const v = await loadTrajectory(mem({ 'trajectory.json': doc }), FILE);
  assert.deepEqual(v.subagents.map((s) => [s.kind, s.ref, s.path, s.step, s.unresolved, s.agent, s.steps, s.view?.pointer ?? null]), [
    ['id', 'e1', `${FILE}#/subagent_trajectories/0`, 0, null, 'e', 1, '/subagent_trajectories/0'],
    ['id', 'zz', null, 0, 'no embedded subagent_trajectories entry has this trajectory_id', null, 0, null],
    ['session', 'sid', null, 0, 'a v1.6 reference by session_id only: session ids name a run, not a document, so it cannot be opened', null, 0, null],
    ['id', 'e1', `${FILE}#/subagent_trajectories/0`, 1, null, 'e', 1, '/subagent_trajectories/0'],
    ['embedded', 'f1', `${FILE}#/subagent_trajectories/1`, null, null, 'f', 1, '/subagent_trajectories/1'],
    ['embedded', '', `${FILE}#/subagent_trajectories/2`, null, null, 'g', 1, '/subagent_trajectories/2'],
  ]);
  assert.deepEqual(v.problems, [
    P('/subagent_trajectories/2/trajectory_id', 'warning', 'embedded subagent trajectory without trajectory_id (nothing can reference it)'),
    P(`${at(0, 1)}/trajectory_id`, 'warning', 'subagent "zz": no embedded subagent_trajectories entry has this trajectory_id'),
    P(at(0, 2), 'info', 'a v1.6 reference by session_id only: session ids name a run, not a document, so it cannot be opened'),
  ]);
  assert.equal(v.totalsWithSubagents.prompt_tokens, 1111);
  const flat = await loadTrajectory(mem({ 'trajectory.json': doc }), FILE, { maxDepth: 0 });
  assert.deepEqual(flat.subagents.map((s) => [s.kind, s.path, s.unresolved, s.view]), [
    ['id', `${FILE}#/subagent_trajectories/0`, 'not opened: nested deeper than 0', null],
    ['id', null, 'no embedded subagent_trajectories entry has this trajectory_id', null],
    ['session', null, 'a v1.6 reference by session_id only: session ids name a run, not a document, so it cannot be opened', null],
    ['id', `${FILE}#/subagent_trajectories/0`, 'not opened: nested deeper than 0', null],
    ['embedded', `${FILE}#/subagent_trajectories/1`, null, null],
    ['embedded', `${FILE}#/subagent_trajectories/2`, null, null],
  ]);
  assert.equal(flat.problems.length, 3);
  assert.equal(flat.totalsWithSubagents.prompt_tokens, 1);
});

const totals = (p: number | null, c: number | null = null, k: number | null = null, usd: number | null = null): Totals => ({ prompt_tokens: p, completion_tokens: c, cached_tokens: k, cost_usd: usd });
function view(files: Partial<TimelineFile>[], own: Totals, withSubs: Totals, steps: boolean[] = []): TrajectoryView {
  return {
    file: FILE, pointer: '', schemaVersion: 'ATIF-v1.7', unreadable: null, notAtif: null, taskLevel: false, agent: { name: null, version: null, model: null, toolDefinitions: 0 },
    sessionId: null, trajectoryId: null, notes: null, finalMetrics: null,
    files: files.map((f) => ({ path: FILE, firstStep: 0, steps: 0, foldedCopies: 0, schemaVersion: null, finalMetrics: null, ...f })),
    steps: steps.map((copied, index) => ({ index, copied } as StepView)), toolCalls: 0, paired: 0, totals: own, totalsWithSubagents: withSubs,
    disagreements: [], subagents: [], elapsedMs: null, problems: [],
  };
}

test('recount against final_metrics: summed over files, with or without subagents, cost within a tolerance', () => {
  assert.deepEqual(addTotals(totals(1, null, 2, 0.5), totals(null, null, 3, 0.25)), totals(1, null, 5, 0.75));
  assert.deepEqual(addTotals(emptyTotals(), emptyTotals()), totals(null));
  const fm = (m: Record<string, unknown>) => ({ finalMetrics: m });
  assert.deepEqual(disagreements(view([fm({ total_prompt_tokens: 5 }), fm({ total_prompt_tokens: 6 }), {}], totals(11), totals(11))), []);
  assert.deepEqual(disagreements(view([fm({ total_prompt_tokens: 12, total_completion_tokens: 'x' })], totals(10, 4), totals(15, 4))),
    [{ field: 'prompt_tokens', recorded: 12, recount: 10, recountWithSubagents: 15 }]);
  assert.deepEqual(disagreements(view([fm({ total_prompt_tokens: 15 })], totals(10), totals(15))), []);
  assert.deepEqual(disagreements(view([fm({ total_prompt_tokens: 10 })], totals(10), totals(15))), []);
  // A figure no step carries is unknown, not zero.
  assert.deepEqual(disagreements(view([fm({ total_prompt_tokens: 5, total_cost_usd: 1 })], totals(null), totals(null))), []);
  // Tokens are exact: one off is a disagreement, even among millions.
  assert.deepEqual(disagreements(view([fm({ total_cached_tokens: 1_000_000 })], totals(null, null, 1_000_001), totals(null, null, 1_000_001))),
    [{ field: 'cached_tokens', recorded: 1_000_000, recount: 1_000_001, recountWithSubagents: 1_000_001 }]);
  // Cost: within a millionth of what was recorded (at least 1e-9), so sums in floating point agree.
  const cost = (recorded: number, recount: number) => disagreements(view([fm({ total_cost_usd: recorded })], totals(null, null, null, recount), totals(null, null, null, recount)));
  assert.deepEqual(cost(0.3, 0.1 + 0.2), []);
  assert.deepEqual(cost(1, 1.0000005), []);
  assert.deepEqual(cost(0, 1e-9), []);
  assert.deepEqual(cost(0, 2e-9), [{ field: 'cost_usd', recorded: 0, recount: 2e-9, recountWithSubagents: 2e-9 }]);
  assert.deepEqual(cost(1, 1.00001), [{ field: 'cost_usd', recorded: 1, recount: 1.00001, recountWithSubagents: 1.00001 }]);
  assert.deepEqual(cost(2, 1.5), [{ field: 'cost_usd', recorded: 2, recount: 1.5, recountWithSubagents: 1.5 }]);
});

test('the step count agrees with the timeline, the files\' own steps with folded copies, or the steps not copied', () => {
  // Two files: 3 + 1 steps on the timeline, 1 copy folded, 1 copied step shown: timeline 4, own 5, not copied 3.
  const steps = (n: unknown, m?: unknown) => disagreements(view([{ steps: 3, foldedCopies: 1, finalMetrics: { total_steps: n } }, { steps: 1, finalMetrics: m === undefined ? null : { total_steps: m } }],
    totals(null), totals(null), [false, true, false, false]));
  assert.deepEqual(steps(4), []);
  assert.deepEqual(steps(5), []);
  assert.deepEqual(steps(3), []);
  assert.deepEqual(steps(2, 2), []);
  assert.deepEqual(steps(6), [{ field: 'steps', recorded: 6, recount: 4, recountWithSubagents: 4 }]);
  assert.deepEqual(steps(1), [{ field: 'steps', recorded: 1, recount: 4, recountWithSubagents: 4 }]);
  assert.deepEqual(steps('4'), []);
  assert.deepEqual(steps(null, 7), [{ field: 'steps', recorded: 7, recount: 4, recountWithSubagents: 4 }]);
});

function stepView(index: number, o: Partial<StepView>): StepView {
  return {
    index, file: 0, pointer: `/steps/${index}`, stepId: index + 1, source: 'agent', timestamp: null, durationMs: null, modelName: null, reasoningEffort: null,
    message: [], reasoning: null, toolCalls: [], sharedResults: [], metrics: null, llmCallCount: null, copied: false, contextBoundary: null, logprobs: null,
    hasTokenIds: false, extra: null, summary: '', ...o,
  };
}
const res = (text: string) => ({ index: 0, sourceCallId: null, parts: [{ kind: 'text' as const, text }], extra: null, subagents: [] });

test('search: each field\'s text, literal and case-insensitive, counts capped, a growing or replaced view', () => {
  const a = stepView(0, {
    message: [{ kind: 'text', text: 'Hello' }, { kind: 'image', mediaType: 'image/png', path: 'shot.png' }],
    toolCalls: [{ id: 'c1', name: 'read', args: '{"p":1}', extra: null, results: [res('out one')] }, { id: 'c2', name: 'ls', args: '{}', extra: null, results: [res('out two')] }],
    sharedResults: [res('shared')],
  });
  assert.equal(fieldText(a, 'message'), 'Hello\nshot.png');
  assert.equal(fieldText(a, 'reasoning'), '');
  assert.equal(fieldText(a, 'tool'), 'read\n{"p":1}\nls\n{}');
  assert.equal(fieldText(a, 'observation'), 'out one\nout two\nshared');
  assert.equal(fieldText(stepView(0, { reasoning: 'Why' }), 'reasoning'), 'Why');

  const v = view([], totals(null), totals(null));
  v.steps = [a, stepView(1, { reasoning: 'aaaa AAAA', message: [{ kind: 'text', text: 'abc' }] })];
  const s = new TrajectorySearch(v);
  assert.deepEqual(s.search(''), { query: '', total: 0, steps: [] });
  assert.deepEqual(s.search('HELLO'), { query: 'HELLO', total: 1, steps: [{ index: 0, count: 1, fields: ['message'] }] });
  assert.deepEqual(s.search('ABC'), { query: 'ABC', total: 1, steps: [{ index: 1, count: 1, fields: ['message'] }] });
  assert.deepEqual(s.search('aa'), { query: 'aa', total: 4, steps: [{ index: 1, count: 4, fields: ['reasoning'] }] });
  assert.deepEqual(s.search('a', 3), { query: 'a', total: 6, steps: [{ index: 0, count: 2, fields: ['tool', 'observation'] }, { index: 1, count: 4, fields: ['message', 'reasoning'] }] });
  assert.deepEqual(s.search('o'), { query: 'o', total: 6, steps: [{ index: 0, count: 6, fields: ['message', 'observation'] }] });
  assert.deepEqual(s.search('stryker'), { query: 'stryker', total: 0, steps: [] });
  assert.deepEqual(s.search('ls\n{').steps.map((m) => m.fields), [['tool']]);
  // A step added to the same list is indexed on the next search; a new list is indexed from scratch.
  v.steps.push(stepView(2, { message: [{ kind: 'text', text: 'hello again' }] }));
  assert.deepEqual(s.search('hello').steps.map((m) => m.index), [0, 2]);
  v.steps = [stepView(0, { message: [{ kind: 'text', text: 'other' }] })];
  assert.deepEqual(s.search('hello').steps, []);
  assert.deepEqual(s.search('other').steps, [{ index: 0, count: 1, fields: ['message'] }]);
});
