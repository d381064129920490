// The trajectory view model: pairing, recount with copied context, continuations, subagents of each kind, context
// management, logprobs, v1.6 refs, missing timestamps, every schema version, not-ATIF documents and hostile input.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { ATIF_VERSIONS } from '../../../src/core/schemas/atif';
import { formatDuration, TrajectorySearch, trajectoryDocument } from '../../../src/core/trajectory';
import { continuedTrajectory, featureTrajectory, subagentTrajectory, versionTrajectory, xssTrajectory } from '../../../scripts/sample-runs/atifFeatures';
import { XSS_PAYLOADS } from '../../../scripts/sample-runs/xssCorpus';
import { viewOf } from './helpers';

const agent = { name: 'a', version: '1' };

test('tool calls are paired with their observation by source_call_id; a result without one is the shared output', async () => {
  const v = await viewOf({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps: [
    { step_id: 1, source: 'user', message: 'go' },
    { step_id: 2, source: 'agent', message: 'two calls', tool_calls: [
      { tool_call_id: 'a', function_name: 'read', arguments: { path: 'x' } },
      { tool_call_id: 'b', function_name: 'write', arguments: {} },
    ], observation: { results: [{ source_call_id: 'b', content: 'wrote' }, { content: 'batch output' }, { source_call_id: 'zzz', content: 'orphan' }, { source_call_id: 'a', content: 'read it' }] } },
  ] } });
  const s = v.steps[1];
  assert.deepEqual(s.toolCalls.map((c) => [c.id, c.results.map((r) => r.parts[0])]), [
    ['a', [{ kind: 'text', text: 'read it' }]], ['b', [{ kind: 'text', text: 'wrote' }]],
  ]);
  assert.deepEqual(s.sharedResults.map((r) => r.index), [1, 2]);
  assert.equal(s.toolCalls[0].args, '{\n  "path": "x"\n}');
  assert.equal(v.toolCalls, 2);
  assert.equal(v.paired, 2);
  const orphan = v.problems.find((p) => p.message.includes('names no tool call'));
  assert.equal(orphan?.pointer, '/steps/1/observation/results/2/source_call_id');
});

test('continuation: joined into one timeline with a marker; copied steps that repeat are folded and never counted', async () => {
  const { files, expect } = continuedTrajectory();
  const v = await viewOf(files);
  assert.equal(v.files.length, 2);
  assert.equal(v.files[1].path, '/runs/job/trial/agent/trajectory.cont-1.json');
  assert.equal(v.files[1].firstStep, 3);
  assert.equal(v.files[1].foldedCopies, expect.folded);
  assert.equal(v.steps.length, expect.steps);
  const summary = v.steps.find((s) => s.copied);
  assert.ok(summary, 'the copied summary that repeats nothing is shown (as copied)');
  assert.equal(summary.file, 1);
  assert.equal(v.totals.prompt_tokens, expect.prompt);
  assert.equal(v.totals.completion_tokens, expect.completion);
  assert.ok(Math.abs((v.totals.cost_usd ?? 0) - 0.04) < 1e-9);
  // final_metrics summed over both files (300 + 700) agrees with the recount.
  assert.deepEqual(v.disagreements, []);
  const doc = trajectoryDocument(v);
  assert.deepEqual(doc.continuations.map((c) => [c.first_step, c.steps, c.folded_copies]), [[3, 3, 2]]);
  assert.equal(doc.steps, 6);
});

