// Rule 13, the kill test: writer processes SIGKILLed at random moments (hundreds of times) always leave either no
// summary (before the first write completed) or a complete document, the old one or a new one, never half of one;
// and no stray temp file once a later write finished.
//
// Fast by design: the child (killWriter.ts) imports only the writer and writes a small run in a loop; it is killed at
// a random moment while starting or writing for the first time (a quarter of them) or within the two writes after
// its first one (so kills land before, during and between writes, inside the temp file + fsync + rename too);
// several children run at a time, each slot spawning its next writer as soon as the previous
// one died. Checkpoints every ROUND kills wait for every child to be dead, write once in-process, and assert that
// no temp file is left.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { serializeSummary, writeRunSummary } from '../../../src/core/summary';
import { atomicTempPattern } from '../../../src/core/fs/port';
import { buildRunSummary } from '../../../src/core/summary/build';
import { buildRun, type MiniTask } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

const KILLS = Number(process.env.HARBOR_KILL_TEST_KILLS ?? 200);
const PARALLEL = 4;
const ROUND = 50;
const TASKS = 12;
const child = path.join(__dirname, 'killWriter.js');

interface Killed { writes: number; msToFirstWrite: number; msPerWrite: number }

/**
 * Spawns a writer and SIGKILLs it `delayMs` after it reports it is loaded (`from: 'ready'`: while it starts up or
 * writes for the first time) or after its first completed write (`from: 'write'`), or once it completed `afterWrites`
 * writes (the calibration). Resolves once the process is gone.
 */
function killOnce(rollouts: string, from: 'ready' | 'write', delayMs: number, afterWrites = Infinity): Promise<Killed> {
  return new Promise((resolve, reject) => {
    // --no-opt: a writer lives a few hundred ms, too short for the optimizing compiler to pay off (about a quarter
    // less CPU per writer); atomicity does not depend on it.
    const p = spawn(process.execPath, ['--no-opt', child, rollouts], { stdio: ['ignore', 'pipe', 'inherit'] });
    let writes = 0;
    let readyAt = 0;
    let firstAt = 0;
    let killed = false;
    const kill = () => { if (!killed) { killed = true; p.kill('SIGKILL'); } };
    p.stdout.on('data', (b: Buffer) => {
      const s = b.toString();
      if (!readyAt && s.includes('ready')) {
        readyAt = Date.now();
        if (from === 'ready' && Number.isFinite(delayMs)) setTimeout(kill, delayMs);
      }
      const n = (s.match(/w\n/g) ?? []).length;
      if (n && !writes) {
        firstAt = Date.now();
        if (from === 'write' && Number.isFinite(delayMs)) setTimeout(kill, delayMs);
      }
      writes += n;
      if (writes >= afterWrites) kill();
    });
    p.on('exit', (code, signal) => {
      if (!killed || signal !== 'SIGKILL') { reject(new Error(`the writer exited by itself (code ${code}, signal ${signal})`)); return; }
      const now = Date.now();
      resolve({ writes, msToFirstWrite: firstAt - readyAt, msPerWrite: writes > 1 ? (now - firstAt) / (writes - 1) : Infinity });
    });
    p.on('error', reject);
  });
}

