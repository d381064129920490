// Attempt alignment, the parts the main alignment tests do not pin: what a step's key is made of (its message's
// text, images and unsupported parts; a message-only step never matches by its source alone), where the steps of a
// gap go when their sources differ (the longer side's first), and a side that is not ATIF.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { PartView, StepView, TrajectoryView } from '../../../src/core/trajectory';
import { alignTrajectories } from '../../../src/core/compare';

function step(index: number, source: StepView['source'], message: PartView[], tools: string[] = []): StepView {
  return {
    index, file: 0, pointer: `/steps/${index}`, stepId: index + 1, source, timestamp: null, durationMs: null,
    modelName: null, reasoningEffort: null, message, reasoning: null,
    toolCalls: tools.map((name, i) => ({ id: `c${i}`, name, args: '{}', extra: null, results: [] })), sharedResults: [], metrics: null,
    llmCallCount: null, copied: false, contextBoundary: null, logprobs: null, hasTokenIds: false, extra: null, summary: '',
  };
}
const text = (t: string): PartView => ({ kind: 'text', text: t });
const image = (path: string): PartView => ({ kind: 'image', mediaType: 'image/png', path });

function view(steps: StepView[], o: Partial<TrajectoryView> = {}): TrajectoryView {
  const totals = { prompt_tokens: null, completion_tokens: null, cached_tokens: null, cost_usd: null };
  return {
    file: '/t/trajectory.json', pointer: '', schemaVersion: 'ATIF-v1.7', unreadable: null, notAtif: null, taskLevel: false,
    agent: { name: 'a', version: null, model: null, toolDefinitions: 0 }, sessionId: null, trajectoryId: null, notes: null,
    finalMetrics: null, files: [], steps, toolCalls: 0, paired: 0, totals, totalsWithSubagents: totals,
    disagreements: [], subagents: [], elapsedMs: null, problems: [], ...o,
  };
}
const rows = (l: StepView[], r: StepView[]) => alignTrajectories(view(l), view(r)).rows.map((x) => `${x.kind}:${x.left ?? '-'}/${x.right ?? '-'}`);

test('a message step matches by its whole message: text parts joined by lines, images by path, unsupported parts by type', () => {
  const same = [text('look'), image('a.png'), { kind: 'unsupported', type: 'video' } as PartView];
  assert.deepEqual(rows([step(0, 'user', same)], [step(0, 'user', [...same])]), ['same:0/0']);
  assert.deepEqual(rows([step(0, 'user', [text('look'), image('a.png')])], [step(0, 'user', [text('look'), image('b.png')])]), ['changed:0/0']);
  assert.deepEqual(rows([step(0, 'user', [image('a.png')])], [step(0, 'user', [{ kind: 'audio', mediaType: 'audio/wav', path: 'a.png' }])]), ['changed:0/0']);
  assert.deepEqual(rows([step(0, 'user', [{ kind: 'unsupported', type: 'video' }])], [step(0, 'user', [{ kind: 'unsupported', type: 'pdf' }])]), ['changed:0/0']);
  // "a" + "b" as two parts is two lines, not the text "ab".
  assert.deepEqual(rows([step(0, 'agent', [text('a'), text('b')])], [step(0, 'agent', [text('ab')])]), ['changed:0/0']);
  assert.deepEqual(rows([step(0, 'agent', [text('a'), text('b')])], [step(0, 'agent', [text('a\nb')])]), ['same:0/0']);
  // Two agent messages without tool calls are the same step only when their text is.
  assert.deepEqual(rows([step(0, 'agent', [text('hi')])], [step(0, 'agent', [text('bye')])]), ['changed:0/0']);
  // With tool calls the message does not matter, the calls do.
  assert.deepEqual(rows([step(0, 'agent', [text('hi')], ['bash'])], [step(0, 'agent', [text('bye')], ['bash'])]), ['same:0/0']);
});

test('a gap of steps from different sources: the side with more steps left goes first, ties go left', () => {
  const u = (i: number) => step(i, 'user', [text(`u${i}`)]);
  const a = (i: number) => step(i, 'agent', [text(`a${i}`)]);
  assert.deepEqual(rows([u(0), u(1)], [a(0)]), ['left:0/-', 'left:1/-', 'right:-/0']);
  assert.deepEqual(rows([u(0)], [a(0), a(1)]), ['right:-/0', 'left:0/-', 'right:-/1']);
  assert.deepEqual(rows([u(0)], [a(0)]), ['left:0/-', 'right:-/0']);
  // After a match, the gap before the end is laid out the same way.
  const s = step(0, 'system', [text('start')]);
  assert.deepEqual(rows([s, { ...u(1), index: 1 }], [s, { ...a(1), index: 1 }, { ...a(2), index: 2 }]), ['same:0/0', 'right:-/1', 'left:1/-', 'right:-/2']);
});

test('a side that is not ATIF lists no steps, says what it looks like, and claims no divergence', () => {
  const steps = [step(0, 'user', [text('x')])];
  const odd = view(steps, { notAtif: { looksLike: 'a chat transcript', detail: 'd' } });
  const al = alignTrajectories(view(steps), odd);
  assert.equal(al.right.unavailable, 'not an ATIF trajectory (a chat transcript)');
  assert.deepEqual(al.right.steps, []);
  assert.deepEqual(al.rows.map((r) => r.kind), ['left']);
  assert.equal(al.firstDivergence, null);
  const unreadable = alignTrajectories(view(steps, { unreadable: 'bad' }), view(steps));
  assert.deepEqual(unreadable.left.steps, []);
  assert.equal(unreadable.left.file, '/t/trajectory.json');
});
