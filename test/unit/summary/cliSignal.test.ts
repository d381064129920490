// `harbor-runs summary` stopped by Ctrl-C (SIGINT) or a pipeline's SIGTERM: the write is cancelled, its temp file
// removed, the summary left as it was, a line says so and the exit status is the shell's for that signal (130, 143).
// Without the handling the process died there and then with its half-written temp file beside the summary.
// The signals are emitted in-process (the CLI's own listeners run; the test runner has none), before the write
// starts, and while the temp file is being written (seen by a watch on the folder).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commands } from '../../../src/cli/commands';
import { atomicTempPattern } from '../../../src/core/fs/port';
import { buildRun, type MiniTask } from './builders';
import { posix, tmpDir } from './helpers';

async function cli(argv: string[], during?: (started: Promise<number>) => void): Promise<{ code: number; err: string }> {
  // stderr is recorded; stdout (the path written) is left alone: it is also the test runner's channel.
  let err = '';
  const e = process.stderr.write;
  process.stderr.write = ((s: string | Uint8Array) => { err += String(s); return true; }) as typeof process.stderr.write;
  try {
    const [name, ...rest] = argv;
    const started = commands[name](rest);
    during?.(started);
    return { code: await started, err };
  } finally {
    process.stderr.write = e;
  }
}

/** A run whose summary is several MiB (written in several chunks), with an earlier summary beside it. */
function bigRun(label: string): { rollouts: string; summary: string; before: string } {
  const dir = tmpDir(label);
  const tasks: MiniTask[] = Array.from({ length: 2500 }, (_, i) => ({
    id: `task-${i}`, repeats: Array.from({ length: 4 }, () => ({ outcome: 'scored' as const, folder: 'none' as const })),
  }));
  const rollouts = posix(buildRun(dir, { tasks, prepared: false, runConfig: false, health: null, aggregate: null }));
  const summary = path.join(dir, 'rollouts_run_summary.json');
  const before = '{"schema_version": 1, "target": "the earlier summary"}\n';
  fs.writeFileSync(summary, before);
  return { rollouts, summary, before };
}

const temps = (summary: string) => fs.readdirSync(path.dirname(summary)).filter((n) => atomicTempPattern(posix(summary)).test(n));

test('summary: SIGINT before the write cancels it: exit 130, a line saying so, the summary as it was', async () => {
  const { rollouts, summary, before } = bigRun('cli-sigint');
  const r = await cli(['summary', rollouts], () => { process.emit('SIGINT', 'SIGINT'); });
  assert.equal(r.code, 130, r.err);
  assert.match(r.err, /harbor-runs summary: cancelled \(SIGINT\): nothing written, .*rollouts_run_summary\.json is as it was/);
  assert.equal(fs.readFileSync(summary, 'utf8'), before);
  assert.deepEqual(temps(summary), []);
  assert.equal(process.listenerCount('SIGINT'), 0, 'the CLI removes its listeners');
});

test('summary: SIGTERM while the temp file is written: the temp file is removed, exit 143, the summary as it was', async () => {
  const { rollouts, summary, before } = bigRun('cli-sigterm');
  let seen = '';
  const watcher = fs.watch(path.dirname(summary), (_event, name) => {
    if (!seen && name && atomicTempPattern(posix(summary)).test(String(name))) {
      seen = String(name);
      process.emit('SIGTERM', 'SIGTERM');
    }
  });
  let r: { code: number; err: string };
  try { r = await cli(['summary', rollouts]); } finally { watcher.close(); }
  assert.ok(seen, 'the temp file was seen while written');
  assert.equal(r.code, 143, r.err);
  assert.match(r.err, /cancelled \(SIGTERM\)/);
  assert.equal(fs.readFileSync(summary, 'utf8'), before);
  assert.deepEqual(temps(summary), []);
  // Nothing was cancelled: the same command writes it.
  const again = await cli(['summary', rollouts]);
  assert.equal(again.code, 0, again.err);
  assert.equal((JSON.parse(fs.readFileSync(summary, 'utf8')) as { tasks: unknown[] }).tasks.length, 2500);
});
