// One ATIF step read into its StepView (core/trajectory/steps.ts), driven directly on small hand-built steps: every
// problem with its pointer, severity and words; content parts of each kind; metrics; observation results and their
// subagent references; tool calls and their pairing; logprob summaries; the step's one-line summary.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { logprobSummary, partsText, readParts, readStep, type RawSubagentRef, type StepContext } from '../../../src/core/trajectory/steps';
import type { Problem } from '../../../src/core/trajectory';

function ctx(base = '/steps'): StepContext & { problems: Problem[]; refs: RawSubagentRef[] } {
  const refs: RawSubagentRef[] = [];
  return { file: '/t/trajectory.json', fileIndex: 2, base, problems: [], refs, addRef: (r) => { refs.push(r); return refs.length + 9; } };
}
const P = (pointer: string, severity: Problem['severity'], message: string): Problem => ({ file: '/t/trajectory.json', pointer, severity, message });

test('content parts: text, media with or without a media type and duration, and what is not a part', () => {
  const c = ctx();
  assert.deepEqual(readParts('', '/m', c), []);
  assert.deepEqual(readParts('hi', '/m', c), [{ kind: 'text', text: 'hi' }]);
  assert.deepEqual(readParts(null, '/m', c), []);
  assert.deepEqual(readParts(undefined, '/m', c), []);
  assert.deepEqual(c.problems, []);
  assert.deepEqual(readParts(5, '/m', c), [{ kind: 'text', text: '5' }]);
  assert.deepEqual(readParts({ a: 1 }, '/n', c), [{ kind: 'text', text: '{\n  "a": 1\n}' }]);
  assert.deepEqual(readParts(true, '/o', c), [{ kind: 'text', text: 'true' }]);
  assert.deepEqual(c.problems, [
    P('/m', 'error', 'expected text or a list of content parts, found a number'),
    P('/n', 'error', 'expected text or a list of content parts, found an object'),
    P('/o', 'error', 'expected text or a list of content parts, found a boolean'),
  ]);

  const d = ctx();
  const parts = readParts([
    5, null, [1], 'str',
    { type: 'text', text: 'a' },
    { type: 'text' },
    { type: 'text', text: '' },
    { type: 'image', source: { path: 'i.png', media_type: 'image/png' } },
    { type: 'audio', source: { path: 'a.wav', duration_sec: 2.5 } },
    { type: 'audio', source: { path: 'b.wav', duration_sec: 'long', media_type: 7 } },
    { type: 'image' },
    { type: 'image', source: { media_type: 'image/png' } },
    { type: 'audio', source: 'a.wav' },
    { type: 'video', url: 'x' },
    { type: 3 },
    { type: null },
  ], '/steps/0/message', d);
  assert.deepEqual(parts, [
    { kind: 'text', text: 'a' },
    { kind: 'text', text: '' },
    { kind: 'image', mediaType: 'image/png', path: 'i.png' },
    { kind: 'audio', mediaType: '', path: 'a.wav', durationSec: 2.5 },
    { kind: 'audio', mediaType: '', path: 'b.wav' },
    { kind: 'unsupported', type: 'video' },
    { kind: 'unsupported', type: 'a number' },
    { kind: 'unsupported', type: 'null' },
  ]);
  assert.equal('durationSec' in parts[4], false);
  assert.deepEqual(d.problems, [
    P('/steps/0/message/0', 'error', 'content part is a number, not an object'),
    P('/steps/0/message/1', 'error', 'content part is null, not an object'),
    P('/steps/0/message/2', 'error', 'content part is an array, not an object'),
    P('/steps/0/message/3', 'error', 'content part is a string, not an object'),
    P('/steps/0/message/5/text', 'error', 'text part without text'),
    P('/steps/0/message/10/source', 'error', 'image part without source.path'),
    P('/steps/0/message/11/source', 'error', 'image part without source.path'),
    P('/steps/0/message/12/source', 'error', 'audio part without source.path'),
    P('/steps/0/message/13/type', 'warning', 'unsupported content part type "video"'),
    P('/steps/0/message/14/type', 'warning', 'unsupported content part type "a number"'),
    P('/steps/0/message/15/type', 'warning', 'unsupported content part type "null"'),
  ]);
  assert.equal(partsText([{ kind: 'text', text: 'a' }, { kind: 'image', mediaType: '', path: 'p.png' }, { kind: 'unsupported', type: 'v' }, { kind: 'text', text: 'b' }]), 'a\np.png\n\nb');
});

