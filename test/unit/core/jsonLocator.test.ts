// The JSON locator (core/jsonLocator.ts) answers as a full syntax tree does (jsonc-parser's parseTree and
// findNodeAtLocation, which it replaced because a 40 MB run summary's tree took seconds and hundreds of megabytes):
// random documents printed in several layouts, every path in them and paths that are not there.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import fc from 'fast-check';
import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { JsonLocator, lineSpan, lineStartsOf, lineColumnFast, type Span } from '../../../src/core/jsonLocator';

fc.configureGlobal({ seed: Number(process.env.FUZZ_SEED ?? 20261130) });

/** What the locator answered before: the whole tree, then the deepest existing node of the path. */
let last: { text: string; root: ReturnType<typeof parseTree> } | undefined;
function reference(text: string, jsonPath: (string | number)[]): Span | undefined {
  if (last?.text !== text) last = { text, root: parseTree(text, [], { allowTrailingComma: true, disallowComments: false }) };
  const root = last.root;
  if (!root) return undefined;
  const starts = lineStartsOf(text);
  const pos = (o: number) => { const { line, column } = lineColumnFast(starts, o); return { line: line - 1, character: column - 1 }; };
  for (let n = jsonPath.length; n >= 0; n--) {
    const node = findNodeAtLocation(root, jsonPath.slice(0, n));
    if (!node) continue;
    const s = pos(node.offset);
    const e = pos(node.offset + node.length);
    return { line: s.line, character: s.character, endLine: e.line, endCharacter: e.character };
  }
  return undefined;
}

function pathsOf(v: unknown, at: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  out.push(at);
  if (Array.isArray(v)) v.forEach((x, i) => pathsOf(x, [...at, i], out));
  else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) pathsOf(x, [...at, k], out);
  return out;
}

const key = fc.oneof(fc.string({ maxLength: 6 }), fc.constantFrom('a"b', 'back\\slash', 'é', '__proto__', 'tasks', '0'));
const doc = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' },
    fc.constantFrom(null, true, false, 0, -1.5, 1e21, 'text', 'with "quotes" and \\ and /* not a comment */', ''),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, tie('value'), { maxKeys: 4 })),
})).value;

test('the locator answers what the full syntax tree answered, for every path and for paths that are not there', () => {
  fc.assert(fc.property(doc, fc.constantFrom(0, 2, '\t'), fc.array(fc.oneof(key, fc.nat(5)), { maxLength: 3 }), (value, indent, extra) => {
    const text = JSON.stringify(value, null, indent);
    const loc = new JsonLocator(text);
    for (const p of [...pathsOf(value), ...pathsOf(value).map((p) => [...p, ...extra])]) {
      assert.deepEqual(loc.spanOf(p), reference(text, p), `${JSON.stringify(p)} in ${text}`);
    }
  }), { numRuns: 300 });
});

test('comments, trailing commas, a byte order mark, escaped and repeated keys, text that stops being JSON', () => {
  const texts = [
    '\ufeff{"a": 1}',
    '{\n  // a comment with "quotes" and {braces}\n  "a": [1, 2,], /* more */ "b": {"c": "}"},\n}',
    '{"k\\u0065y": {"x": true}, "key": 2}',
    '{"a": 1, "a": {"b": 2}}',
    '{"tasks": [{"repeats": [{"reward": 1}, {"reward": ',
    '[1, 2, [3, [4, {"deep": "x/y"}]]] trailing garbage',
    'not json at all',
    '',
    '   ',
    '"just a string"',
    '-12.5e3',
  ];
  const paths: (string | number)[][] = [[], ['a'], ['a', 1], ['b', 'c'], ['key'], ['key', 'x'], ['a', 'b'], ['tasks', 0, 'repeats', 1, 'reward'],
    ['tasks', 0, 'repeats', 0, 'reward'], [2, 1, 1, 'deep'], [0], [9], ['x']];
  for (const text of texts) {
    const loc = new JsonLocator(text);
    for (const p of paths) assert.deepEqual(loc.spanOf(p), reference(text, p), `${JSON.stringify(p)} in ${JSON.stringify(text)}`);
  }
});

test('a large document is answered without indexing what no path goes through', () => {
  const tasks = Array.from({ length: 2000 }, (_, i) => ({ task_id: `t${i}`, repeats: Array.from({ length: 8 }, (_, r) => ({ repeat: r, reward: r % 2, verifier_logs: `verifier/t${i}/${r}` })) }));
  const text = JSON.stringify({ files: {}, tasks }, null, 2);
  const loc = new JsonLocator(text);
  for (const [t, r] of [[0, 0], [1999, 7], [1000, 3]]) {
    assert.deepEqual(loc.spanOf(['tasks', t, 'repeats', r, 'verifier_logs']), reference(text, ['tasks', t, 'repeats', r, 'verifier_logs']));
  }
  const indexed = (loc as unknown as { containers: Map<number, unknown> }).containers.size;
  assert.ok(indexed <= 1 + 1 + 3 * 3, `indexed ${indexed} containers: the top object, tasks, and each path's task, repeats and repeat`);
});

