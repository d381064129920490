// Rule 13, the kill test: a writer process SIGKILLed at random moments (hundreds of times) always leaves either no
// summary (before its first write) or a complete old or new document, and no stray temp file once a later write
// finished.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tempPattern, writeRunSummary } from '../../../src/core/summary';
import { RunSummarySchema } from '../../../src/core/schemas/runSummary';
import { buildRun, type MiniTask } from './builders';
import { nodeFs, posix, tmpDir } from './helpers';

const KILLS = Number(process.env.HARBOR_KILL_TEST_KILLS ?? 200);
const child = path.join(__dirname, 'killWriter.js');

/** Spawns a writer and SIGKILLs it `delayMs` after it is loaded, or after `afterWrites` writes; resolves ms per write. */
function killOnce(rollouts: string, delayMs: number, afterWrites = Infinity): Promise<number> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [child, rollouts], { stdio: ['ignore', 'pipe', 'pipe'] });
    let writes = 0;
    let readyAt = 0;
    p.stdout.on('data', (b: Buffer) => {
      const s = b.toString();
      writes += (s.match(/w\n/g) ?? []).length;
      if (!readyAt && s.includes('ready')) {
        readyAt = Date.now();
        if (Number.isFinite(delayMs)) setTimeout(() => p.kill('SIGKILL'), delayMs);
      }
      if (writes >= afterWrites) p.kill('SIGKILL');
    });
    p.on('exit', () => resolve(writes ? (Date.now() - readyAt) / writes : Infinity));
    p.on('error', reject);
  });
}

test('kill test: a killed writer leaves the old or the new complete summary, never half of one', { skip: !fs.existsSync(child) && 'killWriter.js not built' }, async (t) => {
  const dir = tmpDir('kill');
  const tasks: MiniTask[] = Array.from({ length: 150 }, (_, i) => ({
    id: `task-${i}`, repeats: Array.from({ length: 2 }, () => ({ outcome: 'scored' as const, folder: 'none' as const, padBytes: 1000 })),
  }));
  const rollouts = posix(buildRun(dir, { tasks }));
  const summary = path.join(dir, 'rollouts_run_summary.json');
  const temps = tempPattern(posix(summary));
  let everWritten = false;
  let tempsLeft = 0;
  const started = Date.now();
  const pending: Promise<void>[] = [];
  const check = () => {
    if (!fs.existsSync(summary)) {
      assert.equal(everWritten, false, 'the summary disappeared after it had been written');
      return;
    }
    everWritten = true;
    const doc = JSON.parse(fs.readFileSync(summary, 'utf8'));
    assert.ok(RunSummarySchema.safeParse(doc).success, 'the summary on disk validates');
    assert.equal(doc.tasks.length, 150);
    assert.match(doc.target, /^iteration-\d+-\d+$/);
  };
  // Calibrate on this machine's load: how long one write takes; kills then land anywhere in [0, 2.5 writes].
  const perWrite = await killOnce(rollouts, Infinity, 3);
  check();
  const span = Math.max(20, Math.min(2000, Math.round(perWrite * 2.5)));
  const PARALLEL = 4;
  for (let i = 0; i < KILLS; i += PARALLEL) {
    // Several writers at a time (start-up dominates): concurrent writers must not break atomicity either.
    pending.length = 0;
    for (let k = 0; k < PARALLEL; k++) pending.push(killOnce(rollouts, Math.floor(Math.random() * span)).then(() => undefined));
    await Promise.all(pending);
    check();
    tempsLeft += fs.readdirSync(dir).filter((n) => temps.test(n)).length;
  }
  assert.ok(everWritten, 'at least one write completed');
  const res = await writeRunSummary(nodeFs, rollouts, { beforeDispatch: null });
  assert.equal(res.error, undefined);
  assert.deepEqual(fs.readdirSync(dir).filter((n) => temps.test(n) || n.endsWith('.tmp')), [], 'no stray temp file after a later write');
  t.diagnostic(`one write ≈ ${Math.round(perWrite)} ms; ${KILLS} kills in ${Date.now() - started} ms; temp files seen left by killed writers: ${tempsLeft}`);
});
