// Rules 6–7 for the verifier folders, on both ways the writer probes them: through FsPort.probeDirs (a worker thread
// on Node) and, for a backend without it, folder by folder on this thread (readDir, then stat) in a bounded pool. The
// expected paths are written by hand; both backends must give them.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { FsPort } from '../../../src/core/fs/port';
import { buildRunSummary } from '../../../src/core/summary';
import { MovedRoot, Pool, rootFromLogDirs } from '../../../src/core/summary/verification';
import { buildRun } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

/** nodeFs without its worker-thread helpers: every folder is listed on this thread. */
const plainFs: FsPort = Object.assign(Object.create(nodeFs) as FsPort, { probeDirs: undefined, listDirs: undefined, gather: undefined });
const BACKENDS: [string, FsPort][] = [['probeDirs', nodeFs], ['this thread', plainFs]];
const pathsOf = (r: { verifier_logs: unknown; test_stdout: unknown; reward_file: unknown; trajectory: unknown; artifacts: unknown; missing: unknown }) =>
  [r.verifier_logs, r.test_stdout, r.reward_file, r.trajectory, r.artifacts, r.missing];

test('what a verifier folder holds, named under it; a file where a folder is expected (or the reverse) is not it', async () => {
  for (const [name, port] of BACKENDS) {
    const dir = tmpDir('holdings');
    const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats: [
      { outcome: 'scored', mode: 'separate', files: ['test-stdout.txt', 'reward.json', 'reward.txt', 'trajectory.json', 'artifacts/'] },
      { outcome: 'scored', files: ['reward.txt'] },
      { outcome: 'scored', files: ['artifacts', 'trajectory.json/', 'test-stdout.txt/', 'reward.json/'] },
      { outcome: 'scored', files: [] },
      { outcome: 'scored', folder: 'absent' },
    ] }] }));
    const { document } = await buildRunSummary(port, rollouts);
    assert.deepEqual(document.tasks[0].repeats.map(pathsOf), [
      ['verifier/s-0-0', 'verifier/s-0-0/test-stdout.txt', 'verifier/s-0-0/reward.json', 'verifier/s-0-0/trajectory.json', 'verifier/s-0-0/artifacts', []],
      ['verifier/s-0-1', null, 'verifier/s-0-1/reward.txt', null, null, ['verifier/s-0-1/test-stdout.txt']],
      ['verifier/s-0-2', null, null, null, null, ['verifier/s-0-2/test-stdout.txt']],
      ['verifier/s-0-3', null, null, null, null, ['verifier/s-0-3/test-stdout.txt']],
      [null, null, null, null, null, ['verifier/s-0-4']],
    ], name);
    assert.deepEqual(document.missing_paths, ['verifier/s-0-1/test-stdout.txt', 'verifier/s-0-2/test-stdout.txt',
      'verifier/s-0-3/test-stdout.txt', 'verifier/s-0-4'], name);
  }
});

test('a results folder moved as a whole: folders found where the moved root puts them, on either backend', async () => {
  for (const [name, port] of BACKENDS) {
    for (const runConfig of [true, false]) {
      const dir = tmpDir('moved');
      const rollouts = posix(buildRun(dir, { runConfig, originalRoot: '/nonexistent-root/gym/results/mini', tasks: [{ id: 'a', repeats: [
        { outcome: 'scored', files: ['test-stdout.txt', 'reward.txt'] }, { outcome: 'scored', folder: 'absent' },
      ] }] }));
      const { document } = await buildRunSummary(port, rollouts);
      assert.deepEqual(document.tasks[0].repeats.map(pathsOf), [
        ['verifier/s-0-0', 'verifier/s-0-0/test-stdout.txt', 'verifier/s-0-0/reward.txt', null, null, []],
        [null, null, null, null, null, ['verifier/s-0-1']],
      ], `${name}, run config ${runConfig}`);
    }
  }
});

