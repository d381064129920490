// One line of a run file as the writer reads it (lineOutcome.ts), on this thread and as a row worker sends it:
// blank lines, a byte order mark, CRLF, bytes that are not UTF-8, a cut-off row and what it names, and the packed
// form that must carry a reward of 1e400 (Infinity) across as Infinity. Expected values written by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { packOutcomes, partialIdentity, pickLine, RESULT_KEYS, runRowJob, unpackOutcomes, type LineOutcome } from '../../../src/core/summary/lineOutcome';

const enc = (s: string) => new TextEncoder().encode(s);
const BOM = [0xef, 0xbb, 0xbf];
const pick = (bytes: Uint8Array, first = false, terminated = true) => pickLine(RESULT_KEYS, bytes, 0, bytes.length, first, terminated);

test('pickLine: blank is nothing; spaces, tabs and CR before the row are skipped; a BOM counts on line 1 only', () => {
  assert.equal(pick(enc('')), undefined);
  assert.equal(pick(enc(' \t\r ')), undefined);
  assert.deepEqual(pick(enc(' \t\r{"reward": 1, "other": 2}')), { row: { reward: 1 } });
  assert.deepEqual(pick(Uint8Array.from([...BOM, ...enc('{"reward": 0.5}')]), true), { bom: true, row: { reward: 0.5 } });
  assert.deepEqual(pick(Uint8Array.from(BOM), true), { bom: true });
  assert.deepEqual(pick(Uint8Array.from([...BOM, 32, 32]), true), { bom: true });
  // Not line 1: the three bytes are part of the line, which is then not JSON.
  const later = pick(Uint8Array.from([...BOM, ...enc('{"reward": 0.5}')]));
  assert.equal(later?.bom, undefined);
  assert.equal(later?.error?.range, false);
  // The line is read from `start`: what comes before is not its.
  const buf = enc('xx{"reward": 2}');
  assert.deepEqual(pickLine(RESULT_KEYS, buf, 2, buf.length, false), { row: { reward: 2 } });
});

test('pickLine: a line that is not one JSON object is a SyntaxError outcome; a cut-off line says what it names', () => {
  const bad = pick(enc('{"reward": }'));
  assert.deepEqual(Object.keys(bad!), ['error']);
  assert.equal(bad!.error!.range, false);
  assert.ok(bad!.error!.message.length > 0);
  const cut = pick(enc('{"_ng_task_id": {"taskset": "s", "task_id": "t\\"1"}, "_ng_rollout_index": 3, "reward": 1'), false, false);
  assert.equal(cut?.cutIdentity, ' (task t\\"1 repeat 3)');
  assert.equal(cut?.error?.range, false);
  // Terminated: no cut identity even when the row is broken.
  assert.equal(pick(enc('{"_ng_task_id": "a", "reward": '), false, true)?.cutIdentity, undefined);
  // A whole row that is cut-off-free but unterminated is read, with its identity noted.
  assert.deepEqual(pick(enc('{"_ng_task_id": "a", "reward": 1}'), false, false), { row: { _ng_task_id: 'a', reward: 1 }, cutIdentity: ' (task a)' });
});

test('pickLine: bytes that are not UTF-8 are noted with the task and repeat the line names', () => {
  const line = Uint8Array.from([...enc('{"_ng_task_id": "a", "_ng_rollout_index": 2, "failure_reason": "'), 0xff, ...enc('"}')]);
  const o = pick(line);
  assert.equal(o?.badUtf8, ' (task a repeat 2)');
  assert.equal((o?.row as { _ng_task_id: string })._ng_task_id, 'a');
  assert.equal(pick(Uint8Array.from([...enc('{"reward": "'), 0xc3, ...enc('"}')]))?.badUtf8, '');
  assert.equal(pick(enc('{"reward": "é"}'))?.badUtf8, undefined);
});

test('partialIdentity: the id object or a plain id, under _ng_task_id or else task_id, with the repeat when there', () => {
  const p = (s: string) => { const b = enc(s); return partialIdentity(b, 0, b.length); };
  assert.equal(p('{"_ng_task_id": {"taskset": "s", "task_id": "x"}, "_ng_rollout_index": 7'), ' (task x repeat 7)');
  assert.equal(p('{"_ng_task_id":"y","_ng_rollout_index":0'), ' (task y repeat 0)');
  assert.equal(p('{"task_id": {"task_id": "z"}, "x": 1'), ' (task z)');
  assert.equal(p('{"task_id": "w", "_ng_task_id": "v"'), ' (task v)');
  assert.equal(p('{"_ng_rollout_index": 4, "reward": 1'), '');
  assert.equal(p('{"_ng_task_id": 5'), '');
  // Only the given range is read.
  const b = enc('{"_ng_task_id": "in"} {"_ng_rollout_index": 9}');
  assert.equal(partialIdentity(b, 0, 21), ' (task in)');
});

