// Bidi controls from a run's text, as the webviews show it (src/views/bidi.ts): each embedding, override, isolate and
// mark becomes its visible escape, so "\u202e" cannot reorder what a trajectory or a table displays; everything else
// (other scripts, right-to-left letters, controls that do not reorder) is left as written.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { showBidi } from '../../../src/views/bidi';

test('every bidi control is shown as its escape; the text around it is kept', () => {
  const controls = [0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069];
  for (const c of controls) {
    const ch = String.fromCharCode(c);
    assert.equal(showBidi(`a${ch}b${ch}`), `a\\u${c.toString(16).padStart(4, '0')}b\\u${c.toString(16).padStart(4, '0')}`);
  }
  assert.equal(showBidi('run report\u202etxt.exe\u202c now'), 'run report\\u202etxt.exe\\u202c now');
  assert.equal(showBidi('rm -rf \u2067/ \u2069# safe'), 'rm -rf \\u2067/ \\u2069# safe');
});

test('text without bidi controls is returned as it is (right-to-left letters, emoji, tabs, newlines, other controls)', () => {
  for (const s of ['', 'plain', 'שלום עולם', 'مرحبا', 'tab\there\nnew line', '\u001b[31mred\u001b[0m', 'zero\u200bwidth', '😀 \ud800']) {
    assert.equal(showBidi(s), s);
  }
  const big = 'x'.repeat(1 << 20);
  assert.equal(showBidi(big), big);
});