test('logprob summary: count, mean, min, perplexity, shares below 0.5 and 0.1, histogram; positive values count as 0', () => {
  assert.equal(logprobSummary(undefined), null);
  assert.equal(logprobSummary({ 0: -1 }), null);
  assert.equal(logprobSummary([]), null);
  assert.equal(logprobSummary(['-1', null, Number.NaN, -Infinity]), null);
  const s = logprobSummary([-0.1, 'x', -3, 0.5, Math.log(0.5), Math.log(0.95)])!;
  assert.equal(s.count, 5);
  const lps = [-0.1, -3, 0, Math.log(0.5), Math.log(0.95)];
  const mean = lps.reduce((a, b) => a + b, 0) / 5;
  assert.equal(s.mean, mean);
  assert.equal(s.min, -3);
  assert.equal(s.perplexity, Math.exp(-mean));
  assert.equal(s.below50, 1 / 5, 'only exp(-3); exactly 0.5 is not below 0.5');
  assert.equal(s.below10, 1 / 5);
  assert.deepEqual(s.histogram, [1, 0, 0, 0, 0, 1, 0, 0, 0, 3]);
  // All at probability 1: min stays 0, nothing below.
  assert.deepEqual(logprobSummary([0, 0]), { count: 2, mean: 0, min: 0, perplexity: 1, below50: 0, below10: 0, histogram: [0, 0, 0, 0, 0, 0, 0, 0, 0, 2] });
  // Probability just under 0.1 is below 0.1 and in the first bucket; 0.35 in the fourth.
  const t = logprobSummary([Math.log(0.099), Math.log(0.35)])!;
  assert.equal(t.below10, 0.5);
  assert.equal(t.below50, 1);
  assert.equal(t.min, Math.log(0.099));
  assert.deepEqual(t.histogram, [1, 0, 0, 1, 0, 0, 0, 0, 0, 0]);
});

test('a step that is not an object, without step_id, source or message: each is a problem at its pointer', () => {
  const c = ctx('/subagent_trajectories/1/steps');
  const s = readStep('oops', 3, 7, c);
  assert.deepEqual(c.problems, [
    P('/subagent_trajectories/1/steps/3', 'error', 'step is a string, not an object'),
    P('/subagent_trajectories/1/steps/3/step_id', 'error', 'step_id is missing or not a number'),
    P('/subagent_trajectories/1/steps/3/source', 'error', 'source null is not system, user or agent'),
    P('/subagent_trajectories/1/steps/3/message', 'error', 'message is missing'),
  ]);
  assert.equal(s.index, 7);
  assert.equal(s.file, 2);
  assert.equal(s.pointer, '/subagent_trajectories/1/steps/3');
  assert.equal(s.stepId, null);
  assert.equal(s.source, 'unknown');
  assert.equal(s.summary, '(empty message)');
  assert.deepEqual([s.timestamp, s.modelName, s.reasoningEffort, s.reasoning, s.metrics, s.llmCallCount, s.contextBoundary, s.logprobs, s.extra],
    [null, null, null, null, null, null, null, null, null]);
  assert.deepEqual([s.copied, s.hasTokenIds, s.durationMs, s.toolCalls, s.sharedResults, s.message], [false, false, null, [], [], []]);

  const d = ctx();
  readStep({ step_id: '1', source: 'robot', message: null }, 0, 0, d);
  readStep({ step_id: 5, source: 'user', message: 'm' }, 1, 1, d);
  readStep({ step_id: 3, source: 'system', message: 'm' }, 2, 2, d);
  assert.deepEqual(d.problems, [
    P('/steps/0/step_id', 'error', 'step_id is missing or not a number'),
    P('/steps/0/source', 'error', 'source "robot" is not system, user or agent'),
    P('/steps/1/step_id', 'warning', 'step_id 5 is out of sequence (expected 2)'),
  ]);
});

