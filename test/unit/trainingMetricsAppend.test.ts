// The run reader's pass over a training run's metrics.jsonl reads a grown file on from where its last read ended and
// gives exactly what reading the whole file gives (steps, last numbers, schema and zero-advantage notes with their
// caps, bad lines, an unfinished last line); a file rewritten, cut short or with too many problems is read whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readTrainingMetrics } from '../../src/core/readers/trainingMetrics';
import { MemFs } from '../../scripts/sample-runs/memFs';
import { counted } from '../support/countedFs';

const enc = new TextEncoder();
const PATH = '/p/runs/r/train/metrics.jsonl';

/** What a read of the whole text gives (a fresh port: nothing kept from earlier reads). */
async function whole(text: string) {
  const mem = new MemFs();
  mem.put(PATH, enc.encode(text), 1);
  return readTrainingMetrics(mem, PATH);
}

/** Line i of a log with every kind of row: plain, zero advantage, schema issues (with and without a step), bad JSON. */
function row(i: number): string {
  switch (i % 9) {
    case 3: return JSON.stringify({ step: i, reward: 0.5, reward_std: 0 });
    case 5: return JSON.stringify({ step: i, reward: 'high', kl: 0.1 });
    case 7: return JSON.stringify({ reward: 1 });
    case 8: return i % 2 ? 'not json' : '[1,2]';
    default: return JSON.stringify({ step: i, reward: i / 100, reward_std: 0.1, loss: 1 / i, extra_metric: i });
  }
}

test('a log growing in pieces, some ending mid-line: each read on gives what the whole file gives, reading about what was added', async () => {
  const mem = new MemFs();
  const { fs, bytes } = counted(mem);
  let text = '';
  let n = 0;
  let mtime = 1;
  for (const [add, cut] of [[40, false], [7, true], [30, false], [1, true], [100, false], [60, true], [200, false]] as const) {
    const lines = Array.from({ length: add }, () => row(++n));
    // `cut`: the last line is only half written (no newline yet); the next piece finishes it.
    let piece = `${lines.join('\n')}\n`;
    if (cut) { const last = lines[lines.length - 1]; piece = `${lines.slice(0, -1).join('\n')}\n${last.slice(0, Math.ceil(last.length / 2))}`; }
    if (text.endsWith('\n') || text === '') text += piece;
    else { const prevLast = row(n - add); text += `${prevLast.slice(Math.ceil(prevLast.length / 2))}\n${piece}`; }
    mem.put(PATH, enc.encode(text), ++mtime);
    const before = bytes();
    const got = await readTrainingMetrics(fs, PATH);
    assert.deepEqual(got, await whole(text), `after ${n} lines`);
    if (mtime > 2) {
      const added = piece.length + 200;
      // The appended part, the checks that the file only grew (a few hundred bytes), never the head again.
      assert.ok(bytes() - before < added + 1600, `read ${bytes() - before} bytes for about ${added} new`);
    }
  }
  const final = await whole(text);
  assert.ok(final.problems.filter((p) => p.code === 'schema').length === 20, 'the schema notes are capped at 20');
  assert.ok(final.problems.some((p) => p.code === 'more-problems' && /more rows do not match/.test(p.message)));
  assert.equal(final.problems.filter((p) => p.code === 'zero-advantage').length, 4);
});

test('an unfinished last line counts once: it is read again when finished, and its problem is gone', async () => {
  const mem = new MemFs();
  mem.put(PATH, enc.encode(`${row(1)}\n{"step":2,"rew`), 1);
  const a = await readTrainingMetrics(mem, PATH);
  assert.equal(a.steps, 1);
  assert.equal(a.running, true);
  assert.ok(a.problems.some((p) => p.code === 'incomplete-tail' && p.line === 2));
  mem.put(PATH, enc.encode(`${row(1)}\n{"step":2,"reward_std":0}`), 2); // parses, still no newline
  const b = await readTrainingMetrics(mem, PATH);
  assert.equal(b.steps, 2);
  assert.equal(b.running, false);
  assert.equal(b.problems.filter((p) => p.code === 'zero-advantage').length, 1);
  mem.put(PATH, enc.encode(`${row(1)}\n{"step":2,"reward_std":0}\n{"step":3,"reward_std":0}\n`), 3);
  const c = await readTrainingMetrics(mem, PATH);
  assert.equal(c.steps, 3);
  assert.deepEqual(c.problems.map((p) => [p.code, p.line]), [['zero-advantage', 2], ['zero-advantage', 3]]);
  assert.deepEqual(c, await whole(`${row(1)}\n{"step":2,"reward_std":0}\n{"step":3,"reward_std":0}\n`));
});

