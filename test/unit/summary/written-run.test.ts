// The run of a summary just written is taken from the writer's document in memory: the same run a read of the file
// gives, without listing the run's verifier folders a second time (what "Write Run Summary" shows afterwards).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { FsPort } from '../../../src/core/fs/port';
import { readRunSummary, runFromWrittenSummary } from '../../../src/core/readers/runSummary';
import { writeRunSummary } from '../../../src/core/summary';
import { buildRun } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

test('runFromWrittenSummary: the run a read of the written file gives, with no verifier folder listed again', async () => {
  const dir = tmpDir('written');
  const rollouts = posix(buildRun(dir, { tasks: [
    { id: 'a', repeats: [{ outcome: 'scored' }, { outcome: 'scored', mode: 'separate', files: ['test-stdout.txt', 'reward.json', 'artifacts/'] }] },
    { id: 'b', repeats: [{ outcome: 'scored', folder: 'absent' }, { outcome: 'failed' }, { outcome: 'scored', reward: 0, files: ['test-stdout.txt', 'reward.txt', 'ctrf.json'] }, { outcome: 'masked' }] },
    { id: 'c', repeats: [{ outcome: 'scored', files: ['test-stdout.txt', 'reward.txt', 'ctrf.json'] }] },
  ] }));
  const res = await writeRunSummary(nodeFs, rollouts, { keepBytes: true });
  assert.equal(res.error, undefined);
  let listed = 0;
  const counting: FsPort = Object.assign(Object.create(nodeFs) as FsPort, {
    readDir: (p: string) => { listed++; return nodeFs.readDir(p); },
    listDirs: (ps: readonly string[]) => { listed += ps.length; return nodeFs.listDirs!(ps); },
  });
  const fromMemory = await runFromWrittenSummary(counting, {
    path: res.path, document: res.document, bytes: res.bytes!, problems: res.problems,
  }, rollouts);
  assert.equal(listed, 0, 'no verifier folder is listed again');
  const fromDisk = await readRunSummary(nodeFs, res.path);
  assert.deepEqual(fromMemory.tasks, fromDisk.tasks);
  // The summary names no ctrf.json: the written run still shows the ones on disk (asked by stat, not by listing).
  const ctrfs = fromMemory.tasks.flatMap((t) => t.attempts).filter((a) => a.evidence.some((e) => e.kind === 'ctrf')).map((a) => a.id);
  assert.deepEqual(ctrfs, ['b#2', 'c#0']);
  assert.deepEqual(fromMemory.files, fromDisk.files);
  assert.deepEqual(fromMemory.identity, fromDisk.identity);
  assert.equal(fromMemory.id, fromDisk.id);
  // The missing folder is a problem once (the reader's, at its place in missing_paths), not twice.
  // At the same line and column: the text the position comes from is decoded from the written bytes when needed.
  const placed = (ps: typeof fromDisk.problems) => ps.filter((p) => p.code === 'missing-path').map((p) => [p.jsonPath, p.line, p.column]);
  assert.deepEqual(placed(fromMemory.problems), placed(fromDisk.problems));
  assert.ok(placed(fromMemory.problems).every(([, line]) => typeof line === 'number' && line > 1), 'placed at a line of the summary');
});

test('runFromWrittenSummary without the bytes (a writer that streamed the file): the same run, its problems placed at the same lines and columns from the document serialized again', async () => {
  const dir = tmpDir('written-streamed');
  const rollouts = posix(buildRun(dir, { tasks: [
    { id: 'a', repeats: [{ outcome: 'scored', folder: 'absent' }, { outcome: 'scored' }] },
    { id: 'b', repeats: [{ outcome: 'failed' }, { outcome: 'scored', folder: 'absent' }] },
  ] }));
  const streamed = await writeRunSummary(nodeFs, rollouts);
  assert.equal(streamed.error, undefined);
  assert.equal(streamed.bytes, undefined, 'streamed: no bytes kept');
  const fromDocument = await runFromWrittenSummary(nodeFs, { path: streamed.path, document: streamed.document, problems: streamed.problems }, rollouts);
  const fromDisk = await readRunSummary(nodeFs, streamed.path);
  assert.deepEqual(fromDocument.tasks, fromDisk.tasks);
  const placed = (ps: typeof fromDisk.problems) => ps.filter((p) => p.code === 'missing-path').map((p) => [p.jsonPath, p.line, p.column]);
  assert.equal(placed(fromDisk.problems).length, 2);
  assert.deepEqual(placed(fromDocument.problems), placed(fromDisk.problems));
});