test('timestamps: ISO kept, others a warning (cut to 60 characters) and dropped', () => {
  const c = ctx();
  assert.equal(readStep({ step_id: 1, source: 'user', message: 'm', timestamp: '2026-01-02T03:04:05Z' }, 0, 0, c).timestamp, '2026-01-02T03:04:05Z');
  assert.equal(readStep({ step_id: 2, source: 'user', message: 'm', timestamp: 12 }, 1, 1, c).timestamp, null);
  assert.deepEqual(c.problems, []);
  const long = `yesterday${' x'.repeat(40)}`;
  assert.equal(readStep({ step_id: 3, source: 'user', message: 'm', timestamp: long }, 2, 2, c).timestamp, null);
  assert.deepEqual(c.problems, [P('/steps/2/timestamp', 'warning', `timestamp ${JSON.stringify(`${long.slice(0, 59)}…`)} is not ISO 8601`)]);
});

test('agent-only fields on a user or system step are warnings; on an agent or unknown step they are not', () => {
  const fields = { model_name: 'm', reasoning_effort: 'high', reasoning_content: 'r', tool_calls: [], metrics: {} };
  const c = ctx();
  readStep({ step_id: 1, source: 'user', message: 'm', ...fields }, 0, 0, c);
  assert.deepEqual(c.problems, ['model_name', 'reasoning_effort', 'reasoning_content', 'tool_calls', 'metrics']
    .map((k) => P(`/steps/0/${k}`, 'warning', `${k} is only allowed on agent steps`)));
  const d = ctx();
  readStep({ step_id: 1, source: 'system', message: 'm', model_name: null, metrics: 0 }, 0, 0, d);
  assert.deepEqual(d.problems, [P('/steps/0/metrics', 'warning', 'metrics is only allowed on agent steps')]);
  const e = ctx();
  readStep({ step_id: 1, source: 'agent', message: 'm', ...fields }, 0, 0, e);
  readStep({ step_id: 2, source: 'tool', message: 'm', ...fields }, 1, 1, e);
  assert.deepEqual(e.problems, [P('/steps/1/source', 'error', 'source "tool" is not system, user or agent')]);
});

test('tool calls: missing id or name, arguments not an object, a repeated id, a list that is not one', () => {
  const c = ctx();
  const s = readStep({ step_id: 1, source: 'agent', message: '', tool_calls: [
    { tool_call_id: 'a', function_name: 'read', arguments: { p: 1 }, extra: { k: true } },
    'call',
    { function_name: 'write' },
    { tool_call_id: 'c', arguments: [1] },
    { tool_call_id: 'a', function_name: 'again', arguments: {}, extra: {} },
  ], observation: { results: [{ source_call_id: 'a', content: 'one' }] } }, 0, 4, c);
  assert.deepEqual(s.toolCalls.map((t) => [t.id, t.name, t.args, t.extra, t.results.length]), [
    ['a', 'read', '{\n  "p": 1\n}', '{\n  "k": true\n}', 1],
    ['', 'write', '{}', null, 0],
    ['c', '', '[\n  1\n]', null, 0],
    ['a', 'again', '{}', null, 0],
  ]);
  assert.deepEqual(c.problems, [
    P('/steps/0/tool_calls/1', 'error', 'tool call is not an object'),
    P('/steps/0/tool_calls/2/tool_call_id', 'error', 'tool_call_id is missing'),
    P('/steps/0/tool_calls/2/arguments', 'warning', 'arguments is not an object'),
    P('/steps/0/tool_calls/3/function_name', 'error', 'function_name is missing'),
    P('/steps/0/tool_calls/3/arguments', 'warning', 'arguments is not an object'),
    P('/steps/0/tool_calls/4/tool_call_id', 'warning', 'tool_call_id "a" repeats an earlier call of this step'),
  ]);
  assert.equal(s.summary, 'read, write, , again');
  const d = ctx();
  readStep({ step_id: 1, source: 'agent', message: 'm', tool_calls: { a: 1 } }, 0, 0, d);
  readStep({ step_id: 2, source: 'agent', message: 'm', tool_calls: null }, 1, 1, d);
  assert.deepEqual(d.problems, [P('/steps/0/tool_calls', 'error', 'tool_calls is not a list')]);
  // Two calls without ids: neither repeats the other, and a result naming "" is shared output.
  const e = ctx();
  const t = readStep({ step_id: 1, source: 'agent', message: 'm', tool_calls: [{ function_name: 'x' }, { function_name: 'y' }],
    observation: { results: [{ source_call_id: '', content: 'out' }] } }, 0, 0, e);
  assert.deepEqual(e.problems.map((p) => p.message), ['tool_call_id is missing', 'arguments is not an object', 'tool_call_id is missing', 'arguments is not an object']);
  assert.deepEqual(t.sharedResults.map((r) => [r.index, r.sourceCallId]), [[0, null]]);
});