test('recount: copied-context steps counted once, and a final_metrics that disagrees is reported per field', async () => {
  const v = await viewOf({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps: [
    { step_id: 1, source: 'agent', message: 'seeded', is_copied_context: true, metrics: { prompt_tokens: 999, completion_tokens: 9 } },
    { step_id: 2, source: 'agent', message: 'own', metrics: { prompt_tokens: 10, completion_tokens: 1, cached_tokens: 4, cost_usd: 0.5 } },
  ], final_metrics: { total_prompt_tokens: 1009, total_completion_tokens: 1, total_cost_usd: 0.5 } } });
  assert.deepEqual(v.totals, { prompt_tokens: 10, completion_tokens: 1, cached_tokens: 4, cost_usd: 0.5 });
  assert.deepEqual(v.disagreements, [{ field: 'prompt_tokens', recorded: 1009, recount: 10, recountWithSubagents: 10 }]);
  assert.equal(v.steps.length, 2, 'copied steps of the first file are shown (collapsed), just not counted');
});

test('subagents of each kind: by path, by embedded trajectory_id, v1.6 session-only (accepted, unresolved), unreferenced embedded', async () => {
  const { files, expect } = subagentTrajectory();
  const v = await viewOf(files);
  assert.equal(v.subagents.length, expect.subagents);
  const [byPath, byId, bySession, embedded] = v.subagents;
  assert.equal(byPath.kind, 'path');
  assert.equal(byPath.path, '/runs/job/trial/agent/trajectory.summarization-1-summary.json');
  assert.equal(byPath.view?.trajectoryId, 'file-sub');
  assert.equal(byPath.step, 2);
  assert.equal(byId.kind, 'id');
  assert.equal(byId.path, '/runs/job/trial/agent/trajectory.json#/subagent_trajectories/0');
  assert.equal(byId.totals.prompt_tokens, 70);
  assert.equal(bySession.kind, 'session');
  assert.equal(bySession.path, null);
  assert.match(bySession.unresolved ?? '', /v1\.6/);
  assert.equal(v.problems.find((p) => p.message.includes('v1.6'))?.severity, 'info');
  assert.equal(embedded.kind, 'embedded');
  assert.equal(embedded.ref, 'embedded-unreferenced');
  assert.equal(v.totals.prompt_tokens, expect.ownPrompt);
  assert.equal(v.totalsWithSubagents.prompt_tokens, expect.allPrompt);
  assert.deepEqual(v.disagreements, [], 'final_metrics includes the subagents and agrees with the recount with subagents');
  const results = v.steps[2].sharedResults;
  assert.deepEqual(results.map((r) => r.subagents), [[0], [1], [2]]);
});

test('a subagent path that is missing or loops back is a problem, never a crash', async () => {
  const self = { schema_version: 'ATIF-v1.7', agent, steps: [{ step_id: 1, source: 'system', message: '', observation: { results: [{ subagent_trajectory_ref: [{ trajectory_path: 'trajectory.json' }, { trajectory_path: 'gone.json' }, { trajectory_path: '../../../../etc/x.json' }] }] } }] };
  const v = await viewOf({ 'trajectory.json': self });
  assert.deepEqual(v.subagents.map((s) => s.unresolved !== null), [true, true, true]);
  assert.equal(v.subagents.every((s) => s.view === null), true);
});

test('context management, logprobs, images and audio, llm_call_count 0, unsupported parts', async () => {
  const v = await viewOf(featureTrajectory());
  assert.equal(v.schemaVersion, 'ATIF-v1.8');
  assert.deepEqual(v.steps[2].contextBoundary, { type: 'compaction', boundary: 'replace' });
  assert.equal(v.steps[2].summary, 'context compaction (replace)');
  const lp = v.steps[1].logprobs!;
  assert.equal(lp.count, 4);
  assert.ok(Math.abs(lp.mean - (-0.01 - 0.3 - 2.5 - 0.0001) / 4) < 1e-12);
  assert.equal(lp.min, -2.5);
  assert.equal(lp.histogram.reduce((a, b) => a + b, 0), 4);
  assert.equal(lp.below10, 1 / 4);
  assert.equal(v.steps[1].hasTokenIds, true);
  assert.equal(v.steps[1].reasoning, 'It is one pixel.');
  assert.deepEqual(v.steps[0].message.map((p) => p.kind), ['text', 'image', 'audio', 'unsupported']);
  assert.deepEqual(v.steps[0].message[1], { kind: 'image', mediaType: 'image/png', path: 'images/shot.png' });
  assert.equal((v.steps[0].message[2] as { durationSec?: number }).durationSec, 1.5);
  assert.equal(v.steps[3].llmCallCount, 0);
  assert.equal(v.steps[3].metrics, null);
  assert.equal(v.agent.toolDefinitions, 1);
  assert.ok(v.problems.some((p) => p.pointer === '/steps/0/message/3/type' && p.severity === 'warning'));
});

