// Streaming JSONL through its public readers: the same lines whatever the chunk size (a line split across chunks,
// CRLF, blank lines, an unterminated last line), lines over the limit dropped with their length, and every problem
// readJsonl says (with its wording, line and severity), the problem cap, and a file that cannot be read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MemFs } from '../../../scripts/sample-runs/memFs';
import { jsonlLines, readJsonl, type JsonlLine } from '../../../src/core/jsonl';
import type { Problem } from '../../../src/core/model';
import { MAX_JSON_DEPTH } from '../../../src/core/jsonDepth';

const text = (l: JsonlLine) => ({ line: l.line, text: Buffer.from(l.bytes).toString('latin1'), terminated: l.terminated, tooLong: l.tooLong });

async function lines(content: string | Uint8Array, chunkSize: number, maxLineBytes?: number, fs = new MemFs()) {
  fs.put('/f.jsonl', content);
  const out = [];
  for await (const l of jsonlLines(fs, '/f.jsonl', chunkSize, maxLineBytes)) out.push(text(l));
  return out;
}

test('jsonlLines: every chunk size gives the same lines (split lines joined, CRLF and blank lines, the unterminated tail)', async () => {
  const content = 'ab\r\n{"x":1}\n\n\r\na\rb\r\nlonger line here\nlast';
  const want = [
    { line: 1, text: 'ab', terminated: true, tooLong: undefined }, { line: 2, text: '{"x":1}', terminated: true, tooLong: undefined },
    { line: 3, text: '', terminated: true, tooLong: undefined }, { line: 4, text: '', terminated: true, tooLong: undefined },
    { line: 5, text: 'a\rb', terminated: true, tooLong: undefined }, { line: 6, text: 'longer line here', terminated: true, tooLong: undefined },
    { line: 7, text: 'last', terminated: false, tooLong: undefined },
  ];
  for (let size = 1; size <= content.length + 1; size++) assert.deepEqual(await lines(content, size), want, `chunk size ${size}`);
  // A file that ends with its newline has no extra empty last line; an empty file has no line.
  for (let size = 1; size <= 4; size++) {
    assert.deepEqual(await lines('a\nb\n', size), [{ line: 1, text: 'a', terminated: true, tooLong: undefined }, { line: 2, text: 'b', terminated: true, tooLong: undefined }]);
    assert.deepEqual(await lines('', size), []);
  }
});

test('jsonlLines: a line over maxLineBytes is yielded empty with its length, terminated or not; a line at the limit is read', async () => {
  const content = 'aaaaa\nbbbbbbbbbb\ncc\nddddddd';
  const want = [
    { line: 1, text: 'aaaaa', terminated: true, tooLong: undefined }, { line: 2, text: '', terminated: true, tooLong: 10 },
    { line: 3, text: 'cc', terminated: true, tooLong: undefined }, { line: 4, text: '', terminated: false, tooLong: 7 },
  ];
  for (let size = 1; size <= content.length + 1; size++) assert.deepEqual(await lines(content, size, 5), want, `chunk size ${size}`);
  // Without maxLineBytes the port's limit applies.
  const small = Object.defineProperty(new MemFs(), 'maxFileBytes', { value: 3 });
  assert.deepEqual(await lines('abc\nabcd\n', 2, undefined, small), [
    { line: 1, text: 'abc', terminated: true, tooLong: undefined }, { line: 2, text: '', terminated: true, tooLong: 4 },
  ]);
});

async function read(content: string | Uint8Array, opts: Parameters<typeof readJsonl>[3] = {}, fs = new MemFs()) {
  fs.put('/r.jsonl', content);
  const rows: [unknown, number][] = [];
  const r = await readJsonl(fs, '/r.jsonl', (v, line) => { rows.push([v, line]); }, opts);
  return { ...r, rows: rows, count: r.rows };
}

const p = (line: number, severity: Problem['severity'], code: string, message: string): Problem => ({ file: '/r.jsonl', line, severity, code, message });

