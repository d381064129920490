// KeyPicker (the writer's byte-level picker of top-level keys) and RawValue, called directly: only the bytes of the
// range are read (a buffer that goes on past `end` with the rest of the object reads as one that ends there, for
// every cut of several lines), where a broken line fails (the byte named in the SyntaxError), compact JSON, what
// follows the object, and a raw value's bytes. Expected values written by hand.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { Problem } from '../../../src/core/model';
import { readSchedule, Selection } from '../../../src/core/summary/rows';
import { KeyPicker, RawValue } from '../../../src/core/summary/scan';
import { MemFs } from '../../../scripts/sample-runs/memFs';

const buf = (s: string) => Buffer.from(s, 'latin1');

/** The value picked, or the error's kind and message. */
function outcome(picker: KeyPicker, b: Uint8Array, start: number, end: number): unknown {
  try {
    const v = picker.pickRange(b, start, end);
    return { value: JSON.parse(JSON.stringify(v, (_k, x: unknown) => (x instanceof RawValue ? `raw:${Buffer.from(x.copy()).toString('latin1')}` : x))) };
  } catch (e) {
    return { error: `${(e as Error).name}: ${(e as Error).message}` };
  }
}

const fails = (picker: KeyPicker, text: string) => outcome(picker, buf(text), 0, text.length);

test('KeyPicker: a range of a longer buffer reads as a buffer that ends there, for every cut of these lines', () => {
  const lines = [
    '{"a": 1, "b": [1, {"c": "x\\"y", "d": "]}"}], "d": "z", "e": {"f": 2, "g": [3]}, "h": true}',
    '{}',
    '{"a":1,"b":"q\\\\","c":null}',
    '{ "b" : [ ] , "a" : "\\\\\\"" , "e" : { } }',
  ];
  const pickers = [new KeyPicker(['a', 'b']), new KeyPicker(['e', 'h'], { e: new KeyPicker(['f']) }), new KeyPicker(['a', 'd'], {}, ['d'])];
  for (const line of lines) {
    for (const picker of pickers) {
      for (let end = 0; end <= line.length; end++) {
        // The same bytes at an offset, with the rest of the line after the range, and alone.
        const whole = buf(`xx${line}`);
        const alone = buf(`xx${line.slice(0, end)}`);
        assert.deepEqual(outcome(picker, whole, 2, end + 2), outcome(picker, alone, 2, end + 2), `${line} cut at ${end}`);
      }
    }
  }
  // And the whole lines read as JSON.parse reads them.
  assert.deepEqual(fails(pickers[0], lines[0]), { value: { a: 1, b: [1, { c: 'x"y', d: ']}' }] } });
  assert.deepEqual(fails(pickers[1], lines[0]), { value: { e: { f: 2 }, h: true } });
  assert.deepEqual(fails(pickers[2], lines[0]), { value: { a: 1, d: 'raw:"z"' } });
  assert.deepEqual(fails(pickers[0], lines[2]), { value: { a: 1, b: 'q\\' } });
  assert.deepEqual(fails(pickers[0], lines[3]), { value: { b: [], a: '\\"' } });
});

test('KeyPicker: where a broken line fails, by the byte it names', () => {
  const ab = new KeyPicker(['a', 'b']);
  // A string with no closing quote: at the range's end.
  assert.deepEqual(fails(ab, '{"a'), { error: 'SyntaxError: unexpected input at byte 3' });
  assert.deepEqual(fails(ab, '{"a": "x'), { error: 'SyntaxError: unexpected input at byte 8' });
  // No value before the comma; a scalar followed by a bracket; something after a value that is no comma or brace.
  assert.deepEqual(fails(ab, '{"a": ,}'), { error: 'SyntaxError: unexpected input at byte 6' });
  assert.deepEqual(fails(new KeyPicker(['b']), '{"a": ,}'), { error: 'SyntaxError: unexpected input at byte 6' });
  assert.deepEqual(fails(ab, '{"a": 1]'), { error: 'SyntaxError: unexpected input at byte 7' });
  assert.deepEqual(fails(ab, '{"a": 1 x'), { error: 'SyntaxError: unexpected input at byte 8' });
  assert.deepEqual(fails(ab, '{"a": 1 x}'), { error: 'SyntaxError: unexpected input at byte 8' });
  // Not an object: what comes first is not a brace (nothing is skipped to find one).
  assert.deepEqual(fails(ab, 'x"a": 1}'), { error: 'SyntaxError: unexpected input at byte 0' });
  assert.deepEqual(fails(ab, '[1]'), { error: 'SyntaxError: unexpected input at byte 0' });
  assert.deepEqual(fails(ab, '  '), { error: 'SyntaxError: unexpected input at byte 2' });
  // Something after the object.
  assert.deepEqual(fails(ab, '{"a": 1} x'), { error: 'SyntaxError: unexpected input at byte 8' });
  assert.deepEqual(fails(ab, '{} x'), { error: 'SyntaxError: unexpected input at byte 2' });
  // A key without its colon.
  assert.deepEqual(fails(ab, '{"a" 1}'), { error: 'SyntaxError: unexpected input at byte 5' });
  assert.deepEqual(fails(ab, '{"a"}'), { error: 'SyntaxError: unexpected input at byte 4' });
  // Tabs, CRs and newlines between the tokens are JSON whitespace.
  assert.deepEqual(fails(ab, '{\t"a"\r:\n1\r,\t"b"\n:\r2\t}\r\n'), { value: { a: 1, b: 2 } });
  // Compact JSON: a scalar ends at the comma or brace.
  assert.deepEqual(fails(ab, '{"a":1,"b":2}'), { value: { a: 1, b: 2 } });
  assert.deepEqual(fails(ab, '{"b":-2.5e3,"a":false}'), { value: { b: -2500, a: false } });
});