test('observation results: paired, shared, naming no call, not objects; results or observation of the wrong type', () => {
  const c = ctx();
  const s = readStep({ step_id: 1, source: 'agent', message: 'm', tool_calls: [{ tool_call_id: 'a', function_name: 'f', arguments: {} }],
    observation: { results: [
      7,
      { source_call_id: 'a', content: 'paired', extra: { e: 1 } },
      { content: [{ type: 'text', text: 'shared' }] },
      { source_call_id: 'zz', content: 'orphan' },
      { source_call_id: 4, content: 'number id' },
    ] } }, 0, 0, c);
  assert.deepEqual(s.toolCalls[0].results, [{ index: 1, sourceCallId: 'a', parts: [{ kind: 'text', text: 'paired' }], extra: '{\n  "e": 1\n}', subagents: [] }]);
  assert.deepEqual(s.sharedResults.map((r) => [r.index, r.sourceCallId, r.parts]), [
    [2, null, [{ kind: 'text', text: 'shared' }]], [3, 'zz', [{ kind: 'text', text: 'orphan' }]], [4, null, [{ kind: 'text', text: 'number id' }]],
  ]);
  assert.deepEqual(c.problems, [
    P('/steps/0/observation/results/0', 'error', 'observation result is a number, not an object'),
    P('/steps/0/observation/results/3/source_call_id', 'warning', 'source_call_id "zz" names no tool call of this step'),
  ]);
  const d = ctx();
  readStep({ step_id: 1, source: 'agent', message: 'm', observation: { results: 'x' } }, 0, 0, d);
  readStep({ step_id: 2, source: 'agent', message: 'm', observation: {} }, 1, 1, d);
  readStep({ step_id: 3, source: 'agent', message: 'm', observation: [] }, 2, 2, d);
  readStep({ step_id: 4, source: 'agent', message: 'm', observation: null }, 3, 3, d);
  assert.deepEqual(d.problems, [
    P('/steps/0/observation/results', 'error', 'observation.results is not a list'),
    P('/steps/1/observation/results', 'error', 'observation.results is not a list'),
    P('/steps/2/observation', 'error', 'observation is not an object'),
  ]);
  // A result's content is read as a message is, its problems pointing into the result.
  const e = ctx();
  const t = readStep({ step_id: 1, source: 'agent', message: 'm', observation: { results: [{ content: 5 }, { content: [{ type: 'text' }] }] } }, 0, 0, e);
  assert.deepEqual(t.sharedResults.map((r) => r.parts), [[{ kind: 'text', text: '5' }], []]);
  assert.deepEqual(e.problems, [
    P('/steps/0/observation/results/0/content', 'error', 'expected text or a list of content parts, found a number'),
    P('/steps/0/observation/results/1/content/0/text', 'error', 'text part without text'),
  ]);
  // The shared output's first text is the summary of a step with nothing else.
  assert.equal(readStep({ step_id: 1, source: 'agent', message: '', observation: { results: [{ content: [{ type: 'image', source: { path: 'p' } }, { type: 'text', text: 'out\nput' }] }] } }, 0, 0, ctx()).summary, 'out put');
  assert.equal(readStep({ step_id: 1, source: 'agent', message: '', observation: { results: [{ content: [{ type: 'image', source: { path: 'p' } }] }] } }, 0, 0, ctx()).summary, '(empty message)');
});

