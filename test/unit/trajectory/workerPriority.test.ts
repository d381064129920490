// The trajectory worker reads at a lower priority than the thread it serves (src/core/threadPriority.ts): on Linux its
// own thread's nice value is raised to 10 while the calling thread's stays where it was; elsewhere nothing changes.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { featureTrajectory } from '../../../scripts/sample-runs/atifFeatures';
import { RemoteTrajectory } from '../../../src/core/trajectory/remote';
import { lowerThreadPriority, threadId } from '../../../src/core/threadPriority';

const WORKER = path.resolve(__dirname, '../../../trajectoryWorker.js');
const linux = fs.existsSync('/proc/thread-self');

/** Each thread of this process with its nice value (field 19 of /proc/<pid>/task/<tid>/stat). */
function threadNices(): Map<number, number> {
  const out = new Map<number, number>();
  for (const t of fs.readdirSync('/proc/self/task')) {
    try {
      const fields = fs.readFileSync(`/proc/self/task/${t}/stat`, 'utf8').replace(/^.*\) /s, '').split(' ');
      out.set(Number(t), Number(fields[16]));
    } catch { /* the thread ended */ }
  }
  return out;
}

test('the worker\'s thread reads at nice 10; the thread that opened it keeps its priority', { skip: !linux && 'threads have no nice value of their own here' }, async (t) => {
  const base = os.getPriority(process.pid);
  if (base >= 10) { t.skip(`this process already runs at nice ${base}`); return; }
  assert.equal(threadId(), process.pid, 'the main thread\'s id is the process id');
  const before = threadNices();
  assert.ok(![...before.values()].some((n) => n >= 10), 'no thread is lowered before the worker starts');
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'traj-priority-'));
  for (const [rel, v] of Object.entries(featureTrajectory())) {
    fs.mkdirSync(path.dirname(path.join(d, rel)), { recursive: true });
    fs.writeFileSync(path.join(d, rel), v instanceof Uint8Array ? v : JSON.stringify(v));
  }
  const remote = await RemoteTrajectory.open(WORKER, path.join(d, 'trajectory.json'), d);
  try {
    await remote.done;
    const after = threadNices();
    const lowered = [...after].filter(([tid, n]) => n === 10 && !before.has(tid));
    assert.equal(lowered.length, 1, `one new thread at nice 10 (the worker's): ${JSON.stringify([...after])}`);
    assert.equal(after.get(process.pid), base, 'the opening thread keeps its nice value');
    assert.ok((await remote.ask('outline', []))!.rows.length > 0, 'the lowered worker still answers');
  } finally {
    remote.dispose();
    fs.rmSync(d, { recursive: true, force: true });
  }
});

test('lowerThreadPriority never raises a thread\'s priority (that needs privileges): a lower target leaves it as it is', { skip: !linux && 'threads have no nice value of their own here' }, () => {
  const base = os.getPriority(process.pid);
  assert.equal(lowerThreadPriority(base - 1), base);
  assert.equal(os.getPriority(process.pid), base);
});