test('a key before a large value is found without reading past it; a later key, a missing one and a repeated one still answer', () => {
  const tasks = Array.from({ length: 2000 }, (_, i) => ({ task_id: `t${i}`, note: 'a "quoted" \\ back\\slash\\' }));
  const text = `{"missing_paths": ["a", "b"], "tasks": ${JSON.stringify(tasks, null, 2)}, "after": 1, "missing_paths": [], "end": {"x": [1, 2]}}`;
  const loc = new JsonLocator(text);
  const read = () => [...(loc as unknown as { containers: Map<number, { next: number }> }).containers.values()][0].next;
  assert.deepEqual(loc.spanOf(['missing_paths', 1]), reference(text, ['missing_paths', 1]));
  assert.ok(read() > 0 && read() < text.indexOf('"tasks"'), `the top object read to ${read()}, before its tasks at ${text.indexOf('"tasks"')}`);
  for (const p of [['after'], ['missing_paths', 0], ['nowhere', 3], ['end', 'x', 1], ['tasks', 1999, 'note'], ['tasks', 'k'], ['end', 0]]) {
    assert.deepEqual(loc.spanOf(p), reference(text, p), JSON.stringify(p));
  }
  assert.equal(read(), -1, 'read to its end once a key that is not there was asked for');
});

test('line starts: 0 and the offset after every newline, for any text (empty, leading, trailing, doubled, CRLF)', () => {
  const naive = (t: string) => {
    const out = [0];
    for (let i = 0; i < t.length; i++) if (t.charCodeAt(i) === 10) out.push(i + 1);
    return out;
  };
  const text = fc.array(fc.constantFrom('a', '\n', '\r\n', '{', ' ', 'é'), { maxLength: 60 }).map((xs) => xs.join(''));
  fc.assert(fc.property(text, (t) => {
    assert.deepEqual([...lineStartsOf(t)], naive(t));
  }), { numRuns: 300 });
  for (const t of ['', '\n', 'a\n', '\na', '\n\n', 'a\r\nb']) assert.deepEqual([...lineStartsOf(t)], naive(t), JSON.stringify(t));
});

test('lineSpan: a problem without file content spans its line from its column on, or sits at the file\'s start', () => {
  const p = { file: '/f', severity: 'error' as const, code: 'c', message: 'm' };
  assert.deepEqual(lineSpan({ ...p, line: 3, column: 5 }), { line: 2, character: 4, endLine: 2, endCharacter: 10004 });
  assert.deepEqual(lineSpan({ ...p, line: 1, column: 1 }), { line: 0, character: 0, endLine: 0, endCharacter: 10000 });
  assert.deepEqual(lineSpan({ ...p, line: 3 }), { line: 2, character: 0, endLine: 2, endCharacter: 10000 });
  assert.deepEqual(lineSpan({ ...p, line: 3, column: 0 }), { line: 2, character: 0, endLine: 2, endCharacter: 10000 });
  assert.deepEqual(lineSpan({ ...p, line: 3, column: -2 }), { line: 2, character: 0, endLine: 2, endCharacter: 10000 });
  assert.deepEqual(lineSpan(p), { line: 0, character: 0, endLine: 0, endCharacter: 0 });
  assert.deepEqual(lineSpan({ ...p, line: 0, column: 4 }), { line: 0, character: 0, endLine: 0, endCharacter: 0 });
  assert.deepEqual(lineSpan({ ...p, line: -1 }), { line: 0, character: 0, endLine: 0, endCharacter: 0 });
});

test('lineColumnFast: the 1-based line and column of any offset, as counting newlines from the start gives', () => {
  const naive = (t: string, o: number) => {
    let line = 1;
    let col = 1;
    for (let i = 0; i < o; i++) if (t.charCodeAt(i) === 10) { line++; col = 1; } else col++;
    return { line, column: col };
  };
  const text = fc.array(fc.constantFrom('a', '\n', '\r\n', '{', ' ', 'é', '\n\n'), { maxLength: 40 }).map((xs) => xs.join(''));
  fc.assert(fc.property(text, (t) => {
    const starts = lineStartsOf(t);
    for (let o = 0; o <= t.length; o++) assert.deepEqual(lineColumnFast(starts, o), naive(t, o), `${o} in ${JSON.stringify(t)}`);
  }), { numRuns: 200 });
  assert.deepEqual(lineColumnFast([0, 3, 7], 7), { line: 3, column: 1 });
  assert.deepEqual(lineColumnFast([0, 3, 7], 6), { line: 2, column: 4 });
  assert.deepEqual(lineColumnFast([0], 5), { line: 1, column: 6 });
});