test('subagent references in a result: each kind handed on with its step and pointer; bad entries are problems', () => {
  const c = ctx();
  const s = readStep({ step_id: 1, source: 'agent', message: 'm', observation: { results: [
    { content: 'x' },
    { subagent_trajectory_ref: [
      { trajectory_path: 'sub.json' },
      'ref',
      { trajectory_id: '', trajectory_path: '', session_id: '' },
      { trajectory_id: 'tid', trajectory_path: '', session_id: 5 },
      { session_id: 'sid' },
    ] },
    { subagent_trajectory_ref: { trajectory_path: 'x' } },
    { subagent_trajectory_ref: null },
  ] } }, 0, 6, c);
  const at = '/steps/0/observation/results/1/subagent_trajectory_ref';
  assert.deepEqual(c.refs, [
    { step: 6, resultIndex: 1, pointer: `${at}/0`, trajectoryId: null, trajectoryPath: 'sub.json', sessionId: null },
    { step: 6, resultIndex: 1, pointer: `${at}/3`, trajectoryId: 'tid', trajectoryPath: null, sessionId: null },
    { step: 6, resultIndex: 1, pointer: `${at}/4`, trajectoryId: null, trajectoryPath: null, sessionId: 'sid' },
  ]);
  assert.deepEqual(s.sharedResults.map((r) => r.subagents), [[], [10, 11, 12], [], []]);
  assert.deepEqual(c.problems, [
    P(`${at}/1`, 'error', 'subagent_trajectory_ref entry is not an object'),
    P(`${at}/2`, 'error', 'subagent_trajectory_ref has no trajectory_path, trajectory_id or session_id'),
    P('/steps/0/observation/results/2/subagent_trajectory_ref', 'error', 'subagent_trajectory_ref is not a list'),
  ]);
});

test('metrics: counts that are not non-negative numbers are warnings; reasoning tokens, cost and extra', () => {
  const c = ctx();
  const s = readStep({ step_id: 1, source: 'agent', message: 'm', metrics: {
    prompt_tokens: 0, completion_tokens: -1, cached_tokens: '3', cost_usd: 0.5, extra: { reasoning_tokens: 7, other: 1 },
  } }, 0, 0, c);
  assert.deepEqual(s.metrics, { prompt_tokens: 0, completion_tokens: null, cached_tokens: null, reasoning_tokens: 7, cost_usd: 0.5, extra: '{\n  "reasoning_tokens": 7,\n  "other": 1\n}' });
  assert.deepEqual(c.problems, [
    P('/steps/0/metrics/completion_tokens', 'warning', 'completion_tokens is not a non-negative number'),
    P('/steps/0/metrics/cached_tokens', 'warning', 'cached_tokens is not a non-negative number'),
  ]);
  const d = ctx();
  const t = readStep({ step_id: 1, source: 'agent', message: 'm', metrics: { prompt_tokens: null, extra: 'e', cost_usd: '1' } }, 0, 0, d);
  assert.deepEqual(t.metrics, { prompt_tokens: null, completion_tokens: null, cached_tokens: null, reasoning_tokens: null, cost_usd: null, extra: '"e"' });
  assert.deepEqual(d.problems, []);
  assert.equal(readStep({ step_id: 1, source: 'agent', message: 'm', metrics: [1] }, 0, 0, d).metrics, null);
});

test('llm_call_count 0 with metrics or reasoning is a warning; other counts and fields as recorded', () => {
  const c = ctx();
  const a = readStep({ step_id: 1, source: 'agent', message: 'm', llm_call_count: 0, metrics: {} }, 0, 0, c);
  const b = readStep({ step_id: 2, source: 'agent', message: 'm', llm_call_count: 0, reasoning_content: 'think' }, 1, 1, c);
  const d = readStep({ step_id: 3, source: 'agent', message: 'm', llm_call_count: 0, reasoning_content: '' }, 2, 2, c);
  const e = readStep({ step_id: 4, source: 'agent', message: 'm', llm_call_count: 2, metrics: {}, reasoning_content: 'r' }, 3, 3, c);
  const f = readStep({ step_id: 5, source: 'agent', message: 'm', llm_call_count: 'one' }, 4, 4, c);
  assert.deepEqual(c.problems, [
    P('/steps/0/llm_call_count', 'warning', 'llm_call_count 0 (no model call) but the step has metrics or reasoning'),
    P('/steps/1/llm_call_count', 'warning', 'llm_call_count 0 (no model call) but the step has metrics or reasoning'),
  ]);
  assert.deepEqual([a.llmCallCount, b.llmCallCount, d.llmCallCount, e.llmCallCount, f.llmCallCount], [0, 0, 0, 2, null]);
  assert.deepEqual([b.reasoning, d.reasoning, e.reasoning], ['think', null, 'r']);
  const g = readStep({ step_id: 1, source: 'agent', message: 'm', reasoning_effort: 'high', model_name: 'gpt', is_copied_context: true, extra: { x: 1 } }, 0, 0, c);
  assert.deepEqual([g.reasoningEffort, g.modelName, g.copied, g.extra], ['high', 'gpt', true, '{\n  "x": 1\n}']);
  const h = readStep({ step_id: 1, source: 'agent', message: 'm', reasoning_effort: 3, model_name: 4, is_copied_context: 'true', extra: {} }, 0, 0, c);
  assert.deepEqual([h.reasoningEffort, h.modelName, h.copied, h.extra], ['3', null, false, null]);
  assert.equal(readStep({ step_id: 1, source: 'agent', message: 'm', reasoning_effort: true }, 0, 0, c).reasoningEffort, null);
});

