// The honest-input checks through their answers: UTF-8 validation against a fatal decoder on many byte strings (the
// offset of the first bad sequence, within a start..end range), byte order marks, line numbers, duplicate keys with
// their offset, the one-pass text scan's key count, the walk of a parsed value (keys kept, ±Infinity and -0) and
// JSON paths.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  duplicateKey, duplicateKeyOf, invalidUtf8At, lineOfByte, pathText, sanitizeNumbers, scanJsonText, startsWithBom, walkParsed,
} from '../../../src/core/honestInput';

const fatal = new TextDecoder('utf-8', { fatal: true });
const valid = (b: Uint8Array) => { try { fatal.decode(b); return true; } catch { return false; } };
/** The first bad offset as a fatal decoder sees it: the end of the longest valid prefix (-1 when all is valid). */
function reference(b: Uint8Array, start: number, end: number): number {
  if (valid(b.subarray(start, end))) return -1;
  for (let p = end - 1; p >= start; p--) if (valid(b.subarray(start, p))) return p;
  return start;
}

test('invalidUtf8At: the offset of the first bad sequence, as a fatal decoder finds it, on 6,000 seeded byte strings and ranges', () => {
  const alphabet = [0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xc1, 0xc2, 0xdf, 0xe0, 0xe1, 0xec, 0xed, 0xee, 0xef, 0xf0, 0xf1, 0xf3, 0xf4, 0xf5, 0xff];
  let seed = 20261201;
  const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) >>> 0; return (seed >>> 8) % n; };
  for (let run = 0; run < 6000; run++) {
    const len = rnd(9);
    const b = Uint8Array.from({ length: len }, () => alphabet[rnd(alphabet.length)]);
    const start = run % 3 === 0 ? rnd(len + 1) : 0;
    const end = run % 5 === 0 ? start + rnd(len - start + 1) : len;
    const args = end === len ? (start === 0 ? [] : [start]) : [start, end];
    assert.equal(invalidUtf8At(b, ...args), reference(b, start, end), `${[...b].map((x) => x.toString(16)).join(' ')} ${start}..${end}`);
  }
  // Whole characters of every length, then one bad byte after them.
  const good = Buffer.from('aé€😀');
  assert.equal(invalidUtf8At(good), -1);
  assert.equal(invalidUtf8At(Buffer.concat([good, Buffer.from([0x80])])), good.length);
  assert.equal(invalidUtf8At(Buffer.from([0xe2, 0x82, 0xac]), 0, 2), 0, 'a sequence cut by the end of the range');
  // Each lead byte's and second byte's edges, a whole valid character, then a bad byte: found after the character.
  const edges = [[0xc2, 0x80], [0xdf, 0xbf], [0xe0, 0xa0, 0x80], [0xe1, 0x80, 0x80], [0xef, 0xbf, 0xbf], [0xed, 0x9f, 0xbf],
    [0xf0, 0x90, 0x80, 0x80], [0xf3, 0xbf, 0xbf, 0xbf], [0xf4, 0x8f, 0xbf, 0xbf], [0xe2, 0x82, 0xac]];
  // A continuation, overlong or f5-ff byte is no lead, however many continuation bytes follow; nor an overlong 4-byte start.
  for (const bad of [[0x80, 0x80, 0x80, 0x80], [0xc1, 0xbf, 0xbf, 0xbf], [0xc0, 0x80], [0xf0, 0x8f, 0xbf, 0xbf], [0xe0, 0x9f, 0xbf], [0xed, 0xa0, 0x80], [0xf4, 0x90, 0x80, 0x80], [0xf5, 0x80, 0x80, 0x80], [0xff, 0xbf, 0xbf, 0xbf]]) {
    assert.equal(invalidUtf8At(Uint8Array.from(bad)), 0, bad.map((x) => x.toString(16)).join(' '));
    assert.equal(invalidUtf8At(Uint8Array.from([0x41, ...bad])), 1);
  }
  for (const ch of edges) {
    assert.equal(invalidUtf8At(Uint8Array.from([...ch, 0xff])), ch.length, ch.map((x) => x.toString(16)).join(' '));
    assert.equal(invalidUtf8At(Uint8Array.from([0x41, ...ch, 0x41, ch[0]])), ch.length + 2, `cut ${ch.map((x) => x.toString(16)).join(' ')}`);
  }
});