test('line endings, comments at the end, strings ending in backslashes, escaped keys, number forms: as the full tree answers', () => {
  const texts = [
    '{\r\n  "a": 1,\r\n  "b": [true,\r\n false]\r\n}\r\n',
    '{"a": [1, // to the end\n 2], "b": 3 // no newline after',
    '{"a": [1, /* never closed',
    '[1,\n// c\n2]',
    '[1, /* a *//* b */ 2]',
    '{"a": /* c */ [ /* d */ 1 /* e */, 2 ] /* f */, "b": {"x": /**/ 3}}',
    '{"s": "a\\\\", "t": "b\\"c", "u": "\\\\\\"", "v": 1}',
    '{"\\x": 1, "y": 2}',
    '{"k\\"q": {"z": [1, 2]}, "n": null}',
    '[1.5e+3, -0, 2E-2, 10, -7.25, true, false, null, "x"]',
    '{1: 2}',
    '[{"a": [1, 2]}, {"a": [3, {"b": "]"}]}]',
    '{"a": {"b": {"c": [[], {}, [[1]]]}}, "d": "/* not a comment */"}',
    '  \t\r\n  [ 1 , 2 ]  ',
    'true',
    'nul',
    '-',
    '[',
    '{"a": [1, 2',
  ];
  const paths: (string | number)[][] = [[], ['a'], ['a', 0], ['a', 1], ['b'], ['b', 1], ['b', 'x'], ['s'], ['t'], ['u'], ['v'], ['y'],
    ['k"q', 'z', 1], ['n'], [0], [1], [4], [8], [9], [1, 'a', 1, 'b'], ['a', 'b', 'c', 2, 0, 0], ['d'], [0, 'a']];
  for (const text of texts) {
    const loc = new JsonLocator(text);
    for (const p of paths) assert.deepEqual(loc.spanOf(p), reference(text, p), `${JSON.stringify(p)} in ${JSON.stringify(text)}`);
  }
  // A key whose escape JSON does not know is matched as written (the full tree dropped it).
  assert.deepEqual(new JsonLocator('{"\\x": 1, "y": 2}').spanOf(['\\x']), { line: 0, character: 7, endLine: 0, endCharacter: 8 });
});

test('where the text stops being JSON the answer stops there; an unterminated string runs to the end; "length" is no index', () => {
  const span = (text: string, p: (string | number)[]) => new JsonLocator(text).spanOf(p);
  const row = (character: number, endCharacter: number, line = 0) => ({ line, character, endLine: line, endCharacter });
  assert.deepEqual(span('{"a": "unterminated', ['a']), row(6, 19));
  assert.deepEqual(span('{"a": "unterminated', ['b']), row(0, 19));
  assert.deepEqual(span('["x', [0]), row(1, 3));
  // A bracket inside a comment inside a value that is skipped over does not end it.
  assert.deepEqual(span('{"a": [1, /* ] */ 2], "b": 3}', ['b']), row(27, 28));
  assert.deepEqual(span('{"a": [1, // ]\n 2], "b": 3}', ['b']), row(10, 11, 1));
  assert.deepEqual(span('{"a": [1 / 2], "b": 3}', ['b']), row(20, 21), 'a stray slash inside a skipped value');
  assert.deepEqual(span('{"a": [1,/* ] */ 2], "b": 3}', ['b']), row(26, 27), 'a comment right after a comma, no space before it');
  assert.deepEqual(span('{"a": {"x":/* } */ 1}, "b": 3}', ['b']), row(28, 29), 'right after a colon');
  // Python's words for floats that are not finite are values like any number (pythonFloats.ts).
  assert.deepEqual(span('{"a": Infinity, "b": 2}', ['b']), row(21, 22));
  assert.deepEqual(span('{"a": -Infinity, "n": NaN, "b": 2}', ['b']), row(32, 33));
  assert.deepEqual(span('{"a": [Infinity, 1], "b": 2}', ['a', 1]), row(17, 18));
  // Not JSON: a word that only starts or ends like a literal or number, a key without a colon, a key that is no string.
  assert.deepEqual(span('{"a": truex, "b": 2}', ['b']), row(0, 20));
  assert.deepEqual(span('{"a": x1, "b": 2}', ['b']), row(0, 17));
  assert.deepEqual(span('{"a" 1, "b": 2}', ['b']), row(0, 15));
  assert.deepEqual(span('{1: 2, "b": 3}', ['b']), row(0, 14));
  assert.deepEqual(span('{x": 1, "b": 2}', ['b']), row(0, 15));
  assert.deepEqual(span('{"a" x1, "b": 2}', ['b']), row(0, 16));
  assert.deepEqual(span('[1, 2]', ['length']), row(0, 6));
  assert.deepEqual(span('{"a": [1, 2]}', ['a', 'length']), row(6, 12));
});
