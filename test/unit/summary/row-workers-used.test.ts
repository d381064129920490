// When the writer picks the result rows on worker threads: with `rowWorkers` given, for each file of result or
// failure rows (never the schedule, never the prepared rows); by default only for a file of at least 16 MiB. Either
// way the document and problems are what this thread gives (summary/parallelRows checks that over many files).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { buildRunSummary, serializeSummary } from '../../../src/core/summary';
import { defaultRowWorkers, PARALLEL_MIN_BYTES, rowWorkersStarted } from '../../../src/core/summary/parallelRows';
import { buildRun, padRolloutsTo, type MiniRepeat } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

/** Row workers the writer started while `f` ran. */
async function workersStartedBy<T>(f: () => Promise<T>): Promise<[number, T]> {
  const before = rowWorkersStarted();
  const out = await f();
  return [rowWorkersStarted() - before, out];
}

test('rowWorkers given: one pool per file of result or failure rows, none for the schedule; the same document', async () => {
  const dir = tmpDir('workers-given');
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [{ outcome: 'scored', folder: 'none' }, { outcome: 'failed' }] },
    { id: 'b', repeats: [{ outcome: 'scored', folder: 'none' }, { outcome: 'missing' }] }] }));
  assert.ok(fs.existsSync(rollouts.replace(/\.jsonl$/, '_failures.jsonl')) && fs.existsSync(rollouts.replace(/\.jsonl$/, '_materialized_inputs.jsonl')));
  const [none, here] = await workersStartedBy(() => buildRunSummary(nodeFs, rollouts, { rowWorkers: 0 }));
  assert.equal(none, 0);
  const [two, there] = await workersStartedBy(() => buildRunSummary(nodeFs, rollouts, { rowWorkers: 2 }));
  // Two files of rows (rollouts, failures), two workers each.
  assert.equal(two, 4);
  assert.equal(serializeSummary(there.document), serializeSummary(here.document));
  assert.deepEqual(there.problems, here.problems);
  assert.deepEqual(here.problems.filter((p) => p.severity !== 'info').map((p) => p.code), []);
});

test('by default: a rollouts file of exactly 16 MiB is picked on row workers, one byte less on this thread', async () => {
  assert.equal(PARALLEL_MIN_BYTES, 16 << 20);
  const results: string[] = [];
  for (const size of [PARALLEL_MIN_BYTES, PARALLEL_MIN_BYTES - 1]) {
    const dir = tmpDir('workers-default');
    const big: MiniRepeat = { outcome: 'scored', folder: 'none', padBytes: 300_000 };
    const rollouts = posix(buildRun(dir, { materialized: false, tasks: [{ id: 'a', repeats: Array.from({ length: 16 }, () => big) }] }));
    padRolloutsTo(rollouts, size);
    assert.equal(fs.statSync(rollouts).size, size);
    const [started, { document, problems }] = await workersStartedBy(() => buildRunSummary(nodeFs, rollouts));
    assert.equal(started, size === PARALLEL_MIN_BYTES ? defaultRowWorkers() : 0, `${size} bytes`);
    assert.deepEqual(document.tasks[0].repeats.map((r) => r.outcome), Array(16).fill('scored'));
    assert.deepEqual(problems.filter((p) => p.severity !== 'info').map((p) => p.code), []);
    results.push(serializeSummary(document));
  }
  assert.equal(results[0], results[1]);
});