test('runRowJob: every line of its range, blank ones counted, CR before the newline dropped, BOM on the file\'s line 1 only', () => {
  const text = '{"reward": 1}\r\n\n  \n{"reward": 2, "x": [1]}\n{bad\n';
  const bytes = Uint8Array.from([...BOM, ...enc(text)]);
  const a = runRowJob({ id: 4, bytes, start: 0, end: bytes.length, first: true });
  assert.equal(a.id, 4);
  assert.equal(a.bytes, bytes);
  assert.equal(a.lines, 5);
  assert.deepEqual(a.outcomes.map(([i, o]) => [i, o.bom ?? false, o.row ?? 'error']), [[0, true, { reward: 1 }], [3, false, { reward: 2 }], [4, false, 'error']]);
  // Not the file's first job: the BOM is the line's (an error), and a range inside the buffer reads only its lines.
  const b = runRowJob({ id: 5, bytes, start: 0, end: bytes.length, first: false });
  assert.equal(b.outcomes[0][1].bom, undefined);
  assert.ok(b.outcomes[0][1].error);
  const from = BOM.length + '{"reward": 1}\r\n\n  \n'.length;
  const c = runRowJob({ id: 6, bytes, start: from, end: from + '{"reward": 2, "x": [1]}\n'.length, first: false });
  assert.deepEqual([c.lines, c.outcomes], [1, [[0, { row: { reward: 2 } }]]]);
  // The last line without its newline in the range ends at the range's end.
  const d = runRowJob({ id: 7, bytes: enc('{"reward": 3}\n{"reward": 4}'), start: 0, end: 27, first: false });
  assert.deepEqual(d.outcomes, [[0, { row: { reward: 3 } }], [1, { row: { reward: 4 } }]]);
});

test('packOutcomes: plain JSON for what JSON carries; an outcome holding a non-finite number anywhere goes as it is', () => {
  const outcomes: [number, LineOutcome][] = [
    [0, { row: { reward: 1, mask_sample: false } }],
    [1, { row: { reward: Infinity } }],
    [2, { bom: true }],
    [3, { row: { responses_create_params: { metadata: { deep: [1, { x: -Infinity }] } } } }],
    [5, { row: { responses_create_params: { metadata: { ok: [1, { x: 2 }], s: 'Infinity' } } } }],
    [6, { error: { range: false, message: 'm' } }],
  ];
  const copy = structuredClone(outcomes);
  const packed = packOutcomes(outcomes);
  assert.deepEqual(outcomes, copy, 'the caller\'s list is left as it was');
  assert.deepEqual(packed.cloned.map(([k]) => k), [1, 3]);
  assert.deepEqual(packed.cloned.map(([, o]) => o), [outcomes[1], outcomes[3]]);
  assert.deepEqual(JSON.parse(packed.text), [outcomes[0], [1, {}], outcomes[2], [3, {}], outcomes[4], outcomes[5]]);
  assert.deepEqual(unpackOutcomes(packed), outcomes);
  // Nothing to clone: the text is the list's JSON.
  const plain: [number, LineOutcome][] = [[0, { row: { reward: 0.5 } }], [1, {}]];
  assert.deepEqual(packOutcomes(plain), { text: JSON.stringify(plain), cloned: [] });
  assert.deepEqual(unpackOutcomes(packOutcomes(plain)), plain);
});

test('partialIdentity: the _ng_task_id is taken before any other task_id in the line, compact or spaced; ids of any length', () => {
  const p = (s: string) => { const b = enc(s); return partialIdentity(b, 0, b.length); };
  // A task_id inside the task input comes first in the line: the row's own identity is still the _ng_task_id.
  assert.equal(p('{"task_input":{"task_id":"decoy"},"_ng_task_id":{"taskset":"ts","task_id":"t\\"12"},"_ng_rollout_index":12,"rew'),
    ' (task t\\"12 repeat 12)');
  assert.equal(p('{"task_input": {"task_id": "decoy"}, "_ng_task_id" : { "taskset" : "ts" , "task_id" : "ab" } , "_ng_rollout_index" : 10'),
    ' (task ab repeat 10)');
  assert.equal(p('{"task_input":{"task_id":"decoy"},"_ng_task_id":"p\\\\q","rew'), ' (task p\\\\q)');
  // No _ng_task_id: the first task_id, an id object (compact or spaced) or a plain id.
  assert.equal(p('{"task_id":{"taskset":"ts","task_id":"ab"},"task_input":'), ' (task ab)');
  assert.equal(p('{"task_id" : { "taskset" : "ts" , "task_id" : "ab" } , "task_input" :'), ' (task ab)');
  assert.equal(p('{"task_id":"a\\"bc","task_input":'), ' (task a\\"bc)');
  assert.equal(p('{"task_id" : "abc" , "task_input" :'), ' (task abc)');
});

