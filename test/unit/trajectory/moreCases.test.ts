// Cases for survivors of the trajectory mutation runs: an array of plain objects is not an event list, an infinite
// number is no number, a port's read limit applies only to sequential reads, step pointers that only look like one,
// a step index past 9, and the `--json` document's agent, not-ATIF, subagent and context-boundary fields.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { detect } from '../../../src/core/trajectory/detect';
import { num } from '../../../src/core/trajectory/json';
import { keptStreamed, openBytes, type TrajectoryFs } from '../../../src/core/trajectory/read';
import { trajectoryDocument, type StepView, type TrajectoryView } from '../../../src/core/trajectory';

test('an array of plain objects is unrelated JSON; an infinite number is no number', () => {
  assert.deepEqual(detect([{ foo: 1 }, { bar: 2 }]), { atif: false, notAtif: { looksLike: 'unrelated JSON', detail: 'a JSON array of 2 items, not an ATIF document' }, stepsLike: false });
  assert.equal(num(JSON.parse('1e999')), null);
  assert.equal(num(-Infinity), null);
  assert.equal(num(Number.NaN), null);
  assert.equal(num(0), 0);
});

test('a port\'s read limit applies to its sequential reads only; step pointers are read exactly', async () => {
  const bytes = new TextEncoder().encode('12345');
  const fs = { stat: async () => ({ type: 'file', size: 5, mtimeMs: 0 }), readFile: async () => bytes, maxFileBytes: 1 } as unknown as TrajectoryFs;
  assert.equal((await openBytes(fs, '/f', 100)).ok, true);
  const steps = Array.from({ length: 12 }, (_, i) => `{"i":${i}}`);
  const text = `{"steps":[${steps.join(',')}]}`;
  const buf = Buffer.from(text);
  const spans = steps.map((s) => { const start = buf.indexOf(s); return { start, end: start + s.length }; });
  const kept = keptStreamed({ buf }, spans, { x: 1 });
  assert.deepEqual(kept.at('/steps/10'), { i: 10 });
  assert.equal(kept.at('/steps/11/i'), 11);
  assert.equal(kept.at('/steps/0x'), undefined, 'not a step pointer: looked up among the other values');
  assert.equal(kept.at('/steps/1x/i'), undefined);
});

test('the --json document: agent, not-ATIF, subagents and context boundaries field by field', () => {
  const totals = { prompt_tokens: 1, completion_tokens: 2, cached_tokens: null, cost_usd: null };
  const step = (index: number, boundary: StepView['contextBoundary']): StepView => ({
    index, file: 0, pointer: `/steps/${index}`, stepId: index + 1, source: 'agent', timestamp: null, durationMs: null, modelName: null,
    reasoningEffort: null, message: [], reasoning: null, toolCalls: [], sharedResults: [], metrics: null, llmCallCount: null, copied: false,
    contextBoundary: boundary, logprobs: null, hasTokenIds: false, extra: null, summary: '',
  });
  const v: TrajectoryView = {
    file: '/t/x.json', pointer: '', schemaVersion: null, unreadable: null, notAtif: { looksLike: 'a chat transcript', detail: 'd' }, taskLevel: false,
    agent: { name: 'n', version: '1', model: 'm', toolDefinitions: 2 }, sessionId: null, trajectoryId: null, notes: null,
    finalMetrics: null, files: [], steps: [step(0, null), step(1, { type: 'summary', boundary: 'start' } as StepView['contextBoundary'])],
    toolCalls: 0, paired: 0, totals, totalsWithSubagents: totals, disagreements: [], elapsedMs: null, problems: [],
    subagents: [{ kind: 'id', ref: 'r', path: '/t/s.json', step: 1, unresolved: null, agent: 'sub', steps: 3, totals, view: null }],
  };
  const d = trajectoryDocument(v);
  assert.deepEqual(d.agent, { name: 'n', version: '1', model_name: 'm', tool_definitions: 2 });
  assert.deepEqual(d.not_atif, { looks_like: 'a chat transcript', detail: 'd' });
  assert.deepEqual(d.subagents, [{ kind: 'id', ref: 'r', path: '/t/s.json', step: 1, agent: 'sub', steps: 3, totals, unresolved: null }]);
  assert.deepEqual(d.context_boundaries, [{ step: 1, type: 'summary', boundary: 'start' }]);
});
