// "Write Run Summary" writes on a worker thread where the files are Node's (summary/writeOnWorker.ts): the file,
// problems and counts must be those of a write on this thread, the run it sends back the run built here from the
// document in memory, and a cancelled, failing or vanished worker an error result, never a throw or a half-written file.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { countRun } from '../../../src/core/model';
import { runFromWrittenSummary } from '../../../src/core/readers/runSummary';
import { writeRunSummary } from '../../../src/core/summary';
import { factsOf, writeRunSummaryOnWorker, writerWorkerFile } from '../../../src/core/summary/writeOnWorker';
import { buildRun, type MiniTask } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

const TASKS: MiniTask[] = [
  { id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'scored', mode: 'separate', files: ['test-stdout.txt', 'reward.json', 'artifacts/'] }] },
  { id: 'b', repeats: [{ outcome: 'scored', folder: 'absent' }, { outcome: 'failed' }, { outcome: 'scored', reward: 0, files: ['test-stdout.txt', 'reward.txt', 'ctrf.json'] }, { outcome: 'masked' }] },
  { id: 'c', repeats: [{ outcome: 'scored', files: ['test-stdout.txt', 'reward.txt', 'ctrf.json'] }] },
];

test('the worker bundle is built (out/summaryWriterWorker.js)', () => {
  assert.ok(writerWorkerFile());
});

test('writeRunSummaryOnWorker: the bytes, problems and counts of a write on this thread; the run it sends is the one built from memory here', async () => {
  const dir = tmpDir('on-worker');
  const rollouts = posix(buildRun(dir, { tasks: TASKS }));
  const here = await writeRunSummary(nodeFs, rollouts, { keepBytes: true });
  assert.equal(here.error, undefined);
  const summary = here.path;
  const fromMemory = await runFromWrittenSummary(nodeFs, { path: summary, document: here.document, bytes: here.bytes!, problems: here.problems }, rollouts);
  for (const showRun of [true, false]) {
    fs.rmSync(summary);
    let progress = 0;
    const w = await writeRunSummaryOnWorker(rollouts, { onProgress: () => { progress++; }, showRun });
    assert.ok(w, 'written on the worker');
    const { facts } = w;
    assert.equal(facts.error, undefined);
    assert.equal(facts.path, summary);
    assert.deepEqual(fs.readFileSync(summary), Buffer.from(here.bytes!), 'the same bytes');
    assert.deepEqual(facts.problems, here.problems);
    assert.deepEqual(facts, factsOf(here), 'factsOf is what the worker sends');
    assert.ok(progress >= 1, 'progress crosses to the caller');
    // No temp file is left beside it.
    assert.deepEqual(fs.readdirSync(path.dirname(summary)).filter((n) => n.endsWith('.tmp')), []);
    // The notification's numbers (said before the run is shown) are the run's.
    assert.deepEqual([facts.tasks, facts.attempts, facts.missingPaths], [fromMemory.tasks.length, countRun(fromMemory).total, 1]);
    const sent = await w.run();
    if (!showRun) { assert.equal(sent, undefined, 'no run unless asked'); continue; }
    assert.ok(sent, 'the run is sent');
    // Everything the run shows, as built here from the document in memory (its problems placed at the same lines).
    assert.deepEqual(sent, JSON.parse(JSON.stringify(fromMemory)));
    assert.ok(sent.problems.some((p) => p.code === 'missing-path' && typeof p.line === 'number' && p.line > 1), 'placed at a line of the summary');
  }
});

test('writeRunSummaryOnWorker: a run of more tasks than one message holds comes back whole and in order', async () => {
  const dir = tmpDir('on-worker-many');
  const tasks: MiniTask[] = Array.from({ length: 450 }, (_, i) => ({ id: `t${String(i).padStart(3, '0')}`, repeats: [{ outcome: 'scored' }] }));
  const rollouts = posix(buildRun(dir, { tasks }));
  const w = await writeRunSummaryOnWorker(rollouts, { showRun: true });
  const sent = await w!.run();
  assert.deepEqual(sent?.tasks.map((t) => t.id), tasks.map((t) => t.id));
  assert.equal(countRun(sent!).total, 450);
});

test('writeRunSummaryOnWorker: cancelled before it starts, nothing is written and an earlier summary is left as it was', async () => {
  const dir = tmpDir('on-worker-cancel');
  const rollouts = posix(buildRun(dir, { tasks: TASKS }));
  const summary = rollouts.replace(/\.jsonl$/, '_run_summary.json');
  fs.writeFileSync(summary, '{"earlier": true}\n');
  const ac = new AbortController();
  ac.abort(new Error('cancelled'));
  const w = await writeRunSummaryOnWorker(rollouts, { signal: ac.signal, showRun: true });
  assert.equal(w?.facts.error, 'cancelled');
  assert.equal(await w?.run(), undefined);
  assert.equal(fs.readFileSync(summary, 'utf8'), '{"earlier": true}\n');
  assert.deepEqual(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')), []);
});

test('writeRunSummaryOnWorker: a worker that fails to load or stops without answering is an error result, not a throw', async () => {
  const dir = tmpDir('on-worker-broken');
  const rollouts = posix(buildRun(dir, { tasks: TASKS }));
  const throwing = path.join(dir, 'throws.js');
  fs.writeFileSync(throwing, 'throw new Error("no writer here");\n');
  const failed = (await writeRunSummaryOnWorker(rollouts, { workerFile: throwing, showRun: true }))!;
  assert.match(failed.facts.error ?? '', /the summary writer failed: no writer here/);
  assert.equal(failed.facts.problems[0]?.code, 'write-failed');
  assert.equal(await failed.run(), undefined);
  const exiting = path.join(dir, 'exits.js');
  fs.writeFileSync(exiting, 'process.exit(3);\n');
  const stopped = await writeRunSummaryOnWorker(rollouts, { workerFile: exiting });
  assert.match(stopped?.facts.error ?? '', /stopped \(exit code 3\) before it answered/);
  assert.equal(fs.existsSync(rollouts.replace(/\.jsonl$/, '_run_summary.json')), false, 'nothing written');
  // No worker bundle: undefined, and the caller writes on its own thread.
  assert.equal(await writeRunSummaryOnWorker(rollouts, { workerFile: '' }), undefined);
});

test('writeRunSummaryOnWorker: a run it refuses (no run there) is the same error as on this thread', async () => {
  const dir = tmpDir('on-worker-none');
  const rollouts = posix(path.join(dir, 'nothing.jsonl'));
  const here = await writeRunSummary(nodeFs, rollouts);
  const facts = (await writeRunSummaryOnWorker(rollouts, { showRun: true }))?.facts;
  assert.equal(facts?.error, here.error);
  assert.match(facts?.error ?? '', /no run at/);
  assert.deepEqual(facts?.problems, here.problems);
  assert.deepEqual([facts?.tasks, facts?.attempts, facts?.missingPaths], [0, 0, 0]);
});
