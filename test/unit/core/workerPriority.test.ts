// The readers' worker threads below their starter's priority where a thread has its own (Linux): the folder lister
// started after setReaderWorkerNice(n) runs n nice steps lower, the starting thread is left as it was, and with 0 (the
// CLI's default) nothing is lowered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import { DirLister } from '../../../src/core/fs/dirLister';
import { lowerThisThread, readerWorkerData, setReaderWorkerNice } from '../../../src/core/fs/workerPriority';

/** The nice value of each thread of this process (Linux /proc). */
function threadNices(): number[] {
  return fs.readdirSync(`/proc/${process.pid}/task`).map((t) =>
    Number(fs.readFileSync(`/proc/${process.pid}/task/${t}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ')[16]));
}

const linux = process.platform === 'linux' && fs.existsSync(`/proc/${process.pid}/task`);

test('a folder lister started after setReaderWorkerNice(3) runs 3 steps below this thread; with 0 none is lowered', { skip: !linux && 'no per-thread priority here' }, async () => {
  const base = os.getPriority();
  if (base > 15) return; // (already near the bottom: nothing to tell apart)
  const before = threadNices().filter((n) => n === base + 3).length;
  setReaderWorkerNice(3);
  const low = new DirLister();
  try {
    await low.gather([os.tmpdir()], []);
    assert.equal(threadNices().filter((n) => n === base + 3).length, before + 1, 'one thread more at +3: the lister');
    assert.equal(os.getPriority(), base, 'this thread as it was');
  } finally {
    await low.dispose();
    setReaderWorkerNice(0);
  }
  const same = new DirLister();
  try {
    const others = threadNices().filter((n) => n !== base).length;
    await same.gather([os.tmpdir()], []);
    assert.equal(threadNices().filter((n) => n !== base).length, others, 'no thread lowered with 0');
  } finally {
    await same.dispose();
  }
});

test('readerWorkerData clamps to 0..19; lowerThisThread ignores anything that is not a positive number', () => {
  setReaderWorkerNice(-4);
  assert.deepEqual(readerWorkerData(), { nice: 0 });
  setReaderWorkerNice(40);
  assert.deepEqual(readerWorkerData(), { nice: 19 });
  setReaderWorkerNice(0);
  const base = os.getPriority();
  for (const d of [undefined, null, {}, { nice: 0 }, { nice: -3 }, { nice: '5' }, { nice: Number.NaN }]) lowerThisThread(d);
  assert.equal(os.getPriority(), base);
});
