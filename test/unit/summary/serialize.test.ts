// The summary serializer writes its text directly (no JSON.stringify of the whole task, no regex over it). Its
// oracle here is the plain recipe it replaces: keys put in layout order, JSON.stringify(…, null, 2), then every
// `"reward": <number>` line rewritten as Python writes floats. Both must give the same bytes for any document.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fc from 'fast-check';
import { pyFloat, serializeSummary, serializeSummaryBytes, serializeSummaryBytesAsync, serializeSummaryChunks } from '../../../src/core/summary/serialize';
import { REPEAT_KEYS, TOP_KEYS } from '../../../src/core/summary/layout';

// The documented orders of a task and of a repeat's input (docs/run-summary.md).
const TASK_KEYS_FOR_TEST = ['task_id', 'task_index', 'repeats'];
const INPUT_KEYS_FOR_TEST = ['digests', 'metadata'];
import type { RunSummaryDocument } from '../../../src/core/schemas/runSummary';
import { KeyPicker } from '../../../src/core/summary/scan';

/** Layout keys first in layout order, the others after them as they came (a stable sort by rank); undefined left out. */
function ordered(o: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const rank = (k: string) => { const i = keys.indexOf(k); return i < 0 ? keys.length : i; };
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined).sort((a, b) => rank(a[0]) - rank(b[0])));
}
const isObj = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

function oracleTask(t: unknown): string {
  let task: unknown = t;
  if (isObj(t)) {
    const o = ordered(t, TASK_KEYS_FOR_TEST);
    if (Array.isArray(o.repeats)) {
      o.repeats = o.repeats.map((r) => {
        if (!isObj(r)) return r;
        const rep = ordered(r, REPEAT_KEYS);
        if (isObj(rep.input)) rep.input = ordered(rep.input, INPUT_KEYS_FOR_TEST);
        return rep;
      });
    }
    task = o;
  }
  const text = `    ${JSON.stringify(task, null, 2).replace(/\n/g, '\n    ')}`;
  return text.replace(/^(\s*"reward": )(-?\d+(?:\.\d+)?(?:e[+-]\d+)?)(,?)$/gm, (_m, h: string, n: string, c: string) => `${h}${pyFloat(Number(n))}${c}`);
}

function oracle(doc: Record<string, unknown>): string {
  const top = ordered(doc, TOP_KEYS);
  const tasks = Array.isArray(top.tasks) ? top.tasks : [];
  delete top.tasks;
  const head = JSON.stringify(top, null, 2);
  const open = head === '{}' ? '{\n' : `${head.slice(0, -2)},\n`;
  if (!tasks.length) return `${open}  "tasks": []\n}\n`;
  return `${open}  "tasks": [\n${tasks.map(oracleTask).join(',\n')}\n  ]\n}\n`;
}

const value = fc.jsonValue({ maxDepth: 3 });
const keyed = (keys: string[]) => fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string({ maxLength: 4 })), value, { maxKeys: 6 });
const repeat = fc.record({
  repeat: fc.integer(), outcome: fc.constantFrom('scored', 'failed'), reward: fc.oneof(fc.double(), fc.integer(), fc.constant(null)),
  missing: fc.array(fc.string(), { maxLength: 2 }),
  input: fc.record({ metadata: fc.array(keyed(['reward', 'agent_timeout_sec']), { maxLength: 2 }), digests: keyed(['_ng_digest']), extra: value }, { requiredKeys: [] }),
  zzz: value, verifier_logs: fc.oneof(fc.string(), fc.constant(null)), failure_class: fc.constantFrom(undefined, 'x'),
}, { requiredKeys: ['repeat'] });
const task = fc.oneof(
  fc.record({ repeats: fc.array(fc.oneof(repeat, value), { maxLength: 3 }), task_index: fc.integer(), task_id: fc.string(), other: value }, { requiredKeys: [] }),
  value,
);

