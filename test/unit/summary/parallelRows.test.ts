// The row workers (parallelRows.ts) give what this thread gives: the same outcome for every line, with the same
// line number, in file order, the same long lines dropped, the same cut-off tail; and the writer's rows, problems
// and document are the same read either way.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import type { FsPort } from '../../../src/core/fs/port';
import { forEachLine } from '../../../src/core/summary/lines';
import { pickLine, RESULT_KEYS, type LineOutcome } from '../../../src/core/summary/lineOutcome';
import { forEachPickedLine, rowWorkerFile } from '../../../src/core/summary/parallelRows';
import { buildRunSummary, serializeSummary } from '../../../src/core/summary';
import { generateNemoRun, nemoEveryCase } from '../../../scripts/sample-runs/nemoGym';
import { posix, tmpDir } from './helpers';

/** A small PRNG, so a failing file can be made again from its seed. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => { s = (s * 1664525 + 1013904223) >>> 0; return s / 2 ** 32; };
}

/** Lines of every kind the scanner meets: rows, blanks, CRLF, broken JSON, bytes that are not UTF-8, a BOM, long ones. */
function randomFile(seed: number): Buffer {
  const r = rng(seed);
  const parts: Buffer[] = [];
  if (r() < 0.5) parts.push(Buffer.from([0xef, 0xbb, 0xbf]));
  const n = 5 + Math.floor(r() * 40);
  for (let i = 0; i < n; i++) {
    const x = r();
    const text = 'x'.repeat(Math.floor(r() * 300));
    const row = JSON.stringify({ _ng_task_id: { taskset: 's', task_id: `t${i}` }, _ng_rollout_index: i % 3, reward: r() < 0.2 ? null : i,
      response: { output: [{ text: `"quoted" \\ ${text} é` }] }, verifier_logs_dir: `/v/${i}`, responses_create_params: { metadata: { a: i } } });
    let line: Buffer;
    if (x < 0.55) line = Buffer.from(row);
    else if (x < 0.62) line = Buffer.from('');
    else if (x < 0.68) line = Buffer.from('  \t ');
    else if (x < 0.75) line = Buffer.from(row.slice(0, Math.floor(row.length / 2)));
    else if (x < 0.8) line = Buffer.concat([Buffer.from(row.slice(0, 40)), Buffer.from([0xff, 0xfe]), Buffer.from(row.slice(40))]);
    else if (x < 0.85) line = Buffer.from(`${row}\r`);
    else if (x < 0.9) line = Buffer.from(`{"_ng_task_id": "t${i}", "reward": 1e400, "_ng_rollout_index": 0}`);
    else line = Buffer.from(`[${row}]`);
    parts.push(line);
    if (i < n - 1 || r() < 0.6) parts.push(Buffer.from('\n'));
  }
  return Buffer.concat(parts);
}

// Outcomes compared as objects (deepEqual tells Infinity from null: a reward of 1e400 must reach the writer's
// thread as Infinity, not as the null JSON would write).
type Seen = [LineOutcome | 'long', number, boolean | number][];

async function onThisThread(fsPort: FsPort, file: string, chunk: number): Promise<Seen> {
  const seen: Seen = [];
  await forEachLine(fsPort, file, (buf, start, end, line, terminated) => {
    const o = pickLine(RESULT_KEYS, buf, start, end, line === 1, terminated);
    if (o) seen.push([o, line, terminated]);
  }, chunk, undefined, (line, bytes) => seen.push(['long', line, bytes]));
  return seen;
}

async function onWorkers(fsPort: FsPort, file: string, chunk: number, workers: number): Promise<Seen> {
  const seen: Seen = [];
  const ran = await forEachPickedLine(fsPort, file, {
    onOutcome: (o: LineOutcome, line, terminated) => seen.push([o, line, terminated]),
    onLongLine: (line, bytes) => seen.push(['long', line, bytes]),
  }, workers, chunk);
  assert.ok(ran, 'the row workers ran');
  return seen;
}

test('row workers: the bundle is found beside the tests\' bundles', () => {
  assert.ok(rowWorkerFile(), 'out/summaryRowWorker.js');
});

test('row workers pick every line as this thread does, whatever the chunk size (lines across chunks, long lines, cut-off tail)', async () => {
  const dir = tmpDir('rows-parallel');
  let infinite = 0;
  for (let seed = 1; seed <= 24; seed++) {
    const file = path.join(dir, `f${seed}.jsonl`);
    fs.writeFileSync(file, randomFile(seed));
    // A line limit below some rows' length: those are dropped as too long, the same way on both sides.
    const fsPort = new NodeFs({ maxFileBytes: seed % 3 === 0 ? 350 : 1 << 20 });
    for (const chunk of [7, 64, 333, 4096]) {
      const want = await onThisThread(fsPort, posix(file), chunk);
      if (chunk === 4096 && want.some(([o]) => o !== 'long' && o.row?.reward === Infinity)) infinite++;
      assert.deepEqual(await onWorkers(fsPort, posix(file), chunk, 1 + (seed % 3)), want, `seed ${seed}, chunk ${chunk}`);
    }
  }
  assert.ok(infinite > 0, 'some files hold a reward of 1e400 (Infinity)');
});

test('row workers: the writer\'s document and problems are the same read on workers or on this thread', async () => {
  const dir = tmpDir('rows-parallel-run');
  const run = await generateNemoRun(dir, nemoEveryCase());
  // The rollouts with a broken row, a duplicate, a blank line and a cut-off tail appended.
  const rollouts = run.rolloutsPath;
  const lines = fs.readFileSync(rollouts, 'utf8').split('\n').filter(Boolean);
  fs.appendFileSync(rollouts, `\n{"broken": \n${lines[0]}\n${lines[1].slice(0, 60)}`);
  const node = new NodeFs();
  const here = await buildRunSummary(node, posix(rollouts), { beforeDispatch: null, rowWorkers: 0 });
  for (const rowWorkers of [1, 3]) {
    const there = await buildRunSummary(node, posix(rollouts), { beforeDispatch: null, rowWorkers });
    assert.equal(serializeSummary(there.document), serializeSummary(here.document), `${rowWorkers} workers`);
    assert.deepEqual(there.problems, here.problems, `${rowWorkers} workers`);
  }
  assert.ok(here.problems.some((p) => p.code === 'incomplete-tail') && here.problems.some((p) => p.code === 'duplicate-row')
    && here.problems.some((p) => p.code === 'parse-error'), 'the appended lines are said');
});
