// What `harbor-runs trajectory <file>` prints without --json, in-process (the CLI test spawns the command, which the
// mutation runs leave out): the header lines, totals with and without subagents, disagreements, continuations,
// subagents, one line per step with its flags, and the problems. Every expected line is written out by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { StepView, ToolCallView, TrajectoryView } from '../../../src/core/trajectory';
import { formatDuration, renderTrajectoryText } from '../../../src/core/trajectory';

const totals = (p: number | null, c: number | null, cached: number | null, cost: number | null) => ({ prompt_tokens: p, completion_tokens: c, cached_tokens: cached, cost_usd: cost });

function call(name: string): ToolCallView {
  return { id: name, name, args: '{}', extra: null, results: [] };
}

function step(index: number, o: Partial<StepView>): StepView {
  return {
    index, file: 0, pointer: `/steps/${index}`, stepId: index + 1, source: 'agent', timestamp: null, durationMs: null,
    modelName: null, reasoningEffort: null, message: [], reasoning: null, toolCalls: [], sharedResults: [], metrics: null,
    llmCallCount: null, copied: false, contextBoundary: null, logprobs: null, hasTokenIds: false, extra: null, summary: `step ${index}`, ...o,
  };
}

function view(o: Partial<TrajectoryView>): TrajectoryView {
  return {
    file: '/t/trajectory.json', pointer: '', schemaVersion: null, unreadable: null, notAtif: null, taskLevel: false,
    agent: { name: null, version: null, model: null, toolDefinitions: 0 }, sessionId: null, trajectoryId: null, notes: null,
    finalMetrics: null, files: [], steps: [], toolCalls: 0, paired: 0, totals: totals(null, null, null, null),
    totalsWithSubagents: totals(null, null, null, null), disagreements: [], subagents: [], elapsedMs: null, problems: [], ...o,
  };
}

test('trajectory text: a full view, line by line', () => {
  const v = view({
    schemaVersion: 'ATIF-v1.6', taskLevel: true,
    agent: { name: 'terminus', version: '2.0', model: 'gpt-x', toolDefinitions: 3 },
    toolCalls: 3, paired: 2, elapsedMs: 3_723_000,
    totals: totals(1200, 340, 0, 0.01234), totalsWithSubagents: totals(1500, 400, null, 0.5),
    disagreements: [
      { field: 'prompt_tokens', recorded: 1000, recount: 1200, recountWithSubagents: 1500 },
      { field: 'steps', recorded: 4, recount: 3, recountWithSubagents: 3 },
    ],
    files: [
      { path: '/t/trajectory.json', firstStep: 0, steps: 2, foldedCopies: 0, schemaVersion: null, finalMetrics: null },
      { path: '/t/trajectory.cont-1.json', firstStep: 2, steps: 1, foldedCopies: 2, schemaVersion: null, finalMetrics: null },
      { path: '/t/trajectory.cont-2.json', firstStep: 3, steps: 0, foldedCopies: 0, schemaVersion: null, finalMetrics: null },
    ],
    subagents: [
      { kind: 'path', ref: 'sub/a.json', path: '/t/sub/a.json', step: 1, unresolved: null, agent: 'helper', steps: 4, totals: totals(300, 60, null, null), view: null },
      { kind: 'session', ref: 's-1', path: null, step: 2, unresolved: 'a session id cannot be resolved', agent: null, steps: 0, totals: totals(null, null, null, null), view: null },
    ],
    steps: [
      step(0, { source: 'user', durationMs: 500, summary: 'solve it' }),
      step(1, { durationMs: 2500, summary: 'looking', toolCalls: [call('bash')], llmCallCount: 0 }),
      step(2, { durationMs: 65_000, summary: 'again', toolCalls: [call('bash'), call('edit')], copied: true }),
      step(9998, { source: 'system', summary: 'late' }),
    ],
    problems: [{ file: '/t/trajectory.json', pointer: '/steps/2', severity: 'warning', message: 'odd' }],
  });
  assert.equal(renderTrajectoryText(v), [
    '/t/trajectory.json',
    '  ATIF-v1.6 · task-level trajectory (seeds an agent; not an attempt\'s own)',
    '  agent terminus 2.0 · gpt-x',
    '  steps 4 · tool calls 3 (2 paired) · elapsed 1h 02m',
    '  recount            prompt 1200 · completion 340 · cached 0 · cost $0.0123',
    '  with subagents     prompt 1500 · completion 400 · cached — · cost $0.5000',
    '  final_metrics prompt_tokens 1000 ≠ recount 1200 (with subagents 1500)',
    '  final_metrics steps 4 ≠ recount 3',
    '  continuation /t/trajectory.cont-1.json from step #3 (1 step, 2 copied steps folded)',
    '  continuation /t/trajectory.cont-2.json from step #4 (0 steps)',
    '  subagent (path) sub/a.json → /t/sub/a.json · 4 steps',
    '  subagent (session) s-1 — a session id cannot be resolved',
    '',
    '  #   1 user      500ms  solve it',
    '  #   2 agent      2.5s  looking  [no model call, 1 call]',
    '  #   3 agent    1m 05s  again  [copied, 2 calls]',
    '  #9999 system        —  late',
    '',
    '  problems (1):',
    '    warning /t/trajectory.json#/steps/2: odd',
    '',
  ].join('\n'));
});