test('KeyPicker.pick: the whole object is checked, also after every wanted key was found (unless asked to stop there)', () => {
  const a = new KeyPicker(['a']);
  assert.throws(() => a.pick(buf('{"a": 1, ]')), /unexpected input at byte 9/);
  assert.throws(() => a.pick(buf('{"a": 1} {')), SyntaxError);
  assert.deepEqual(a.pick(buf('{"a": 1, ]'), true), { a: 1 });
  // A picker that reuses values hands back the same value for the same bytes, a new one for others.
  const r = new KeyPicker(['m'], {}, [], true);
  const m1 = r.pick(buf('{"m": {"k": [1]}}')).m;
  assert.equal(r.pick(buf('{"m": {"k": [1]}}')).m, m1);
  assert.deepEqual(r.pick(buf('{"m": {"k": [2]}}')).m, { k: [2] });
  assert.deepEqual(r.pick(buf('{"m": 7}')).m, 7);
  assert.deepEqual(r.pick(buf('{"m": 8}')).m, 8);
  // Without reuse, every row gets its own value.
  const p = new KeyPicker(['m']);
  assert.notEqual(p.pick(buf('{"m": {"k": 1}}')).m, p.pick(buf('{"m": {"k": 1}}')).m);
});

test('RawValue: equals compares the range\'s bytes; copy is the range; parse picks an object with the picker given', () => {
  const b = buf('xx{"k": 1, "z": [2]}yy');
  const v = new RawValue(b, 2, 20);
  assert.equal(v.equals(buf('{"k": 1, "z": [2]}')), true);
  assert.equal(v.equals(buf('{"k": 1, "z": [3]}')), false);
  assert.equal(v.equals(buf('{"k": 1, "z": [2]} ')), false);
  assert.equal(v.equals(buf('{"k": 1, "z": [2')), false);
  assert.equal(v.equals(buf('x{"k": 1, "z": [2]')), false);
  assert.equal(new RawValue(b, 3, 3).equals(new Uint8Array(0)), true);
  assert.equal(new RawValue(b, 3, 3).equals(buf('x')), false);
  assert.deepEqual(Buffer.from(v.copy()).toString('latin1'), '{"k": 1, "z": [2]}');
  const copy = v.copy();
  b[2] = 0x20;
  assert.equal(Buffer.from(copy).toString('latin1'), '{"k": 1, "z": [2]}', 'a copy, not a view');
  b[2] = 0x7b;
  assert.deepEqual(v.parse(new KeyPicker(['z'])), { z: [2] });
  assert.deepEqual(v.parse(), { k: 1, z: [2] });
  assert.deepEqual(new RawValue(b, 16, 19).parse(new KeyPicker(['z'])), [2]);
});

// Found by mutation testing: RawValue.copy was `buf.slice`, a view on a Node Buffer. The schedule reader keeps the
// last row's task_input bytes to skip parsing an identical one; with a read-ahead port those bytes were overwritten
// by the next chunk, so a repeat could be handed the previous repeat's input.
test('readSchedule: a repeat whose input differs from the row before, across a chunk edge, keeps its own input (the kept bytes are a copy)', async () => {
  const MiB4 = 4 << 20;
  const row = (task: string, index: number, repeat: number, tag: string) => JSON.stringify({ task_id: { taskset: 'ts', task_id: task },
    _ng_task_index: index, _ng_rollout_index: repeat, task_input: { task_data: { [`${task}_digest`]: tag } } });
  // Chunk 1 ends with task a's repeat 0 (input "x…"); chunk 2 starts with its repeat 1 (input "y…"); chunk 3 holds, at
  // the very place of chunk 1's row, a row of task b whose task_input is byte for byte repeat 1's.
  const a0 = row('a', 0, 0, 'x'.repeat(40));
  const a1 = row('a', 0, 1, 'y'.repeat(40));
  const b0 = row('a', 1, 0, 'y'.repeat(40)).replace('"task_id":"a"', '"task_id":"b"');
  assert.equal(b0.length, a0.length);
  const fill = (head: string, tail: string) => `${head}${' '.repeat(MiB4 - head.length - tail.length - 1)}\n${tail}`;
  const text = fill('', `${a0}\n`) + fill(`${a1}\n`, '') + fill('', `${b0}\n`);
  const bytes = Buffer.from(text, 'latin1');
  assert.equal(bytes.length, 3 * MiB4);
  // A port whose read fills the buffer at once (before its promise settles): a read-ahead that is quick.
  const m = new MemFs();
  m.put('/r/m.jsonl', '');
  const port = Object.assign(m, {
    openSequential: async () => {
      let at = 0;
      return {
        read: (into: Uint8Array) => { const n = Math.min(into.length, bytes.length - at); into.set(bytes.subarray(at, at + n)); at += n; return Promise.resolve(n); },
        close: async () => undefined,
      };
    },
  });
  const problems: Problem[] = [];
  const sel = new Selection();
  await readSchedule({ fs: port, problems, rowWorkers: 0 }, '/r/m.jsonl', sel);
  assert.deepEqual(problems, []);
  assert.deepEqual([...sel.tasks.values()].map((t) => [t.taskId, [...t.repeats.values()].map((r) => r.input?.digests)]), [
    ['a', [{ a_digest: 'x'.repeat(40) }, { a_digest: 'y'.repeat(40) }]],
    ['b', [{ a_digest: 'y'.repeat(40) }]],
  ]);
});
