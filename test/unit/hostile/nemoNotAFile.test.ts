// A NeMo Gym run whose rollouts, failures or materialized inputs are there under their names but are not regular
// files (a FIFO, a device link, a folder): never read, and said as such ("not-a-file", naming the path), both when the
// run is read from its summary and when it has none yet — not taken for a run without them, nor for a rollouts file
// that "changed after the summary was written".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { readNemoRollouts, readRunSummary } from '../../../src/core/readers/runSummary';
import { makeDeviceLink, makeFifo } from '../../../scripts/sample-runs/hostile';
import { nemoRunWithSummary } from './helpers';

const said = (problems: { file: string; code: string }[], file: string) => problems.filter((p) => p.file === file).map((p) => p.code);

test('a summary\'s rollouts made a FIFO after it was written: not-a-file, not summary-outdated', { timeout: 30_000 }, async () => {
  const run = await nemoRunWithSummary();
  makeFifo(run.rollouts);
  const r = await readRunSummary(new NodeFs(), run.summary);
  assert.deepEqual(said(r.problems, run.rollouts), ['not-a-file']);
  assert.ok(!r.problems.some((p) => p.code === 'summary-outdated'), JSON.stringify(r.problems.map((p) => p.code)));
  assert.match(r.problems.find((p) => p.code === 'not-a-file')!.message, /rollouts\.jsonl .*is not a regular file/);
  const f = r.files.find((x) => x.key === 'rollouts')!;
  assert.equal(f.present, false);
  assert.ok(r.tasks.length > 0, 'the summary\'s tasks are still read');
});

test('a run without a summary whose rollouts is a FIFO and failures sidecar a device link: not-a-file for each, named', { timeout: 30_000 }, async () => {
  const run = await nemoRunWithSummary();
  fs.rmSync(run.summary);
  makeFifo(run.rollouts);
  const failures = run.rollouts.replace(/\.jsonl$/, '_failures.jsonl');
  makeDeviceLink(failures);
  const t0 = performance.now();
  const r = await readNemoRollouts(new NodeFs(), run.rollouts);
  assert.ok(performance.now() - t0 < 20_000, 'no read of the FIFO or the device');
  assert.deepEqual(said(r.problems, run.rollouts), ['not-a-file']);
  assert.deepEqual(said(r.problems, failures), ['not-a-file']);
  assert.match(r.problems.find((p) => p.file === run.rollouts)!.message, /is not a regular file .*not read/);
});
