// Nesting depth of JSON text without parsing: where the first bracket past the limit is, in text and in bytes,
// with brackets inside strings (and escaped quotes) not counted, closers lowering the depth, and a start/end range;
// parseJsonBounded refusing text nested too deep with a TooDeepError.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { depthExceededAt, MAX_JSON_DEPTH, parseJsonBounded, TooDeepError } from '../../../src/core/jsonDepth';

const both = (text: string, max?: number, start?: number, end?: number): number => {
  const s = depthExceededAt(text, max, start, end);
  assert.equal(depthExceededAt(Buffer.from(text), max, start, end), s, `bytes as text: ${text}`);
  return s;
};

test('depthExceededAt: the offset of the bracket that opens level max + 1, else -1', () => {
  assert.equal(both('[[1]]', 2), -1, 'exactly max deep');
  assert.equal(both('[[1]]', 1), 1);
  assert.equal(both('{"a":{"b":[]}}', 2), '{"a":{"b":['.length - 1);
  assert.equal(both('{"a":{"b":{}}}', 2), '{"a":{"b":{'.length - 1, 'braces count like brackets');
  assert.equal(both('[[],{},[],{}]', 2), -1, 'closers lower the depth again');
  assert.equal(both('[[],{},[[]]]', 2), '[[],{},['.length, 'and a later deeper one is found');
  assert.equal(both('1', 0), -1);
  assert.equal(both('[', 0), 0);
});

test('depthExceededAt: brackets inside strings do not count; an escaped quote does not end the string', () => {
  assert.equal(both('["[[[[", "{{{{"]', 1), -1);
  assert.equal(both('["a\\"[[[", 1]', 1), -1, 'the escaped quote is inside the string');
  assert.equal(both('["a\\\\", [[1]]]', 2), '["a\\\\", ['.length, 'an escaped backslash ends before the quote');
  assert.equal(both('["a",[[1]]]', 2), '["a",['.length, 'a string ends at its quote');
  // Multi-byte text in a string: the offset is in the unit read (UTF-16 units of text, bytes of UTF-8).
  const mb = '["é€😀[", [[1]]]';
  assert.equal(depthExceededAt(mb, 2), '["é€😀[", [['.length - 1);
  assert.equal(depthExceededAt(Buffer.from(mb), 2), Buffer.byteLength('["é€😀[", [[') - 1);
});

test('depthExceededAt: only the range start..end is read, from depth 0', () => {
  assert.equal(both('[[[', 1, 1, 3), 2);
  assert.equal(both('[[[', 2, 0, 2), -1, 'end is excluded');
  assert.equal(both('[[[', 2, 0, 3), 2);
  assert.equal(both('xx[[', 1, 2), 3);
});

test('parseJsonBounded: parses text within the limit; deeper text is a TooDeepError (a SyntaxError) with its offset', () => {
  assert.deepEqual(parseJsonBounded('{"a":[1,{"b":null}]}'), { a: [1, { b: null }] });
  const ok = '['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH);
  assert.ok(Array.isArray(parseJsonBounded(ok)));
  const deep = '['.repeat(MAX_JSON_DEPTH + 1) + ']'.repeat(MAX_JSON_DEPTH + 1);
  assert.throws(() => parseJsonBounded(deep), (e: unknown) => {
    assert.ok(e instanceof TooDeepError && e instanceof SyntaxError);
    assert.equal(e.name, 'TooDeepError');
    assert.equal(e.offset, MAX_JSON_DEPTH);
    assert.equal(e.max, MAX_JSON_DEPTH);
    assert.equal(e.message, `nested more than ${MAX_JSON_DEPTH} levels deep at offset ${MAX_JSON_DEPTH} (not read)`);
    return true;
  });
  assert.equal(new TooDeepError(7, 3).message, 'nested more than 3 levels deep at offset 7 (not read)');
  assert.throws(() => parseJsonBounded('{"a":'), (e: unknown) => e instanceof SyntaxError && !(e instanceof TooDeepError));
});
