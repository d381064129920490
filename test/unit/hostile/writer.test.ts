// Item 6: the writer never replaces a good summary after failing to read, and never creates anything for a path
// where nothing of a run is (a typo). Through the core writer and the CLI.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { writeRunSummary } from '../../../src/core/summary';
import { makeFifo } from '../../../scripts/sample-runs/mutate';
import { nemoRunWithSummary, runCli, tempDir, treeState } from './helpers';

const nfs = new NodeFs();

test('writer: a rollouts path that is a folder or a FIFO is an error (exit 1); the old summary is untouched', { timeout: 60_000 }, async () => {
  for (const make of [(p: string) => { fs.rmSync(p); fs.mkdirSync(p); }, makeFifo]) {
    const run = await nemoRunWithSummary();
    const good = fs.readFileSync(run.summary);
    make(run.rollouts);
    const before = treeState(run.dir);
    const w = await writeRunSummary(nfs, run.rollouts);
    assert.match(w.error ?? '', /not written: .*(a folder|not a regular file)/);
    assert.equal(w.document, undefined);
    const r = runCli(['summary', run.rollouts]);
    assert.equal(r.signal, null, 'no hang');
    assert.equal(r.code, 1, r.err);
    assert.match(r.err, /not written/);
    assert.deepEqual(fs.readFileSync(run.summary), good);
    assert.deepEqual(treeState(run.dir), before, 'nothing in the run folder changed');
  }
});

test('writer: an unreadable rollouts or failures file is an error; the old summary is untouched', async () => {
  const run = await nemoRunWithSummary();
  const good = fs.readFileSync(run.summary);
  for (const bad of [run.rollouts, `${run.dir}/rollouts_failures.jsonl`]) {
    // Root reads through any mode bits: the refusal comes from a port whose reads of that file fail.
    const denying = Object.assign(Object.create(nfs) as NodeFs, {
      readChunks: (p: string, n?: number) => (p === bad ? (async function* () { throw Object.assign(new Error(`EACCES: permission denied, open '${p}'`), { code: 'EACCES' }); })() : nfs.readChunks(p, n)),
      openSequential: async (p: string) => { if (p === bad) throw new Error(`EACCES: permission denied, open '${p}'`); return nfs.openSequential(p); },
    });
    const w = await writeRunSummary(denying, run.rollouts);
    assert.match(w.error ?? '', /EACCES.*not written/);
    assert.deepEqual(fs.readFileSync(run.summary), good);
  }
});

test('writer: a typo (nothing of a run there) is refused without creating a file or folder; sidecars alone get the "no rollouts" summary', async () => {
  const dir = tempDir('typo-');
  const before = treeState(dir);
  for (const p of [`${dir}/rollouts.jsonl`, `${dir}/no/such/folder/rollouts.jsonl`]) {
    const w = await writeRunSummary(nfs, p);
    assert.match(w.error ?? '', /no run at/);
    const r = runCli(['summary', p]);
    assert.equal(r.code, 1);
  }
  assert.deepEqual(treeState(dir), before, 'nothing created');
  const run = await nemoRunWithSummary();
  fs.rmSync(run.rollouts);
  const w = await writeRunSummary(nfs, run.rollouts);
  assert.equal(w.error, undefined);
  assert.equal(w.document?.files.rollouts, null);
  assert.ok((w.document?.tasks.length ?? 0) > 0, 'the materialized inputs still name the schedule');
});