test('readJsonl: each problem with its line, severity and words; rows read in spite of warnings', async () => {
  const longKey = 'k'.repeat(300);
  const content = Buffer.concat([
    Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"a":1}\n'),
    Buffer.from('  \t \r \n'),
    Buffer.from('{"id":"'), Buffer.from([0xff]), Buffer.from('"}\n'),
    Buffer.from('{"a":\n'),
    Buffer.from('[1]\n"s"\nnull\n'),
    Buffer.from(`{"${longKey}":1,"${longKey}":2}\n`),
    Buffer.from('{"r":1e400,"s":{"t":[-1e400]}}\n'),
    Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"b":2}\n'),
    Buffer.from('{"tail":'),
  ]);
  const r = await read(content);
  assert.equal(r.lines, 11);
  assert.equal(r.incompleteTail, true);
  assert.deepEqual(r.rows.map(([, line]) => line), [1, 3, 8, 9, 10]);
  assert.deepEqual(r.rows[3][0], { r: null, s: { t: [null] } });
  // A byte order mark further down (files joined with cat): the row is read without it, and that is said too.
  assert.deepEqual(r.rows[4][0], { b: 2 });
  assert.equal(r.count, 5);
  const parseMessage = (t: string) => { try { JSON.parse(t); } catch (e) { return (e as Error).message; } return ''; };
  assert.deepEqual(r.problems, [
    p(1, 'warning', 'bom', 'the file starts with a UTF-8 byte order mark: line 1 read without it'),
    p(3, 'warning', 'invalid-utf8', 'line 3 holds bytes that are not UTF-8: they read as U+FFFD (\ufffd), so its ids and text are not what was written'),
    p(4, 'error', 'parse-error', `line 4 is not valid JSON: ${parseMessage('{"a":')}`),
    p(5, 'error', 'not-object', 'line 5 is not a JSON object'),
    p(6, 'error', 'not-object', 'line 6 is not a JSON object'),
    p(7, 'error', 'not-object', 'line 7 is not a JSON object'),
    p(8, 'warning', 'duplicate-key', `line 8 gives the key "${'k'.repeat(200)}" twice in one object: the last one is read`),
    p(9, 'warning', 'number-out-of-range', 'line 9 .r is a number beyond what a double holds (it reads as Infinity): read as no value'),
    p(9, 'warning', 'number-out-of-range', 'line 9 .s.t[0] is a number beyond what a double holds (it reads as Infinity): read as no value'),
    p(10, 'warning', 'bom', 'line 10 starts with a UTF-8 byte order mark (files joined together?): read without it'),
    p(11, 'info', 'incomplete-tail', 'line 11 is incomplete (no newline yet): the file is probably still being written'),
  ]);
});

test('readJsonl: lines over the limit are said with the limit (given, else the port\'s); problems past the cap are counted', async () => {
  const r = await read('{"a":1}\n{"long":"xxxxxxxx"}\n{"b":2}\n{"c":', { maxLineBytes: 10 });
  assert.deepEqual(r.rows.map(([v]) => v), [{ a: 1 }, { b: 2 }]);
  assert.deepEqual(r.problems, [
    p(2, 'error', 'too-large', 'line 2 is 19 bytes, over the 10-byte limit of one line (harborRuns.maxFileSizeMB): not read'),
    p(4, 'info', 'incomplete-tail', 'line 4 is incomplete (no newline yet): the file is probably still being written'),
  ]);
  const small = Object.defineProperty(new MemFs(), 'maxFileBytes', { value: 12 });
  const s = await read('{"a":1}\n{"b":22222222}\n', {}, small);
  assert.deepEqual(s.problems, [p(2, 'error', 'too-large', 'line 2 is 14 bytes, over the 12-byte limit of one line (harborRuns.maxFileSizeMB): not read')]);

  const capped = await read('1\n2\n3\n4\n5\n{"ok":true}\n', { maxProblems: 3 });
  assert.equal(capped.count, 1);
  assert.deepEqual(capped.problems.map((x) => [x.line, x.code]), [[1, 'not-object'], [2, 'not-object'], [3, 'not-object'], [undefined, 'more-problems']]);
  assert.deepEqual(capped.problems[3], { file: '/r.jsonl', severity: 'warning', code: 'more-problems', message: '2 more problems in /r.jsonl not listed' });
  const atCap = await read('1\n2\n3\n', { maxProblems: 3 });
  assert.equal(atCap.problems.length, 3, 'exactly the cap: no more-problems line');
});