test('logprobs and token ids come from the metrics; a context boundary only on system steps', () => {
  const c = ctx();
  const a = readStep({ step_id: 1, source: 'agent', message: 'm', metrics: { logprobs: [0], completion_token_ids: [1] } }, 0, 0, c);
  assert.equal(a.logprobs?.count, 1);
  assert.equal(a.hasTokenIds, true);
  assert.equal(readStep({ step_id: 1, source: 'agent', message: 'm', metrics: { prompt_token_ids: [] } }, 0, 0, c).hasTokenIds, true);
  assert.equal(readStep({ step_id: 1, source: 'agent', message: 'm', metrics: { prompt_token_ids: 'x', completion_token_ids: {} } }, 0, 0, c).hasTokenIds, false);
  assert.equal(readStep({ step_id: 1, source: 'agent', message: 'm', logprobs: [0], prompt_token_ids: [1] }, 0, 0, c).hasTokenIds, false);
  assert.equal(readStep({ step_id: 1, source: 'agent', message: 'm', logprobs: [0] }, 0, 0, c).logprobs, null);

  const sys = (extra: unknown) => readStep({ step_id: 1, source: 'system', message: 'text', extra }, 0, 0, c);
  const b = sys({ context_management: { type: 'compaction', boundary: 'start' } });
  assert.deepEqual(b.contextBoundary, { type: 'compaction', boundary: 'start' });
  assert.equal(b.summary, 'context compaction (start)');
  assert.deepEqual(sys({ context_management: {} }).contextBoundary, { type: 'unknown', boundary: 'unknown' });
  assert.equal(sys({ context_management: 'x' }).contextBoundary, null);
  assert.equal(sys('x').contextBoundary, null);
  assert.equal(sys(undefined).summary, 'text');
  assert.equal(readStep({ step_id: 1, source: 'user', message: 'u', extra: { context_management: { type: 't', boundary: 'b' } } }, 0, 0, c).contextBoundary, null);
  assert.deepEqual(c.problems, []);
});

test('the one-line summary: the first text that is not blank, else tool calls, else the first media kind', () => {
  const c = ctx();
  const sum = (message: unknown, more: Record<string, unknown> = {}) => readStep({ step_id: 1, source: 'agent', message, ...more }, 0, 0, c).summary;
  assert.equal(sum('  hello\n  world  '), 'hello world');
  assert.equal(sum('x'.repeat(200)), `${'x'.repeat(159)}…`);
  assert.equal(sum([{ type: 'image', source: { path: 'p' } }, { type: 'text', text: 'caption' }]), 'caption');
  assert.equal(sum('   ', { tool_calls: [{ tool_call_id: 'a', function_name: 'ls', arguments: {} }] }), 'ls');
  assert.equal(sum([{ type: 'audio', source: { path: 'a' } }], { observation: { results: [{ content: 'out' }] } }), '(audio)');
  assert.equal(sum([{ type: 'text', text: ' ' }, { type: 'text', text: 'second' }]), '(empty message)');
  assert.equal(sum([{ type: 'video' }]), '(unsupported)');
  assert.equal(sum('', { observation: { results: [{ content: 'shared out' }] } }), 'shared out');
});
