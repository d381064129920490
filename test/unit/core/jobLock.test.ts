// A Harbor job's lock.json (one TrialLock per trial: MBs on a big job) is parsed on a worker thread and only its
// harbor block and problems come back: the same answers as on this thread, for a good, a broken and a wrongly shaped
// lock. A re-read of a few trials keeps the job's own files as read when they did not change, and reads them again
// when they did.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { jobLockWorkerFile, parseJobLock, readJobLock, readJobLockHere } from '../../../src/core/readers/harbor/jobLock';
import { readHarborJob, readHarborJobState, rereadHarborTrials } from '../../../src/core/readers/harborJob';
import { generateHarborJob } from '../../../scripts/sample-runs/harborJob';
import { harborEveryCase } from '../../../scripts/sample-runs/harborSpec';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hr-joblock-')).split(path.sep).join('/');
}

test('the job lock read on the worker thread answers as on this thread (good, not JSON, wrong shape, a duplicate key)', async () => {
  assert.ok(jobLockWorkerFile(), 'out/jobLockWorker.js is built');
  const root = tmp();
  try {
    const gen = await generateHarborJob(path.join(root, 'jobs'), harborEveryCase());
    const lockPath = path.join(gen.jobDir, 'lock.json').split(path.sep).join('/');
    const good = fs.readFileSync(lockPath, 'utf8');
    const cases = [
      good,
      good.slice(0, good.length >> 1),
      JSON.stringify({ schema_version: 'three', harbor: { version: 7 }, trials: 'all' }),
      good.replace('{', '{"schema_version": 1,'),
    ];
    const fsPort = new NodeFs();
    const job = { path: lockPath, maxBytes: 1 << 24 };
    const answers = [];
    for (const text of cases) {
      fs.writeFileSync(lockPath, text);
      const here = await readJobLockHere(fsPort, job);
      const there = await readJobLock(fsPort, job, text.length, 0); // on the worker: any size
      assert.deepEqual(there, here);
      assert.deepEqual(here, parseJobLock(lockPath, { text }));
      answers.push(here);
    }
    assert.equal(answers[0].lock?.harbor?.version, '0.22.0');
    assert.deepEqual(Object.keys(answers[0].lock ?? {}), ['harbor'], 'only the harbor block is kept, never the trials');
    assert.ok(answers[1].problems.some((p) => p.code === 'parse-error'));
    assert.equal(answers[2].lock, null);
    assert.ok(answers[2].problems.length > 0, 'the wrong shape is said');
    assert.ok(answers[3].problems.some((p) => p.code === 'duplicate-key'));
    // Over the reader's bound, on the worker as here: not read, said so.
    fs.writeFileSync(lockPath, good);
    const small = { path: lockPath, maxBytes: 100 };
    assert.deepEqual(await readJobLock(fsPort, small, good.length, 0), await readJobLockHere(fsPort, small));
    assert.ok((await readJobLockHere(fsPort, small)).problems.some((p) => p.code === 'too-big'));
    // Gone: missing, the same both ways.
    fs.rmSync(lockPath);
    assert.deepEqual(await readJobLock(fsPort, job, 1, 0), await readJobLockHere(fsPort, job));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a re-read of one trial keeps the job files as read when unchanged, and reads them again when they changed', async () => {
  const root = tmp();
  try {
    const job = await generateHarborJob(path.join(root, 'jobs'), harborEveryCase());
    const jobDir = job.jobDir.split(path.sep).join('/');
    const node = new NodeFs();
    const read: string[] = [];
    const counting: FsPort = new Proxy(node, {
      get(target, key) {
        const v = Reflect.get(target, key);
        if (key !== 'gather' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
        return (lists: string[], reads: { path: string }[], stats?: string[]) => {
          for (const r of reads) read.push(r.path);
          return v.call(target, lists, reads, stats);
        };
      },
    });
    const jobJson = () => read.filter((p) => /\/(config|lock|result)\.json$/.test(p) && path.posix.dirname(p) === jobDir);
    const state = await readHarborJobState(counting, jobDir);
    assert.equal(jobJson().length, 3, 'the first read reads the job\'s three files');
    const trial = state.trials[0].name;
    read.length = 0;
    const once = await rereadHarborTrials(counting, state, [trial]);
    assert.ok(once);
    assert.deepEqual(jobJson(), [], 'unchanged job files are not read again');
    assert.deepEqual(once.state.run, await readHarborJob(node, jobDir), 'the run is the one a full read gives');
    // The job's result.json rewritten with other content: read again.
    const resultPath = path.join(jobDir, 'result.json');
    const result = JSON.parse(fs.readFileSync(resultPath, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(resultPath, JSON.stringify({ ...result, id: 'another-id' }));
    read.length = 0;
    const twice = await rereadHarborTrials(counting, once.state, [trial]);
    assert.ok(twice);
    assert.equal(jobJson().length, 3, 'changed job files are read again');
    assert.equal(twice.state.run.identity.jobId, 'another-id');
    assert.deepEqual(twice.state.run, await readHarborJob(node, jobDir));
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