test('serializeSummary gives the same bytes as the JSON.stringify recipe, for any document', () => {
  fc.assert(fc.property(fc.record({ schema_version: fc.constant(1), taskset: fc.string(), tasks: fc.array(task, { maxLength: 4 }), extra: value }), (doc) => {
    const want = oracle(doc);
    assert.equal(serializeSummary(doc as unknown as RunSummaryDocument), want);
    assert.equal(new TextDecoder().decode(serializeSummaryBytes(doc as unknown as RunSummaryDocument)), want);
  }), { numRuns: 400 });
});

// Documents shaped as the writer makes them (only layout keys: the serializer writes these directly), with
// arbitrary values where the writer copies the rows' (metadata, digests) and odd ones where it does not.
const anyScalar = fc.oneof(fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.constant(undefined));
const writerRepeat = fc.record({
  repeat: fc.integer({ min: 0, max: 9 }), outcome: fc.constantFrom('scored', 'masked', 'failed', 'missing'),
  reward: fc.oneof(fc.double(), fc.integer(), fc.constant(null), fc.constant(-0)), mask_sample: fc.oneof(fc.boolean(), fc.constant(null)),
  failure_kind: fc.oneof(fc.string(), fc.constant(null)), failure_class: fc.constantFrom(undefined, 'x'), failure_terminal: fc.constantFrom(undefined, true),
  verifier_mode: anyScalar, verifier_logs: fc.oneof(fc.string(), fc.constant(null)), test_stdout: anyScalar, artifacts: value,
  missing: fc.array(fc.oneof(fc.string(), value), { maxLength: 3 }),
  input: fc.oneof(
    fc.record({ digests: fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string(), value), { maxKeys: 3 }),
      metadata: fc.array(keyed(['reward', 'agent_timeout_sec', '__proto__', '1']), { maxLength: 3 }) }, { requiredKeys: [] }),
    value),
}, { requiredKeys: ['repeat', 'outcome'] });
const writerTask = fc.record({ task_id: fc.oneof(fc.string(), fc.integer()), task_index: fc.oneof(fc.integer(), fc.constant(null)),
  repeats: fc.array(writerRepeat, { maxLength: 4 }) }, { requiredKeys: ['task_id', 'repeats'] });

test('serializeSummary gives the recipe\'s bytes for documents shaped as the writer makes them', () => {
  fc.assert(fc.property(fc.record({ schema_version: fc.constant(1), tasks: fc.array(writerTask, { maxLength: 10 }) }), (doc) => {
    assert.equal(serializeSummary(doc as unknown as RunSummaryDocument), oracle(doc));
  }), { numRuns: 500 });
});

test('serializeSummaryBytes: text beyond ASCII is UTF-8 (the ASCII pieces are copied byte for byte, the others encoded)', () => {
  const text = fc.string({ unit: 'binary', maxLength: 6 });
  const doc = fc.record({ schema_version: fc.constant(1), tasks: fc.array(fc.record({ task_id: text,
    repeats: fc.array(fc.record({ repeat: fc.nat(3), verifier_logs: text, input: fc.record({ metadata: fc.array(fc.dictionary(text, text, { maxKeys: 2 }), { maxLength: 2 }) }) }), { maxLength: 2 }) }), { maxLength: 12 }) });
  let beyond = 0;
  fc.assert(fc.property(doc, (d) => {
    const want = oracle(d);
    if (/[^\x00-\x7f]/.test(want)) beyond++;
    assert.deepEqual(Buffer.from(serializeSummaryBytes(d as unknown as RunSummaryDocument)), Buffer.from(want, 'utf8'));
  }), { numRuns: 300 });
  assert.ok(beyond > 0, 'some documents hold characters beyond ASCII');
});