test('readJsonl: a line nested deeper than MAX_JSON_DEPTH is a parse error naming where (not a stack overflow); at the bound it is read', async () => {
  const deep = `{"a":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
  const atBound = `{"a":${'['.repeat(MAX_JSON_DEPTH - 1)}${']'.repeat(MAX_JSON_DEPTH - 1)}}`;
  const over = `{"a":${'['.repeat(MAX_JSON_DEPTH)}${']'.repeat(MAX_JSON_DEPTH)}}`;
  const r = await read(`{"x":1}\n${deep}\n${atBound}\n${over}\n{"y":2}\n`);
  assert.deepEqual(r.rows.map(([, line]) => line), [1, 3, 5]);
  assert.deepEqual(r.problems, [
    p(2, 'error', 'parse-error', `line 2 is not valid JSON: nested more than ${MAX_JSON_DEPTH} levels deep at offset ${5 + MAX_JSON_DEPTH - 1} (not read)`),
    p(4, 'error', 'parse-error', `line 4 is not valid JSON: nested more than ${MAX_JSON_DEPTH} levels deep at offset ${5 + MAX_JSON_DEPTH - 1} (not read)`),
  ]);
});

test('readJsonl: with its own parser, a line whose first byte is not UTF-8 is said too', async () => {
  const r = await read(Buffer.from([0xff, 0x41, 0x0a, 0x41, 0xfe, 0x0a]), { parse: () => ({ parsed: true }) });
  assert.equal(r.count, 2);
  assert.deepEqual(r.problems.map((x) => [x.line, x.code]), [[1, 'invalid-utf8'], [2, 'invalid-utf8']]);
});

test('readJsonl: a file that cannot be read is one unreadable problem, no rows', async () => {
  const fs = new MemFs();
  const r = await readJsonl(fs, '/gone.jsonl', () => { throw new Error('no row expected'); });
  assert.deepEqual({ rows: r.rows, lines: r.lines, incompleteTail: r.incompleteTail, problems: r.problems }, {
    rows: 0, lines: 0, incompleteTail: false,
    problems: [{ file: '/gone.jsonl', severity: 'error', code: 'unreadable', message: "cannot read /gone.jsonl: ENOENT: no such file, open '/gone.jsonl'" }],
  });
});

test('readJsonl gives the event loop turns while it parses the lines of one chunk (a long file never holds it)', async () => {
  const fs = new MemFs();
  const rows = Array.from({ length: 60000 }, (_, i) => JSON.stringify({ _ng_task_index: i, _ng_rollout_index: 0, verdict: 'healthy', findings: [] }));
  const body = rows.join('\n') + '\n';
  fs.put('/v.jsonl', body);
  let turns = 0;
  let running = true;
  const tick = (): void => { turns++; if (running) setImmediate(tick); };
  setImmediate(tick);
  let atFirst = -1;
  let atLast = -1;
  const res = await readJsonl(fs, '/v.jsonl', (_row, line) => {
    if (line === 1) atFirst = turns;
    atLast = turns;
  }, { chunkSize: body.length + 1 }); // the whole file in one chunk: no read between its lines
  running = false;
  assert.equal(res.rows, 60000);
  assert.ok(atLast > atFirst, `the event loop had no turn while 60,000 lines were parsed (${atFirst} → ${atLast})`);
});
