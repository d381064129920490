// A trajectory written by Python's json module with a float that is not finite (a logprob or a cost of NaN,
// `Infinity`): not JSON, but read as the rest of the product reads it (src/core/pythonFloats.ts): each such word as
// no value, with a warning naming where it was, instead of the whole trajectory being unreadable.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { viewOf } from './helpers';

const doc = (metrics: string, extra = '') => `{
  "schema_version": "ATIF-v1.7", "agent": {"name": "a", "version": "1"},${extra}
  "steps": [
    {"step_id": 1, "source": "user", "message": "NaN in a string stays"},
    {"step_id": 2, "source": "agent", "message": "ok", "metrics": ${metrics}}
  ]
}`;

test('NaN and Infinity in a trajectory read as no value, with a warning; the steps are all there', async () => {
  const v = await viewOf({ 'trajectory.json': doc('{"prompt_tokens": 10, "completion_tokens": 4, "cost_usd": NaN, "logprobs": [-0.1, -Infinity]}') });
  assert.equal(v.unreadable, null);
  assert.equal(v.steps.length, 2);
  assert.equal(v.totals.prompt_tokens, 10);
  assert.equal(v.totals.cost_usd, null);
  const w = v.problems.filter((p) => /NaN at line 5/.test(p.message));
  assert.equal(w.length, 1, JSON.stringify(v.problems));
  assert.equal(w[0].severity, 'warning');
  assert.equal(w[0].file, '/runs/job/trial/agent/trajectory.json');
  assert.match(w[0].message, /-Infinity at line 5.*read as no value/);
});

test('a continuation holding NaN is joined too, its warning naming it', async () => {
  const v = await viewOf({
    'trajectory.json': doc('{"prompt_tokens": 1}', ' "continued_trajectory_ref": "trajectory.cont-1.json",'),
    'trajectory.cont-1.json': doc('{"prompt_tokens": NaN}'),
  });
  assert.equal(v.steps.length, 4);
  assert.ok(v.problems.some((p) => p.file.endsWith('trajectory.cont-1.json') && /NaN at line 5/.test(p.message)), JSON.stringify(v.problems));
});

test('any other fault is still a parse error', async () => {
  const v = await viewOf({ 'trajectory.json': doc('{"prompt_tokens": NaN,}') });
  assert.match(v.unreadable ?? '', /not valid JSON/);
});