test('startsWithBom and lineOfByte', () => {
  assert.equal(startsWithBom('\ufeff{}'), true);
  assert.equal(startsWithBom('{}'), false);
  assert.equal(startsWithBom('x\ufeff', 1), true);
  assert.equal(startsWithBom(Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b])), true);
  for (const b of [[0xef, 0xbb, 0xbe], [0xef, 0xba, 0xbf], [0xee, 0xbb, 0xbf], [0xef, 0xbb], []]) assert.equal(startsWithBom(Uint8Array.from(b)), false, b.join(' '));
  assert.equal(startsWithBom(Uint8Array.from([0x20, 0xef, 0xbb, 0xbf]), 1), true);
  assert.equal(startsWithBom(Uint8Array.from([0x20, 0xef, 0xbb, 0xbf])), false);
  const b = Buffer.from('a\nb\n\nc');
  assert.deepEqual([0, 1, 2, 3, 4, 5].map((o) => lineOfByte(b, o)), [1, 1, 2, 2, 3, 4]);
  assert.equal(lineOfByte(b, 5, 2), 3, 'counted from start');
});

test('duplicateKey: the first key given twice in one object, with the offset of its second quote; other places do not count', () => {
  assert.equal(duplicateKey('{"a":1,"b":{"a":2},"c":[{"a":1},{"a":2}]}'), undefined);
  assert.deepEqual(duplicateKey('{"a":1,"b":"x\\"a","a":2}'), { key: 'a', offset: 18 });
  assert.deepEqual(duplicateKey('[{"k":1},{"k":2,"k":3}]'), { key: 'k', offset: 16 });
  assert.equal(duplicateKey('{"a":["a","a"],"b":"a"}'), undefined, 'strings as values or array items are not keys');
  assert.deepEqual(duplicateKey('{"a":[1,2],"a":3}'), { key: 'a', offset: 11 }, 'after an array inside the object');
  assert.deepEqual(duplicateKey('{"o":{"x":1},"o":2}'), { key: 'o', offset: 13 }, 'after an object inside the object');
  assert.equal(duplicateKey('["a","a"]'), undefined);
  assert.equal(duplicateKey('{"a\\\\":1,"a":2}'), undefined, 'an escaped backslash is part of the key');
  assert.deepEqual(duplicateKey('{"a\\\\":1,"a\\\\":2}'), { key: 'a\\\\', offset: 9 });
  assert.equal(duplicateKey('"a"'), undefined);
  assert.equal(duplicateKey('{"a":1}{"a":2}'), undefined, 'two objects');
});

test('scanJsonText: the keys written (strings in key position), up to the bracket past the limit', () => {
  assert.deepEqual(scanJsonText('{"a":1,"b":"c","d":[ "e", {"f":"g"} ]}', 10), { deepAt: -1, writtenKeys: 4 });
  assert.deepEqual(scanJsonText('["a","b",{"c":"d"},"e"]', 10), { deepAt: -1, writtenKeys: 1 });
  assert.deepEqual(scanJsonText('{"a":{"b":[{"c":1}]},"d":2}', 2), { deepAt: 10, writtenKeys: 2 });
  assert.deepEqual(scanJsonText('{"x\\"y":1,"z":[1,2],"w":3}', 10), { deepAt: -1, writtenKeys: 3 });
  assert.deepEqual(scanJsonText('{"a":1,"a":2}', 0), { deepAt: 0, writtenKeys: 0 });
  assert.deepEqual(scanJsonText('"a"', 10), { deepAt: -1, writtenKeys: 0 }, 'a string at the top is no key');
  assert.deepEqual(scanJsonText('["a",{"b":"c"},"d"]', 10), { deepAt: -1, writtenKeys: 1 }, 'nor an item after an object in an array');
  assert.deepEqual(scanJsonText(']{"a":1,"b":2}', 10), { deepAt: -1, writtenKeys: 1 }, 'a closer first: the depth goes below zero');
});

/** scanJsonText as it was, a character at a time (strings included): the reference for the one that skips strings. */
function scanByChar(text: string, maxDepth: number): { deepAt: number; writtenKeys: number } {
  const inObject: boolean[] = [];
  let depth = 0;
  let expectKey = false;
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      for (i++; i < text.length; i++) {
        const d = text.charCodeAt(i);
        if (d === 0x5c) i++;
        else if (d === 0x22) break;
      }
      if (expectKey) n++;
      expectKey = false;
    } else if (c === 0x7b || c === 0x5b) {
      if (++depth > maxDepth) return { deepAt: i, writtenKeys: n };
      if (depth > 0) inObject[depth - 1] = c === 0x7b;
      expectKey = c === 0x7b;
    } else if (c === 0x7d || c === 0x5d) { depth--; expectKey = false; } else if (c === 0x2c) { expectKey = depth > 0 && inObject[depth - 1]; }
  }
  return { deepAt: -1, writtenKeys: n };
}

