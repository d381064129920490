// The mark of a read of an append-only file (core/appendMark.ts): which bytes it keeps, and when the file counts as
// only grown since (so a read can go on from where the last one ended) rather than rewritten, cut or replaced.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { bytesAt, grownSince, markAt } from '../../../src/core/appendMark';
import { MemFs } from '../../../scripts/sample-runs/memFs';

const text = (n: number, from = 0) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((i + from) % 26))).join('');
const str = (b: Uint8Array) => new TextDecoder().decode(b);

function file(content: string): MemFs {
  const fs = new MemFs();
  fs.put('/f', content);
  return fs;
}

test('bytesAt: n bytes from start, fewer at the end, none for n ≤ 0 or a file that cannot be read', async () => {
  const fs = file('0123456789');
  assert.equal(str(await bytesAt(fs, '/f', 2, 3)), '234');
  assert.equal(str(await bytesAt(fs, '/f', 8, 5)), '89');
  assert.equal((await bytesAt(fs, '/f', 0, 0)).length, 0);
  assert.equal((await bytesAt(fs, '/f', 0, -1)).length, 0);
  assert.equal((await bytesAt(fs, '/gone', 0, 4)).length, 0);
  assert.equal((await bytesAt(fs, '/f', 10, 4)).length, 0, 'past the end');
});

test('markAt keeps the 256 bytes before the resume point and the first 256 of the file (the same bytes when it is near the start)', async () => {
  const content = text(1000);
  const fs = file(content);
  const far = await markAt(fs, '/f', { byte: 600, line: 3 });
  assert.deepEqual(far.resume, { byte: 600, line: 3 });
  assert.equal(str(far.before), content.slice(344, 600));
  assert.equal(str(far.head), content.slice(0, 256));
  const near = await markAt(fs, '/f', { byte: 100, line: 1 });
  assert.equal(str(near.before), content.slice(0, 100));
  assert.equal(str(near.head), content.slice(0, 100));
  const edge = await markAt(fs, '/f', { byte: 256, line: 1 });
  assert.equal(str(edge.before), content.slice(0, 256));
  assert.equal(str(edge.head), content.slice(0, 256));
  const next = await markAt(fs, '/f', { byte: 257, line: 1 });
  assert.equal(str(next.before), content.slice(1, 257));
  assert.equal(str(next.head), content.slice(0, 256));
  const start = await markAt(fs, '/f', { byte: 0, line: 0 });
  assert.equal(start.before.length, 0);
  assert.equal(start.head.length, 0);
});

test('grownSince: true only when the bytes before the mark and the head are unchanged and nothing was cut', async () => {
  const content = text(1000);
  const fs = file(content);
  const far = await markAt(fs, '/f', { byte: 600, line: 3 });
  const near = await markAt(fs, '/f', { byte: 100, line: 1 });
  const start = await markAt(fs, '/f', { byte: 0, line: 0 });
  assert.equal(await grownSince(fs, '/f', far), true, 'unchanged');
  fs.put('/f', content + 'more');
  assert.equal(await grownSince(fs, '/f', far), true, 'grown');
  assert.equal(await grownSince(fs, '/f', near), true, 'grown, mark near the start');
  assert.equal(await grownSince(fs, '/f', start), false, 'a mark at the start never goes on');
  assert.equal(await grownSince(fs, '/f', undefined), false, 'no mark');
  assert.equal(await grownSince(fs, '/f', { ...far, before: new Uint8Array(0) }), false, 'a mark without bytes');

  fs.put('/f', content.slice(0, 600));
  assert.equal(await grownSince(fs, '/f', far), true, 'exactly as long as at the mark');
  fs.put('/f', content.slice(0, 599));
  assert.equal(await grownSince(fs, '/f', far), false, 'cut shorter than the mark');
  assert.equal(await grownSince(fs, '/gone', far), false, 'gone');

  fs.put('/f', content.slice(0, 599) + 'X' + content.slice(600));
  assert.equal(await grownSince(fs, '/f', far), false, 'the byte just before the mark changed');
  fs.put('/f', content.slice(0, 344) + 'X' + content.slice(345));
  assert.equal(await grownSince(fs, '/f', far), false, 'the first of the 256 bytes before the mark changed');
  fs.put('/f', content.slice(0, 343) + 'X' + content.slice(344));
  assert.equal(await grownSince(fs, '/f', far), true, 'a byte between the head and the bytes kept is not compared');
  fs.put('/f', 'X' + content.slice(1));
  assert.equal(await grownSince(fs, '/f', far), false, 'the first byte changed');
  fs.put('/f', content.slice(0, 255) + 'X' + content.slice(256));
  assert.equal(await grownSince(fs, '/f', far), false, 'the last byte of the head changed');
  fs.put('/f', 'X' + content.slice(1));
  assert.equal(await grownSince(fs, '/f', near), false, 'near the start: the head is the bytes before the mark');
  fs.put('/f', content.slice(0, 100));
  assert.equal(await grownSince(fs, '/f', near), true);
  fs.put('/f', content.slice(0, 99));
  assert.equal(await grownSince(fs, '/f', near), false);
});

test('a mark of exactly 256 bytes, or one past: the head is compared once the mark is past it', async () => {
  const content = text(600);
  const fs = file(content);
  const at256 = await markAt(fs, '/f', { byte: 256, line: 1 });
  const at257 = await markAt(fs, '/f', { byte: 257, line: 1 });
  fs.put('/f', 'X' + content.slice(1));
  assert.equal(await grownSince(fs, '/f', at256), false, 'byte 0 is among the 256 before the mark');
  assert.equal(await grownSince(fs, '/f', at257), false, 'byte 0 is in the head only');
});

test('a file there but unreadable now does not count as grown (it is read whole later, and its problem reported then)', async () => {
  const content = text(1000);
  const fs = file(content);
  const far = await markAt(fs, '/f', { byte: 600, line: 3 });
  const near = await markAt(fs, '/f', { byte: 100, line: 1 });
  const unreadable = Object.assign(Object.create(fs) as MemFs, {
    readChunks: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('EACCES')) }) }),
  });
  assert.equal(await grownSince(unreadable, '/f', far), false);
  assert.equal(await grownSince(unreadable, '/f', near), false);
});
