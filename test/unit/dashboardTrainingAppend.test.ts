// Training curves of a run still training: metrics.jsonl only grows, so a re-read goes on from where the last read
// ended (readTrainingTable with the earlier table) and gives what reading the whole file gives; a file rewritten or
// cut short is read whole again; the earlier table is left as it was.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { type TrainingTable, readTrainingTable } from '../../src/core/dashboard/training';
import { MemFs } from '../../scripts/sample-runs/memFs';
import { counted } from '../support/countedFs';

const enc = new TextEncoder();
const PATH = '/run/train/metrics.jsonl';

function line(step: number, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ step, reward: step / 10, kl: step / 100, ...extra });
}

function same(a: TrainingTable, b: TrainingTable): void {
  assert.deepEqual(a.steps, b.steps);
  assert.deepEqual([...a.columns.entries()], [...b.columns.entries()]);
  assert.equal(a.badLines, b.badLines);
  assert.equal(a.live, b.live);
  assert.deepEqual(a.resume, b.resume);
}

test('a grown file: only the appended bytes are read, and the table is what the whole file gives', async () => {
  const mem = new MemFs();
  const head = Array.from({ length: 200 }, (_, i) => line(i + 1)).join('\n') + '\n';
  mem.put(PATH, enc.encode(head), 1000);
  const { fs, bytes } = counted(mem);
  const t1 = await readTrainingTable(fs, PATH);
  assert.equal(t1.size, 200);
  const grown = `${head}${line(201)}\nnot json\n${line(202, { entropy: 0.5 })}\n`;
  mem.put(PATH, enc.encode(grown), 2000);
  const before = bytes();
  const t2 = await readTrainingTable(fs, PATH, t1);
  // The appended part and the few bytes that tell the file only grew (256 before the resume point and the first 256,
  // checked before and kept after): not the head again (about 8 kB).
  assert.ok(head.length > 5000);
  assert.ok(bytes() - before < grown.length - head.length + 1200, `read ${bytes() - before} bytes for ${grown.length - head.length} appended`);
  same(t2, await readTrainingTable(mem, PATH));
  assert.equal(t2.size, 202);
  assert.equal(t2.badLines, 1);
  assert.deepEqual(t2.columns.get('entropy')!.slice(198), [null, null, null, 0.5]);
  // The earlier table (the one the chart was cut from) did not change.
  assert.equal(t1.size, 200);
  assert.equal(t1.columns.has('entropy'), false);
});

test('a last line without a newline is taken back and read again once it is finished (no step twice)', async () => {
  const mem = new MemFs();
  mem.put(PATH, enc.encode(`${line(1)}\n${line(2)}`), 1000); // line 2 parses, but the writer may not be done
  const t1 = await readTrainingTable(mem, PATH);
  assert.deepEqual(t1.steps, [1, 2]);
  mem.put(PATH, enc.encode(`${line(1)}\n${line(2)}\n${line(3)}\n{"step":4,"rew`), 2000);
  const t2 = await readTrainingTable(mem, PATH, t1);
  assert.deepEqual(t2.steps, [1, 2, 3]);
  assert.equal(t2.live, true);
  mem.put(PATH, enc.encode(`${line(1)}\n${line(2)}\n${line(3)}\n{"step":4,"reward":0.4}\n{"reward":9}\n`), 3000);
  const t3 = await readTrainingTable(mem, PATH, t2);
  assert.deepEqual(t3.steps, [1, 2, 3, 4]);
  assert.equal(t3.live, false);
  same(t3, await readTrainingTable(mem, PATH));
});

test('a tail line without a step, or not an object, counts as bad once however often it is re-read', async () => {
  const mem = new MemFs();
  mem.put(PATH, enc.encode(`${line(1)}\n{"reward":1}`), 1000);
  const t1 = await readTrainingTable(mem, PATH);
  assert.equal(t1.badLines, 1);
  mem.put(PATH, enc.encode(`${line(1)}\n{"reward":1}\n[2]`), 2000);
  const t2 = await readTrainingTable(mem, PATH, t1);
  assert.equal(t2.badLines, 2);
  mem.put(PATH, enc.encode(`${line(1)}\n{"reward":1}\n[2]\n${line(2)}\n`), 3000);
  const t3 = await readTrainingTable(mem, PATH, t2);
  same(t3, await readTrainingTable(mem, PATH));
  assert.equal(t3.badLines, 2);
});

test('a rewritten file (other bytes before where the last read ended) is read whole again', async () => {
  const mem = new MemFs();
  mem.put(PATH, enc.encode(`${line(1)}\n${line(2)}\n`), 1000);
  const t1 = await readTrainingTable(mem, PATH);
  // A new run started in the same folder: the same length up to there, other values, then more.
  mem.put(PATH, enc.encode(`${line(7)}\n${line(8)}\n${line(9)}\n`), 2000);
  const t2 = await readTrainingTable(mem, PATH, t1);
  assert.deepEqual(t2.steps, [7, 8, 9]);
  same(t2, await readTrainingTable(mem, PATH));
});

test('a file cut shorter than the last read is read whole again', async () => {
  const mem = new MemFs();
  mem.put(PATH, enc.encode(`${line(1)}\n${line(2)}\n${line(3)}\n`), 1000);
  const t1 = await readTrainingTable(mem, PATH);
  mem.put(PATH, enc.encode(`${line(1)}\n`), 2000);
  const t2 = await readTrainingTable(mem, PATH, t1);
  assert.deepEqual(t2.steps, [1]);
  same(t2, await readTrainingTable(mem, PATH));
});

test('a key only a taken-back last line had is gone with it; columns grown past their first size keep their gaps', async () => {
  const mem = new MemFs();
  const head = Array.from({ length: 300 }, (_, i) => line(i + 1, i % 100 === 0 ? { loss: null } : {})).join('\n');
  mem.put(PATH, enc.encode(`${head}\n${line(301, { grad_norm: 2 })}`), 1000); // grad_norm first seen on an unfinished line
  const t1 = await readTrainingTable(mem, PATH);
  assert.equal(t1.columns.get('grad_norm')?.[300], 2);
  mem.put(PATH, enc.encode(`${head}\n${line(301)}\n${line(302)}\n`), 2000); // the line was rewritten without it
  const t2 = await readTrainingTable(mem, PATH, t1);
  assert.equal(t2.lastRead.continued, true);
  assert.equal(t2.columns.has('grad_norm'), false);
  same(t2, await readTrainingTable(mem, PATH));
  const loss = t2.columns.get('loss')!;
  assert.deepEqual([loss[0], loss[1], loss[100], loss[299], loss[301]], [null, null, null, null, null]);
  assert.equal(loss.length, 302);
});
