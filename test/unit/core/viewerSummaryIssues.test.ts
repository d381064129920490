// The viewer reader checks a summary.json's tasks one at a time (no copy of the whole document at once): what it
// says must be exactly what one check of the whole document with ViewerSummarySchema says, in the same order.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ViewerSummarySchema, ViewerTaskSchema } from '../../../src/core/schemas/viewer';
import { plainlyValidTask } from '../../../src/core/readers/viewerSummaryIssues';
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

test('plainlyValidTask: true only for tasks ViewerTaskSchema passes, and for the tasks a viewer dataset usually holds', () => {
  const val = fc.oneof(anyValue, fc.constant(1.5), fc.constant(2 ** 53), fc.constant(-0), fc.constant(Number.POSITIVE_INFINITY), fc.constant('x'));
  // Mostly values of the right type, now and then any value (so that some tasks are plainly valid and some are not).
  const or = <T>(...good: fc.Arbitrary<T>[]) => fc.oneof({ arbitrary: fc.oneof(...good), weight: 8 }, { arbitrary: val, weight: 1 });
  const anAttempt = fc.oneof(fc.record({
    attempt: or(fc.integer({ min: 1, max: 4 })), reward: or(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(null)),
    n_turns: or(fc.integer({ min: 0, max: 9 }), fc.constant(null)), elapsed_sec: or(fc.double({ min: 0, max: 99, noNaN: true })),
    trace: or(fc.string({ maxLength: 6 }), fc.constant(null)), reward_method: val,
  }, { requiredKeys: [] }), val);
  const aCell = fc.oneof(fc.record({ passed_at: or(fc.integer({ min: 1, max: 3 }), fc.constant(null)),
    attempts: or(fc.array(anAttempt, { maxLength: 3 })) }, { requiredKeys: [] }), val);
  const aTask = fc.record({
    id: or(fc.string({ maxLength: 5 })), index: or(fc.integer()),
    difficulty_level: or(fc.integer({ min: 0, max: 3 }), fc.constant(null)), difficulty: or(fc.string({ maxLength: 3 }), fc.constant(null)),
    question: or(fc.string({ maxLength: 3 })), answer: val, reward_mode: or(fc.string({ maxLength: 3 })),
    cells: or(fc.dictionary(fc.constantFrom('m|h', 'n|g', '__proto__', 'constructor'), aCell, { maxKeys: 3 })),
  }, { requiredKeys: ['id', 'cells'] });
  let plain = 0;
  fc.assert(fc.property(or(aTask), (t) => {
    if (!plainlyValidTask(t)) return;
    plain++;
    assert.equal(ViewerTaskSchema.safeParse(t).success, true, JSON.stringify(t));
  }), { numRuns: 5000 });
  assert.ok(plain > 50, `${plain} plainly valid`);
  const usual = JSON.parse(JSON.stringify({
    id: 'task-00001', index: 1, difficulty_level: 0, difficulty: 'easy', question: 'Q?', answer: '0', reward_mode: 'exact',
    cells: { 'org/m|h': { passed_at: 2, attempts: [{ attempt: 1, reward: null, n_turns: null, elapsed_sec: 9.5, trace: 'traces/a.json' },
      { attempt: 2, reward: 1, n_turns: 4, elapsed_sec: 3, trace: 'traces/b.json', reward_method: 'exact' }] } },
  })) as unknown;
  assert.equal(plainlyValidTask(usual), true);
  assert.equal(plainlyValidTask({ ...(usual as object), index: 1.5 }), false);
});
