// A Harbor trial's artifacts/ folder is known from its manifest.json when that is a file (read in the trials' first
// gather) and listed only otherwise (harbor/trialFiles.ts): the evidence must be what the folder holds in every case,
// through the batched port (a worker thread) and through a port's plain calls alike.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { readHarborJob } from '../../../src/core/readers/harborJob';
import { generateHarborJob } from '../../../scripts/sample-runs/harborJob';
import { harborLarge } from '../../../scripts/sample-runs/harborSpec';

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'harbor-artifacts-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));

/** NodeFs without its batched calls: what a port that has only readDir / stat / readFile answers. */
function plainPort(): FsPort {
  const n = new NodeFs();
  return Object.assign(Object.create(n) as NodeFs, { gather: undefined, listDirs: undefined, probeDirs: undefined, nodeLocal: undefined });
}

const FAILED_ENTRY = { source: '/app/out', destination: 'artifacts/app/out', type: 'file', status: 'failed', service: null };

test('artifacts/ evidence: manifest, no manifest, empty, manifest a folder, a broken link, a FIFO, no folder, too big', async () => {
  const job = (await generateHarborJob(path.join(root, 'jobs'), harborLarge(8, 1))).jobDir;
  const trials = fs.readdirSync(job).filter((n) => fs.statSync(path.join(job, n)).isDirectory()).sort();
  assert.equal(trials.length, 8);
  const art = (i: number) => path.join(job, trials[i], 'artifacts');
  const reset = (i: number) => { fs.rmSync(art(i), { recursive: true, force: true }); fs.mkdirSync(art(i)); };
  // 0: a manifest naming a failed artifact; 1: other files, no manifest; 2: empty; 3: manifest.json a folder;
  // 4: manifest.json a broken link; 5: manifest.json a FIFO (never read: it would block); 6: no artifacts/ at all;
  // 7: a manifest over the reader's cap (a file: shown, not read).
  reset(0); fs.writeFileSync(path.join(art(0), 'manifest.json'), JSON.stringify([FAILED_ENTRY]));
  reset(1); fs.writeFileSync(path.join(art(1), 'out.txt'), 'x');
  reset(2);
  reset(3); fs.mkdirSync(path.join(art(3), 'manifest.json'));
  reset(4); fs.symlinkSync(path.join(art(4), 'gone.json'), path.join(art(4), 'manifest.json'));
  reset(5);
  const fifo = spawnSync('mkfifo', [path.join(art(5), 'manifest.json')]).status === 0;
  if (!fifo) fs.writeFileSync(path.join(art(5), 'other.txt'), 'x');
  fs.rmSync(art(6), { recursive: true, force: true });
  reset(7); fs.writeFileSync(path.join(art(7), 'manifest.json'), `[${' '.repeat(17 << 20)}]`);

  for (const port of [new NodeFs(), plainPort()]) {
    const run = await readHarborJob(port, job);
    const got = new Map<string, string[]>();
    for (const a of run.tasks.flatMap((t) => t.attempts)) {
      const trial = trials.find((n) => a.evidence.some((e) => e.path.includes(`/${n}/`)))!;
      got.set(trial, a.evidence.filter((e) => e.kind === 'artifacts').map((e) => e.label));
    }
    assert.deepEqual(trials.map((n) => got.get(n)), [
      ['artifacts/', 'manifest.json'], ['artifacts/'], [], ['artifacts/'], ['artifacts/'], ['artifacts/'], [],
      ['artifacts/', 'manifest.json'],
    ]);
    const manifestProblems = run.problems.filter((p) => p.file.includes('/artifacts/')).map((p) => `${trials.findIndex((n) => p.file.includes(`/${n}/`))} ${p.code}`);
    assert.deepEqual(manifestProblems, ['0 artifact-failed', '7 too-big']);
  }
});
