// The streaming scanner (core/trajectory/scan.ts) driven directly: documents fed in chunks of 1, 2, 3, 5, 64 bytes and
// whole, into a buffer whose bytes past what was read are junk (as a file read in chunks is), must give the keys,
// steps and step spans that JSON.parse gives, in file order; anything it must not follow (not an object, not JSON,
// a repeated steps list, junk after the object) must answer `fallback` so the loader parses the text whole.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { Buffer } from 'node:buffer';
import { streamObject, type ByteSource, type Span } from '../../../src/core/trajectory/scan';

/** The bytes of `text`, `chunk` at a time, into a buffer of the whole size whose unread bytes are `junk`. */
function source(bytes: Buffer, chunk: number, junk = 0x7d): ByteSource {
  const src: ByteSource = { buf: Buffer.alloc(bytes.length, junk), avail: 0, eof: bytes.length === 0, more: async () => {
    if (src.eof) return;
    const n = Math.min(chunk, bytes.length - src.avail);
    bytes.copy(src.buf, src.avail, src.avail, src.avail + n);
    src.avail += n;
    if (src.avail >= bytes.length) { src.eof = true; src.buf = src.buf.subarray(0, src.avail); }
  } };
  return src;
}

interface Seen { result: unknown; events: string[]; keys: [string, unknown][]; steps: unknown[]; spans: Span[] }

async function scan(text: string | Buffer, chunk: number, junk?: number): Promise<Seen> {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const src = source(bytes, chunk, junk);
  const seen: Seen = { result: null, events: [], keys: [], steps: [], spans: [] };
  seen.result = await streamObject(src, {
    onKey: (k, v) => { seen.events.push(`key ${k}`); seen.keys.push([k, v]); },
    onStepsStart: () => { seen.events.push('steps'); },
    onStep: async (raw, i, span) => {
      seen.events.push(`step ${i}`);
      assert.equal(i, seen.steps.length);
      seen.steps.push(raw); seen.spans.push(span);
      await Promise.resolve();
    },
  });
  return seen;
}

const CHUNKS = [1, 2, 3, 5, 64, 1 << 20];

/** Valid documents the scan follows: keys (all but the steps list) and steps as JSON.parse reads them. */
const FOLLOWED: string[] = [
  '{}',
  ' \t\r\n{ }\n',
  '{"a":1}',
  '{"steps":[]}',
  '{"steps":[ ]}',
  '{ "steps" : [ {"x":1} , 2 ,"s", [3,[4]], null, true, -1.5e3 ] }',
  '{"a":{"steps":[1]},"steps":[{"b":"}"}],"c":[1,{"d":"]"}]}',
  '{"a":"x\\"y","b":"\\\\","c":"\\\\\\"","d":"a\\\\\\\\"}',
  '{"\\"k":"v","k\\\\":["[",{"}":"{"}]}',
  '{"steps":[{"t":"Grüße, 日本語, 🚀"}],"z":"é"}',
  '{"num":12345,"neg":-0,"f":false,"n":null,"t":true}',
  '{"steps":5,"a":[]}',
  '{"steps":{"0":1}}',
  '{"x":{"y":{"z":[[[]]]}},"steps":[{"deep":{"a":[{"b":{}}]}}]}',
  '{"s":"tab\\tnew\\nline \\u0041"  ,  "steps"  :  [  1  ]  }  ',
];

test('documents the scan follows give the keys and steps JSON.parse gives, in any chunk size', async () => {
  for (const text of FOLLOWED) {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const keys = Object.entries(parsed).filter(([k, v]) => !(k === 'steps' && Array.isArray(v)));
    const steps = Array.isArray(parsed.steps) ? parsed.steps : null;
    for (const chunk of CHUNKS) {
      for (const junk of [0x7d, 0x22, 0x5d, 0x20]) {
        const s = await scan(text, chunk, junk);
        const what = `${text} in chunks of ${chunk}, junk ${junk}`;
        assert.deepEqual(s.keys, keys, what);
        assert.deepEqual(s.steps, steps ?? [], what);
        assert.deepEqual(s.result, { ok: true, steps: steps ? s.spans : null }, what);
        const buf = Buffer.from(text);
        assert.deepEqual(s.spans.map((sp) => JSON.parse(buf.toString('utf8', sp.start, sp.end))), steps ?? [], what);
      }
    }
  }
});

