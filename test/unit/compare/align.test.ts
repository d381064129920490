// Attempt alignment: identical trajectories, an inserted step, different tools, an empty or missing side, the first
// divergence; the LCS against a plain dynamic-programming one on random sequences; two 10k-step lists well under 2 s.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { StepView, ToolCallView, TrajectoryView } from '../../../src/core/trajectory';
import { alignTrajectories, commonSubsequence, stepKey } from '../../../src/core/compare';
import { Prng } from '../../../scripts/sample-runs/util';

type Spec = string; // "user:hi", "agent:bash ls", "agent:say done"

function step(spec: Spec, index: number): StepView {
  const [source, rest] = spec.split(':') as [StepView['source'], string];
  const [verb, ...args] = rest.split(' ');
  const toolCalls: ToolCallView[] = verb === 'say' || source !== 'agent'
    ? []
    : [{ id: `c${index}`, name: verb, args: JSON.stringify({ cmd: args.join(' ') }, null, 2), extra: null, results: [] }];
  return {
    index, file: 0, pointer: `/steps/${index}`, stepId: index + 1, source, timestamp: null, durationMs: 100 * (index + 1),
    modelName: null, reasoningEffort: null, message: [{ kind: 'text', text: toolCalls.length ? `thinking ${index}` : rest }],
    reasoning: null, toolCalls, sharedResults: [], metrics: { prompt_tokens: 10 * index, completion_tokens: 5, cached_tokens: null, reasoning_tokens: null, cost_usd: null, extra: null },
    llmCallCount: null, copied: false, contextBoundary: null, logprobs: null, hasTokenIds: false, extra: null, summary: rest,
  };
}

function view(specs: Spec[], file = '/t/trajectory.json'): TrajectoryView {
  return {
    file, pointer: '', schemaVersion: 'ATIF-v1.7', unreadable: null, notAtif: null, taskLevel: false,
    agent: { name: 'a', version: null, model: null, toolDefinitions: 0 }, sessionId: null, trajectoryId: null, notes: null,
    finalMetrics: null, files: [], steps: specs.map(step), toolCalls: 0, paired: 0,
    totals: { prompt_tokens: 1, completion_tokens: 2, cached_tokens: null, cost_usd: null },
    totalsWithSubagents: { prompt_tokens: 1, completion_tokens: 2, cached_tokens: null, cost_usd: null },
    disagreements: [], subagents: [], elapsedMs: null, problems: [],
  };
}

const kinds = (a: ReturnType<typeof alignTrajectories>) => a.rows.map((r) => `${r.kind}:${r.left ?? '-'}/${r.right ?? '-'}`);
const BASE: Spec[] = ['user:solve it', 'agent:bash ls', 'agent:bash cat a', 'agent:bash make', 'agent:say done'];

test('identical trajectories: every row the same, no divergence, tokens and durations on both sides', () => {
  const a = alignTrajectories(view(BASE), view(BASE));
  assert.deepEqual(kinds(a), ['same:0/0', 'same:1/1', 'same:2/2', 'same:3/3', 'same:4/4']);
  assert.equal(a.firstDivergence, null);
  assert.deepEqual(a.counts, { same: 5, changed: 0, left: 0, right: 0 });
  assert.equal(a.left.steps[3].promptTokens, 30);
  assert.equal(a.right.steps[3].durationMs, 400);
  assert.deepEqual(a.right.steps[1].tools, ['bash']);
});

test('one inserted step: listed on its side, the rest aligned, divergence at the insertion', () => {
  const b = [...BASE.slice(0, 2), 'agent:bash git status', ...BASE.slice(2)];
  const a = alignTrajectories(view(BASE), view(b));
  assert.deepEqual(kinds(a), ['same:0/0', 'same:1/1', 'right:-/2', 'same:2/3', 'same:3/4', 'same:4/5']);
  assert.deepEqual(a.firstDivergence, { row: 2, left: null, right: 2 });
  const back = alignTrajectories(view(b), view(BASE));
  assert.deepEqual(back.firstDivergence, { row: 2, left: 2, right: null });
});

test('tool calls match by function and arguments: another command or another tool is a changed step', () => {
  const b = [...BASE];
  b[2] = 'agent:bash cat b';          // same function, other arguments
  b[3] = 'agent:python make';         // other function, same arguments
  const a = alignTrajectories(view(BASE), view(b));
  assert.deepEqual(kinds(a), ['same:0/0', 'same:1/1', 'changed:2/2', 'changed:3/3', 'same:4/4']);
  assert.deepEqual(a.firstDivergence, { row: 2, left: 2, right: 2 });
  // The message text of a tool-call step does not decide; the calls do.
  assert.equal(stepKey(step('agent:bash ls', 1)), stepKey(step('agent:bash ls', 7)));
  assert.notEqual(stepKey(step('user:hello', 0)), stepKey(step('agent:say hello', 0)));
});

test('a changed run pairs only steps of the same source; the rest stays on its side', () => {
  const a = alignTrajectories(view(['user:go', 'agent:bash x', 'agent:say ok']), view(['user:go', 'user:more please', 'agent:say ok']));
  assert.deepEqual(kinds(a), ['same:0/0', 'left:1/-', 'right:-/1', 'same:2/2']);
});

