// Reading one trajectory file for the loader, on an in-memory port: why a file is not read (gone, a folder, over the
// loader's limit, over the port's read limit, a read that fails), whole reads and sequential reads in chunks
// (1 MiB first, then doubling; a file that grows while read is read as stat saw it; a short file ends at 0 bytes
// read), the reader closed at the end; and what is kept of a streamed file: a step by its span, a pointer inside a
// step, the whole document (its byte order mark skipped), other top-level values.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { keptParsed, keptStreamed, openBytes, type TrajectoryFs } from '../../../src/core/trajectory/read';

type Entry = { type: 'file' | 'directory'; bytes: Uint8Array };

function port(files: Record<string, Entry>, o: { sequential?: boolean; maxFileBytes?: number; failRead?: boolean; failOpen?: boolean; statSize?: number } = {}) {
  const reads: number[] = [];
  let closed = 0;
  const fs: TrajectoryFs = {
    stat: async (p) => {
      const e = files[p];
      if (!e) throw new Error('ENOENT');
      return { type: e.type, size: o.statSize ?? e.bytes.length, mtimeMs: 0 } as Awaited<ReturnType<TrajectoryFs['stat']>>;
    },
    readFile: async (p) => { if (o.failRead) throw new Error('EIO'); return files[p].bytes; },
    ...(o.sequential ? {
      openSequential: async (p: string) => {
        if (o.failOpen) throw new Error('EACCES');
        let at = 0;
        const bytes = files[p].bytes;
        return {
          read: async (into: Uint8Array) => { reads.push(into.length); const n = Math.min(into.length, bytes.length - at); into.set(bytes.subarray(at, at + n)); at += n; return n; },
          close: async () => { closed++; },
        };
      },
      maxFileBytes: o.maxFileBytes,
    } : {}),
  } as TrajectoryFs;
  return { fs, reads, closed: () => closed };
}
const file = (s: string | Uint8Array): Entry => ({ type: 'file', bytes: typeof s === 'string' ? new TextEncoder().encode(s) : s });

test('why a file is not opened', async () => {
  const { fs } = port({ '/d': { type: 'directory', bytes: new Uint8Array() }, '/f': file('12345') });
  assert.deepEqual(await openBytes(fs, '/gone', 100), { ok: false, message: 'no such file' });
  assert.deepEqual(await openBytes(fs, '/d', 100), { ok: false, message: 'not a file' });
  assert.deepEqual(await openBytes(fs, '/f', 4), { ok: false, message: 'too large (5 bytes; the limit is 4)' });
  assert.equal((await openBytes(fs, '/f', 5)).ok, true);
  const seq = port({ '/f': file('12345') }, { sequential: true, maxFileBytes: 4 });
  assert.deepEqual(await openBytes(seq.fs, '/f', 100), { ok: false, message: 'cannot be read: /f is 0.000 MB, over the 0.000 MB read limit (harborRuns.maxFileSizeMB)' });
  assert.equal((await openBytes(port({ '/f': file('12345') }, { sequential: true, maxFileBytes: 5 }).fs, '/f', 100)).ok, true);
  assert.equal((await openBytes(port({ '/f': file('12345') }, { sequential: true }).fs, '/f', 100)).ok, true);
  // A port without sequential reads has no read limit of its own here (readFile enforces it).
  assert.equal((await openBytes(port({ '/f': file('12345') }, { maxFileBytes: 1 }).fs, '/f', 100)).ok, true);
  assert.deepEqual(await openBytes(port({ '/f': file('x') }, { failRead: true }).fs, '/f', 100), { ok: false, message: 'cannot be read: EIO' });
  assert.deepEqual(await openBytes(port({ '/f': file('x') }, { sequential: true, failOpen: true }).fs, '/f', 100), { ok: false, message: 'cannot be read: EACCES' });
});

test('whole reads and sequential reads: chunks of 1 MiB, then doubling; as large as stat said; closed at the end', async () => {
  const whole = await openBytes(port({ '/f': file('abc') }).fs, '/f', 100);
  assert.ok(whole.ok);
  assert.deepEqual([whole.src.buf.toString(), whole.src.avail, whole.src.eof], ['abc', 3, true]);
  await whole.src.more();
  await whole.close();

  const big = new Uint8Array(4 << 20).map((_, i) => i & 0xff);
  const p = port({ '/big': file(big) }, { sequential: true });
  const o = await openBytes(p.fs, '/big', big.length);
  assert.ok(o.ok);
  assert.deepEqual([o.src.avail, o.src.eof], [0, false]);
  while (!o.src.eof) await o.src.more();
  assert.deepEqual(p.reads, [1 << 20, 2 << 20, 1 << 20]);
  assert.equal(o.src.avail, big.length);
  assert.ok(Buffer.from(big).equals(o.src.buf));
  assert.equal(p.closed(), 1);
  await o.src.more();
  assert.equal(p.reads.length, 3, 'nothing read after the end');

  // Stat said 10 bytes, the file has 4: the read ends at the 0-byte read, with what was read.
  const short = port({ '/s': file('abcd') }, { sequential: true, statSize: 10 });
  const s = await openBytes(short.fs, '/s', 100);
  assert.ok(s.ok);
  while (!s.src.eof) await s.src.more();
  assert.deepEqual([s.src.buf.toString(), s.src.avail, short.closed()], ['abcd', 4, 1]);
  // An empty file is at its end before any read.
  const empty = await openBytes(port({ '/e': file('') }, { sequential: true }).fs, '/e', 100);
  assert.ok(empty.ok);
  assert.equal(empty.src.eof, true);
});

test('what is kept of a file: steps by span, pointers inside them, the whole document past a BOM, other values', () => {
  const text = '\ufeff{"steps":[{"a":1},{"b":{"c/d":[5,6]}}],"x":1}';
  const buf = Buffer.from(text);
  const at = (s: string) => buf.indexOf(s);
  const steps = [{ start: at('{"a"'), end: at('{"a"') + 7 }, { start: at('{"b"'), end: at(']}}') + 3 }];
  const kept = keptStreamed({ buf }, steps, { agent: { name: 'n' } });
  assert.deepEqual(kept.at('/steps/0'), { a: 1 });
  assert.deepEqual(kept.at('/steps/1/b/c~1d/1'), 6);
  assert.equal(kept.at('/steps/2'), undefined);
  assert.equal(kept.at('/steps/1/zz'), undefined);
  assert.deepEqual(kept.at(''), { steps: [{ a: 1 }, { b: { 'c/d': [5, 6] } }], x: 1 });
  assert.equal(kept.at(''), kept.at(''), 'parsed once');
  assert.equal(kept.at('/agent/name'), 'n');
  // Pointers that only look like step pointers go to the other values.
  const top = keptStreamed({ buf }, steps, { steps2: 'no', x: { '/steps/0': 1 } });
  assert.equal(top.at('/x/~1steps~10'), 1);
  assert.equal(top.at('/steps/a'), undefined);
  assert.equal(top.at('/x/steps/0'), undefined);
  // Without a BOM the document starts at byte 0.
  const plain = Buffer.from('{"k":[1]}');
  assert.deepEqual(keptStreamed({ buf: plain }, [], {}).at(''), { k: [1] });
  const two = Buffer.from('\u00ef{"k":1}');
  assert.throws(() => keptStreamed({ buf: two }, [], {}).at(''));
  assert.deepEqual(keptParsed({ a: [1, 2] }).at('/a/1'), 2);
  assert.deepEqual(keptParsed({ a: [1, 2] }).at(''), { a: [1, 2] });
});