test('pickLine: only the line\'s own bytes are blank or not; a bad byte first in the line is noted', () => {
  // The bytes after `end` (spaces, then a row) are not the line's: the line of two spaces is blank.
  const buf = enc('  \t {"reward": 1}');
  assert.equal(pickLine(RESULT_KEYS, buf, 0, 2, false), undefined);
  const o = pick(Uint8Array.from([0xff, ...enc('{"reward": 1}')]));
  assert.equal(o?.badUtf8, '');
  assert.equal(o?.error?.range, false);
});

test('pickLine: the picker\'s RangeError (a value nested too deep for a recursive walk) is a range outcome; any other error is thrown', () => {
  // Node 20's JSON.parse does not recurse (200,000 nested arrays parse), so a picker that throws stands in for an
  // engine whose parser does.
  const throwing = (e: Error) => ({ pickRange: () => { throw e; } }) as unknown as typeof RESULT_KEYS;
  assert.deepEqual(pickLine(throwing(new RangeError('Maximum call stack size exceeded')), enc('{}'), 0, 2, false),
    { error: { range: true, message: 'Maximum call stack size exceeded' } });
  assert.deepEqual(pickLine(throwing(new SyntaxError('bad')), enc('{}'), 0, 2, false), { error: { range: false, message: 'bad' } });
  assert.throws(() => pickLine(throwing(new TypeError('picker bug')), enc('{}'), 0, 2, false), /picker bug/);
});

test('runRowJob: an empty line first, a CRLF line before another, a line after a bare CR, a BOM on a later line', () => {
  const job = (text: string | Uint8Array, first = false) => {
    const bytes = typeof text === 'string' ? enc(text) : text;
    const a = runRowJob({ id: 1, bytes, start: 0, end: bytes.length, first });
    return [a.lines, a.outcomes.map(([i, o]) => [i, o.row ?? (o.error ? 'error' : o)])];
  };
  assert.deepEqual(job('\n{"reward": 1}\n'), [2, [[1, { reward: 1 }]]]);
  assert.deepEqual(job('{"reward": 1}\r\n{"reward": 2}\n'), [2, [[0, { reward: 1 }], [1, { reward: 2 }]]]);
  assert.deepEqual(job('{"reward": 1}\n\r{"reward": 2}\n'), [2, [[0, { reward: 1 }], [1, { reward: 2 }]]]);
  // A last line without its newline in the range ends at the range's end, also when the buffer goes on (a reused
  // chunk buffer holds older bytes past the range, a newline among them).
  const goesOn = enc('{"reward": 3}\n{"reward": 4}xx\n');
  const tail = runRowJob({ id: 2, bytes: goesOn, start: 0, end: 27, first: false });
  assert.deepEqual([tail.lines, tail.outcomes], [2, [[0, { row: { reward: 3 } }], [1, { row: { reward: 4 } }]]]);
  // The file's first job: only its line 1 may start with a byte order mark.
  assert.deepEqual(job(Uint8Array.from([...BOM, ...enc('{"reward": 1}\n'), ...BOM, ...enc('{"reward": 2}\n')]), true),
    [2, [[0, { reward: 1 }], [1, 'error']]]);
});

test('partialIdentity: a task_id key mangled by a bad byte before its colon is no identity key', () => {
  // The id object's own task_id key ends in a byte that is not UTF-8: no well-formed `"task_id": "…"` is left.
  const b = Uint8Array.from([...enc('{"task_id": {"task_id"'), 0xff, ...enc(': "B"}, "x": 1')]);
  assert.equal(partialIdentity(b, 0, b.length), '');
  const ok = enc('{"task_id": {"task_id": "B"}, "x": 1');
  assert.equal(partialIdentity(ok, 0, ok.length), ' (task B)');
});

test('pickLine: where a line stops being JSON is counted from the line\'s own start, wherever the line sits in the chunk read', () => {
  // The same broken line alone, after 100 bytes of other lines, and after a BOM on line 1 (the BOM is the line's bytes).
  const line = '{"reward": 1 x}';
  assert.deepEqual(pick(enc(line))?.error, { range: false, message: 'unexpected input at byte 13' });
  const inChunk = enc(`${'y'.repeat(99)}\n${line}`);
  assert.deepEqual(pickLine(RESULT_KEYS, inChunk, 100, inChunk.length, false)?.error, { range: false, message: 'unexpected input at byte 13' });
  const spaced = enc(`${'y'.repeat(99)}\n  ${line}`);
  assert.deepEqual(pickLine(RESULT_KEYS, spaced, 100, spaced.length, false)?.error, { range: false, message: 'unexpected input at byte 15' });
  const afterBom = Uint8Array.from([...BOM, ...enc(line)]);
  assert.deepEqual(pick(afterBom, true)?.error, { range: false, message: 'unexpected input at byte 16' });
  // A value that does not parse keeps JSON.parse's own words (counted within the value).
  assert.match(pick(enc('{"reward": 1.}'))?.error?.message ?? '', /JSON/);
});
