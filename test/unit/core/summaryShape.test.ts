// plainlyValidTask (src/core/readers/nemo/summaryShape.ts) lets the summary worker skip the schema for the tasks a run
// summary usually holds: it must only ever say true of a task SummaryTaskSchema passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { plainlyValidTask, SummaryTaskSchema } from '../../../src/core/readers/nemo/summaryShape';

test('plainlyValidTask: true only for tasks SummaryTaskSchema passes, and for the tasks a run summary usually holds', () => {
  const val = fc.oneof(fc.string({ maxLength: 3 }), fc.integer({ min: -2, max: 3 }), fc.double(), fc.boolean(), fc.constant(null),
    fc.constant(undefined), fc.constant(1.5), fc.constant(2 ** 53), fc.constant(-0), fc.constant(Number.POSITIVE_INFINITY),
    fc.array(fc.integer(), { maxLength: 2 }), fc.constant({}), fc.constant(JSON.parse('{"__proto__": {"a": 1}}') as unknown));
  // Mostly values of the right type, now and then any value (so that some tasks are plainly valid and some are not).
  const or = <T>(...good: fc.Arbitrary<T>[]) => fc.oneof({ arbitrary: fc.oneof(...good), weight: 12 }, { arbitrary: val, weight: 1 });
  const optStr = or(fc.string({ maxLength: 4 }), fc.constant(null));
  const record = (v: fc.Arbitrary<unknown>) => fc.dictionary(fc.constantFrom('a', '_ng_digest', '__proto__', 'constructor', '0'), v, { maxKeys: 3 });
  const input = fc.record({
    digests: or(record(or(fc.string({ maxLength: 3 })))),
    metadata: or<unknown>(fc.array(or(record(val)), { maxLength: 2 }), record(val)),
    other: val,
  }, { requiredKeys: [] });
  const repeat = fc.record({
    repeat: or(fc.integer({ min: 0, max: 9 })), outcome: or(fc.constantFrom('scored', 'failed', 'missing')),
    reward: or(fc.double({ min: 0, max: 1, noNaN: true }), fc.constant(null)), mask_sample: or(fc.boolean(), fc.constant(null)),
    failure_kind: optStr, failure_reason: optStr, failure_class: optStr, failure_stage: optStr, failure_terminal: or(fc.boolean(), fc.constant(null)),
    verifier_mode: optStr, verifier_logs: optStr, test_stdout: optStr, reward_file: optStr, trajectory: optStr, artifacts: optStr,
    missing: or(fc.array(or(fc.string({ maxLength: 3 })), { maxLength: 2 })), input: or(input, fc.constant(null)), extra: val,
  }, { requiredKeys: ['repeat', 'outcome'] });
  const task = fc.record({
    task_id: or(fc.string({ maxLength: 5 })), task_index: or(fc.integer({ min: 0, max: 9 })), repeats: or(fc.array(or(repeat), { maxLength: 3 })), extra: val,
  }, { requiredKeys: ['task_id', 'repeats'] });
  let plain = 0;
  fc.assert(fc.property(or(task), (t) => {
    if (!plainlyValidTask(t)) return;
    plain++;
    assert.equal(SummaryTaskSchema.safeParse(t).success, true, JSON.stringify(t));
  }), { numRuns: 8000 });
  assert.ok(plain > 200, `${plain} plainly valid`);
  // as a written summary holds them (JSON.parse's objects)
  const usual = JSON.parse(JSON.stringify({
    task_id: 'task-00001', task_index: 1, repeats: [
      { repeat: 0, outcome: 'scored', reward: 1.0, mask_sample: false, failure_kind: null, failure_reason: null, verifier_mode: 'separate',
        verifier_logs: 'verifier/s', test_stdout: 'verifier/s/test-stdout.txt', reward_file: 'verifier/s/reward.txt', trajectory: 'verifier/s/trajectory.json',
        artifacts: 'verifier/s/artifacts', missing: [], input: { digests: { _ng_digest: 'eb2a' }, metadata: [{ agent_timeout_sec: '600.0' }] } },
      { repeat: 1, outcome: 'failed', reward: null, mask_sample: null, failure_kind: 'agent_error', failure_reason: 'r', failure_terminal: true,
        verifier_mode: null, verifier_logs: null, missing: ['verifier/t'], input: null },
    ],
  })) as unknown;
  assert.equal(plainlyValidTask(usual), true);
  const r0 = (usual as { repeats: object[] }).repeats[0];
  for (const odd of [{ repeat: -1 }, { repeat: 1.5 }, { reward: '1' }, { outcome: 3 }, { missing: [3] }, { input: { digests: { a: 1 } } }, { input: { metadata: [3] } }]) {
    const t = { ...(usual as object), repeats: [{ ...r0, ...odd }] };
    assert.equal(plainlyValidTask(t), false, JSON.stringify(odd));
    assert.equal(SummaryTaskSchema.safeParse(t).success, false, JSON.stringify(odd));
  }
});