test('trajectory text: unreadable, not ATIF, no agent name, no steps, no subagents', () => {
  assert.equal(renderTrajectoryText(view({ unreadable: 'not valid JSON: x', problems: [] })), [
    '/t/trajectory.json',
    '  cannot read: not valid JSON: x',
    '  steps 0 · tool calls 0 (0 paired) · elapsed —',
    '  recount            prompt — · completion — · cached — · cost —',
    '',
  ].join('\n'));
  const notAtif = view({ notAtif: { looksLike: 'a chat transcript', detail: 'messages' }, agent: { name: null, version: '1', model: 'm', toolDefinitions: 0 } });
  assert.equal(renderTrajectoryText(notAtif).split('\n')[1], '  not ATIF: a chat transcript — messages');
  assert.ok(!renderTrajectoryText(notAtif).includes('agent '));
  // An agent without a version or model; a schema version of a trajectory that is an attempt's own.
  const plain = renderTrajectoryText(view({ schemaVersion: 'ATIF-v1.2', agent: { name: 'a', version: null, model: null, toolDefinitions: 0 } })).split('\n');
  assert.deepEqual(plain.slice(1, 3), ['  ATIF-v1.2', '  agent a ']);
});

test('durations as people read them', () => {
  assert.deepEqual([null, Number.NaN, -1, 0, 999.4, 999.6, 1000, 59_949, 60_000, 61_999, 3_599_999, 3_600_000, 7_265_000].map(formatDuration),
    ['—', '—', '—', '0ms', '999ms', '1000ms', '1.0s', '59.9s', '1m 00s', '1m 01s', '59m 59s', '1h 00m', '2h 01m']);
});

test('trajectory text: control and bidi characters from the trajectory are shown escaped, never sent to the terminal', () => {
  const text = renderTrajectoryText(view({
    file: '/t/evil\u001b]0;title\u0007.json',
    agent: { name: '\u001b[31mred', version: '1\r\n', model: 'm\u202e', toolDefinitions: 0 },
    steps: [step(0, { summary: '\u001b[2Jclear\u009b' })],
    subagents: [{ kind: 'path', ref: 'sub\u2066.json', path: null, step: 0, unresolved: 'gone\u0000', agent: null, steps: 0, totals: totals(null, null, null, null), view: null }],
    problems: [{ file: '/t/x.json', pointer: '/steps/0', severity: 'warning', message: 'bad \u001b[1m' }],
  }));
  assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
  const lines = text.split('\n');
  assert.equal(lines[0], '/t/evil\\x1b]0;title\\x07.json');
  assert.equal(lines[1], '  agent \\x1b[31mred 1\\x0d\\x0a · m\\u202e');
  assert.ok(lines.includes('  subagent (path) sub\\u2066.json — gone\\x00'));
  assert.ok(lines.includes('  #   1 agent         —  \\x1b[2Jclear\\x9b'));
  assert.ok(lines.includes('    warning /t/x.json#/steps/0: bad \\x1b[1m'));
});