test('a log rewritten (same length, other head), cut short or replaced is read whole, not stitched onto the earlier read', async () => {
  const mem = new MemFs();
  const head = Array.from({ length: 50 }, (_, i) => row(i + 1)).join('\n') + '\n';
  mem.put(PATH, enc.encode(head), 1);
  await readTrainingMetrics(mem, PATH);
  // Same bytes at the end, the first line now not JSON (same length), then more lines: only the head tells.
  const first = head.slice(0, head.indexOf('\n'));
  const other = 'x'.repeat(first.length) + head.slice(first.length);
  assert.equal(other.length, head.length);
  const grown = `${other}${row(51)}\n`;
  mem.put(PATH, enc.encode(grown), 2);
  const got = await readTrainingMetrics(mem, PATH);
  assert.deepEqual(got, await whole(grown));
  assert.equal(got.problems.find((p) => p.code === 'parse-error')?.line, 1);
  const short = Array.from({ length: 10 }, (_, i) => row(i + 1)).join('\n') + '\n';
  mem.put(PATH, enc.encode(short), 3);
  assert.deepEqual(await readTrainingMetrics(mem, PATH), await whole(short));
  assert.equal((await readTrainingMetrics(mem, PATH)).steps, 8);
});

test('past 200 bad lines the count of the rest is right across reads (the file is read whole once any was dropped)', async () => {
  const mem = new MemFs();
  let text = `${Array.from({ length: 150 }, () => 'bad').join('\n')}\n`;
  mem.put(PATH, enc.encode(text), 1);
  assert.deepEqual(await readTrainingMetrics(mem, PATH), await whole(text));
  for (let k = 0; k < 3; k++) {
    text += `${Array.from({ length: 80 }, (_, i) => (i % 2 ? 'bad' : JSON.stringify({ step: k * 80 + i }))).join('\n')}\n`;
    mem.put(PATH, enc.encode(text), k + 2);
    const got = await readTrainingMetrics(mem, PATH);
    assert.deepEqual(got, await whole(text));
  }
  const more = (await whole(text)).problems.find((p) => p.code === 'more-problems');
  assert.match(more?.message ?? '', /^70 more problems in /); // 150 + 3 × 40 = 270 bad lines, 200 listed
});

test('the last reads of 16 files are kept per port, the least recently read dropped first; an empty or dropped-line file is read whole', async () => {
  const mem = new MemFs();
  const { fs, bytes } = counted(mem);
  const file = (i: number) => `/p/runs/r${i}/train/metrics.jsonl`;
  const head = `${Array.from({ length: 200 }, (_, i) => row(i + 1)).join('\n')}\n`;
  const grow = (i: number, t: number) => mem.put(file(i), enc.encode(`${head}${row(201)}\n`), t);
  /** Bytes a read takes: about the added line when it goes on, the whole file when read again from the start. */
  const cost = async (i: number) => {
    const before = bytes();
    const got = await readTrainingMetrics(fs, file(i));
    const fresh = new MemFs();
    fresh.put(file(i), enc.encode(`${head}${row(201)}\n`), 1);
    assert.deepEqual(got, await readTrainingMetrics(fresh, file(i)), `file ${i}`);
    return bytes() - before;
  };
  for (let i = 1; i <= 17; i++) mem.put(file(i), enc.encode(head), 1);
  for (let i = 1; i <= 16; i++) await readTrainingMetrics(fs, file(i));
  await readTrainingMetrics(fs, file(1)); // read again: now the most recently read
  await readTrainingMetrics(fs, file(17)); // the 17th: file 2 (least recently read) is dropped, not file 1
  grow(1, 2);
  grow(2, 2);
  grow(3, 2);
  grow(16, 2);
  assert.ok(await cost(1) < head.length / 2, 'file 1 was kept: read on');
  assert.ok(await cost(3) < head.length / 2, 'file 3 was kept (16 kept, not 15): read on');
  assert.ok(await cost(16) < head.length / 2, 'file 16 was kept: read on');
  assert.ok(await cost(2) >= head.length, 'file 2 was dropped: read whole');
  // Another port keeps its own reads: the same file is read whole through it.
  const other = counted(mem);
  await readTrainingMetrics(other.fs, file(16));
  assert.ok(other.bytes() >= head.length);
  // An empty file is not kept (nothing to go on from): it is read whole once it has lines.
  const empty = '/p/runs/e/train/metrics.jsonl';
  mem.put(empty, enc.encode(''), 1);
  assert.deepEqual(await readTrainingMetrics(fs, empty), { steps: 0, last: undefined, problems: [], running: false });
  mem.put(empty, enc.encode(`${row(1)}\n`), 2);
  assert.equal((await readTrainingMetrics(fs, empty)).steps, 1);
});