test('serializeSummaryChunks: the same bytes in chunks of one reused buffer, a piece larger than it included', async () => {
  const digests = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`task-${i}`, 'é'.repeat(8)]));
  const doc = { schema_version: 1, dataset: { digests }, tasks: Array.from({ length: 30 }, (_, i) => ({ task_id: `t${i}`, task_index: i,
    repeats: [{ repeat: 0, outcome: 'scored', reward: i % 2, verifier_logs: `v/${i}`, missing: [], input: { digests: {}, metadata: [{ a: 'ü' }] } }] })) };
  const want = Buffer.from(serializeSummaryBytes(doc as unknown as RunSummaryDocument));
  const got: Buffer[] = [];
  const buffers = new Set<ArrayBufferLike>();
  for await (const c of serializeSummaryChunks(doc as unknown as RunSummaryDocument, undefined, undefined, 256)) {
    got.push(Buffer.from(c)); // a copy: the chunk's buffer is written over by the next one
    buffers.add(c.buffer);
  }
  assert.deepEqual(Buffer.concat(got), want);
  // The head, four pieces of eight tasks (each larger than 256 bytes: the buffer grows to hold one, then is reused).
  assert.equal(got.length, 5);
  assert.ok(buffers.size < got.length, `${buffers.size} buffers for ${got.length} chunks`);
});

test('serializeSummary keeps keys named like Object.prototype members (valueOf, constructor, __proto__)', () => {
  const task = JSON.parse('{"valueOf": null, "task_id": "t", "constructor": 1, "__proto__": {"x": 2}, "repeats": [{"toString": "s", "repeat": 0}]}') as Record<string, unknown>;
  const doc = { schema_version: 1, tasks: [task] } as unknown as RunSummaryDocument;
  const text = serializeSummary(doc);
  assert.equal(text, oracle(doc as unknown as Record<string, unknown>));
  assert.deepEqual(Object.keys((JSON.parse(text) as { tasks: Record<string, unknown>[] }).tasks[0]),
    ['task_id', 'repeats', 'valueOf', 'constructor', '__proto__']);
});

test('serializeSummary: rewards as Python floats at any depth of a task, other numbers as JSON writes them', () => {
  const doc = { schema_version: 1, tasks: [{ task_id: 't', repeats: [{ repeat: 0, reward: 1, input: { metadata: [{ reward: 0, n: 2 }], digests: {} } }] }] };
  const text = serializeSummary(doc as unknown as RunSummaryDocument);
  assert.match(text, /"reward": 1\.0,/);
  assert.match(text, /"reward": 0\.0,\n/);
  assert.match(text, /"n": 2\n/);
  assert.match(text, /"repeat": 0,/);
});

// Found by mutation testing (the recipe above calls pyFloat itself, so no test pinned its values): 1e-05 was written
// 0.00001 and 1e+16 as 10000000000000000, where Python writes the scientific form. Python's own repr, by hand.
test('pyFloat writes what Python\'s repr writes', () => {
  const python: [number, string][] = [
    [1, '1.0'], [0, '0.0'], [-2, '-2.0'], [0.25, '0.25'], [-0.5, '-0.5'], [0.1, '0.1'], [1 / 3, '0.3333333333333333'],
    [1e-7, '1e-07'], [1.5e-10, '1.5e-10'], [0.0001, '0.0001'], [0.00001, '1e-05'], [0.000015, '1.5e-05'], [-1e-5, '-1e-05'],
    [1e15, '1000000000000000.0'], [123456789.5, '123456789.5'], [1e16, '1e+16'], [1.2345678901234568e17, '1.2345678901234568e+17'],
    [1e21, '1e+21'], [1e22, '1e+22'], [1.5e300, '1.5e+300'], [5e-324, '5e-324'],
  ];
  assert.deepEqual(python.map(([x]) => pyFloat(x)), python.map(([, py]) => py));
  assert.equal(pyFloat(Infinity), 'null');
  assert.equal(pyFloat(NaN), 'null');
  const doc = { schema_version: 1, tasks: [{ task_id: 't', repeats: [{ repeat: 0, reward: 0.00001 }, { repeat: 1, reward: 1e16 }] }] };
  const text = serializeSummary(doc as unknown as RunSummaryDocument);
  assert.match(text, /"reward": 1e-05\n/);
  assert.match(text, /"reward": 1e\+16\n/);
  assert.deepEqual((JSON.parse(text) as typeof doc).tasks[0].repeats.map((r) => r.reward), [0.00001, 1e16]);
});

