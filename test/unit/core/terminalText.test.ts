// Run text made safe for a terminal (src/core/terminalText.ts): which characters are escaped, how they are written,
// and that JSON output keeps its meaning. The CLI tests check the same through a child process; these run in-process.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hasRawUnsafe, hasUnsafe, safeJson, safeLine } from '../../../src/core/terminalText';

/** Each unsafe character and what safeLine writes for it, the edges of every range included. */
const ESCAPED: [string, string][] = [
  ['\u0000', '\\x00'], ['\u0001', '\\x01'], ['\n', '\\x0a'], ['\r', '\\x0d'], ['\u001b', '\\x1b'], ['\u001f', '\\x1f'],
  ['\u007f', '\\x7f'], ['\u0080', '\\x80'], ['\u009b', '\\x9b'], ['\u009f', '\\x9f'],
  ['\u061c', '\\u061c'], ['\u200e', '\\u200e'], ['\u200f', '\\u200f'], ['\u202a', '\\u202a'], ['\u202e', '\\u202e'],
  ['\u2066', '\\u2066'], ['\u2069', '\\u2069'],
];
/** Neighbours of those ranges, and ordinary text, that stay as they are. */
const KEPT = [' ', '~', '\u00a0', '\u00e9', '\u00ff', '\u061b', '\u061d', '\u200d', '\u2010', '\u2029', '\u202f', '\u2065',
  '\u206a', 'task-1/abc', '日本語', '\u{1f600}'];

test('safeLine writes every C0, DEL, C1 and bidi control as a visible escape, and nothing else', () => {
  for (const [ch, shown] of ESCAPED) {
    assert.equal(safeLine(`a${ch}b`), `a${shown}b`, JSON.stringify(ch));
    assert.equal(hasUnsafe(`a${ch}b`), true, JSON.stringify(ch));
  }
  for (const s of KEPT) {
    assert.equal(safeLine(s), s, JSON.stringify(s));
    assert.equal(hasUnsafe(s), false, JSON.stringify(s));
  }
  assert.equal(safeLine('\u001b]0;title\u0007\u001b[2J\r\nforged'), '\\x1b]0;title\\x07\\x1b[2J\\x0d\\x0aforged', 'every one in a line');
  assert.equal(safeLine(''), '');
});

test('hasUnsafe answers the same on every call (its global pattern keeps no position between calls)', () => {
  const s = 'ok \u001b[31m red';
  for (let i = 0; i < 4; i++) assert.equal(hasUnsafe(s), true, `call ${i}`);
  safeLine(s);
  assert.equal(hasUnsafe('x\u202e'), true);
  assert.equal(hasUnsafe('plain'), false);
});

test('safeJson escapes what JSON.stringify leaves raw (DEL, C1, bidi) as \\uXXXX and the JSON means the same', () => {
  const value = { id: 'a\u007fb\u0085c\u009f', name: '\u202etxt.exe\u2066\u2069\u061c\u200e\u200f', note: 'tab\there\u001b', fine: 'é ~ 日本' };
  const raw = JSON.stringify(value, null, 2);
  const safe = safeJson(raw);
  assert.deepEqual(JSON.parse(safe), value, 'same meaning');
  assert.equal(hasUnsafe(safe.replace(/\n/g, '')), false, 'no unsafe character left but the layout newlines');
  for (const esc of ['\\u007f', '\\u0085', '\\u009f', '\\u202e', '\\u2066', '\\u2069', '\\u061c', '\\u200e', '\\u200f'])
    assert.ok(safe.includes(esc), esc);
  assert.ok(safe.includes('\\t') && safe.includes('\\u001b'), 'JSON.stringify\'s own escapes kept');
  assert.equal(safe.split('\n').length, raw.split('\n').length, 'indentation and newlines kept');
  assert.ok(safe.includes('"fine": "é ~ 日本"'), 'ordinary text untouched');
  assert.equal(safeJson('{"a":1}'), '{"a":1}');
});

test('hasRawUnsafe: true exactly when safeJson would escape something', () => {
  for (const json of ['{"a":"plain"}', '{"a":"\u001b[2J"}', '{"a":"\u2028"}', '{"a":"\u009b"}', '{"a":"é ü"}', '', '"\u007f"']) {
    assert.equal(hasRawUnsafe(json), safeJson(json) !== json, JSON.stringify(json));
  }
  assert.equal(hasRawUnsafe('{"a":"ok"}'), false);
});