test('missing timestamps give no duration ("—"), never a wrong one', async () => {
  const v = await viewOf({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps: [
    { step_id: 1, source: 'user', message: 'a', timestamp: '2026-01-01T00:00:00Z' },
    { step_id: 2, source: 'agent', message: 'b' },
    { step_id: 3, source: 'agent', message: 'c', timestamp: '2026-01-01T00:00:10Z' },
    { step_id: 4, source: 'agent', message: 'd', timestamp: '2026-01-01T00:00:12.500Z' },
    { step_id: 5, source: 'agent', message: 'e', timestamp: 'not a time' },
    { step_id: 6, source: 'agent', message: 'f', timestamp: '2025-01-01T00:00:00Z' },
  ] } });
  assert.deepEqual(v.steps.map((s) => s.durationMs), [null, null, null, 2500, null, null]);
  assert.deepEqual(v.steps.map((s) => formatDuration(s.durationMs)), ['—', '—', '—', '2.5s', '—', '—']);
  assert.equal(v.elapsedMs, null, 'the last timestamp is before the first: no elapsed time');
  assert.ok(v.problems.some((p) => p.pointer === '/steps/4/timestamp'));
  const v2 = await viewOf({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent, steps: [{ step_id: 1, source: 'user', message: 'a' }] } });
  assert.equal(v2.elapsedMs, null);
  assert.equal(formatDuration(495586 * 3600e3), '495586h 00m', 'formatting itself is faithful; only real spans reach it');
});

test('every schema version v1.0 … v1.8 reads without an error', async () => {
  for (const version of ATIF_VERSIONS) {
    const v = await viewOf({ 'trajectory.json': versionTrajectory(version) });
    assert.equal(v.schemaVersion, version);
    assert.deepEqual(v.problems.filter((p) => p.severity === 'error'), [], version);
    assert.equal(v.steps.length, 2);
    assert.equal(v.totals.prompt_tokens, 10);
  }
  const newer = await viewOf({ 'trajectory.json': { ...versionTrajectory('ATIF-v1.8'), schema_version: 'ATIF-v1.9' } });
  assert.equal(newer.steps.length, 2);
  assert.ok(newer.problems.some((p) => p.pointer === '/schema_version' && p.severity === 'warning'));
});

test('not ATIF: says what it looks like and never throws', async () => {
  const cases: [unknown, RegExp][] = [
    [{ trajectory_format: 'mini-swe-agent-1', info: {}, messages: [{ role: 'system', content: 'x' }] }, /mini-swe-agent/],
    [{ sessionId: 'abc', projectHash: 'h', messages: [{ type: 'user', content: 'hi' }] }, /gemini-cli/],
    [{ trajectory: [], history: [], info: {} }, /SWE-agent/],
    [[{ role: 'user', content: 'hi' }], /chat transcript/],
    [{ name: 'package', version: '1.0.0' }, /unrelated JSON/],
    [42, /unrelated JSON/],
  ];
  for (const [doc, re] of cases) {
    const v = await viewOf({ 'trajectory.json': doc });
    assert.match(v.notAtif?.looksLike ?? '', re, JSON.stringify(doc));
    assert.equal(v.steps.length, 0);
  }
  const stepsOnly = await viewOf({ 'trajectory.json': { agent, steps: [{ step_id: 1, source: 'user', message: 'shown anyway' }] } });
  assert.match(stepsOnly.notAtif?.looksLike ?? '', /ATIF-like/);
  assert.equal(stepsOnly.steps.length, 1);
  const broken = await viewOf({ 'trajectory.json': '{"schema_version": "ATIF-v1.7", "steps": [' });
  assert.match(broken.unreadable ?? '', /not valid JSON/);
  const missing = await viewOf({}, '/nowhere');
  assert.equal(missing.unreadable, 'no such file');
});

