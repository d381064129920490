// The viewer reader checks a summary.json's tasks one at a time (no copy of the whole document at once): what it
// says must be exactly what one check of the whole document with ViewerSummarySchema says, in the same order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ViewerSummarySchema } from '../../../src/core/schemas/viewer';
import { summaryIssues } from '../../../src/core/readers/viewerData';

const said = (issues: readonly { code?: string; path: readonly PropertyKey[]; message: string }[]) =>
  issues.map((i) => JSON.stringify({ code: i.code, path: i.path.map(String), message: i.message }));

const whole = (v: unknown) => {
  const r = ViewerSummarySchema.safeParse(v);
  return r.success ? [] : r.error.issues;
};

// Values of the right type, or of a wrong one, for any field.
const anyValue = fc.oneof(fc.string({ maxLength: 4 }), fc.integer({ min: -2, max: 3 }), fc.double({ noNaN: true }), fc.boolean(), fc.constant(null),
  fc.constant(undefined), fc.array(fc.integer(), { maxLength: 2 }), fc.constant({}));
const attempt = fc.record({ attempt: fc.oneof(fc.integer({ min: -1, max: 4 }), anyValue), reward: fc.oneof(fc.double({ min: 0, max: 1, noNaN: true }), anyValue),
  trace: fc.oneof(fc.string({ maxLength: 6 }), anyValue) }, { requiredKeys: [] });
const cell = fc.oneof(fc.record({ passed_at: fc.oneof(fc.integer({ min: 0, max: 3 }), anyValue), attempts: fc.oneof(fc.array(attempt, { maxLength: 3 }), anyValue) }, { requiredKeys: [] }), anyValue);
const task = fc.oneof(fc.record({ id: fc.oneof(fc.string({ maxLength: 5 }), anyValue), index: fc.oneof(fc.integer(), anyValue),
  difficulty_level: anyValue, cells: fc.oneof(fc.dictionary(fc.constantFrom('m|h', 'm|g', 'n|h'), cell, { maxKeys: 3 }), anyValue) }, { requiredKeys: [] }), anyValue);
const summary = fc.record({
  k_max: fc.oneof(fc.integer({ min: -1, max: 4 }), anyValue), models: fc.oneof(fc.array(fc.oneof(fc.string({ maxLength: 3 }), anyValue), { maxLength: 3 }), anyValue),
  summary: fc.oneof(fc.record({ tasks_total: anyValue }, { requiredKeys: [] }), anyValue),
  tasks: fc.oneof(fc.array(task, { maxLength: 6 }), anyValue),
}, { requiredKeys: [] });

test('summaryIssues says what ViewerSummarySchema says of the whole document, issue for issue and in order', async () => {
  await fc.assert(fc.asyncProperty(fc.oneof(summary, anyValue), async (v) => {
    assert.deepEqual(said(await summaryIssues(v)), said(whole(v)));
  }), { numRuns: 2000 });
});

test('summaryIssues: a bad task far down is named by its index; a summary without tasks says so once', async () => {
  const tasks = Array.from({ length: 50 }, (_, i) => ({ id: `t${i}`, cells: {} }));
  tasks[42] = { id: 42 as unknown as string, cells: {} };
  assert.deepEqual(said(await summaryIssues({ tasks })), said(whole({ tasks })));
  assert.deepEqual((await summaryIssues({ tasks }))[0].path, ['tasks', 42, 'id']);
  assert.deepEqual((await summaryIssues({})).map((i) => i.path), [['tasks']]);
});