test('one empty side: every step on the other side, divergence at row 0', () => {
  const a = alignTrajectories(view(BASE), view([]));
  assert.equal(a.rows.length, 5);
  assert.ok(a.rows.every((r) => r.kind === 'left' && r.right === null));
  assert.deepEqual(a.firstDivergence, { row: 0, left: 0, right: null });
  assert.equal(a.right.unavailable, null);
});

test('one side without a trajectory: says why, lists the other side, no divergence claimed', () => {
  const a = alignTrajectories(null, view(BASE), { left: 'no agent/trajectory.json' });
  assert.equal(a.left.unavailable, 'no agent/trajectory.json');
  assert.equal(a.left.file, null);
  assert.deepEqual(a.rows.map((r) => r.kind), ['right', 'right', 'right', 'right', 'right']);
  assert.equal(a.firstDivergence, null);
  const bad = view(BASE);
  bad.unreadable = 'not valid JSON';
  assert.match(alignTrajectories(view(BASE), bad).right.unavailable ?? '', /unreadable: not valid JSON/);
  assert.equal(alignTrajectories(null, null).rows.length, 0);
});

function lcsLength(a: number[], b: number[]): number {
  const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) dp[i][j] = a[i - 1] === b[j - 1] ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
  return dp[a.length][b.length];
}

test('Myers LCS: a common subsequence, as long as the DP one, on 2,000 random pairs', () => {
  const rng = new Prng(13);
  for (let n = 0; n < 2000; n++) {
    const alphabet = rng.int(1, 8);
    const a = Array.from({ length: rng.int(0, 30) }, () => rng.int(0, alphabet));
    const b = rng.next() < 0.3 ? a.map((x) => (rng.next() < 0.2 ? rng.int(0, alphabet) : x)) : Array.from({ length: rng.int(0, 30) }, () => rng.int(0, alphabet));
    const m = commonSubsequence(a, b);
    assert.equal(m.left.length, m.right.length);
    for (let i = 0; i < m.left.length; i++) {
      assert.equal(a[m.left[i]], b[m.right[i]]);
      if (i) assert.ok(m.left[i] > m.left[i - 1] && m.right[i] > m.right[i - 1]);
    }
    assert.equal(m.left.length, lcsLength(a, b), `a=${a} b=${b}`);
  }
});

test('two 10,000-step trajectories (scattered edits, then nothing in common) align in well under 2 s', () => {
  const rng = new Prng(7);
  const cmds = ['ls', 'cat a', 'make', 'pytest', 'git diff', 'grep x'];
  const left: Spec[] = ['user:task'];
  for (let i = 1; i < 10_000; i++) left.push(`agent:bash ${rng.pick(cmds)} ${i % 97}`);
  const right = left.map((s, i) => (i % 50 === 25 ? `agent:python ${i}` : s));
  const L = view(left), R = view(right);
  const best = (f: () => void) => Math.min(...[0, 1, 2].map(() => { const t0 = performance.now(); f(); return performance.now() - t0; }));
  const a = alignTrajectories(L, R);
  assert.equal(a.counts.same + a.counts.changed, 10_000);
  assert.equal(a.counts.changed, 200);
  assert.deepEqual(a.firstDivergence, { row: 25, left: 25, right: 25 });
  const O = view(left.map((s, i) => (i ? `agent:bash other ${i}` : s)));
  const b = alignTrajectories(L, O);
  assert.equal(b.counts.same, 1);
  assert.equal(b.counts.changed, 9_999);
  // Best of three: the machine running the tests may be busy with other work; bench/compare.bench.ts has the figures.
  const edited = best(() => alignTrajectories(L, R));
  const disjoint = best(() => alignTrajectories(L, O));
  assert.ok(edited < 2000 && disjoint < 2000, `${edited.toFixed(0)} ms, ${disjoint.toFixed(0)} ms`);
  console.log(`aligned 10k×10k: ${edited.toFixed(0)} ms with scattered edits, ${disjoint.toFixed(0)} ms with nothing in common`);
});

test('past MAX_COST differences the split is taken where the search got furthest: still a common subsequence, near the longest', () => {
  const rng = new Prng(5);
  const a = Array.from({ length: 3000 }, () => rng.int(0, 5));
  const b = Array.from({ length: 3000 }, () => rng.int(0, 5));
  const m = commonSubsequence(a, b);
  for (let i = 0; i < m.left.length; i++) {
    assert.equal(a[m.left[i]], b[m.right[i]]);
    if (i) assert.ok(m.left[i] > m.left[i - 1] && m.right[i] > m.right[i - 1]);
  }
  const best = lcsLength(a, b);
  assert.ok(m.left.length >= 0.9 * best, `${m.left.length} of the longest ${best}`);
});

test('two tool calls are not one call whose arguments hold the second after a control character', () => {
  const calls = (list: [string, string][]): StepView => {
    const s = step('agent:bash ls', 1);
    return { ...s, toolCalls: list.map(([name, args], i) => ({ id: `c${i}`, name, args, extra: null, results: [] })) };
  };
  assert.notEqual(stepKey(calls([['x', '1'], ['y', '2']])), stepKey(calls([['x', '1y\u00012']])));
  assert.equal(stepKey(calls([['x', '1'], ['y', '2']])), stepKey(calls([['x', '1'], ['y', '2']])));
});
