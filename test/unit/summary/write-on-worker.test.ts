// "Write Run Summary" writes on a worker thread where the files are Node's (summary/writeOnWorker.ts): the file,
// problems and counts must be those of a write on this thread, the run read back from the file the run shown from the
// document in memory, and a cancelled, failing or vanished worker an error result, never a throw or a half-written file.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FsPort } from '../../../src/core/fs/port';
import { countRun } from '../../../src/core/model';
import { runFromWrittenSummary, runFromWrittenSummaryFile } from '../../../src/core/readers/runSummary';
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

test('writeRunSummaryOnWorker: the bytes, problems and counts of a write on this thread; the run read back is the one shown from memory', async () => {
  const dir = tmpDir('on-worker');
  const rollouts = posix(buildRun(dir, { tasks: TASKS }));
  const here = await writeRunSummary(nodeFs, rollouts, { keepBytes: true });
  assert.equal(here.error, undefined);
  const summary = here.path;
  fs.rmSync(summary);
  let progress = 0;
  const facts = await writeRunSummaryOnWorker(rollouts, { onProgress: () => { progress++; } });
  assert.ok(facts, 'written on the worker');
  assert.equal(facts.error, undefined);
  assert.equal(facts.path, summary);
  assert.deepEqual(fs.readFileSync(summary), Buffer.from(here.bytes!), 'the same bytes');
  assert.deepEqual(facts.problems, here.problems);
  assert.ok(progress >= 1, 'progress crosses to the caller');
  const st = fs.statSync(summary);
  assert.deepEqual(facts.written, { size: st.size, mtimeMs: st.mtimeMs });
  // No temp file is left beside it.
  assert.deepEqual(fs.readdirSync(path.dirname(summary)).filter((n) => n.endsWith('.tmp')), []);

  const fromMemory = await runFromWrittenSummary(nodeFs, { path: summary, document: here.document, bytes: here.bytes!, problems: here.problems }, rollouts);
  // The notification's numbers (said before the run is built) are the run's.
  assert.deepEqual([facts.tasks, facts.attempts, facts.missingPaths], [fromMemory.tasks.length, countRun(fromMemory).total, 1]);
  assert.deepEqual({ ...facts, written: undefined }, { ...factsOf(here), written: undefined });

  for (const workerMinBytes of [0, undefined]) { // read back on the summary worker, and on this thread
    let listed = 0;
    const counting: FsPort = Object.assign(Object.create(nodeFs) as FsPort, {
      readDir: (p: string) => { listed++; return nodeFs.readDir(p); },
      listDirs: (ps: readonly string[]) => { listed += ps.length; return nodeFs.listDirs!(ps); },
    });
    const fromFile = await runFromWrittenSummaryFile(counting, { path: summary, problems: facts.problems }, rollouts, workerMinBytes);
    assert.equal(listed, 0, 'no verifier folder is listed again');
    assert.deepEqual(fromFile.tasks, fromMemory.tasks);
    assert.deepEqual(fromFile.files, fromMemory.files);
    assert.deepEqual(fromFile.identity, fromMemory.identity);
    assert.equal(fromFile.id, fromMemory.id);
    const placed = (ps: typeof fromFile.problems) => ps.map((p) => [p.code, p.file, p.jsonPath, p.line, p.column]);
    assert.deepEqual(placed(fromFile.problems), placed(fromMemory.problems));
  }
});

test('writeRunSummaryOnWorker: cancelled before it starts, nothing is written and an earlier summary is left as it was', async () => {
  const dir = tmpDir('on-worker-cancel');
  const rollouts = posix(buildRun(dir, { tasks: TASKS }));
  const summary = rollouts.replace(/\.jsonl$/, '_run_summary.json');
  fs.writeFileSync(summary, '{"earlier": true}\n');
  const ac = new AbortController();
  ac.abort(new Error('cancelled'));
  const facts = await writeRunSummaryOnWorker(rollouts, { signal: ac.signal });
  assert.equal(facts?.error, 'cancelled');
  assert.equal(facts?.written, undefined);
  assert.equal(fs.readFileSync(summary, 'utf8'), '{"earlier": true}\n');
  assert.deepEqual(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')), []);
});

test('writeRunSummaryOnWorker: a worker that fails to load or stops without answering is an error result, not a throw', async () => {
  const dir = tmpDir('on-worker-broken');
  const rollouts = posix(buildRun(dir, { tasks: TASKS }));
  const throwing = path.join(dir, 'throws.js');
  fs.writeFileSync(throwing, 'throw new Error("no writer here");\n');
  const failed = await writeRunSummaryOnWorker(rollouts, { workerFile: throwing });
  assert.match(failed?.error ?? '', /the summary writer failed: no writer here/);
  assert.equal(failed?.problems[0]?.code, 'write-failed');
  const exiting = path.join(dir, 'exits.js');
  fs.writeFileSync(exiting, 'process.exit(3);\n');
  const stopped = await writeRunSummaryOnWorker(rollouts, { workerFile: exiting });
  assert.match(stopped?.error ?? '', /stopped \(exit code 3\) before it answered/);
  assert.equal(fs.existsSync(rollouts.replace(/\.jsonl$/, '_run_summary.json')), false, 'nothing written');
  // No worker bundle: undefined, and the caller writes on its own thread.
  assert.equal(await writeRunSummaryOnWorker(rollouts, { workerFile: '' }), undefined);
});

test('writeRunSummaryOnWorker: a run it refuses (no run there) is the same error as on this thread', async () => {
  const dir = tmpDir('on-worker-none');
  const rollouts = posix(path.join(dir, 'nothing.jsonl'));
  const here = await writeRunSummary(nodeFs, rollouts);
  const facts = await writeRunSummaryOnWorker(rollouts);
  assert.equal(facts?.error, here.error);
  assert.match(facts?.error ?? '', /no run at/);
  assert.deepEqual(facts?.problems, here.problems);
  assert.deepEqual([facts?.tasks, facts?.attempts, facts?.missingPaths], [0, 0, 0]);
});
