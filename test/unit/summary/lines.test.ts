// forEachLine, the writer's line reader, called directly: lines split across read chunks in every place (a chunk
// starting with the newline, a line over three chunks), CRLF, empty lines, a last line without a newline, lines over
// the port's one-line limit (dropped and reported with their length, also when no one listens), the backpressure
// hook awaited before the next chunk's lines, and the file closed (after its read in flight) when a line's handler
// throws. Both read paths: openSequential (NodeFs) and readChunks (a port without it). Expected lines written by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FsPort, SequentialReader } from '../../../src/core/fs/port';
import { forEachLine } from '../../../src/core/summary/lines';
import { MemFs } from '../../../scripts/sample-runs/memFs';
import { nodeFs, posix, tmpDir } from './helpers';

type Seen = [text: string, line: number, terminated: boolean];

/** A port over these bytes: readChunks only (no openSequential), with a one-line limit. */
function memPort(text: string, maxFileBytes?: number): FsPort {
  const m = new MemFs();
  m.put('/r/f.jsonl', text);
  if (maxFileBytes !== undefined) Object.defineProperty(m, 'maxFileBytes', { value: maxFileBytes });
  return m;
}

/** The same bytes on disk, read through NodeFs (openSequential, two reused buffers). */
function diskPath(text: string): string {
  const p = path.join(tmpDir('lines'), 'f.jsonl');
  fs.writeFileSync(p, text);
  return posix(p);
}

async function lines(port: FsPort, p: string, chunk: number, long?: [number, number][]): Promise<Seen[]> {
  const seen: Seen[] = [];
  await forEachLine(port, p, (buf, s, e, line, terminated) => {
    seen.push([Buffer.from(buf.subarray(s, e)).toString('latin1'), line, terminated]);
  }, chunk, undefined, long ? (line, bytes) => long.push([line, bytes]) : undefined);
  return seen;
}

const both = async (text: string, chunk: number): Promise<Seen[][]> =>
  [await lines(memPort(text), '/r/f.jsonl', chunk), await lines(nodeFs, diskPath(text), chunk)];

test('forEachLine: lines across chunk edges (newline first in a chunk, a line over three chunks), CRLF, empty lines, an unterminated last line', async () => {
  // Chunks of 4: "ab\r\n" | "\ncde" | "fghi" | "jk\nl" | "m\r\n\n" | "xyz"
  const text = 'ab\r\n\ncdefghijk\nlm\r\n\nxyz';
  const want: Seen[] = [['ab', 1, true], ['', 2, true], ['cdefghijk', 3, true], ['lm', 4, true], ['', 5, true], ['xyz', 6, false]];
  for (const got of await both(text, 4)) assert.deepEqual(got, want);
  // A carried part followed by a chunk that starts with the newline: "abc" | "\nd\r" | "\n\r\n"
  for (const got of await both('abc\nd\r\n\r\n', 3)) assert.deepEqual(got, [['abc', 1, true], ['d', 2, true], ['', 3, true]]);
  // A chunk that starts with an empty line, nothing carried: "abc\n" | "\n\nz\n"
  for (const got of await both('abc\n\n\nz\n', 4)) assert.deepEqual(got, [['abc', 1, true], ['', 2, true], ['', 3, true], ['z', 4, true]]);
  // A lone \r is a line's last byte only when it is before the newline; a line of just "\r" is empty.
  for (const got of await both('\r\na\rb\n', 4)) assert.deepEqual(got, [['', 1, true], ['a\rb', 2, true]]);
  // A line carried to the end of the file (no newline) is handed over unterminated.
  for (const got of await both('abcdefg', 4)) assert.deepEqual(got, [['abcdefg', 1, false]]);
  for (const got of await both('', 4)) assert.deepEqual(got, []);
});