test('scanJsonText answers as a scan a character at a time on 20,000 seeded texts (runs of backslashes, quotes, unclosed strings)', () => {
  const alphabet = ['"', '"', '\\', '\\', '\\\\', '{', '}', '[', ']', ',', ':', ' ', '\n', 'a', '\u00e9', '\t', '\u0001'];
  let seed = 20261202;
  const rnd = (n: number) => { seed = (seed * 1103515245 + 12345) >>> 0; return (seed >>> 8) % n; };
  for (let run = 0; run < 20000; run++) {
    const text = Array.from({ length: rnd(24) }, () => alphabet[rnd(alphabet.length)]).join('');
    const max = rnd(4);
    assert.deepEqual(scanJsonText(text, max), scanByChar(text, max), JSON.stringify(text));
  }
  assert.deepEqual(scanJsonText('{"a\\\\":1,"b\\\\\\"":2, "c":"\\\\\\\\"}', 5), { deepAt: -1, writtenKeys: 3 }, 'runs of escaped backslashes');
  assert.deepEqual(scanJsonText('{"a":"x\\', 5), { deepAt: -1, writtenKeys: 1 }, 'a string left open at the end');
});

test('walkParsed and sanitizeNumbers: keys kept, numbers beyond a double replaced by null with their path (at most max listed), -0 → 0', () => {
  const v = JSON.parse('{"r":1e400,"s":[-1e400,-0,{"t":1e999}],"u":{"v":-0,"w":2},"x":null}') as Record<string, unknown>;
  const w = walkParsed(v, 2);
  assert.equal(w.keptKeys, 7);
  assert.deepEqual(w.outOfRange, [['r'], ['s', 0]]);
  assert.deepEqual(v, { r: null, s: [null, 0, { t: null }], u: { v: 0, w: 2 }, x: null }, 'all three replaced though two are listed');
  assert.ok(Object.is((v.s as unknown[])[1], 0) && Object.is((v.u as { v: number }).v, 0));
  assert.deepEqual(walkParsed(JSON.parse('[1e400,[2,-1e400]]')), { keptKeys: 0, outOfRange: [[0], [1, 1]] });
  assert.deepEqual(walkParsed(5), { keptKeys: 0, outOfRange: [] });
  assert.deepEqual(walkParsed(null), { keptKeys: 0, outOfRange: [] });
  const inherited = Object.create({ hidden: 1e400 }) as Record<string, unknown>;
  inherited.own = 1;
  assert.deepEqual(walkParsed(inherited), { keptKeys: 1, outOfRange: [] }, 'inherited keys are not walked');
  const many = JSON.parse(`[${Array.from({ length: 25 }, () => '1e400').join(',')}]`) as unknown[];
  assert.equal(sanitizeNumbers(many).length, 20, 'twenty listed by default');
  assert.ok(many.every((x) => x === null));
});

test('duplicateKeyOf: keys written against keys kept, then the search; counts given by the caller are trusted', () => {
  const dup = '{"a":1,"b":{"c":2,"c":3}}';
  assert.deepEqual(duplicateKeyOf(dup, JSON.parse(dup)), { key: 'c', offset: 18 });
  const fine = '{"a":1,"b":{"c":2,"d":[{"e":3}]}}';
  assert.equal(duplicateKeyOf(fine, JSON.parse(fine)), undefined);
  assert.equal(duplicateKeyOf(dup, JSON.parse(dup), { written: 4, kept: 4 }), undefined);
  assert.deepEqual(duplicateKeyOf(dup, JSON.parse(dup), { written: 4, kept: 3 }), { key: 'c', offset: 18 });
  assert.equal(duplicateKeyOf('[1,"a"]', [1, 'a']), undefined);
  assert.equal(duplicateKeyOf('3', 3), undefined);
});

test('pathText', () => {
  assert.equal(pathText([]), '(top level)');
  assert.equal(pathText(['a', 0, 'b', 12]), '.a[0].b[12]');
});