test('many folders on this thread (more than the pool runs at once): each repeat gets its own folder\'s paths', async () => {
  const dir = tmpDir('many');
  const repeats = Array.from({ length: 130 }, (_, r) => (r % 3 === 2 ? { outcome: 'scored' as const, folder: 'absent' as const }
    : { outcome: 'scored' as const, files: r % 3 === 0 ? ['test-stdout.txt', 'reward.txt'] : ['test-stdout.txt', 'trajectory.json'] }));
  const rollouts = posix(buildRun(dir, { tasks: [{ id: 'a', repeats }] }));
  const { document } = await buildRunSummary(plainFs, rollouts);
  assert.deepEqual(document.tasks[0].repeats.map(pathsOf), repeats.map((_, r) => {
    const d = `verifier/s-0-${r}`;
    return r % 3 === 2 ? [null, null, null, null, null, [d]]
      : [d, `${d}/test-stdout.txt`, r % 3 === 0 ? `${d}/reward.txt` : null, r % 3 === 0 ? null : `${d}/trajectory.json`, null, []];
  }));
});

test('rootFromLogDirs: the parent of the folders\' common parent, from absolute paths only, at least two levels deep', () => {
  assert.equal(rootFromLogDirs(['/r/res/verifier/s1', '/r/res/verifier/s2']), '/r/res');
  assert.equal(rootFromLogDirs(['/r/res/verifier/s1', 'rel/x/y', '/r/res/other/s2']), '/r');
  assert.equal(rootFromLogDirs(['/r/res/verifier/s1/']), '/r/res');
  assert.equal(rootFromLogDirs(['/a/s1', '/a/s2']), null);
  assert.equal(rootFromLogDirs(['/a/b/s1', '/c/b/s2']), null);
  assert.equal(rootFromLogDirs(['rel/a/b/c']), null);
  assert.equal(rootFromLogDirs([]), null);
});

test('MovedRoot.map: a path under the original root onto the current one; anything else is not mapped', () => {
  const m = new MovedRoot('/old/res', '/new/here');
  assert.equal(m.map('/old/res'), '/new/here');
  assert.equal(m.map('/old/res/verifier/s1'), '/new/here/verifier/s1');
  assert.equal(m.map('/old/resx/s1'), null);
  assert.equal(m.map('/other/s1'), null);
  assert.equal(new MovedRoot('/old/res/', '/new').map('/old/res/v/s'), '/new/v/s');
  assert.equal(new MovedRoot(null, '/new').map('/old/res/v'), null);
  assert.equal(new MovedRoot('/same', '/same').map('/same/v'), null);
  // Whatever the form of the paths, the mapped one is normal: one slash between root and tail, `.` and `..` applied.
  assert.equal(new MovedRoot('/old', '/new/').map('/old/v/s'), '/new/v/s');
  assert.equal(new MovedRoot('/old', '/new//here/').map('/old/v/s'), '/new/here/v/s');
  assert.equal(new MovedRoot('/old', '/new/./x/..').map('/old/v/s'), '/new/v/s');
  assert.equal(new MovedRoot('/old', '/new').map('/old/v/../w//s'), '/new/w/s');
  assert.equal(new MovedRoot('/old', '/new').map('/old/./v'), '/new/v');
  assert.equal(new MovedRoot('/', '/new').map('/v/s'), '/new/v/s');
});

test('Pool: at most `limit` jobs run at once, in order; backlog and whenBacklogAtMost follow the queue', async () => {
  const pool = new Pool(2);
  let running = 0;
  let most = 0;
  const order: number[] = [];
  const gates: (() => void)[] = [];
  const job = (i: number) => () => new Promise<number>((resolve) => {
    running++; most = Math.max(most, running); order.push(i);
    gates.push(() => { running--; resolve(i * 10); });
  });
  const results = [0, 1, 2, 3, 4].map((i) => pool.run(job(i)));
  assert.equal(pool.backlog, 3);
  assert.equal(pool.whenBacklogAtMost(3), undefined);
  let low = false;
  void pool.whenBacklogAtMost(1)!.then(() => { low = true; });
  gates.shift()!();
  await new Promise((r) => setImmediate(r));
  assert.equal(pool.backlog, 2);
  assert.equal(low, false);
  gates.shift()!();
  await new Promise((r) => setImmediate(r));
  assert.equal(pool.backlog, 1);
  assert.equal(low, true);
  while (gates.length) { gates.shift()!(); await new Promise((r) => setImmediate(r)); }
  assert.deepEqual(await Promise.all(results), [0, 10, 20, 30, 40]);
  assert.deepEqual(order, [0, 1, 2, 3, 4]);
  assert.equal(most, 2);
  assert.equal(pool.backlog, 0);
  // A job that throws rejects its own promise only.
  const failing = pool.run(() => { throw new Error('boom'); });
  await assert.rejects(failing, /boom/);
  assert.equal(await pool.run(async () => 7), 7);
});