test('forEachLine: a line over the port\'s one-line limit is dropped and reported with its number and length', async () => {
  // Limit 9, chunks of 4: "ab\nc" | "defg" | "hijk" | "lmno" | "pq\no" | "k\nzz" | "zzzz" | "zzzz"
  const text = `ab\ncdefghijklmnopq\nok\n${'z'.repeat(10)}`;
  const long: [number, number][] = [];
  assert.deepEqual(await lines(memPort(text, 9), '/r/f.jsonl', 4, long), [['ab', 1, true], ['ok', 3, true]]);
  assert.deepEqual(long, [[2, 15], [4, 10]]);
  // Dropped over several chunks without a newline, the next one starting with it:
  // "abcd" | "efgh" | "ijkl" | "mnop" | "qrst" | "\nok\n"
  const over: [number, number][] = [];
  assert.deepEqual(await lines(memPort('abcdefghijklmnopqrst\nok\n', 9), '/r/f.jsonl', 4, over), [['ok', 2, true]]);
  assert.deepEqual(over, [[1, 20]]);
  // With no listener a long line is dropped all the same (no throw), in the middle and at the end.
  assert.deepEqual(await lines(memPort(text, 9), '/r/f.jsonl', 4), [['ab', 1, true], ['ok', 3, true]]);
  assert.deepEqual(await lines(memPort('abcdefghijklmn\nok\n', 9), '/r/f.jsonl', 4), [['ok', 2, true]]);
  // Exactly at the limit (9 bytes over three chunks, its newline first in the fourth) a line is read.
  const none: [number, number][] = [];
  assert.deepEqual(await lines(memPort('abcdefghi\nj\n', 9), '/r/f.jsonl', 3, none), [['abcdefghi', 1, true], ['j', 2, true]]);
  // A line whose newline is in the next chunk is read even when the carried part and that chunk together are over
  // the limit: "abcdef\nx" | "yz\nmnopq" | "r\n" (limit 8: 1 + 8 bytes)
  assert.deepEqual(await lines(memPort('abcdef\nxyz\nmnopqr\n', 8), '/r/f.jsonl', 8, none),
    [['abcdef', 1, true], ['xyz', 2, true], ['mnopqr', 3, true]]);
  assert.deepEqual(none, []);
});

test('forEachLine: a last line over the limit that fits in one read chunk is still read (the limit bounds memory)', async () => {
  // Chunks of 8, limit 5: "abcdefg\n" | "hijklmno" (the newline ends the first chunk exactly)
  const long: [number, number][] = [];
  assert.deepEqual(await lines(memPort('abcdefg\nhijklmno', 5), '/r/f.jsonl', 8, long), [['abcdefg', 1, true], ['hijklmno', 2, false]]);
  assert.deepEqual(long, []);
});

test('forEachLine: the backpressure hook is awaited before the next chunk\'s lines, on both read paths', async () => {
  const text = 'a\nb\nc\n';
  for (const [port, p] of [[memPort(text), '/r/f.jsonl'], [nodeFs, diskPath(text)]] as const) {
    const events: string[] = [];
    let waits = 0;
    await forEachLine(port, p, (buf, s, e) => events.push(Buffer.from(buf.subarray(s, e)).toString()), 2, () => {
      const n = ++waits;
      return new Promise<void>((resolve) => setTimeout(() => { events.push(`waited ${n}`); resolve(); }, 5));
    });
    assert.deepEqual(events, ['a', 'waited 1', 'b', 'waited 2', 'c', 'waited 3']);
    // A hook that returns nothing is fine too.
    const plain: string[] = [];
    await forEachLine(port, p, (buf, s, e) => plain.push(Buffer.from(buf.subarray(s, e)).toString()), 2, () => undefined);
    assert.deepEqual(plain, ['a', 'b', 'c']);
  }
});

test('forEachLine: when a line\'s handler throws, the file is closed after the read in flight; the chunk iterator is returned', async () => {
  const log: string[] = [];
  let inFlight = 0;
  const reader = (): SequentialReader => {
    let reads = 0;
    return {
      read: async (into: Uint8Array) => {
        inFlight++;
        log.push(`read ${++reads}`);
        await new Promise((r) => setTimeout(r, 5));
        inFlight--;
        const bytes = Buffer.from(reads <= 2 ? 'x\ny\n' : '');
        into.set(bytes);
        return bytes.length;
      },
      close: async () => { log.push(`close, ${inFlight} reads in flight`); },
    };
  };
  const seq = Object.assign(memPort(''), { openSequential: async () => reader() });
  await assert.rejects(forEachLine(seq, '/r/f.jsonl', () => { throw new Error('stop'); }, 4), /stop/);
  assert.deepEqual(log, ['read 1', 'read 2', 'close, 0 reads in flight']);

  // readChunks: the iterator's return() is called; an iterator without one is fine.
  for (const withReturn of [true, false]) {
    const steps: string[] = [];
    const chunks = [Buffer.from('x\ny\n'), Buffer.from('z\n')];
    const it: AsyncIterator<Uint8Array> = {
      next: async () => (chunks.length ? { done: false, value: chunks.shift()! } : { done: true, value: undefined }),
      ...(withReturn ? { return: async () => { steps.push('returned'); return { done: true, value: undefined }; } } : {}),
    };
    const port = Object.assign(memPort(''), { readChunks: () => ({ [Symbol.asyncIterator]: () => it }) });
    await assert.rejects(forEachLine(port, '/r/f.jsonl', () => { throw new Error('stop'); }, 4), /stop/);
    assert.deepEqual(steps, withReturn ? ['returned'] : []);
    const got: string[] = [];
    chunks.splice(0, chunks.length, Buffer.from('x\ny\n'), Buffer.from('z\n'));
    await forEachLine(port, '/r/f.jsonl', (buf, s, e) => got.push(Buffer.from(buf.subarray(s, e)).toString()), 4);
    assert.deepEqual(got, ['x', 'y', 'z']);
  }
});