test('kill test: a killed writer leaves the old or the new complete summary, never half of one', { skip: !fs.existsSync(child) && 'killWriter.js not built' }, async (t) => {
  const started = Date.now();
  const tasks: MiniTask[] = Array.from({ length: TASKS }, (_, i) => ({
    id: `task-${i}`, repeats: Array.from({ length: 2 }, () => ({ outcome: 'scored' as const, folder: 'none' as const, padBytes: 100 })),
  }));
  // Calibration on a copy of the run (so the summary under test starts absent): how long a writer takes to its first
  // write, and per write after it, on this machine now.
  // A lean run (no prepared rows, run config or reports): each writer's cold first write stays short.
  const spec = { tasks, prepared: false, runConfig: false, health: null, aggregate: null } as const;
  const calib = await killOnce(posix(buildRun(tmpDir('kill-calib'), spec)), 'ready', Infinity, 4);
  const firstSpan = Math.max(5, Math.min(2000, calib.msToFirstWrite * 1.2));
  const writeSpan = Math.max(5, Math.min(2000, calib.msPerWrite * 2));

  const dir = tmpDir('kill');
  const rollouts = posix(buildRun(dir, spec));
  const summary = path.join(dir, 'rollouts_run_summary.json');
  const temps = atomicTempPattern(posix(summary));
  // Every document a writer can produce is this one with its own target: a complete file equals it byte for byte.
  const PLACEHOLDER = 'kill-test-target-placeholder';
  const expected = serializeSummary((await buildRunSummary(nodeFs, rollouts, { identity: { target: PLACEHOLDER }, beforeDispatch: null })).document);
  assert.ok(expected.includes(`"target": "${PLACEHOLDER}"`));

  let everWritten = false;
  let absentChecks = 0;
  let tempsSeen = 0;
  const writesAtKill = new Map<number, number>();
  const check = () => {
    let text: string;
    try {
      text = fs.readFileSync(summary, 'utf8');
    } catch (e) {
      assert.equal((e as NodeJS.ErrnoException).code, 'ENOENT');
      assert.equal(everWritten, false, 'the summary disappeared after it had been written');
      absentChecks++;
      return;
    }
    everWritten = true;
    const target = /"target": "(iteration-\d+-\d+)"/.exec(text)?.[1];
    assert.ok(target, `the summary on disk names a writer's target (${text.length} bytes)`);
    assert.equal(text, expected.replace(PLACEHOLDER, target), 'the summary on disk is one complete document');
  };

  let kills = 0;
  let next = 0;
  const slot = async (until: number) => {
    while (next < until) {
      next++;
      // A quarter of the writers die while starting or in their first write, the others somewhere in their next two.
      const k = Math.random() < 0.25 ? await killOnce(rollouts, 'ready', Math.random() * firstSpan)
        : await killOnce(rollouts, 'write', Math.random() * writeSpan);
      kills++;
      writesAtKill.set(k.writes, (writesAtKill.get(k.writes) ?? 0) + 1);
      check();
    }
  };
  for (let done = 0; done < KILLS; done += ROUND) {
    const until = Math.min(KILLS, done + ROUND);
    await Promise.all(Array.from({ length: PARALLEL }, () => slot(until)));
    // Every writer of this round is dead: whatever temp files they left are stray, and a later write removes them.
    tempsSeen += fs.readdirSync(dir).filter((n) => temps.test(n)).length;
    const res = await writeRunSummary(nodeFs, rollouts, { identity: { target: `iteration-${process.pid}-${done}` }, beforeDispatch: null });
    assert.equal(res.error, undefined);
    check();
    assert.deepEqual(fs.readdirSync(dir).filter((n) => temps.test(n) || n.endsWith('.tmp')), [], 'no stray temp file after a later write');
  }
  assert.equal(kills, KILLS);
  assert.ok(everWritten, 'at least one write completed');
  // The random moments do spread over the writes: some writers die before their first write, some after it.
  if (KILLS >= 50) assert.ok((writesAtKill.get(0) ?? 0) > 0 && [...writesAtKill.keys()].some((w) => w > 0), `kills spread over writes: ${[...writesAtKill]}`);
  const spread = [...writesAtKill].sort((a, b) => a[0] - b[0]).map(([w, n]) => `${n}×${w}`).join(' ');
  t.diagnostic(`first write after ${Math.round(calib.msToFirstWrite)} ms, then ≈ ${Math.round(calib.msPerWrite)} ms per write; ${KILLS} kills (${PARALLEL} at a time) in ${Date.now() - started} ms; `
    + `writes done when killed: ${spread}; summary absent at ${absentChecks} checks; temp files left by killed writers: ${tempsSeen}`);
});
