// Reading a JSONL file on from where an earlier read ended (an append-only file that grew): `resume` is the first
// byte after the last line with a newline and that line's number; a read from it numbers lines and places problems
// as a read of the whole file does, and a last line without a newline is left to be read again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeFs } from '../../../src/core/fs/nodeFs';
import { jsonlLines, readJsonl } from '../../../src/core/jsonl';
import { MemFs } from '../../../scripts/sample-runs/memFs';

const enc = new TextEncoder();

function memFile(text: string): { fs: MemFs; path: string } {
  const fs = new MemFs();
  fs.put('/r/m.jsonl', enc.encode(text), 1000);
  return { fs, path: '/r/m.jsonl' };
}

async function rows(fs: MemFs | NodeFs, path: string, from?: { byte: number; line: number }) {
  const got: [number, unknown, boolean][] = [];
  const res = await readJsonl(fs, path, (v, line, terminated) => { got.push([line, v, terminated]); }, { from, chunkSize: 5 });
  return { got, res };
}

test('resume: after the last line with a newline, its byte and line number (a last line without one is not in it)', async () => {
  const text = '{"a":1}\n\n{"a":2}\r\n{"a":3}'; // the last line parses, but has no newline yet
  const { fs, path } = memFile(text);
  const { got, res } = await rows(fs, path);
  assert.deepEqual(got, [[1, { a: 1 }, true], [3, { a: 2 }, true], [4, { a: 3 }, false]]);
  assert.deepEqual(res.resume, { byte: text.indexOf('{"a":3}'), line: 3 });
  assert.equal(res.lines, 4);
});

test('a read from resume numbers lines as the whole read does and reads the unterminated line again', async () => {
  const first = '{"a":1}\nnot json\n{"a":3';
  const { fs, path } = memFile(first);
  const one = await rows(fs, path);
  assert.deepEqual(one.res.resume, { byte: first.indexOf('{"a":3'), line: 2 });
  // The writer finishes the line and appends more (one of them bad).
  const grown = `${first}}\n[1]\n{"a":5}\n`;
  fs.put(path, enc.encode(grown), 2000);
  const two = await rows(fs, path, one.res.resume);
  assert.deepEqual(two.got, [[3, { a: 3 }, true], [5, { a: 5 }, true]]);
  assert.deepEqual(two.res.problems.map((p) => [p.line, p.code]), [[4, 'not-object']]);
  assert.deepEqual(two.res.resume, { byte: grown.length, line: 5 });
  assert.equal(two.res.lines, 5);
  // The same as reading the whole grown file, from the resumed line on.
  const whole = await rows(fs, path);
  assert.deepEqual(whole.got.filter(([l]) => l >= 3), two.got);
  assert.deepEqual(whole.res.resume, two.res.resume);
});

test('a read from the end of the file: no line, the same resume, the same line count', async () => {
  const text = '{"a":1}\n{"a":2}\n';
  const { fs, path } = memFile(text);
  const at = { byte: text.length, line: 2 };
  const { got, res } = await rows(fs, path, at);
  assert.deepEqual(got, []);
  assert.deepEqual(res.resume, at);
  assert.equal(res.lines, 2);
});

test('each line\'s end is the byte after its newline, counted across chunks and from a start offset', async () => {
  const text = '{"x":"a"}\n{"x":"bb"}\r\n\n{"x":"c"}';
  const { fs, path } = memFile(text);
  const ends: [number, number, boolean][] = [];
  for await (const l of jsonlLines(fs, path, 3)) ends.push([l.line, l.end, l.terminated]);
  assert.deepEqual(ends, [[1, 10, true], [2, 22, true], [3, 23, true], [4, text.length, false]]);
  const later: [number, number][] = [];
  for await (const l of jsonlLines(fs, path, 4, undefined, { byte: 10, line: 1 })) later.push([l.line, l.end]);
  assert.deepEqual(later, [[2, 22], [3, 23], [4, text.length]]);
});

test('resume: after a line over the limit it is the next byte; with no finished line it is the start; a custom parse still finds duplicate keys', async () => {
  const long = `{"a":"${'x'.repeat(30)}"}\n`;
  const { fs: f1, path: p1 } = memFile(`{"a":1}\n${long}`);
  const res = await readJsonl(f1, p1, () => undefined, { maxLineBytes: 20, chunkSize: 7 });
  assert.deepEqual(res.resume, { byte: 8 + long.length, line: 2 });
  assert.deepEqual(res.problems.map((p) => p.line), [2]);
  const { fs: f2, path: p2 } = memFile('{"a":');
  assert.deepEqual((await readJsonl(f2, p2, () => undefined)).resume, { byte: 0, line: 0 });
  const { fs: f3, path: p3 } = memFile('{"a":1,"a":2}\n');
  const dup = await readJsonl(f3, p3, () => undefined, { parse: (t) => JSON.parse(t) });
  const plain = await readJsonl(f3, p3, () => undefined);
  assert.deepEqual(dup.problems.map((p) => p.code), plain.problems.map((p) => p.code));
  assert.ok(plain.problems.length > 0, 'a key written twice is a problem');
});
