// The host ↔ webview protocol: valid messages parse, anything else is rejected with a reason (both directions),
// so neither side ever acts on a malformed or foreign message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { parseHostMessage, parseWebviewMessage } from '../../../src/protocol/runOverview';
import { overviewModel } from '../../../src/views/runOverviewModel';
import type { Run } from '../../../src/core/model';

const emptyRun: Run = {
  id: 'nemo-gym:/r/a.jsonl', kind: 'nemo-gym', root: '/r', anchor: '/r/a.jsonl', label: 'a', identity: {}, state: 'running',
  files: [], problems: [], unvalidated: [], skipped: [], tasks: [],
};

test('valid webview → host messages parse', () => {
  for (const m of [
    { type: 'ready' },
    { type: 'openAttempt', taskId: 't', attemptId: 't#0' },
    { type: 'openProblem', index: 0 },
    { type: 'rendered', rows: 3, columns: 2 },
    { type: 'cspViolation', directive: 'script-src', blocked: 'inline' },
  ]) assert.ok(parseWebviewMessage(m).ok, JSON.stringify(m));
});

test('invalid webview → host messages are rejected with a reason', () => {
  for (const m of [
    undefined, null, 42, 'ready', [], {}, { type: 'nope' }, { type: 'openAttempt', taskId: 't' },
    { type: 'openAttempt', taskId: 1, attemptId: 'a' }, { type: 'openProblem', index: -1 }, { type: 'openProblem', index: 1.5 },
    { type: 'openProblem', index: '0' }, { type: 'rendered', rows: -1, columns: 0 }, { type: 'openAttempt', taskId: 'x'.repeat(100_001), attemptId: 'a' },
  ]) {
    const r = parseWebviewMessage(m);
    assert.equal(r.ok, false, JSON.stringify(m)?.slice(0, 80));
    if (!r.ok) assert.ok(r.error.length > 0);
  }
});

test('host → webview: a real init parses; broken ones are rejected', () => {
  const model = overviewModel(emptyRun);
  assert.ok(parseHostMessage({ type: 'init', model }).ok);
  assert.ok(parseHostMessage({ type: 'gone', runId: 'x' }).ok);
  const broken: unknown[] = [
    { type: 'init' },
    { type: 'init', model: { ...model, kind: 'other' } },
    { type: 'init', model: { ...model, passAt1: { ...model.passAt1, value: 2 } } },
    { type: 'init', model: { ...model, tasks: [{ id: 't', label: 't', cells: [{ attemptId: 'a', label: '#1', outcome: 'exploded', reward: 1, icon: 'pass', tooltip: '' }], passAtK: 1, outcomes: [] }] } },
    { type: 'init', model: { ...model, tasks: [{ id: 't', label: 't', cells: [{ attemptId: 'a', label: '#1', outcome: 'passed', reward: 1, icon: 'x" onload="y', tooltip: '' }], passAtK: 1, outcomes: [] }] } },
    { type: 'ready' },
    { type: 'init', model: null },
  ];
  for (const m of broken) assert.equal(parseHostMessage(m).ok, false, JSON.stringify(m).slice(0, 120));
});

test('random values never throw out of the parsers', () => {
  fc.assert(fc.property(fc.anything(), (v) => {
    parseHostMessage(v);
    parseWebviewMessage(v);
  }), { numRuns: 300 });
});
