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
import { jobLockWorkerFile, parseJobLock, readJobLock, readJobLockHere, readJobLockOnWorker } from '../../../src/core/readers/harbor/jobLock';
import { readHarborJob, readHarborJobState, rereadHarborTrials } from '../../../src/core/readers/harborJob';
import { generateHarborJob } from '../../../scripts/sample-runs/harborJob';
import { harborEveryCase } from '../../../scripts/sample-runs/harborSpec';

function tmp(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'hr-joblock-')).split(path.sep).join('/');
}

/** Node's port, noting every file read through `gather` in `read`; `nodeLocal` said as given (default: Node's own). */
function countingPort(read: string[], nodeLocal?: boolean): FsPort {
  const node = new NodeFs();
  return new Proxy(node, {
    get(target, key) {
      if (key === 'nodeLocal' && nodeLocal !== undefined) return nodeLocal;
      const v = Reflect.get(target, key);
      if (key !== 'gather' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
      return (lists: string[], reads: { path: string }[], stats?: string[]) => {
        for (const r of reads) read.push(r.path);
        return v.call(target, lists, reads, stats);
      };
    },
  });
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
    const counting = countingPort(read);
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

test('a lock of the worker size on Node\'s port is read off this thread (the port never reads it); a smaller one or another port reads it here', async () => {
  const root = tmp();
  try {
    const lockPath = `${root}/lock.json`;
    const text = JSON.stringify({ schema_version: 1, harbor: { version: '0.22.0' }, trials: [] });
    fs.writeFileSync(lockPath, text);
    const node = new NodeFs();
    const asked: string[] = [];
    const counting = (nodeLocal: boolean): FsPort => countingPort(asked, nodeLocal);
    const job = { path: lockPath, maxBytes: 1 << 20 };
    const here = await readJobLockHere(node, job);
    assert.equal(here.lock?.harbor?.version, '0.22.0');
    // At the threshold on Node's port: on the worker, the same answer, nothing read through the port.
    assert.deepEqual(await readJobLock(counting(true), job, text.length, text.length), here);
    assert.deepEqual(asked, [], 'read on the worker thread, not through the port');
    // One byte below the threshold: here, through the port.
    assert.deepEqual(await readJobLock(counting(true), job, text.length - 1, text.length), here);
    assert.deepEqual(asked, [lockPath]);
    // A port whose paths are not Node's: here, whatever the size.
    asked.length = 0;
    assert.deepEqual(await readJobLock(counting(false), job, text.length, 0), here);
    assert.deepEqual(asked, [lockPath]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the worker\'s side (readJobLockOnWorker) reads the lock with Node\'s port and the bound it is given', async () => {
  const root = tmp();
  try {
    const lockPath = `${root}/lock.json`;
    const text = JSON.stringify({ schema_version: 1, harbor: { version: '0.23.1' }, trials: [] });
    fs.writeFileSync(lockPath, text);
    const whole = await readJobLockOnWorker({ path: lockPath, maxBytes: 1 << 20 });
    assert.deepEqual(whole, { lock: { harbor: { version: '0.23.1' } }, problems: [] });
    const bounded = await readJobLockOnWorker({ path: lockPath, maxBytes: 10 });
    assert.equal(bounded.lock, null);
    assert.deepEqual(bounded.problems.map((p) => [p.code, p.severity, p.file]), [['too-big', 'warning', lockPath]]);
    const gone = await readJobLockOnWorker({ path: `${root}/none.json`, maxBytes: 1 << 20 });
    assert.deepEqual(gone.problems.map((p) => [p.code, p.message]), [['missing-file', 'the job lock.json is not on disk']]);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('a lock worker that fails, throws as it starts, exits without answering or cannot start: the lock is read here, the same', async () => {
  const root = tmp();
  const unhandled: unknown[] = [];
  const onUnhandled = (e: unknown) => { unhandled.push(e); };
  process.on('unhandledRejection', onUnhandled);
  try {
    const lockPath = `${root}/lock.json`;
    fs.writeFileSync(lockPath, JSON.stringify({ schema_version: 1, harbor: { version: '0.22.0' }, trials: [] }));
    const node = new NodeFs();
    const asked: string[] = [];
    const counting = countingPort(asked);
    const job = { path: lockPath, maxBytes: 1 << 20 };
    const here = await readJobLockHere(node, job);
    assert.equal(here.lock?.harbor?.version, '0.22.0');
    const port = "require('node:worker_threads').parentPort";
    const workers: Record<string, string | undefined> = {
      failed: `${port}.once('message', () => ${port}.postMessage({ failed: 'no' }));`,
      throws: "throw new Error('a lock worker that cannot start');",
      exits: `${port}.once('message', () => process.exit(3));`,
      unstartable: undefined, // a path Node refuses to start a worker from: the constructor throws
    };
    for (const [name, code] of Object.entries(workers)) {
      const file = code === undefined ? `${name}.js` : `${root}/${name}.js`;
      if (code !== undefined) fs.writeFileSync(file, code);
      asked.length = 0;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${name}: still pending after 5 s`)), 5000); });
      const got = await Promise.race([readJobLock(counting, job, 1 << 20, 0, file), late]).finally(() => clearTimeout(timer));
      assert.deepEqual(got, here, `${name}: the same answer`);
      assert.deepEqual(asked, [lockPath], `${name}: read here, through the port`);
    }
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(unhandled, [], 'no unhandled rejection');
  } finally {
    process.off('unhandledRejection', onUnhandled);
    fs.rmSync(root, { recursive: true, force: true });
  }
});

test('the trials are read while the lock is: a lock slow to come holds back no trial; its problems keep their place (config, lock, result)', async () => {
  const root = tmp();
  try {
    const job = await generateHarborJob(path.join(root, 'jobs'), harborEveryCase());
    const jobDir = job.jobDir.split(path.sep).join('/');
    fs.writeFileSync(`${jobDir}/config.json`, JSON.stringify({ n_attempts: 'two' }));
    fs.writeFileSync(`${jobDir}/lock.json`, '{"harbor": ');
    const result = JSON.parse(fs.readFileSync(`${jobDir}/result.json`, 'utf8')) as Record<string, unknown>;
    fs.writeFileSync(`${jobDir}/result.json`, JSON.stringify({ ...result, n_total_trials: 'many' }));
    const node = new NodeFs();
    const events: string[] = [];
    let release: () => void = () => undefined;
    const released = new Promise<void>((r) => { release = r; });
    const timer = setTimeout(() => release(), 3000); // the reader before: waits for the lock first, then reads the trials
    // Node's port, its paths said not to be Node's (the lock read through it), the lock's read held until a trial is read.
    const port = new Proxy(node, {
      get(target, key) {
        if (key === 'nodeLocal') return false;
        const v = Reflect.get(target, key);
        if (key !== 'gather' || typeof v !== 'function') return typeof v === 'function' ? v.bind(target) : v;
        return async (lists: string[], reads: { path: string }[], stats?: string[]) => {
          if (reads.some((r) => r.path === `${jobDir}/lock.json`)) {
            await released;
            events.push('lock');
          } else if (reads.some((r) => r.path.endsWith('/result.json') && path.posix.dirname(path.posix.dirname(r.path)) === jobDir)) {
            if (!events.includes('trials')) events.push('trials');
            release();
          }
          return v.call(target, lists, reads, stats);
        };
      },
    }) as FsPort;
    const run = await readHarborJob(port, jobDir);
    clearTimeout(timer);
    assert.deepEqual(events, ['trials', 'lock'], 'the trials were read before the lock came');
    assert.deepEqual(run, await readHarborJob(node, jobDir), 'the same run as a read that did not wait');
    const own = run.problems.filter((p) => path.posix.dirname(p.file) === jobDir).map((p) => path.posix.basename(p.file));
    assert.deepEqual([...new Set(own)], ['config.json', 'lock.json', 'result.json'], 'the job files\' problems in their order');
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});