test('invalid ATIF: shows what parses and lists what does not, with JSON pointers', async () => {
  const v = await viewOf({ 'trajectory.json': { schema_version: 'ATIF-v1.7', agent: 'nope', steps: [
    'a string step', { step_id: 7, source: 'tool', message: 5, tool_calls: 'x', observation: { results: 'y' }, metrics: { prompt_tokens: -1 } },
    { step_id: 3, source: 'user', message: 'fine', reasoning_content: 'not allowed here' },
  ] } });
  assert.equal(v.steps.length, 3);
  const pointers = v.problems.map((p) => p.pointer);
  for (const p of ['/agent', '/steps/0', '/steps/1/step_id', '/steps/1/source', '/steps/1/message', '/steps/1/tool_calls', '/steps/1/observation/results', '/steps/1/metrics/prompt_tokens', '/steps/2/reasoning_content']) {
    assert.ok(pointers.includes(p), `${p} in ${pointers.join(' ')}`);
  }
  assert.equal(v.steps[2].summary, 'fine');
});

test('hostile input: prototype keys, deep nesting, huge ids — bounded and no throw', async () => {
  const deep = `${'{"a":'.repeat(50_000)}1${'}'.repeat(50_000)}`;
  const json = `{"schema_version":"ATIF-v1.7","agent":{"name":"a","version":"1"},"__proto__":{"polluted":1},"steps":[`
    + '{"step_id":1,"source":"agent","message":"x","tool_calls":[{"tool_call_id":"__proto__","function_name":"constructor","arguments":{"__proto__":{"x":1}}}],"observation":{"results":[{"source_call_id":"__proto__","content":"ok"}]}},'
    + `{"step_id":2,"source":"agent","message":"deep","tool_calls":[{"tool_call_id":"${'x'.repeat(100_000)}","function_name":"f","arguments":${deep}}]}]}`;
  const v = await viewOf({ 'trajectory.json': json });
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(v.steps.length, 2);
  assert.equal(v.steps[0].toolCalls[0].results.length, 1, 'a call id "__proto__" pairs like any other');
  assert.match(v.steps[1].toolCalls[0].args, /^\(cannot be shown as JSON/);
  const xss = await viewOf(xssTrajectory());
  assert.equal(xss.steps.length, XSS_PAYLOADS.length + 1);
  assert.equal(xss.toolCalls, XSS_PAYLOADS.length);
  assert.equal(xss.paired, XSS_PAYLOADS.length);
  assert.ok(XSS_PAYLOADS.length >= 100);
});

test('search: case-insensitive across messages, reasoning, tool arguments and observations, with counts', async () => {
  const { files } = continuedTrajectory();
  const v = await viewOf(files);
  const s = new TrajectorySearch(v);
  const make = s.search('MAKE');
  assert.deepEqual(make.steps.map((m) => [m.index, m.fields]), [[1, ['observation']], [2, ['tool']]], '"Makefile" in the listing, "make" in the call');
  const err = s.search('undeclared');
  assert.deepEqual(err.steps.map((m) => [m.index, m.fields]), [[2, ['observation']], [3, ['message']]]);
  assert.equal(err.total, 2);
  assert.equal(s.search('').total, 0);
  const feat = new TrajectorySearch(await viewOf(featureTrajectory()));
  assert.deepEqual(feat.search('PIXEL').steps.map((m) => [m.index, m.fields]), [[1, ['reasoning']], [2, ['observation']]]);
});
