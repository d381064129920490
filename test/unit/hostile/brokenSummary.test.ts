// A run summary that cannot be read at all — cut off, not JSON, nested too deep, a FIFO, not an object — beside the
// rollouts it summarises: the run is read from the rollouts and their sidecars (as a run without a summary is), the
// summary's own problem kept and a note saying so, instead of an empty run hiding every task the rollouts hold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { readNemoRollouts, readRunSummary } from '../../../src/core/readers/runSummary';
import { makeFifo } from '../../../scripts/sample-runs/hostile';
import { nemoRunWithSummary } from './helpers';

const outcomes = (r: Awaited<ReturnType<typeof readRunSummary>>) => r.tasks.map((t) => [t.id, t.attempts.map((a) => a.outcome)]);

test('an unreadable summary beside its rollouts: the run read from the rollouts, the summary\'s problem and a note', { timeout: 60_000 }, async () => {
  const run = await nemoRunWithSummary();
  const text = fs.readFileSync(run.summary, 'utf8');
  const fromRollouts = await readNemoRollouts(new NodeFs(), run.rollouts);
  assert.ok(fromRollouts.tasks.length >= 5);
  const cases: [string, () => void, string][] = [
    ['cut off', () => fs.writeFileSync(run.summary, text.slice(0, text.length >> 1)), 'parse-error'],
    ['not an object', () => fs.writeFileSync(run.summary, '[1, 2]'), 'schema'],
    ['too deep', () => fs.writeFileSync(run.summary, `${'['.repeat(5000)}${']'.repeat(5000)}`), 'too-deep'],
    ['a FIFO', () => makeFifo(run.summary), 'not-a-file'],
  ];
  for (const [what, make, code] of cases) {
    make();
    const r = await readRunSummary(new NodeFs(), run.summary);
    assert.deepEqual(outcomes(r), outcomes(fromRollouts), what);
    assert.equal(r.anchor, run.summary, what);
    assert.equal(r.summaryPath, run.summary, what);
    assert.equal(r.summaryIsVirtual, undefined, `${what}: the summary is there, it is not "not written yet"`);
    const own = r.problems.filter((p) => p.file === run.summary).map((p) => p.code);
    assert.deepEqual(own.slice(0, 2), [code, 'read-from-rollouts'], what);
    assert.match(r.problems.find((p) => p.code === 'read-from-rollouts')!.message, /cannot be read: the run is read from .*\.jsonl/);
    fs.rmSync(run.summary);
  }
});

test('an unreadable summary with no rollouts beside it is still one run with its problem, nothing more', async () => {
  const run = await nemoRunWithSummary();
  fs.rmSync(run.rollouts);
  fs.writeFileSync(run.summary, '{"tasks": [');
  const r = await readRunSummary(new NodeFs(), run.summary);
  assert.deepEqual(r.tasks, []);
  assert.deepEqual(r.problems.map((p) => p.code), ['parse-error']);
});