test('events come in file order: keys before the steps, the steps start, each step, keys after', async () => {
  const text = '{"a":1,"steps":[{"x":1},2],"b":[3]}';
  for (const chunk of CHUNKS) {
    const s = await scan(text, chunk);
    assert.deepEqual(s.events, ['key a', 'steps', 'step 0', 'step 1', 'key b']);
    assert.deepEqual(s.spans, [{ start: 16, end: 23 }, { start: 24, end: 25 }]);
  }
  const e = await scan('{"steps":[],"a":1}', 1);
  assert.deepEqual(e.events, ['steps', 'key a']);
  assert.deepEqual(e.result, { ok: true, steps: [] });
});

test('a byte order mark is skipped; step spans count its three bytes', async () => {
  const text = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"steps":[7, 8]}')]);
  for (const chunk of CHUNKS) {
    const s = await scan(text, chunk);
    assert.deepEqual(s.steps, [7, 8]);
    assert.deepEqual(s.spans, [{ start: 13, end: 14 }, { start: 16, end: 17 }]);
    assert.deepEqual(s.result, { ok: true, steps: s.spans });
  }
  // Only the whole mark is one: a lone 0xEF, or the mark's bytes out of place, is not JSON.
  for (const bytes of [[0xef, 0x7b, 0x7d], [0xef, 0xbb, 0x7b, 0x7d], [0xbb, 0xbf, 0x7b, 0x7d], [0x7b, 0xef, 0xbb, 0xbf, 0x7d],
    [0x20, 0x20, 0xbf, 0x7b, 0x7d], [0xef, 0x20, 0x20, 0x7b, 0x7d], [0x20, 0xbb, 0xbf, 0x7b, 0x7d], [0xef, 0x20, 0xbf, 0x7b, 0x7d], [0xef, 0xbb, 0x20, 0x7b, 0x7d]]) {
    for (const chunk of [1, 64]) assert.deepEqual((await scan(Buffer.from(bytes), chunk)).result, { ok: false, fallback: true }, `${bytes} / ${chunk}`);
  }
});

/** Not objects, not JSON, or not what the scan follows: the loader parses these whole. */
const FALLBACK: string[] = [
  '', '   ', '[1]', '"x"', '5', 'null', '{', '{ ', '{"a"', '{"a":', '{"a":1', '{"a":1,', '{"a":1,}', '{"a" 1}', '{a:1}', '{"a":1}}',
  '{"a":1} x', '{"a":1}{}', '{"a":1 "b":2}', '{"a":tru}', '{"a":[1,2}', '{"a":"x\\"}', '{"a":"x', '{"a":{"b":1}', '{"a":}', '{"a",1}',
  '{"steps":[1,]}', '{"steps":[1 2]}', '{"steps":[1', '{"steps":[1,', '{"steps":[', '{"steps":[{"a":1}', '{"steps":[1]]}', '{"steps":[1]"a":1}',
  '{"steps":[1],"steps":[2]}', '{"steps":[1],"steps":5}', '{"steps":[nul]}', '{"steps":[{"a":}]}', '{"steps":[1]} ]', '{1:2}', '{"a":1,,"b":2}',
  '{"a":-}', '{"a":1.}', '{"a":"\\x"}', '{"a":01}',
  // Each needs its own check: the opening brace, a key that does not parse, the commas between steps and between keys.
  '["a":1}', '{"\\x":1}', '{"steps":[1 x2]}', '{"a":1 x"b":2}',
];

test('what the scan must not follow answers fallback, in any chunk size', async () => {
  for (const text of FALLBACK) {
    for (const chunk of CHUNKS) {
      for (const junk of [0x7d, 0x22, 0x5d]) {
        const s = await scan(text, chunk, junk);
        assert.deepEqual(s.result, { ok: false, fallback: true }, `${JSON.stringify(text)} in chunks of ${chunk}, junk ${junk}`);
      }
    }
  }
});

test('a steps list that is not an array, seen before a real one, is a key; the real one still streams', async () => {
  for (const chunk of [1, 64]) {
    const s = await scan('{"steps":5,"steps":[1]}', chunk);
    assert.deepEqual(s.keys, [['steps', 5]]);
    assert.deepEqual(s.steps, [1]);
    assert.deepEqual(s.result, { ok: true, steps: [{ start: 20, end: 21 }] });
  }
});

test('a value at the very end of what was read waits for more: a number cut by a chunk is never read short', async () => {
  for (const chunk of [1, 2, 3, 4, 5, 6, 7]) {
    const s = await scan('{"a":123456,"steps":[7890123,true],"b":false}', chunk, 0x20);
    assert.deepEqual(s.keys, [['a', 123456], ['b', false]], `chunk ${chunk}`);
    assert.deepEqual(s.steps, [7890123, true], `chunk ${chunk}`);
  }
});
