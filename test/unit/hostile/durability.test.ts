// Item 9: the folder is flushed after the rename (the summary survives a power loss), and a temp file a killed
// writer left is removed by the next read of the run, not only by the next write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { readRunSummary, readNemoRollouts } from '../../../src/core/readers/runSummary';
import { writeRunSummary } from '../../../src/core/summary';
import { nemoRunWithSummary, runCli, tempDir } from './helpers';

test('writeFileAtomic: the folder is fsynced after the rename, with the new file in it', async () => {
  const dir = tempDir();
  const calls: [string, string | undefined][] = [];
  class Recording extends NodeFs {
    override async syncFolder(d: string): Promise<void> {
      calls.push([d, fs.existsSync(`${d}/x.json`) ? fs.readFileSync(`${d}/x.json`, 'utf8') : undefined]);
      return super.syncFolder(d);
    }
  }
  await new Recording().writeFileAtomic(`${dir}/x.json`, new TextEncoder().encode('{"v":1}'));
  assert.deepEqual(calls, [[dir, '{"v":1}']]);
  // The summary writer goes through it.
  const run = await nemoRunWithSummary();
  calls.length = 0;
  const w = await writeRunSummary(new Recording(), run.rollouts);
  assert.equal(w.error, undefined);
  assert.deepEqual(calls.map((c) => c[0]), [run.dir]);
});

test('a killed writer\'s temp file is removed by the next read (core and CLI inspect); a live writer\'s and a read-only port leave it', async () => {
  const run = await nemoRunWithSummary();
  const dead = `${run.dir}/.rollouts_run_summary.json.999999999.0a1b2c.tmp`;
  const live = `${run.dir}/.rollouts_run_summary.json.${process.pid}.ffee00.tmp`;
  fs.writeFileSync(dead, '{"half":');
  fs.writeFileSync(live, '{"half":');
  const readOnly: FsPort = Object.assign(Object.create(new NodeFs()) as NodeFs, { remove: undefined });
  await readRunSummary(readOnly, run.summary);
  assert.equal(fs.existsSync(dead), true, 'a read-only port removes nothing');
  await readRunSummary(new NodeFs(), run.summary);
  assert.equal(fs.existsSync(dead), false);
  assert.equal(fs.existsSync(live), true);
  fs.writeFileSync(dead, '{"half":');
  const r = runCli(['inspect', run.dir]);
  assert.equal(r.code, 0);
  assert.equal(fs.existsSync(dead), false, 'inspect removed it');
  // A run read from its rollouts (no summary yet) too.
  fs.rmSync(run.summary);
  fs.writeFileSync(dead, '{"half":');
  await readNemoRollouts(new NodeFs(), run.rollouts);
  assert.equal(fs.existsSync(dead), false);
});