// The rewards are found with indexOf, not the recipe's multiline regex: text that looks like a reward line where it is
// not one (inside strings and keys, after a U+2028 or a CR, which end a line for that regex, before a non-number) must
// be left as the regex leaves it.
test('serializeSummary: only what the recipe\'s regex rewrites is rewritten, for strings and keys made of reward-like parts', () => {
  const part = fc.constantFrom('"reward": ', 'reward', '"', '\\', ': ', '1', '-2', '0.5', '1e-7', '1e+21', ',', ' ', '\n', '\r', '\u2028',
    '\u2029', '\u00a0', '\t', 'x', 'é', '{', '[');
  const tricky = fc.array(part, { maxLength: 8 }).map((a) => a.join(''));
  const num = fc.oneof(fc.double(), fc.integer(), fc.constantFrom(1e16, 1e21, 1e-5, 9999999999999998, -1234567890123456, 0.1));
  const meta = fc.dictionary(fc.oneof(tricky, fc.constantFrom('reward')), fc.oneof(tricky, num, fc.constant(null)), { maxKeys: 4 });
  const rep = fc.record({ repeat: fc.nat(3), reward: fc.oneof(num, tricky, fc.constant(null)), failure_reason: tricky,
    input: fc.record({ digests: meta, metadata: fc.array(meta, { maxLength: 2 }) }) }, { requiredKeys: ['repeat'] });
  const doc = fc.record({ schema_version: fc.constant(1), tasks: fc.array(fc.record({ task_id: tricky, repeats: fc.array(rep, { maxLength: 3 }) }), { maxLength: 9 }) });
  fc.assert(fc.property(doc, (d) => {
    assert.equal(serializeSummary(d as unknown as RunSummaryDocument), oracle(d));
  }), { numRuns: 500 });
});

test('serializeSummaryBytes: the same bytes when later tasks are far larger than the first (the buffer grows)', async () => {
  const task = (i: number, pad: number) => ({ task_id: `t${i}`, task_index: i, repeats: [{ repeat: 0, reward: 1, note: 'é😀'.repeat(pad) }] });
  // Pieces are 8 tasks: 8 small ones set the estimate, then pieces far larger than the room it left.
  const small = Array.from({ length: 8 }, (_, i) => task(i, 1));
  for (const tasks of [[...small, ...Array.from({ length: 8 }, (_, i) => task(8 + i, 3_500)), ...small],
    [...small, task(8, 200_000)], [task(0, 0), task(1, 200_000), task(2, 3)], []]) {
    const doc = { schema_version: 1, tasks } as unknown as RunSummaryDocument;
    const want = new TextEncoder().encode(serializeSummary(doc));
    assert.deepEqual(Buffer.from(serializeSummaryBytes(doc)), Buffer.from(want));
    assert.deepEqual(Buffer.from(await serializeSummaryBytesAsync(doc, 0)), Buffer.from(want));
  }
});

test('KeyPicker.pickRange reads only its range: a line whose string ends in the next line is an error', () => {
  const p = new KeyPicker(['k']);
  const buf = Buffer.from('{"k": "abc\n{"k": [1, "]"], "x": "\\""}\n');
  const nl = buf.indexOf(10);
  assert.throws(() => p.pickRange(buf, 0, nl), SyntaxError);
  assert.deepEqual(p.pickRange(buf, nl + 1, buf.length - 1), { k: [1, ']'] });
  assert.throws(() => p.pickRange(buf, nl + 1, buf.length - 3), SyntaxError);
});

test('serializeSummary: a repeat or input whose keys come out of the layout\'s order is written in that order', () => {
  const doc = { schema_version: 1, tasks: [{ task_id: 't', repeats: [
    { outcome: 'scored', repeat: 0, reward: 1 },
    { repeat: 1, outcome: 'scored', input: { metadata: {}, digests: {} } },
    { repeat: 2, reward: 0.5, outcome: 'scored' },
  ] }] };
  assert.equal(serializeSummary(doc as unknown as RunSummaryDocument), [
    '{', '  "schema_version": 1,', '  "tasks": [', '    {', '      "task_id": "t",', '      "repeats": [',
    '        {', '          "repeat": 0,', '          "outcome": "scored",', '          "reward": 1.0', '        },',
    '        {', '          "repeat": 1,', '          "outcome": "scored",', '          "input": {', '            "digests": {},', '            "metadata": {}', '          }', '        },',
    '        {', '          "repeat": 2,', '          "outcome": "scored",', '          "reward": 0.5', '        }',
    '      ]', '    }', '  ]', '}', '',
  ].join('\n'));
  assert.ok(REPEAT_KEYS.indexOf('repeat') < REPEAT_KEYS.indexOf('outcome') && REPEAT_KEYS.indexOf('outcome') < REPEAT_KEYS.indexOf('reward'));
});

test('serializeSummary: a document of tasks only, or with no tasks; the byte forms of one with no tasks', async () => {
  assert.equal(serializeSummary({ tasks: [] } as unknown as RunSummaryDocument), '{\n  "tasks": []\n}\n');
  const none = { schema_version: 1 } as unknown as RunSummaryDocument;
  const text = '{\n  "schema_version": 1,\n  "tasks": []\n}\n';
  assert.equal(serializeSummary(none), text);
  assert.equal(Buffer.from(serializeSummaryBytes(none)).toString(), text);
  assert.equal(Buffer.from(await serializeSummaryBytesAsync(none)).toString(), text);
  const chunks: Buffer[] = [];
  for await (const c of serializeSummaryChunks(none)) chunks.push(Buffer.from(c));
  assert.equal(Buffer.concat(chunks).toString(), text);
});

test('serializeSummary: a reward of 1e-7 as Python writes it; a key ending in "reward" after an escaped quote is not a reward', () => {
  const doc = { schema_version: 1, tasks: [{ task_id: 't', repeats: [{ repeat: 0, reward: 1e-7, input: { metadata: { 'x"reward': 1 } } }] }] };
  const text = serializeSummary(doc as unknown as RunSummaryDocument);
  assert.match(text, /\n {10}"reward": 1e-07,\n/);
  assert.match(text, /\n {14}"x\\"reward": 1\n/);
});

test('serializeSummaryBytesAsync and serializeSummaryChunks: a cancel ends them with the signal\'s reason at the next turn', async () => {
  const doc = { schema_version: 1, tasks: Array.from({ length: 200 }, (_, i) => ({ task_id: `t${i}`, repeats: [{ repeat: 0, reward: 1 }] })) };
  const reason = new Error('stopped by the user');
  const ctl = new AbortController();
  ctl.abort(reason);
  // A slice of 0 ms: a turn after every piece that took any time at all.
  await assert.rejects(serializeSummaryBytesAsync(doc as unknown as RunSummaryDocument, 0, ctl.signal), (e) => e === reason);
  await assert.rejects((async () => { for await (const c of serializeSummaryChunks(doc as unknown as RunSummaryDocument, 0, ctl.signal)) void c; })(),
    (e) => e === reason);
  // Not cancelled, or no signal at all: every byte.
  const whole = serializeSummary(doc as unknown as RunSummaryDocument);
  const chunks: Buffer[] = [];
  for await (const c of serializeSummaryChunks(doc as unknown as RunSummaryDocument, 0, undefined, 1024)) chunks.push(Buffer.from(c));
  assert.equal(Buffer.concat(chunks).toString(), whole);
  assert.equal(Buffer.from(await serializeSummaryBytesAsync(doc as unknown as RunSummaryDocument, 0)).toString(), whole);
  assert.equal(Buffer.from(await serializeSummaryBytesAsync(doc as unknown as RunSummaryDocument, 0, new AbortController().signal)).toString(), whole);
});
